package isolda

// head04 is the first glossary line of ISOLDA 0.4. It names no version:
// the body's @isolda directive does, so that one glossary serves any body
// with the same constructs.
const head04 = "# ISOLDA: an RDF graph as text. Names without prefix are terms of @vocab."

// glossary04 are the entries of the 0.4 glossary in document order: the
// construct flag and its wording (SPEC.md section 17.8). An entry appears
// exactly when the body uses its construct.
var glossary04 = []struct{ flag, text string }{
	{"space", "# A space inside a name stands for %20."},
	{"types", "# `@types`: how many entities each class has."},
	{"prefix", "# `pfx:x` is an IRI; pfx is a @prefix or well known (rdf, rdfs, xsd, owl, skos, dct, foaf, schema, wd...)."},
	{"vocabiri", "# `:x` is the IRI of x in @vocab."},
	{"term", "# `@term n = t`: the name n stands for the term t."},
	{"table", "# `T[N]{c1, c2}:` starts the table of the N entities of class T: one row each, cells in column order; the first cell is the entity's id."},
	{"blocks", "# `T[N]:` followed by `id:` lines lists the N entities of class T as blocks: one property per line."},
	{"iriid", "# A first column `@iri`: the id is the IRI."},
	{"thing", "# `Thing_`: entities without a class."},
	{"slugcell", "# A first cell `@x` is only the id x."},
	{"anon", "# An empty first cell: a blank node that no link points to."},
	{"a", "# `a`: the entity's other classes."},
	{"iri", "# `@iri`: the entity's IRI; empty for a blank node."},
	{"blank", "# An entity without `@iri` is a blank node."},
	{"link", "# `p>`: the value is the id of an entity."},
	{"inline", "# `T{p: v, q> w}` in place of an id: a blank node of class T with these properties (`{...}`: no class)."},
	{"nested", "# A `p> T[N]{c1, c2}:` line under a row: its N values are blank nodes of class T, one row each below."},
	{"multi", "# `[N] a | b`: N values."},
	{"list", "# `(N) a | b`: an ordered rdf:List of N items; `(N:int)`, `(N@en)`...: items of that type."},
	{"quoted", "# `\"...\"`: a JSON string."},
	{"empty", "# An empty cell: no value."},
	{"typed", "# `p:int`, `p:date`, `p:xsd:gYear`...: the datatype of every value of p; `p:iri`: values are IRIs."},
	{"lang", "# `p@en`: every value of p is text in that language."},
	{"constant", "# `p=v` after a header: every row has p = v."},
	{"continuation", "# An indented `p: v` line under a row: one more property of that row's entity."},
	{"extra", "# `~extra:` lists more properties of entities from the tables above, by id."},
	{"in", "# `~in:` lists, for each entity that two or more links point to, the entities that link to it: `p< a | b` means a and b have p> to it."},
	{"graph", "# `@graph g`: the statements below are in the named graph g (`_:x`: a blank node)."},
}
