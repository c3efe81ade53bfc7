package isolda

// head04 is the first glossary line of ISOLDA 0.4. Like the first line
// of the other versions it names the version, which the decoder reads;
// a body sent without its glossary starts with @isolda 0.4 instead
// (EncodeParts).
const head04 = "# ISOLDA 0.4: RDF as text; bare names are @vocab terms."

// glossary04 are the entries of the 0.4 glossary in document order: the
// construct flag and its wording (SPEC.md section 17.8). An entry appears
// exactly when the body uses its construct. The wording is terse on
// purpose: the glossary is paid for in every prompt that carries it.
var glossary04 = []struct{ flag, text string }{
	{"space", "# A space in a name stands for %20."},
	{"types", "# @types: entities per class."},
	{"prefix", "# pfx:x: prefixed IRI."},
	{"vocabiri", "# :x is the IRI x in @vocab."},
	{"term", "# @term n = t: n means t."},
	{"table", "# T[N]{a, b}: N entities of class T, a row each, id first."},
	{"blocks", "# T[N]: then id: lines: N entities of class T, a property per line."},
	{"iriid", "# First column @iri: the IRI is the id."},
	{"thing", "# Thing_: no class."},
	{"slugcell", "# First cell @x: only the id x."},
	{"anon", "# First cell empty or _: blank node."},
	{"a", "# a: other classes."},
	{"iri", "# @iri: IRI; none: blank node."},
	{"blank", "# No @iri: blank nodes."},
	{"link", "# p>: values are entity ids."},
	{"inline", "# T{p: v}: an entity of class T."},
	{"nested", "# p> T[N]{a, b} under a row: its p values, as a table."},
	{"nestcol", "# Column p> T{a, b=v}: a cell {x} means T{a: x, b: v}."},
	{"multi", "# [N] a | b: N values."},
	{"list", "# (N) a | b: an rdf:List of N items; (N:int): typed items."},
	{"quoted", "# \"...\": a JSON string."},
	{"empty", "# Empty cell: no value."},
	{"typed", "# p:int, p:iri: type of p's values."},
	{"lang", "# p@en: text in that language."},
	{"langs", "# p@: each value ends with @ and its language."},
	{"constant", "# p=v in a header: in every row."},
	{"continuation", "# Indented p: v: one more property of the row above."},
	{"extra", "# ~extra: lists more properties of entities from the tables above, by id."},
	{"in", "# ~in: lists, for each entity that two or more links point to, the entities that link to it: p< a | b means a and b have p> to it."},
	{"graph", "# @graph g: what follows is in graph g."},
	{"graphcol", "# @graph column: the graph of the row's statements (empty: the default graph)."},
}
