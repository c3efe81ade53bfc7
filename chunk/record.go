package chunk

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/isolda/isolda/rdf"
)

// Records are what the grouping steps move around: a key (a node: an IRI
// or a blank node) and a value (a statement with a tag saying what it is
// to the node, or a message from another node). Both are compact byte
// strings; values sort by tag first, so that a node's records come in
// the order the steps read them: its descriptive statements (types and
// labels), its other statements, the statements linking to it, then
// messages by distance and origin.

// Value tags, in the order they sort.
const (
	tagDesc byte = 1 // a statement of the node that is a type or a label
	tagOwn  byte = 2 // another statement of the node
	tagIn   byte = 3 // a statement whose object is the node
	tagMsg  byte = 4 // a statement sent by another node: dist, origin, quad
)

// Term kinds in the encoding.
const (
	kNone   byte = 0   // the default graph
	kKey    byte = 'K' // the term the record is keyed by
	kIRI    byte = 'I'
	kBlank  byte = 'B'
	kString byte = 'S' // a literal of datatype xsd:string
	kLang   byte = 'L' // a language-tagged literal, with its direction
	kTyped  byte = 'T' // a literal of another datatype
	kTriple byte = 'R' // an RDF 1.2 triple term
)

// errCorrupt reports a record that does not decode.
var errCorrupt = errors.New("chunk: corrupt record")

// nodeKey returns the key of a node (an IRI or a blank node).
func nodeKey(dst []byte, t rdf.Term) []byte {
	if t.Kind == rdf.BlankKind {
		dst = append(dst, kBlank)
	} else {
		dst = append(dst, kIRI)
	}
	return append(dst, t.Value...)
}

// keyTerm returns the node a key stands for.
func keyTerm(key []byte) (rdf.Term, error) {
	if len(key) == 0 {
		return rdf.Term{}, errCorrupt
	}
	switch key[0] {
	case kIRI:
		return rdf.NewIRI(string(key[1:])), nil
	case kBlank:
		return rdf.NewBlank(string(key[1:])), nil
	}
	return rdf.Term{}, errCorrupt
}

// isNode reports whether t can be a key: an IRI or a blank node.
func isNode(t rdf.Term) bool { return t.Kind == rdf.IRIKind || t.Kind == rdf.BlankKind }

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// appendTerm encodes t; a term equal to key is written as kKey.
func appendTerm(dst []byte, t, key rdf.Term) []byte {
	if key.Kind != rdf.None && t.Kind == key.Kind && t.Value == key.Value {
		return append(dst, kKey)
	}
	switch t.Kind {
	case rdf.None:
		return append(dst, kNone)
	case rdf.IRIKind:
		return appendString(append(dst, kIRI), t.Value)
	case rdf.BlankKind:
		return appendString(append(dst, kBlank), t.Value)
	case rdf.TripleKind:
		return appendString(append(dst, kTriple), t.Value)
	}
	switch {
	case t.Lang != "":
		dst = appendString(append(dst, kLang), t.Value)
		dst = appendString(dst, t.Lang)
		return appendString(dst, t.Dir)
	case t.Datatype == "" || t.Datatype == rdf.XSDString:
		return appendString(append(dst, kString), t.Value)
	}
	dst = appendString(append(dst, kTyped), t.Value)
	return appendString(dst, t.Datatype)
}

// appendQuad encodes a quad; terms equal to key are written as kKey.
func appendQuad(dst []byte, q rdf.Quad, key rdf.Term) []byte {
	dst = appendTerm(dst, q.S, key)
	dst = appendTerm(dst, q.P, key)
	dst = appendTerm(dst, q.O, key)
	return appendTerm(dst, q.G, key)
}

// decoder reads encoded terms.
type decoder struct {
	b   []byte
	key rdf.Term
	err error
}

func (d *decoder) byte() byte {
	if d.err != nil || len(d.b) == 0 {
		d.err = errCorrupt
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) string() string {
	if d.err != nil {
		return ""
	}
	n, k := binary.Uvarint(d.b)
	if k <= 0 || n > uint64(len(d.b)-k) {
		d.err = errCorrupt
		return ""
	}
	s := string(d.b[k : k+int(n)])
	d.b = d.b[k+int(n):]
	return s
}

func (d *decoder) term() rdf.Term {
	switch c := d.byte(); c {
	case kNone:
		return rdf.Term{}
	case kKey:
		if d.key.Kind == rdf.None {
			d.err = errCorrupt
		}
		return d.key
	case kIRI:
		return rdf.NewIRI(d.string())
	case kBlank:
		return rdf.NewBlank(d.string())
	case kTriple:
		return rdf.Term{Kind: rdf.TripleKind, Value: d.string()}
	case kString:
		return rdf.NewString(d.string())
	case kLang:
		v := d.string()
		lang := d.string()
		dir := d.string()
		t := rdf.NewLangString(v, lang)
		if dir != "" {
			t.Datatype, t.Dir = rdf.RDFDirLangString, dir
		}
		return t
	case kTyped:
		v := d.string()
		return rdf.NewLiteral(v, d.string())
	default:
		d.err = errCorrupt
		return rdf.Term{}
	}
}

func (d *decoder) quad() rdf.Quad {
	var q rdf.Quad
	q.S = d.term()
	q.P = d.term()
	q.O = d.term()
	q.G = d.term()
	return q
}

// record is a decoded value.
type record struct {
	tag    byte
	dist   int      // messages: the distance of the origin from the sender's target
	origin rdf.Term // messages: the node the statement describes
	q      rdf.Quad
}

// decodeValue decodes a value of the node key.
func decodeValue(val []byte, key rdf.Term) (record, error) {
	d := decoder{b: val, key: key}
	var r record
	r.tag = d.byte()
	switch r.tag {
	case tagDesc, tagOwn, tagIn:
	case tagMsg:
		r.dist = int(d.byte())
		r.origin = d.term()
	default:
		return r, fmt.Errorf("%w: tag %d", errCorrupt, r.tag)
	}
	r.q = d.quad()
	if d.err == nil && len(d.b) != 0 {
		d.err = errCorrupt
	}
	return r, d.err
}

// appendMsg encodes a message to the node target: a statement of origin's
// package at distance dist.
func appendMsg(dst []byte, dist int, origin rdf.Term, q rdf.Quad, target rdf.Term) []byte {
	dst = append(dst, tagMsg, byte(dist))
	dst = appendTerm(dst, origin, target)
	return appendQuad(dst, q, target)
}

// MessageOrigin returns the part of a message value that names its hop
// and its origin, and false for a value that is not a message. The
// messages of one hop and origin share it, and values sort by it before
// their statement, so that a group-by engine can keep the few messages of
// each origin Round reads without decoding them.
func MessageOrigin(val []byte) (prefix []byte, ok bool) {
	if len(val) < 3 || val[0] != tagMsg {
		return nil, false
	}
	d := decoder{b: val[2:], key: rdf.Term{Kind: rdf.IRIKind}}
	d.term()
	if d.err != nil {
		return nil, false
	}
	return val[:len(val)-len(d.b)], true
}

// IsDescription reports whether a value is one of its node's types or
// labels: those sort first, and Round sends nothing for the ones beyond
// the bounds.
func IsDescription(val []byte) bool { return len(val) > 0 && val[0] == tagDesc }
