// Glossary and directives of a document: the # lines that explain the
// constructs the body uses, @vocab, @prefix, @term and @types.

package isolda

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/isolda/isolda/isolda/internal/naming"
	"github.com/isolda/isolda/rdf"
)

// Glossary entries in document order: the construct flag and its wording.
// The first line depends on the version (SPEC.md, "Glossary").
var glossary = []struct{ flag, text string }{
	{"types", "# `@types` gives how many entities of each type the graph has."},
	{"prefix", "# `pfx:rest` is a full IRI written with a declared @prefix."},
	{"term", "# `@term name = pfx:rest` gives a readable name to a property or class; the name stands for that term."},
	{"table", "# `Type[N]{a, b, c}:` is a table of the N entities of Type: one row per entity, cells in column order, first cell = the entity id."},
	{"blocks", "# `Type[N]:` followed by `id:` lines lists the N entities of Type as blocks: under each id, one property per line."},
	{"iriid", "# `Type[N]{@iri, b, c}:` (first column `@iri`): each entity's id is its IRI as written in that cell."},
	{"thing", "# `Thing_` is the table of the entities that have no type."},
	{"slugcell", "# A first cell `@x` is only the entity id x, not a value of that column."},
	{"a", "# `a` gives the entity's other types."},
	{"iri", "# `@iri` is the entity's full IRI."},
	{"blank", "# An entity without an `@iri` value is a blank node: it has no IRI."},
	{"link", "# A property ending in `>` links to another entity: its value is that entity's id."},
	{"inline", "# `{p: v, q> w}` in place of an id is an entity without IRI written in place: its properties are between the braces; it counts in its type's [N]."},
	{"multi", "# `[N] a | b` means N values."},
	{"list", "# `(N) a | b` is an ordered list (rdf:List) of N entities (`<IRI>`: an IRI that is not an entity); `(N:int) 1 | 2`, `(N:string)`, `(N@en)`, `(N:iri)`: of N values of that type."},
	{"quoted", "# A value in double quotes is a JSON string; `\"\"` is the empty string."},
	{"empty", "# An empty cell means the entity has no value for that column."},
	{"typed", "# `p:date`, `p:int`, `p:iri`, `p:<type>`: every value of p has that datatype."},
	{"lang", "# `p@ca`: every value of p is text in that language."},
	{"constant", "# `p=v` after a table header: every entity in the table has value v for p."},
	{"continuation", "# A line indented under a table row gives one more property of that row's entity."},
	{"extra", "# `~extra:` lists more properties of entities from the tables above, by id."},
	{"in", "# `~in:` lists, for each entity that two or more links point to, the entities that link to it: `p< a | b` means a and b have p> to it."},
	{"graph", "# `@graph g` starts the statements of the named graph g; `_:x` names a graph that is a blank node with id x."},
}

// Glossary first lines per version.
const (
	head02 = "# ISOLDA 0.2: an RDF graph as text. Entities are grouped by type; names without a prefix are terms of @vocab."
	head03 = "# ISOLDA 0.3: an RDF graph as text. Entities are grouped by type; names without a prefix are terms of @vocab."
	head01 = "# ISOLDA 0.1: an RDF graph as text. Entities are grouped by type; names without a prefix are terms of @vocab."
)

