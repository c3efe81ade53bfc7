// Decoding rows: table rows, entity blocks and their property lines, nested
// tables (0.4) and anonymous rows.

package decode

import (
	"fmt"
	"strings"

	"github.com/isolda/isolda/isolda/internal/syntax"
	"github.com/isolda/isolda/rdf"
)

func (d *decoder) indented(s string) error {
	switch d.state {
	case stIgnore:
		return nil
	case stTable:
		if d.v04 {
			return d.indented04(s)
		}
		if len(s) >= 5 && strings.HasPrefix(s, "    ") && s[4] != ' ' {
			if d.block == nil {
				return d.errAt(4, "expected a table row before its continuation lines")
			}
			return d.blockProp(s[4:], 4)
		}
		if len(s) < 3 || s[1] != ' ' || s[2] == ' ' {
			return d.errAt(0, "expected a table row indented by two spaces")
		}
		return d.tableRow(s[2:], 2)
	case stBlocks:
		if len(s) >= 5 && strings.HasPrefix(s, "    ") && s[4] != ' ' {
			if d.block == nil {
				return d.errAt(4, "expected an entity id line before its properties")
			}
			if v, ok := strings.CutPrefix(s[4:], "@iri: "); ok {
				if d.hasBIRI {
					return d.errAt(4, "a second @iri for the same entity")
				}
				iri, q, err := d.oneValue(v, 10)
				if err != nil {
					return err
				}
				d.blockIRI, d.hasBIRI = d.expandIRI(iri, q), true
				return nil
			}
			return d.blockProp(s[4:], 4)
		}
		if len(s) >= 3 && s[1] == ' ' && s[2] != ' ' {
			if err := d.finishEntity(); err != nil {
				return err
			}
			if !strings.HasSuffix(s, ":") {
				return d.errAt(len(s), "expected ':' after the entity id")
			}
			if d.got >= d.want {
				return d.errAt(2, "more entities than the %d the section header declares", d.want)
			}
			d.got++
			id, err := d.wholeText(s[2:len(s)-1], 2)
			if err != nil {
				return err
			}
			d.block, d.blockIRI, d.hasBIRI = d.ref(id), "", false
			if d.hasClass {
				return d.addQuad(pquad{s: d.block, p: rdf.RDFType, o: rdf.NewIRI(d.class)})
			}
			return nil
		}
		return d.errAt(0, "expected an entity id (two spaces) or a property (four spaces)")
	case stExtra:
		if len(s) >= 5 && strings.HasPrefix(s, "    ") && s[4] != ' ' {
			if d.block == nil {
				return d.errAt(4, "expected an entity id line before its properties")
			}
			return d.blockProp(s[4:], 4)
		}
		if len(s) >= 3 && s[1] == ' ' && s[2] != ' ' {
			if !strings.HasSuffix(s, ":") {
				return d.errAt(len(s), "expected ':' after the entity id")
			}
			id, err := d.wholeText(s[2:len(s)-1], 2)
			if err != nil {
				return err
			}
			d.block = d.ref(id)
			return nil
		}
		return d.errAt(0, "expected an entity id (two spaces) or a property (four spaces)")
	}
	return d.errAt(0, "unexpected indented line outside a table or ~extra")
}

func (d *decoder) blockProp(s string, off int) error {
	c, m, err := d.parseSpec(s, off)
	if err != nil {
		return err
	}
	if c.kind == colID || c.kind == colAtIRI {
		return d.errAt(off, "id and @iri cannot be block properties")
	}
	rest := s[m:]
	if c.kind == syntax.ClsLink {
		if !strings.HasPrefix(rest, " ") {
			return d.errAt(off+m, "expected a space after '>'")
		}
		rest = rest[1:]
		m++
	} else {
		if !strings.HasPrefix(rest, ": ") {
			return d.errAt(off+m, "expected ': ' after the property")
		}
		rest = rest[2:]
		m += 2
	}
	if rest == "" {
		return d.errAt(off+m, "expected a value")
	}
	return d.addCell(d.block, c, rest, off+m)
}

