package isolda

// head04 is the first glossary line of ISOLDA 0.4. It names no version:
// the body's @isolda directive does, so that one glossary serves any body
// with the same constructs.
const head04 = "# ISOLDA: an RDF graph as text. Bare names are terms of @vocab."

// glossary04 are the entries of the 0.4 glossary in document order: the
// construct flag and its wording (SPEC.md section 17.8). An entry appears
// exactly when the body uses its construct.
var glossary04 = []struct{ flag, text string }{
	{"space", "# A space in a name stands for %20."},
	{"types", "# `@types`: entities per class."},
	{"prefix", "# `pfx:x`: an IRI with a @prefix or a well-known prefix (rdfs, schema...)."},
	{"vocabiri", "# `:x`: the IRI x in @vocab."},
	{"term", "# `@term n = t`: n stands for t."},
	{"table", "# `T[N]{a, b}:`: the N entities of class T, one per row; first cell = id."},
	{"blocks", "# `T[N]:` then `id:` lines: the N entities of class T, one property per line."},
	{"iriid", "# First column `@iri`: the IRI is the id."},
	{"thing", "# `Thing_`: no class."},
	{"slugcell", "# First cell `@x`: only the id x."},
	{"anon", "# Empty first cell: a blank node nothing links to."},
	{"a", "# `a`: other classes."},
	{"iri", "# `@iri`: the entity's IRI, empty for a blank node."},
	{"blank", "# No `@iri`: a blank node."},
	{"link", "# `p>`: the value is an entity's id."},
	{"inline", "# `T{p: v}` for an id: a blank node of class T."},
	{"nested", "# `p> T[N]{a, b}:` under a row: its p values, N blank nodes of class T, one per row."},
	{"multi", "# `[N] a | b`: N values."},
	{"list", "# `(N) a | b`: an rdf:List of N items; `(N:int)`: of that type."},
	{"quoted", "# `\"...\"`: a JSON string."},
	{"empty", "# Empty cell: no value."},
	{"typed", "# `p:int`, `p:xsd:gYear`: p's datatype; `p:iri`: p's values are IRIs."},
	{"lang", "# `p@en`: p's values are text in that language."},
	{"constant", "# `p=v` after a header: every row has p = v."},
	{"continuation", "# An indented `p: v` line: one more property of the row above."},
	{"extra", "# `~extra:` lists more properties of entities from the tables above, by id."},
	{"in", "# `~in:` lists, for each entity that two or more links point to, the entities that link to it: `p< a | b` means a and b have p> to it."},
	{"graph", "# `@graph g`: the statements below are in graph g (`_:x`: a blank node)."},
}