// head returns the glossary (the # lines, each ending in LF; empty with
// --glossary none) and the directives (each ending in LF).
func (e *encoder) head() (gloss, dirs []byte) {
	typeCount := map[rdf.TermID]int{}
	if e.typeID != 0 && !e.opts.NoTypes {
		seen := map[[2]rdf.TermID]bool{}
		for _, q := range e.d.IDQuads() {
			k := [2]rdf.TermID{q[0], q[2]}
			if q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind && !seen[k] {
				seen[k] = true
				typeCount[q[2]]++
			}
		}
	}
	if e.v04 {
		// 0.4: a class whose one table header already gives its count is
		// not repeated in @types.
		tables := map[rdf.TermID]int{}
		rows := map[rdf.TermID]int{}
		for _, part := range e.parts {
			for _, t := range part.tables {
				tables[t.class]++
				rows[t.class] += len(t.rows)
			}
		}
		for c, k := range typeCount {
			if tables[c] == 1 && rows[c] == k || k == 1 {
				delete(typeCount, c) // nor a class of one entity
			}
		}
	}
	if len(typeCount) > 0 {
		e.use["types"] = true
	}
	for name := range e.n.PrefixNS {
		if !e.n.Implicit[name] {
			e.use["prefix"] = true
		}
	}
	if len(e.n.Alias) > 0 {
		e.use["term"] = true
	}
	var b []byte
	if e.opts.Glossary == GlossaryNone {
		b = append(b, "@isolda "...)
		b = append(b, e.ver...)
		b = append(b, '\n')
	}
	if e.v04 && e.use["iri"] {
		e.use["blank"] = false // the @iri entry says it
	}
	if e.opts.Glossary != GlossaryNone {
		entries, first := glossary, head02
		switch e.ver {
		case V01:
			first = head01
		case V03:
			first = head03
		case V04:
			entries, first = glossary04, head04
		}
		// 0.1 and 0.2 have no entry for quoted values nor for blank
		// nodes: the paper's Listing 1 (the glossary of a graph with both)
		// has neither (SPEC.md section 11).
		paperGlossary := e.ver == V01 || e.ver == V02
		gloss = append(gloss, first...)
		gloss = append(gloss, '\n')
		if e.opts.Glossary != GlossaryLegend {
			for _, g := range entries {
				if e.use[g.flag] && !(paperGlossary && (g.flag == "quoted" || g.flag == "blank")) {
					gloss = append(gloss, g.text...)
					gloss = append(gloss, '\n')
				}
			}
		}
	}
	if e.anchor != 0 && e.opts.Glossary != GlossaryNone {
		// The anchor line names this document's entity: in 0.4 it belongs
		// to the body, so that the glossary depends on constructs only.
		var a []byte
		a = append(a, "# The document starts from the entity "...)
		a = e.appendID(a, e.anchor, naming.CtxCell)
		if e.opts.Hops > 0 {
			a = append(a, "; it shows only the entities at most "...)
			a = strconv.AppendInt(a, int64(e.opts.Hops), 10)
			a = append(a, " links away from it, not the whole graph"...)
		}
		a = append(a, ".\n"...)
		if e.v04 {
			b = append(b, a...)
		} else {
			gloss = append(gloss, a...)
		}
	}
	if e.n.Vocab != "" {
		b = append(b, "@vocab "...)
		b = naming.AppendText(b, e.n.Vocab, e.v02, naming.CtxCell)
		b = append(b, '\n')
	}
	for _, p := range naming.SortedKeys(e.n.PrefixNS) {
		if e.n.Implicit[p] {
			continue
		}
		b = append(b, "@prefix "...)
		b = append(b, p...)
		b = append(b, ": "...)
		b = naming.AppendText(b, e.n.PrefixNS[p], e.v02, naming.CtxCell)
		b = append(b, '\n')
	}
	for _, a := range naming.SortedKeys(e.n.AliasIRI) {
		b = append(b, "@term "...)
		b = append(b, a...)
		b = append(b, " = "...)
		b = e.n.AppendPrefixed(b, e.n.AliasIRI[a])
		b = append(b, '\n')
	}
	if len(typeCount) > 0 {
		type tc struct {
			name string
			n    int
		}
		var list []tc
		for c, k := range typeCount {
			list = append(list, tc{string(e.n.AppendTerm(nil, e.term(c).Value)), k})
		}
		slices.SortFunc(list, func(a, b tc) int {
			if a.n != b.n {
				return cmp.Compare(b.n, a.n)
			}
			return strings.Compare(a.name, b.name)
		})
		b = append(b, "@types "...)
		for i, x := range list {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, x.name...)
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(x.n), 10)
		}
		b = append(b, '\n')
	}
	return gloss, b
}
