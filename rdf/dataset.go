package rdf

import (
	"maps"
	"slices"
)

// TermID identifies an interned term inside one Dataset. IDs are dense,
// starting at 1 in order of first appearance; 0 is the default graph.
type TermID uint32

// IDQuad is a quad of interned term IDs: subject, predicate, object, graph.
type IDQuad [4]TermID

// Prefix is a namespace prefix declared by an input document.
type Prefix struct {
	Name string // without the colon; "" for the empty prefix
	IRI  string
}

// Dataset is an RDF dataset: a set of quads (the default graph and named
// graphs) over interned terms.
//
// Language tags keep the case they were written in, and compare without
// regard to case (RDF 1.2 Concepts §3.3): "x"@en-US and "x"@en-us are one
// term. When a dataset receives a literal in both spellings, it keeps the
// spelling that sorts first bytewise ("en-US" before "en-us", as upper case
// sorts before lower case), so the result does not depend on input order.
//
// Iteration order is deterministic: Quads and IDQuads give insertion order
// (which depends only on the input), Sorted gives an order that depends only
// on the set of quads. No method's result depends on Go map iteration order.
// A Dataset is not safe for concurrent mutation; concurrent reads are safe.
type Dataset struct {
	terms []Term // terms[id]; terms[0] is the zero Term
	// Separate tables per kind: string keys hash much faster than whole
	// Terms, and IRIs and blank nodes are most of the lookups.
	iris   map[string]TermID
	blanks map[string]TermID
	lits   map[Term]TermID // keyed by Term.Key()
	quads  []IDQuad        // insertion order, no duplicates
	// Duplicate detection: bySubject[s] lists the positions in quads of the
	// quads with subject s. A new quad is compared with those of its subject
	// (hot in cache, since inputs group statements by subject); subjects
	// with more than bigSubject quads move to the hash set big instead.
	bySubject [][]int32
	big       map[IDQuad]struct{}
	// last caches the most recent lookups, which repeat in almost every
	// input (the same subject, the same few predicates).
	last   [4]Term
	lastID [4]TermID

	// Prefixes lists the namespace prefixes the input declared, in order of
	// declaration; a later declaration of the same name replaces the earlier.
	Prefixes []Prefix
	// Base is the base IRI the input was read with, if any.
	Base string
}

// NewDataset returns an empty dataset.
func NewDataset() *Dataset {
	return &Dataset{
		terms:  []Term{{}},
		iris:   map[string]TermID{},
		blanks: map[string]TermID{},
		lits:   map[Term]TermID{},
		big:    map[IDQuad]struct{}{},
	}
}

// Intern returns the ID of t, adding it if it is new.
func (d *Dataset) Intern(t Term) TermID {
	// A tiny cache keyed by position in the quad would need the position;
	// instead check the few most recent terms, compared cheaply (equal
	// strings from one parser usually share their bytes).
	for i := range d.last {
		if d.last[i] == t && t.Kind != None {
			return d.lastID[i]
		}
	}
	id := d.intern(t)
	copy(d.last[1:], d.last[:3])
	copy(d.lastID[1:], d.lastID[:3])
	d.last[0], d.lastID[0] = t, id
	return id
}

func (d *Dataset) intern(t Term) TermID {
	var m map[string]TermID
	switch t.Kind {
	case None:
		return 0
	case IRIKind:
		m = d.iris
	case BlankKind:
		m = d.blanks
	default:
		k := t.Key()
		if id, ok := d.lits[k]; ok {
			if old := d.terms[id].Lang; t.Lang != old && t.Lang < old {
				// One tag in two spellings: keep the one that sorts
				// first bytewise, whatever order they come in.
				d.terms[id] = t
			}
			return id
		}
		id := TermID(len(d.terms))
		d.terms = append(d.terms, t)
		d.lits[k] = id
		return id
	}
	if id, ok := m[t.Value]; ok {
		return id
	}
	id := TermID(len(d.terms))
	d.terms = append(d.terms, t)
	m[t.Value] = id
	return id
}

// Lookup returns the ID of t and whether t is in the dataset's term table.
func (d *Dataset) Lookup(t Term) (TermID, bool) {
	var id TermID
	var ok bool
	switch t.Kind {
	case None:
		return 0, true
	case IRIKind:
		id, ok = d.iris[t.Value]
	case BlankKind:
		id, ok = d.blanks[t.Value]
	default:
		id, ok = d.lits[t.Key()]
	}
	return id, ok
}

// Term returns the term with the given ID.
func (d *Dataset) Term(id TermID) Term { return d.terms[id] }

// NumTerms returns the number of interned terms (not counting the default graph).
func (d *Dataset) NumTerms() int { return len(d.terms) - 1 }

// Add adds a quad and reports whether it was new. Duplicates (under
// Term.Equal) are ignored, as RDF datasets are sets.
func (d *Dataset) Add(q Quad) bool {
	return d.AddIDs(IDQuad{d.Intern(q.S), d.Intern(q.P), d.Intern(q.O), d.Intern(q.G)})
}

