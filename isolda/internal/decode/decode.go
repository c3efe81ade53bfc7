// Package decode is the ISOLDA decoder behind isolda.Decode: it reads a
// document of any version line by line (headers and directives, table
// rows and blocks, cells) and builds its dataset.
package decode

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/isolda/internal/syntax"
	"github.com/isolda/isolda/rdf"
)

// Decode reads an ISOLDA document of any version and returns its
// dataset; file names the input in errors, and lim bounds it (zero fields
// take rdf.DefaultLimits). Malformed input gives an *rdf.ParseError with
// the line and column.
func Decode(r io.Reader, file string, lim rdf.Limits) (*rdf.Dataset, error) {
	dec := &decoder{
		file:     file,
		lim:      lim.WithDefaults(),
		v02:      true,
		prefixes: map[string]string{},
		aliases:  map[string]string{},
		nodes:    map[string]*node{},
		inlineN:  map[string]int{},
	}
	if err := dec.run(r); err != nil {
		return nil, err
	}
	return dec.build(), nil
}

// Column kinds in the decoder.
const (
	colID    = iota + 100 // "id": the first cell is only the id
	colAtIRI              // "@iri"
	colGraph              // "@graph" (0.4): the graph of the row's quads
)

type colSpec struct {
	kind int // syntax.ClsLink ... syntax.ClsTyped, colID, colAtIRI
	pred string
	dt   string
	lang string
	dir  string
	nest *nestSpec // 0.4 nested column: p> Class{a, b}
}

// nestSpec is the nested part of a 0.4 nested column header: the class of
// its entities, their properties by position (an optional @iri first),
// and the properties every one of them has with the same values.
type nestSpec struct {
	class    string
	hasClass bool
	iri      bool
	subs     []colSpec
	consts   []constant
}

type node struct {
	id      string
	iri     string
	hasIRI  bool
	defined bool
	blank   int
}

type pquad struct {
	s    *node
	p    string
	o    rdf.Term
	on   *node
	g    rdf.Term
	gn   *node
	line int
}

type tableRec struct {
	class     string
	want, got int
	line      int
}

type constant struct {
	col  colSpec
	vals []val
}

type decoder struct {
	file string
	lim  rdf.Limits
	v02  bool
	v03  bool // (N) list cells
	v04  bool // 0.4: bare terms with spaces, :x IRIs, predeclared prefixes, nested entities

	vocab    string
	prefixes map[string]string
	aliases  map[string]string
	nodes    map[string]*node
	nblank   int

	quads []pquad

	tables  []tableRec     // tables of the current graph, checked at its end
	inlineN map[string]int // inline entities of the current graph per class ("" = Thing_)

	graph  rdf.Term
	graphN *node
	// The graph of the current @graph section; graph and graphN differ
	// from it while a row with a @graph cell (0.4) is read.
	secGraph  rdf.Term
	secGraphN *node

	// current section
	state    int // 0 top, 1 table, 2 extra, 3 ignored (~in)
	class    string
	hasClass bool
	cols     []colSpec
	consts   []constant
	want     int
	got      int
	headLine int
	block    *node
	blockIRI string // @iri of the current entity of a blocks section
	hasBIRI  bool

	nest []nestFrame // open nested tables (0.4), innermost last

	line int
	text string
}

// nestFrame is an open nested table of a 0.4 document: its rows, at
// indentation indent, are blank nodes that are values of pred of parent.
type nestFrame struct {
	indent int
	h      tableHeader
	got    int
	line   int
	parent *node
	pred   string
	row    *node // the entity of the frame's last row
}

const (
	stTop = iota
	stTable
	stExtra
	stIgnore
	stBlocks
)

func (d *decoder) errAt(off int, format string, args ...any) error {
	if off > len(d.text) {
		off = len(d.text)
	}
	if off < 0 {
		off = 0
	}
	return &rdf.ParseError{File: d.file, Line: d.line, Column: utf8.RuneCountInString(d.text[:off]) + 1,
		Msg: fmt.Sprintf(format, args...)}
}

// limitAt is errAt for an input over one of d.lim's bounds: the error
// wraps rdf.ErrLimit (errors.Is), and its message says "(limit exceeded)".
func (d *decoder) limitAt(off int, format string, args ...any) error {
	err := d.errAt(off, format+" (limit exceeded)", args...)
	err.(*rdf.ParseError).Err = rdf.ErrLimit
	return err
}