func (d *decoder) tableRow(s string, off int) error {
	if d.got >= d.want {
		return d.errAt(off, "more rows than the %d the table header declares", d.want)
	}
	d.got++
	cells, offs, err := d.splitTop(s, off, ',')
	if err != nil {
		return err
	}
	if len(cells) != len(d.cols) {
		return d.errAt(off, "expected %d cells, found %d", len(d.cols), len(cells))
	}
	if err := d.rowGraph(cells, offs); err != nil {
		return err
	}
	// First cell: the id, maybe also the label.
	first, fo := cells[0], offs[0]
	if (first == "" || first == "_") && d.v04 && d.cols[0].kind != colAtIRI {
		return d.anonRow(cells, offs)
	}
	if first == "" {
		return d.errAt(fo, "expected the entity id in the first cell")
	}
	var id string
	labelled := false
	lc := d.cols[0]
	if lc.kind == colAtIRI {
		// 0.3 (IRIIDs): the id is the IRI as written in the cell.
		if first[0] == '[' {
			return d.errAt(fo, "expected one IRI in the first cell, not a list")
		}
		id, err = d.wholeText(first, fo)
	} else if lc.kind != colID && d.v02 && first[0] == '@' {
		id, err = d.wholeText(first[1:], fo+1)
	} else {
		if first[0] == '[' {
			return d.errAt(fo, "expected one id in the first cell, not a list")
		}
		id, err = d.wholeText(first, fo)
		labelled = lc.kind != colID
	}
	if err != nil {
		return err
	}
	n := d.ref(id)
	// @iri
	iri, hasIRI := "", false
	for i, c := range d.cols {
		if c.kind == colAtIRI && cells[i] != "" {
			v, q, err := d.oneValue(cells[i], offs[i])
			if err != nil {
				return err
			}
			iri, hasIRI = d.expandIRI(v, q), true
		}
	}
	if n.defined {
		if n.hasIRI != hasIRI || n.iri != iri {
			return d.errAt(fo, "id %q is already used by another entity", id)
		}
	}
	n.defined, n.hasIRI, n.iri = true, hasIRI, iri
	d.block = n
	if labelled {
		if err := d.addValues(n, lc, []val{{text: id, off: fo}}); err != nil {
			return err
		}
	}
	if d.hasClass {
		if err := d.addQuad(pquad{s: n, p: rdf.RDFType, o: rdf.NewIRI(d.class)}); err != nil {
			return err
		}
	}
	for i := 1; i < len(d.cols); i++ {
		if d.cols[i].kind == colAtIRI || d.cols[i].kind == colGraph {
			continue
		}
		if err := d.addCell(n, d.cols[i], cells[i], offs[i]); err != nil {
			return err
		}
	}
	if err := d.addConstants(n, d.consts); err != nil {
		return err
	}
	return nil
}

// indented04 reads an indented line of a 0.4 table section: a row of the
// table (two spaces), a row of an open nested table, a property line of
// the entity of the row above it, or the header of a nested table (a
// property line whose value is Type[N]{columns}:).
func (d *decoder) indented04(s string) error {
	k := len(s) - len(strings.TrimLeft(s, " "))
	if k%2 != 0 || k == 0 {
		return d.errAt(0, "expected an indentation of an even number of spaces")
	}
	if k == 2 {
		if err := d.closeNested(0); err != nil {
			return err
		}
		return d.tableRow(s[2:], 2)
	}
	if err := d.closeNested(k); err != nil {
		return err
	}
	if len(d.nest) > 0 && d.nest[len(d.nest)-1].indent == k {
		return d.nestedRow(&d.nest[len(d.nest)-1], s[k:], k)
	}
	// A property line of the entity of the row at k-2.
	var ent *node
	switch {
	case k == 4:
		ent = d.block
	case len(d.nest) > 0 && d.nest[len(d.nest)-1].indent == k-2:
		ent = d.nest[len(d.nest)-1].row
	}
	if ent == nil {
		return d.errAt(k, "expected a row before this indented line")
	}
	c, m, err := d.parseSpec(s[k:], k)
	if err != nil {
		return err
	}
	if c.kind == syntax.ClsLink && strings.HasPrefix(s[k+m:], " ") && strings.HasSuffix(s, ":") && nestedHeader(s[k+m+1:]) {
		h, err := d.parseHeader(s[k+m+1:len(s)-1], k+m+1, true)
		if err != nil {
			return err
		}
		d.nest = append(d.nest, nestFrame{indent: k + 2, h: h, line: d.line, parent: ent, pred: c.pred})
		return nil
	}
	saved := d.block
	d.block = ent
	err = d.blockProp(s[k:], k)
	d.block = saved
	return err
}

