package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/isolda/isolda/rdf"
)

// The packed form of a dataset, the one way graphs cross the boundary in
// either direction. It cannot be misread: no term is ever written in an
// RDF syntax, so no escape can be decoded twice or wrongly.
//
//	magic   "ISQ1"
//	nterms  uint32, little-endian
//	nquads  uint32
//	kinds   nterms bytes: 'I' IRI, 'B' blank node, 'L' literal, 'T' triple term
//	lengths one uint32 per string, in Unicode code points (the unit of a
//	        Python str): an IRI, a blank node label (without "_:") and a
//	        triple term (canonical N-Triples "s p o") have one string, a
//	        literal four (lexical form, datatype IRI, language tag, base
//	        direction; the datatype of a simple literal may be empty)
//	quads   4 uint32 per quad: subject, predicate, object, graph, each a
//	        term's position + 1; 0 as the graph is the default graph
//	strings the strings, concatenated, in UTF-8
const packMagic = "ISQ1"

// errPacked is wrapped by the errors of a malformed packet.
var errPacked = errors.New("malformed packed dataset")

// pack writes d in the packed form.
func pack(d *rdf.Dataset) ([]byte, error) {
	n := d.NumTerms()
	quads := d.IDQuads()
	var kinds []byte
	var lens []uint32
	var blob []byte
	str := func(s string) {
		lens = append(lens, uint32(utf8.RuneCountInString(s)))
		blob = append(blob, s...)
	}
	for id := 1; id <= n; id++ {
		t := d.Term(rdf.TermID(id))
		switch t.Kind {
		case rdf.IRIKind:
			kinds = append(kinds, 'I')
			str(t.Value)
		case rdf.BlankKind:
			kinds = append(kinds, 'B')
			str(t.Value)
		case rdf.LiteralKind:
			kinds = append(kinds, 'L')
			str(t.Value)
			str(t.Datatype)
			str(t.Lang)
			str(t.Dir)
		case rdf.TripleKind:
			kinds = append(kinds, 'T')
			str(t.Value)
		default:
			return nil, fmt.Errorf("term %d: unknown kind %v", id, t.Kind)
		}
	}
	out := make([]byte, 0, 12+len(kinds)+4*len(lens)+16*len(quads)+len(blob))
	out = append(out, packMagic...)
	out = binary.LittleEndian.AppendUint32(out, uint32(n))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(quads)))
	out = append(out, kinds...)
	for _, l := range lens {
		out = binary.LittleEndian.AppendUint32(out, l)
	}
	for _, q := range quads {
		for _, id := range q {
			out = binary.LittleEndian.AppendUint32(out, uint32(id))
		}
	}
	return append(out, blob...), nil
}