func (d *decoder) run(r io.Reader) error {
	br := bufio.NewReaderSize(r, 1<<16)
	maxLine := d.lim.MaxTermLength + 1024
	if d.lim.MaxTermLength < 0 {
		maxLine = -1
	}
	var total int64
	var buf []byte
	for {
		buf = buf[:0]
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			buf = append(buf, chunk...)
			if maxLine >= 0 && len(buf) > maxLine {
				d.line++
				d.text = ""
				return d.limitAt(0, "line longer than %d bytes", maxLine)
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if err != nil && err != io.EOF {
			return err
		}
		if len(buf) == 0 && err == io.EOF {
			break
		}
		total += int64(len(buf))
		if d.lim.MaxBytes >= 0 && total > d.lim.MaxBytes {
			return &rdf.ParseError{File: d.file, Line: d.line + 1, Msg: "input larger than the size limit (limit exceeded)", Err: rdf.ErrLimit}
		}
		d.line++
		s := string(buf)
		s = strings.TrimSuffix(s, "\n")
		s = strings.TrimSuffix(s, "\r")
		d.text = s
		if !utf8.ValidString(s) {
			return d.errAt(0, "invalid UTF-8")
		}
		if e := d.handle(s); e != nil {
			return e
		}
		if err == io.EOF {
			break
		}
	}
	d.text = ""
	if err := d.endSection(); err != nil {
		return err
	}
	return d.endGraph()
}

// endGraph checks the counts of the tables of the graph that ends: rows
// plus inline entities of the class.
func (d *decoder) endGraph() error {
	for _, t := range d.tables {
		if in := d.inlineN[t.class]; t.got+in != t.want {
			msg := fmt.Sprintf("table header declares %d rows but %d follow", t.want, t.got)
			if in > 0 {
				msg = fmt.Sprintf("table header declares %d entities but %d rows and %d inline entities follow", t.want, t.got, in)
			}
			return &rdf.ParseError{File: d.file, Line: t.line, Column: 1, Msg: msg}
		}
	}
	d.tables = d.tables[:0]
	clear(d.inlineN)
	return nil
}

// finishEntity defines the current entity of a blocks section.
func (d *decoder) finishEntity() error {
	if d.state != stBlocks || d.block == nil {
		return nil
	}
	n := d.block
	if n.defined && (n.hasIRI != d.hasBIRI || n.iri != d.blockIRI) {
		return d.errAt(0, "id %q is already used by another entity", n.id)
	}
	n.defined, n.hasIRI, n.iri = true, d.hasBIRI, d.blockIRI
	return nil
}

func (d *decoder) endSection() error {
	if err := d.closeNested(0); err != nil {
		return err
	}
	d.graph, d.graphN = d.secGraph, d.secGraphN
	if err := d.finishEntity(); err != nil {
		return err
	}
	if d.state == stTable || d.state == stBlocks {
		class := ""
		if d.hasClass {
			class = d.class
		}
		d.tables = append(d.tables, tableRec{class, d.want, d.got, d.headLine})
	}
	d.state = stTop
	d.block = nil
	return nil
}

func (d *decoder) handle(s string) error {
	if strings.TrimRight(s, " \t") == "" {
		return nil
	}
	switch s[0] {
	case '#':
		if d.line == 1 {
			for _, v := range []string{syntax.V01, syntax.V03, syntax.V04} {
				if strings.HasPrefix(s, "# ISOLDA "+v) {
					d.setVersion(v)
				}
			}
		}
		return nil
	case '@':
		if err := d.endSection(); err != nil {
			return err
		}
		return d.directive(s)
	case '~':
		if err := d.endSection(); err != nil {
			return err
		}
		switch strings.TrimRight(s, " ") {
		case "~extra:":
			d.state = stExtra
		case "~in:":
			d.state = stIgnore
		default:
			return d.errAt(0, "expected ~extra: or ~in:")
		}
		return nil
	case ' ':
		return d.indented(s)
	}
	if err := d.endSection(); err != nil {
		return err
	}
	return d.sectionHeader(s)
}