// AddIDs adds a quad of IDs already interned in d and reports whether it was new.
func (d *Dataset) AddIDs(q IDQuad) bool {
	if d.contains(q) {
		return false
	}
	pos := int32(len(d.quads))
	d.quads = append(d.quads, q)
	s := int(q[0])
	if s >= len(d.bySubject) {
		n := max(s+1, 2*len(d.bySubject), 1024)
		d.bySubject = append(d.bySubject, make([][]int32, n-len(d.bySubject))...)
	}
	list := d.bySubject[s]
	switch {
	case len(list) < bigSubject:
		d.bySubject[s] = append(list, pos)
	case len(list) == bigSubject:
		for _, i := range list {
			d.big[d.quads[i]] = struct{}{}
		}
		d.bySubject[s] = append(list, pos)
		d.big[q] = struct{}{}
	default:
		d.bySubject[s] = append(list, pos)
		d.big[q] = struct{}{}
	}
	return true
}

// bigSubject is the number of quads of one subject above which duplicates
// are found by hashing instead of a linear scan.
const bigSubject = 48

// contains reports whether q is in the dataset.
func (d *Dataset) contains(q IDQuad) bool {
	s := int(q[0])
	if s >= len(d.bySubject) {
		return false
	}
	list := d.bySubject[s]
	if len(list) > bigSubject {
		_, ok := d.big[q]
		return ok
	}
	for _, i := range list {
		if d.quads[i] == q {
			return true
		}
	}
	return false
}

// AddTriple adds a triple to the default graph.
func (d *Dataset) AddTriple(s, p, o Term) bool { return d.Add(Quad{S: s, P: p, O: o}) }

// AddQuad implements Sink.
func (d *Dataset) AddQuad(q Quad) error {
	d.Add(q)
	return nil
}

// AddPrefix implements PrefixSink: it records a prefix declaration.
func (d *Dataset) AddPrefix(name, iri string) {
	for i := range d.Prefixes {
		if d.Prefixes[i].Name == name {
			d.Prefixes[i].IRI = iri
			return
		}
	}
	d.Prefixes = append(d.Prefixes, Prefix{Name: name, IRI: iri})
}

// Has reports whether the dataset contains q.
func (d *Dataset) Has(q Quad) bool {
	var ids IDQuad
	for i, t := range [4]Term{q.S, q.P, q.O, q.G} {
		id, ok := d.Lookup(t)
		if !ok {
			return false
		}
		ids[i] = id
	}
	return d.contains(ids)
}

// Len returns the number of quads.
func (d *Dataset) Len() int { return len(d.quads) }

// IDQuads returns the quads as IDs in insertion order. The slice is the
// dataset's own: do not modify it.
func (d *Dataset) IDQuads() []IDQuad { return d.quads }

// Quad returns the quad for an IDQuad of this dataset.
func (d *Dataset) Quad(q IDQuad) Quad {
	return Quad{S: d.terms[q[0]], P: d.terms[q[1]], O: d.terms[q[2]], G: d.terms[q[3]]}
}

// Quads returns all quads in insertion order.
func (d *Dataset) Quads() []Quad {
	out := make([]Quad, len(d.quads))
	for i, q := range d.quads {
		out[i] = d.Quad(q)
	}
	return out
}

// Sorted returns all quads sorted by CompareQuads (graph, subject,
// predicate, object): an order that depends only on the set of quads.
func (d *Dataset) Sorted() []Quad {
	out := d.Quads()
	slices.SortFunc(out, CompareQuads)
	return out
}

// Graphs returns the graph names in use, sorted by Compare; the default
// graph (the zero Term) comes first when it holds any quad.
func (d *Dataset) Graphs() []Term {
	seen := map[TermID]bool{}
	var out []Term
	for _, q := range d.quads {
		if !seen[q[3]] {
			seen[q[3]] = true
			out = append(out, d.terms[q[3]])
		}
	}
	slices.SortFunc(out, Compare)
	return out
}

// Clone returns a deep copy of the dataset.
func (d *Dataset) Clone() *Dataset {
	c := &Dataset{
		terms:    slices.Clone(d.terms),
		iris:     maps.Clone(d.iris),
		blanks:   maps.Clone(d.blanks),
		lits:     maps.Clone(d.lits),
		quads:    slices.Clone(d.quads),
		big:      maps.Clone(d.big),
		Prefixes: slices.Clone(d.Prefixes),
		Base:     d.Base,
	}
	c.bySubject = make([][]int32, len(d.bySubject))
	for i, l := range d.bySubject {
		c.bySubject[i] = slices.Clone(l)
	}
	return c
}

// Index holds, for each term ID, the positions (in IDQuads order) of the
// quads that use it as subject or object. Build one with NewIndex when
// traversals need it; it does not change when the dataset does.
type Index struct {
	BySubject map[TermID][]int
	ByObject  map[TermID][]int
}

// NewIndex indexes the dataset's quads by subject and by object. The
// position lists are in insertion order.
func NewIndex(d *Dataset) *Index {
	ix := &Index{BySubject: map[TermID][]int{}, ByObject: map[TermID][]int{}}
	for i, q := range d.quads {
		ix.BySubject[q[0]] = append(ix.BySubject[q[0]], i)
		ix.ByObject[q[2]] = append(ix.ByObject[q[2]], i)
	}
	return ix
}

// Sink receives quads from a reader. Returning an error stops the reader.
type Sink interface {
	AddQuad(q Quad) error
}

// PrefixSink is implemented by sinks that want the prefix declarations of
// the input (Turtle @prefix, JSON-LD context terms, XML namespaces).
type PrefixSink interface {
	AddPrefix(name, iri string)
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(Quad) error

// AddQuad calls f(q).
func (f SinkFunc) AddQuad(q Quad) error { return f(q) }