// closeNested closes the nested tables whose rows are indented by more
// than k spaces (all of them for k = 0), checking their row counts.
func (d *decoder) closeNested(k int) error {
	for len(d.nest) > 0 && d.nest[len(d.nest)-1].indent > k {
		f := d.nest[len(d.nest)-1]
		d.nest = d.nest[:len(d.nest)-1]
		if f.got != f.h.want {
			return &rdf.ParseError{File: d.file, Line: f.line, Column: 1,
				Msg: fmt.Sprintf("nested table header declares %d rows but %d follow", f.h.want, f.got)}
		}
	}
	return nil
}

// nestedRow reads a row of a nested table: a new blank node, value of the
// frame's property of its parent.
func (d *decoder) nestedRow(f *nestFrame, s string, off int) error {
	if f.got >= f.h.want {
		return d.errAt(off, "more rows than the %d the nested table header declares", f.h.want)
	}
	f.got++
	cells, offs, err := d.splitTop(s, off, ',')
	if err != nil {
		return err
	}
	if len(cells) != len(f.h.cols) {
		return d.errAt(off, "expected %d cells, found %d", len(f.h.cols), len(cells))
	}
	n := &node{defined: true}
	f.row = n
	if len(f.h.cols) > 0 && f.h.cols[0].kind == colAtIRI && cells[0] != "" {
		v, q, err := d.oneValue(cells[0], offs[0])
		if err != nil {
			return err
		}
		n.hasIRI, n.iri = true, d.expandIRI(v, q)
	}
	if err := d.addQuad(pquad{s: f.parent, p: f.pred, on: n}); err != nil {
		return err
	}
	if f.h.hasClass {
		if err := d.addQuad(pquad{s: n, p: rdf.RDFType, o: rdf.NewIRI(f.h.class)}); err != nil {
			return err
		}
	}
	for i, c := range f.h.cols {
		if c.kind == colAtIRI {
			continue
		}
		if err := d.addCell(n, c, cells[i], offs[i]); err != nil {
			return err
		}
	}
	if err := d.addConstants(n, f.h.consts); err != nil {
		return err
	}
	return nil
}

// anonRow reads a 0.4 table row whose first cell is empty: a blank node
// that no link points to (and, in a label column, without that label).
func (d *decoder) anonRow(cells []string, offs []int) error {
	n := &node{defined: true}
	d.block = n
	if d.hasClass {
		if err := d.addQuad(pquad{s: n, p: rdf.RDFType, o: rdf.NewIRI(d.class)}); err != nil {
			return err
		}
	}
	for i := 1; i < len(d.cols); i++ {
		c := d.cols[i]
		if c.kind == colGraph {
			continue
		}
		if c.kind == colAtIRI {
			if cells[i] != "" {
				return d.errAt(offs[i], "a row with an empty first cell is a blank node: its @iri must be empty")
			}
			continue
		}
		if err := d.addCell(n, c, cells[i], offs[i]); err != nil {
			return err
		}
	}
	if err := d.addConstants(n, d.consts); err != nil {
		return err
	}
	return nil
}

// rowGraph sets the graph of a row's quads from its @graph cell (0.4): an
// IRI value, _: and the id of a blank node, or empty for the graph of the
// section.
func (d *decoder) rowGraph(cells []string, offs []int) error {
	for i, c := range d.cols {
		if c.kind != colGraph {
			continue
		}
		d.graph, d.graphN = d.secGraph, d.secGraphN
		v := cells[i]
		switch {
		case v == "":
		case strings.HasPrefix(v, "_:"):
			id, err := d.wholeText(v[2:], offs[i]+2)
			if err != nil {
				return err
			}
			d.graph, d.graphN = rdf.Term{}, d.ref(id)
		default:
			iri, quoted, err := d.oneValue(v, offs[i])
			if err != nil {
				return err
			}
			d.graph, d.graphN = rdf.NewIRI(d.expandIRI(iri, quoted)), nil
		}
	}
	return nil
}
