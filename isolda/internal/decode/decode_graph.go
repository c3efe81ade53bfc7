// Building the dataset: nodes by id, the quads a row's values give, lists,
// and the final dataset with its blank nodes.

package decode

import (
	"maps"
	"slices"
	"strconv"

	"github.com/isolda/isolda/isolda/internal/syntax"
	"github.com/isolda/isolda/rdf"
)

func (d *decoder) ref(id string) *node {
	n := d.nodes[id]
	if n == nil {
		n = &node{id: id}
		d.nodes[id] = n
	}
	return n
}

func (d *decoder) addQuad(q pquad) error {
	q.g, q.gn, q.line = d.graph, d.graphN, d.line
	if d.lim.MaxQuads >= 0 && int64(len(d.quads)) >= d.lim.MaxQuads {
		return d.limitAt(0, "more quads than the limit")
	}
	d.quads = append(d.quads, q)
	return nil
}

// addValues adds the triples of one cell.
func (d *decoder) addValues(s *node, c colSpec, vals []val) error {
	for _, v := range vals {
		q := pquad{s: s, p: c.pred}
		switch c.kind {
		case syntax.ClsLink:
			if v.list != nil {
				n, err := d.addList(v.list)
				if err != nil {
					return err
				}
				q.on = n
			} else if v.angle {
				q.o = rdf.NewIRI(v.text)
			} else if v.inline {
				inline := d.inlineEntity
				if c.nest != nil {
					inline = func(text string, off int) (*node, error) { return d.nestCell(c.nest, text, off) }
				}
				n, err := inline(v.text, v.off)
				if err != nil {
					return err
				}
				q.on = n
			} else {
				q.on = d.ref(v.text)
			}
		case syntax.ClsIRI:
			q.o = rdf.NewIRI(d.expandIRI(v.text, v.quoted))
		case syntax.ClsType:
			if v.quoted || v.inline {
				return d.errAt(v.off, "expected a class name")
			}
			iri, n, err := d.parseTerm(v.text, v.off)
			if err != nil {
				return err
			}
			if n != len(v.text) {
				return d.errAt(v.off+n, "expected the end of the class name")
			}
			q.o = rdf.NewIRI(iri)
		case syntax.ClsPlain:
			q.o = rdf.NewString(v.text)
		case syntax.ClsLang:
			q.o = rdf.NewLangString(v.text, c.lang)
			if c.dir != "" {
				q.o.Dir = c.dir
				q.o.Datatype = rdf.RDFDirLangString
			}
		case syntax.ClsLangAny:
			q.o = rdf.NewLangString(v.text, v.lang)
			if v.dir != "" {
				q.o.Dir = v.dir
				q.o.Datatype = rdf.RDFDirLangString
			}
		case syntax.ClsTyped:
			q.o = rdf.NewLiteral(v.text, c.dt)
		default:
			return d.errAt(v.off, "this column cannot hold values here")
		}
		if v.inline && c.kind != syntax.ClsLink {
			return d.errAt(v.off, "an inline entity can only be the value of a link (p>)")
		}
		if v.list != nil && c.kind != syntax.ClsLink {
			return d.errAt(v.off, "a list (N) can only be the value of a link (p>)")
		}
		if err := d.addQuad(q); err != nil {
			return err
		}
	}
	return nil
}

// addList adds the nodes of a list and returns its head.
func (d *decoder) addList(lv *listVal) (*node, error) {
	nodes := make([]*node, len(lv.items))
	for i := range nodes {
		nodes[i] = &node{defined: true}
	}
	for i, it := range lv.items {
		if err := d.addValues(nodes[i], lv.col, []val{it}); err != nil {
			return nil, err
		}
		q := pquad{s: nodes[i], p: rdf.RDFRest, o: rdf.NewIRI(rdf.RDFNil)}
		if i+1 < len(nodes) {
			q.on = nodes[i+1]
		}
		if err := d.addQuad(q); err != nil {
			return nil, err
		}
	}
	return nodes[0], nil
}

// build resolves ids and returns the dataset.
func (d *decoder) build() *rdf.Dataset {
	ds := rdf.NewDataset()
	term := func(n *node) rdf.Term {
		if n.hasIRI {
			return rdf.NewIRI(n.iri)
		}
		if n.blank == 0 {
			d.nblank++
			n.blank = d.nblank
		}
		return rdf.NewBlank("b" + strconv.Itoa(n.blank))
	}
	for _, q := range d.quads {
		o, g := q.o, q.g
		if q.on != nil {
			o = term(q.on)
		}
		if q.gn != nil {
			g = term(q.gn)
		}
		ds.Add(rdf.Quad{S: term(q.s), P: rdf.NewIRI(q.p), O: o, G: g})
	}
	if d.vocab != "" {
		ds.AddPrefix("", d.vocab)
	}
	for _, p := range slices.Sorted(maps.Keys(d.prefixes)) {
		ds.AddPrefix(p, d.prefixes[p])
	}
	return ds
}

// addCell adds the values of one cell of column c, its text at offset
// off, to s.
func (d *decoder) addCell(s *node, c colSpec, text string, off int) error {
	vals, err := d.cell(text, off, c)
	if err != nil {
		return err
	}
	return d.addValues(s, c, vals)
}

// addConstants adds the values of a table's constant columns to s.
func (d *decoder) addConstants(s *node, consts []constant) error {
	for _, c := range consts {
		if err := d.addValues(s, c.col, c.vals); err != nil {
			return err
		}
	}
	return nil
}