// unpack reads a packed dataset. It refuses a packet whose terms cannot
// stand where they stand (a literal as a subject, a blank node as a
// predicate), as an RDF reader would.
func unpack(b []byte) (*rdf.Dataset, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", errPacked, fmt.Sprintf(format, args...))
	}
	if len(b) < 12 || string(b[:4]) != packMagic {
		return nil, bad("no %s header", packMagic)
	}
	nt := int(binary.LittleEndian.Uint32(b[4:]))
	nq := int(binary.LittleEndian.Uint32(b[8:]))
	pos := 12
	if nt > len(b)-pos {
		return nil, bad("%d terms in %d bytes", nt, len(b))
	}
	kinds := b[pos : pos+nt]
	pos += nt
	nstr := 0
	for i, k := range kinds {
		switch k {
		case 'I', 'B', 'T':
			nstr++
		case 'L':
			nstr += 4
		default:
			return nil, bad("term %d: unknown kind %q", i+1, k)
		}
	}
	if nstr > (len(b)-pos)/4 || nq > (len(b)-pos-4*nstr)/16 {
		return nil, bad("truncated")
	}
	lens := b[pos : pos+4*nstr]
	pos += 4 * nstr
	qb := b[pos : pos+16*nq]
	pos += 16 * nq
	blob := string(b[pos:])
	off, si := 0, 0
	next := func() (string, error) {
		n := int(binary.LittleEndian.Uint32(lens[4*si:]))
		si++
		start := off
		for ; n > 0; n-- {
			if off >= len(blob) {
				return "", bad("strings truncated")
			}
			if blob[off] < utf8.RuneSelf {
				off++
				continue
			}
			r, w := utf8.DecodeRuneInString(blob[off:])
			if r == utf8.RuneError && w == 1 {
				return "", bad("string %d is not UTF-8", si)
			}
			off += w
		}
		return blob[start:off], nil
	}
	terms := make([]rdf.Term, nt+1)
	for i, k := range kinds {
		v, err := next()
		if err != nil {
			return nil, err
		}
		switch k {
		case 'I':
			terms[i+1] = rdf.NewIRI(v)
		case 'B':
			terms[i+1] = rdf.NewBlank(v)
		case 'T':
			return nil, bad("term %d: triple terms are not accepted as input", i+1)
		case 'L':
			var s [3]string
			for j := range s {
				if s[j], err = next(); err != nil {
					return nil, err
				}
			}
			t := rdf.NewLiteral(v, s[0])
			if s[1] != "" {
				t = rdf.NewLangString(v, s[1])
				if s[0] != "" && s[0] != rdf.RDFLangString {
					return nil, bad("term %d: a language tag with datatype %s", i+1, s[0])
				}
				if s[2] != "" {
					t.Dir, t.Datatype = s[2], rdf.RDFDirLangString
				}
			}
			terms[i+1] = t
		}
	}
	if off != len(blob) {
		return nil, bad("%d bytes after the last string", len(blob)-off)
	}
	// The quads on packed indexes, grouped by subject; then each term is
	// interned once (the packer already merged equal IRIs and blank
	// nodes) where the grouped quads first use it, so that the dataset
	// numbers its terms as a reader of a file grouped by subject does,
	// whatever order the packer numbered them in (the encoder took 1.7
	// times as long on Nomisma with its terms numbered in the hash order
	// of rdflib's sets). Unused terms are not interned.
	qs := make([]rdf.IDQuad, nq)
	for i := range qs {
		for j := range qs[i] {
			id := int(binary.LittleEndian.Uint32(qb[16*i+4*j:]))
			if id > nt || (id == 0 && j < 3) {
				return nil, bad("quad %d: term %d out of range", i+1, id)
			}
			qs[i][j] = rdf.TermID(id)
		}
	}
	qs = groupBySubject(qs, nt)
	d := rdf.NewDataset()
	ids := make([]rdf.TermID, nt+1)
	for i := range qs {
		for j, id := range qs[i] {
			if id != 0 && ids[id] == 0 {
				ids[id] = d.Intern(terms[id])
			}
			qs[i][j] = ids[id]
		}
	}
	for _, q := range qs {
		s, p, g := d.Term(q[0]), d.Term(q[1]), d.Term(q[3])
		switch {
		case !s.IsIRI() && !s.IsBlank():
			return nil, badValue("isolda: a %s cannot be a subject", s.Kind)
		case !p.IsIRI():
			return nil, badValue("isolda: a %s cannot be a predicate", p.Kind)
		case g.Kind != rdf.None && !g.IsIRI() && !g.IsBlank():
			return nil, badValue("isolda: a %s cannot be a graph name", g.Kind)
		}
		d.AddIDs(q)
	}
	return d, nil
}

// groupBySubject returns the quads with those of each subject together,
// subjects in order of first appearance (a counting sort, stable): the
// quads themselves when they already are. The Python package sends a
// plain graph grouped by subject; a dataset comes in the hash order of
// rdflib's sets, and grouped, the dataset and the encoder work on memory
// that is close together (the bytes do not depend on the order). nt is
// the largest term ID.
func groupBySubject(qs []rdf.IDQuad, nt int) []rdf.IDQuad {
	count := make([]int32, nt+1)
	grouped := true
	for i, q := range qs {
		if count[q[0]] > 0 && qs[i-1][0] != q[0] {
			grouped = false
		}
		count[q[0]]++
	}
	if grouped {
		return qs
	}
	next := make([]int32, nt+1) // where subject s's next quad goes, + 1
	at := int32(0)
	for _, q := range qs {
		if next[q[0]] == 0 {
			next[q[0]] = at + 1
			at += count[q[0]]
		}
	}
	out := make([]rdf.IDQuad, len(qs))
	for _, q := range qs {
		out[next[q[0]]-1] = q
		next[q[0]]++
	}
	return out
}
