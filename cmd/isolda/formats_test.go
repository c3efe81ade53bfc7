package main

import (
	"strings"
	"testing"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/rdfio"
)

func TestFormatsTable(t *testing.T) {
	code, out, errs := runCLI(t, "", "formats")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	t.Logf("isolda formats:\n%s", out)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "NAME ") || !strings.Contains(lines[0], "LOSSLESS") {
		t.Errorf("header %q", lines[0])
	}
	if got, want := len(lines)-1, len(formats.All()); got != want {
		t.Errorf("%d rows, want %d", got, want)
	}
	for _, want := range []string{
		"b-ttl-ids ", "yes", "isolda-0.1 ", "rdf_turtle3 ", "labelled graph",
		"RDF dataset", "typed_edges_dict ", "mermaid ", "semantic web",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q", want)
		}
	}
	code, out, _ = runCLI(t, "", "formats", "--long")
	if code != 0 || !strings.Contains(out, "no: loses node ids") {
		t.Errorf("--long lacks what rdf_turtle3 loses: exit %d", code)
	}
	code, out, _ = runCLI(t, "", "formats", "--family", "diagram")
	if code != 0 || !strings.Contains(out, "mermaid") || strings.Contains(out, "b-json") {
		t.Errorf("--family diagram: exit %d\n%s", code, out)
	}
	if code, _, _ := runCLI(t, "", "formats", "--family", "nope"); code != exitBadInput {
		t.Errorf("unknown family: exit %d, want %d", code, exitBadInput)
	}
}

func TestConvertToRegistryFormats(t *testing.T) {
	p := writeFile(t, "in.ttl", demoTurtle)
	for _, name := range []string{"b-ttl-ids", "b-json", "isolda", "toon", "mermaid", "list_of_edges", "pretty_json"} {
		code, out, errs := runCLI(t, "", "convert", p, "-t", name)
		if code != 0 || out == "" {
			t.Errorf("-t %s: exit %d, stderr %s", name, code, errs)
		}
	}
	// The label of the linked entity ex:b ("Bee") ends the line of the link.
	q := writeFile(t, "l.ttl", "@prefix ex: <http://example.org/> .\n"+
		"ex:a ex:knows ex:b .\nex:b <http://www.w3.org/2000/01/rdf-schema#label> \"Bee\" .\n")
	_, out, _ := runCLI(t, "", "convert", q, "-t", "b-ttl-ids")
	if !strings.Contains(out, ":a :knows :b .  # Bee\n") {
		t.Errorf("b-ttl-ids lacks the label comment:\n%s", out)
	}
	if code, _, _ := runCLI(t, "", "convert", p, "-t", "no-such-format"); code != exitBadInput {
		t.Errorf("unknown -t: exit %d", code)
	}
}

// convert -f NAME -t nquads decodes every lossless RDF format back to the
// same dataset.
func TestConvertDecodeRoundTrip(t *testing.T) {
	p := writeFile(t, "in.ttl", demoTurtle)
	want := rdftest.ReadFile(t, p, rdfio.Options{})
	for _, f := range formats.All() {
		if f.Decode == nil {
			continue
		}
		code, text, errs := runCLI(t, "", "convert", p, "-t", f.Name)
		if code != 0 {
			t.Fatalf("-t %s: exit %d: %s", f.Name, code, errs)
		}
		code, nq, errs := runCLI(t, text, "convert", "-", "-f", f.Name, "-t", "nquads")
		if code != 0 {
			t.Fatalf("-f %s: exit %d: %s", f.Name, code, errs)
		}
		got := rdftest.Read(t, nq, rdfio.Options{Format: rdfio.NQuads})
		if iso, err := canon.Isomorphic(want, got); err != nil || !iso {
			t.Errorf("-f %s -t nquads: not the input (%v)\n%s", f.Name, err, nq)
		}
	}
}

func TestConvertDecodeErrors(t *testing.T) {
	// A lossy format cannot be read.
	if code, _, errs := runCLI(t, "x", "convert", "-", "-f", "mermaid", "-t", "nquads"); code != exitBadInput || !strings.Contains(errs, "mermaid is lossy") {
		t.Errorf("-f mermaid: exit %d, %s", code, errs)
	}
	// Malformed input is bad input, with a position.
	code, _, errs := runCLI(t, "{\"@context\": ", "convert", "-", "-f", "b-json", "-t", "nquads")
	if code != exitBadInput {
		t.Errorf("malformed b-json: exit %d, %s", code, errs)
	}
	// A labelled-graph format converts to graph formats, not to RDF.
	p := writeFile(t, "in.ttl", demoTurtle)
	_, pj, _ := runCLI(t, "", "convert", p, "-t", "pretty_json")
	if code, out, errs := runCLI(t, pj, "convert", "-", "-f", "pretty_json", "-t", "typed_edges"); code != 0 || !strings.HasPrefix(out, "#graph-v1\n") {
		t.Errorf("pretty_json -> typed_edges: exit %d %s\n%s", code, errs, out)
	}
	if code, _, errs := runCLI(t, pj, "convert", "-", "-f", "pretty_json", "-t", "nquads"); code != exitBadInput {
		t.Errorf("pretty_json -> nquads: exit %d %s", code, errs)
	}
}
