package isolda

import (
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf/canon"
)

// listing1Graph has the constructs of the ISOLDA paper's development graph
// that Listing 1 (§3.1) shows: occupations and organization roles without
// IRIs (blank nodes, so their tables have no @iri column), a role without a
// label (slug ids, first column id), an empty cell, lists, links by name, a
// quoted value ("Barcelona, Spain") in ~extra, articles whose author and
// language are header constants, a typed value, a declared prefix and
// @types.
const listing1Graph = `@prefix schema: <http://schema.org/> .
@prefix xaviviro: <https://xaviviro.com/#> .
xaviviro:person a schema:Person ; schema:name "Xavier Vinaixa Roselló" ;
  schema:hasOccupation _:o1, _:o2, _:o3 ; schema:memberOf _:r1, _:r2, _:r3 .
_:o1 a schema:Occupation ; schema:name "Science Communicator" .
_:o2 a schema:Occupation ; schema:name "Chief Technology Officer" ;
  schema:skills "Artificial Intelligence", "Computer Vision", "Machine Learning", "Natural Language Processing", "Software Engineering" ;
  schema:occupationLocation _:bcn ; schema:occupationalCategory "15-1252.00" .
_:o3 a schema:Occupation ; schema:name "AI Researcher" ;
  schema:skills "Fine-tuning", "Large Language Models", "LoRA", "Sign Language Technology", "Speech Synthesis" .
_:bcn a schema:Place ; schema:name "Barcelona, Spain" .
_:r1 a schema:OrganizationRole ; schema:roleName "Technical Lead" .
_:r2 a schema:OrganizationRole ; schema:roleName "President" ; schema:memberOf xaviviro:abat .
_:r3 a schema:OrganizationRole ; schema:roleName "President" ; schema:memberOf xaviviro:opendata .
xaviviro:abat a schema:Organization ; schema:name "ABAT — Associació de Birra Artesana de Tiana" .
xaviviro:opendata a schema:Organization ; schema:name "Opendata.cat — Associació pel foment de les dades obertes" .
_:a1 a schema:Article ; schema:headline "Dades obertes" ; schema:image "https://xaviviro.com/a1.png" ;
  schema:url "https://xaviviro.com/a1" ; schema:author xaviviro:person ; schema:inLanguage "ca" .
_:a2 a schema:Article ; schema:headline "Llengua de signes" ; schema:image "https://xaviviro.com/a2.png" ;
  schema:url "https://xaviviro.com/a2" ; schema:author xaviviro:person ; schema:inLanguage "ca" .
_:s1 a schema:ScholarlyArticle ; schema:headline "Sign language synthesis" ; schema:copyrightYear 2024 .
`

// listing1 returns the lines of the paper's Listing 1 that start with
// prefix, and the glossary: the run of # lines from the first line of the
// 0.2 glossary.
func listing1(t *testing.T) (glossary []string, text string) {
	t.Helper()
	b := shared.ReadFile(t, "spec", "000_5b794db7d2076244.txt")
	text = string(b)
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "# ISOLDA 0.2: ") {
			for _, g := range lines[i:] {
				if !strings.HasPrefix(g, "# ") {
					break
				}
				glossary = append(glossary, g)
			}
			break
		}
	}
	if len(glossary) != 11 {
		t.Fatalf("Listing 1 of the paper: %d glossary lines, want 11", len(glossary))
	}
	return glossary, text
}

// TestListing1 encodes a graph with the development graph's constructs and
// requires the glossary of the paper's Listing 1 byte for byte in 0.2, and
// in 0.1 except its first line (§3.6); the lines of Listing 1's excerpt
// that this graph shares (directives, the Occupation and OrganizationRole
// tables, the ~extra block) must come out as printed.
func TestListing1(t *testing.T) {
	paper, text := listing1(t)
	d := readTurtle(t, listing1Graph, "http://example.org/base/")
	for _, v := range []string{V02, V01} {
		got := encodeString(t, d, Options{Version: v})
		want := append([]string{}, paper...)
		if v == V01 {
			want[0] = head01
		}
		gloss := strings.SplitAfter(got, "\n")[:len(want)]
		for i := range want {
			if g := strings.TrimSuffix(gloss[i], "\n"); g != want[i] {
				t.Errorf("%s: glossary line %d is\n  %s\nwant (Listing 1)\n  %s", v, i+1, g, want[i])
			}
		}
		if l := strings.SplitAfter(got, "\n")[len(want)]; l != "\n" {
			t.Errorf("%s: glossary has more than %d lines: %q", v, len(want), l)
		}
		for _, line := range []string{
			"@vocab http://schema.org/",
			"@prefix xaviviro: https://xaviviro.com/#",
			"Occupation[3]{name, skills}:",
			"  Science Communicator,",
			"  Chief Technology Officer, [5] Artificial Intelligence | Computer Vision | Machine Learning | Natural Language Processing | Software Engineering",
			"  AI Researcher, [5] Fine-tuning | Large Language Models | LoRA | Sign Language Technology | Speech Synthesis",
			"OrganizationRole[3]{id, roleName, memberOf>}:",
			"  organization-role-1, Technical Lead,",
			"  organization-role-2, President, ABAT — Associació de Birra Artesana de Tiana",
			"  organization-role-3, President, Opendata.cat — Associació pel foment de les dades obertes",
			"~extra:",
			"  Chief Technology Officer:",
			"    occupationLocation> \"Barcelona, Spain\"",
			"    occupationalCategory: 15-1252.00",
		} {
			if !strings.Contains(text, "\n"+line+"\n") {
				t.Fatalf("the paper's Listing 1 has no line %q", line)
			}
			if !strings.Contains(got, "\n"+line+"\n") {
				t.Errorf("%s: no line %q (Listing 1) in\n%s", v, line, got)
			}
		}
		back, err := Decode(strings.NewReader(got))
		if err != nil {
			t.Fatal(err)
		}
		if iso, err := canon.Isomorphic(d, back); err != nil || !iso {
			t.Errorf("%s: round trip not isomorphic (%v)", v, err)
		}
	}
}

// TestAliasWithoutLimit: the paper's §3.6 item 3 declares an alias whenever
// the graph holds a property's label, with no length limit, so 0.2 names
// Wikidata's P131 by its 43-byte label; 0.3 keeps isolda's 40-byte limit.
func TestAliasWithoutLimit(t *testing.T) {
	d := readTurtle(t, `@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
wd:P131 rdfs:label "located in the administrative territorial entity"@en .
wd:Q1 rdfs:label "Manresa"@ca ; wdt:P131 wd:Q2 .
wd:Q2 rdfs:label "Bages"@ca ; wdt:P131 wd:Q3 .
wd:Q3 rdfs:label "Barcelona"@ca .
`, "http://example.org/")
	const decl = "@term locatedInTheAdministrativeTerritorialEntity = <http://www.wikidata.org/prop/direct/P131>\n"
	for _, c := range []struct {
		version string
		want    bool
	}{{V02, true}, {V03, false}} {
		got := encodeString(t, d, Options{Version: c.version})
		if strings.Contains(got, decl) != c.want {
			t.Errorf("%s: alias declared %v, want %v:\n%s", c.version, !c.want, c.want, got)
		}
		back, err := Decode(strings.NewReader(got))
		if err != nil {
			t.Fatal(err)
		}
		if iso, err := canon.Isomorphic(d, back); err != nil || !iso {
			t.Errorf("%s: round trip not isomorphic (%v)", c.version, err)
		}
	}
}
