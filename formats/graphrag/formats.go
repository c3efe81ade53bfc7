package graphrag

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/formats/internal/registry"
	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdferr"
)

// Format is one serialization of a Graph.
type Format struct {
	// Name is the reference program's name of the format.
	Name string
	// Reference is true for the five formats of the reference program,
	// whose encoders produce exactly its text.
	Reference bool
	// Encode writes g in this format.
	Encode func(w io.Writer, g Graph) error
	// Decode reads a graph in this format.
	Decode func(r io.Reader, opts DecodeOptions) (Graph, error)
}

// Names of the formats, in the reference program's order, then the
// dictionary variant of typed_edges.
const (
	PrettyJSON     = "pretty_json"
	CompactJSON    = "compact_json"
	JSONL          = "jsonl"
	CSV            = "csv"
	TypedEdges     = "typed_edges"
	TypedEdgesDict = "typed_edges_dict"
)

// Formats returns the five formats of the reference program in its order
// (pretty_json, compact_json, jsonl, csv, typed_edges) followed by
// typed_edges_dict.
func Formats() []Format {
	return []Format{
		{PrettyJSON, true, EncodePrettyJSON, DecodePrettyJSON},
		{CompactJSON, true, EncodeCompactJSON, DecodeCompactJSON},
		{JSONL, true, EncodeJSONL, DecodeJSONL},
		{CSV, true, EncodeCSV, DecodeCSV},
		{TypedEdges, true, EncodeTypedEdges, DecodeTypedEdges},
		{TypedEdgesDict, false, func(w io.Writer, g Graph) error {
			return EncodeTypedEdgesDict(w, g, DictionaryFor(g))
		}, DecodeTypedEdgesDict},
	}
}

// ReferenceFormats returns the names of the reference program's five
// formats (those of Formats with Reference set), in its order.
func ReferenceFormats() []string {
	var out []string
	for _, f := range Formats() {
		if f.Reference {
			out = append(out, f.Name)
		}
	}
	return out
}

// Lookup returns the format with the given name.
func Lookup(name string) (Format, bool) {
	return registry.Find(Formats(), name, func(f Format) string { return f.Name })
}

// EncodeString returns g encoded in the named format.
func EncodeString(name string, g Graph) (string, error) {
	f, ok := Lookup(name)
	if !ok {
		return "", fmt.Errorf("graphrag: unknown format %q", name)
	}
	var b strings.Builder
	if err := f.Encode(&b, g); err != nil {
		return "", err
	}
	return b.String(), nil
}

// DecodeString decodes text in the named format.
func DecodeString(name, text string, opts DecodeOptions) (Graph, error) {
	f, ok := Lookup(name)
	if !ok {
		return Graph{}, fmt.Errorf("graphrag: unknown format %q", name)
	}
	return f.Decode(strings.NewReader(text), opts)
}

// DecodeOptions configure the decoders.
type DecodeOptions struct {
	// File names the input in errors.
	File string
	// Limits bound the input: MaxBytes its size, MaxQuads the number of
	// records, MaxDepth JSON nesting, MaxTermLength one identifier. Zero
	// fields take rdf.DefaultLimits.
	Limits rdf.Limits
	// Strict rejects what the reference decoders accept silently: a node
	// identifier recorded twice, an edge recorded twice, and an edge whose
	// endpoint has no node record (an orphan edge).
	Strict bool
}

// checkUTF8 returns an error if any string of g is not valid UTF-8, which
// the formats (like the reference program's Python strings) cannot carry.
func checkUTF8(g Graph) error {
	for _, n := range g.Nodes {
		if !utf8.ValidString(n.ID) || !utf8.ValidString(n.Type) {
			return fmt.Errorf("graphrag: node %q: invalid UTF-8", n.ID)
		}
	}
	for _, e := range g.Edges {
		if !utf8.ValidString(e.Source) || !utf8.ValidString(e.Relation) || !utf8.ValidString(e.Target) {
			return fmt.Errorf("graphrag: edge %q %q %q: invalid UTF-8", e.Source, e.Relation, e.Target)
		}
	}
	return nil
}

// writer collects the first write error.
type writer struct {
	w   *bufio.Writer
	err error
}

func newWriter(w io.Writer) *writer { return &writer{w: bufio.NewWriter(w)} }

func (w *writer) str(s string) {
	if w.err == nil {
		_, w.err = w.w.WriteString(s)
	}
}

func (w *writer) flush() error {
	if w.err != nil {
		return w.err
	}
	return w.w.Flush()
}

// EncodePrettyJSON writes the reference program's pretty_json:
// json.dumps({"nodes": [...], "edges": [...]}, indent=2, ensure_ascii=False).
func EncodePrettyJSON(out io.Writer, g Graph) error {
	return encodeJSONGraph(out, g, 2, "nodes", "edges", []string{"id", "type"}, []string{"source", "relation", "target"})
}

// EncodeCompactJSON writes the reference program's compact_json:
// {"n":[[id,type],...],"e":[[source,relation,target],...]} without spaces.
func EncodeCompactJSON(out io.Writer, g Graph) error {
	return encodeJSONGraph(out, g, 0, "n", "e", nil, nil)
}

// encodeJSONGraph writes {nodesKey: [...], edgesKey: [...]} as json.dumps
// with this indent and ensure_ascii=False does: each node and edge an object
// with the keys nodeKeys or edgeKeys, or an array of its strings when they
// are nil.
func encodeJSONGraph(out io.Writer, g Graph, indent int, nodesKey, edgesKey string, nodeKeys, edgeKeys []string) error {
	if err := checkUTF8(g); err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	d := py.NewDumper(w, indent, false)
	record := func(keys []string, values ...string) {
		if keys == nil {
			d.OpenArray()
		} else {
			d.OpenObject()
		}
		for i, v := range values {
			if keys != nil {
				d.Key(keys[i])
			}
			d.String(v)
		}
		d.Close()
	}
	d.OpenObject()
	d.Key(nodesKey)
	d.OpenArray()
	for _, n := range g.Nodes {
		record(nodeKeys, n.ID, n.Type)
	}
	d.Close()
	d.Key(edgesKey)
	d.OpenArray()
	for _, e := range g.Edges {
		record(edgeKeys, e.Source, e.Relation, e.Target)
	}
	d.Close()
	d.Close()
	return w.Flush() // a bufio.Writer keeps its first write error
}

// EncodeJSONL writes the reference program's jsonl: one compact object per
// record, {"k":"n","id":..,"t":..} for nodes then {"k":"e","s":..,"r":..,"t":..}
// for edges, joined by newlines (no final newline).
func EncodeJSONL(out io.Writer, g Graph) error {
	if err := checkUTF8(g); err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	d := py.NewDumper(w, 0, false)
	first := true
	record := func(kind string, kv ...string) {
		if !first {
			w.WriteByte('\n')
		}
		first = false
		d.OpenObject()
		d.Key("k")
		d.String(kind)
		for i := 0; i < len(kv); i += 2 {
			d.Key(kv[i])
			d.String(kv[i+1])
		}
		d.Close()
	}
	for _, n := range g.Nodes {
		record("n", "id", n.ID, "t", n.Type)
	}
	for _, e := range g.Edges {
		record("e", "s", e.Source, "r", e.Relation, "t", e.Target)
	}
	return w.Flush()
}

// csvField writes one field as Python's csv.writer (QUOTE_MINIMAL,
// lineterminator "\n") does: quoted when it contains a comma, a double quote,
// "\r" or "\n", with quotes doubled. (CPython before 3.11.9 and 3.12.3 left a
// field with a bare "\r" unquoted, which its reader could not read back.)
func (w *writer) csvField(s string) {
	if !strings.ContainsAny(s, ",\"\r\n") {
		w.str(s)
		return
	}
	w.str(`"`)
	w.str(strings.ReplaceAll(s, `"`, `""`))
	w.str(`"`)
}

// csvRow writes a CSV row: kind, then each field (csvField), and "\n".
func (w *writer) csvRow(kind string, fields ...string) {
	w.str(kind)
	for _, f := range fields {
		w.str(",")
		w.csvField(f)
	}
	w.str("\n")
}

// EncodeCSV writes the reference program's csv: the header kind,a,b,c, then
// N,id,type, rows and E,source,relation,target rows, each ending in "\n".
func EncodeCSV(out io.Writer, g Graph) error {
	if err := checkUTF8(g); err != nil {
		return err
	}
	w := newWriter(out)
	w.str("kind,a,b,c\n")
	for _, n := range g.Nodes {
		w.csvRow("N", n.ID, n.Type, "")
	}
	for _, e := range g.Edges {
		w.csvRow("E", e.Source, e.Relation, e.Target)
	}
	return w.flush()
}

// EscapeAtom escapes a typed_edges field as the reference program's
// escape_atom: backslash as \\, pipe as \p, newline as \n.
func EscapeAtom(s string) string {
	if !strings.ContainsAny(s, "\\|\n") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			b.WriteString(`\\`)
		case '|':
			b.WriteString(`\p`)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// TypedEdgesHeader is the version line that starts typed_edges.
const TypedEdgesHeader = "#graph-v1"

// EncodeTypedEdges writes the reference program's typed_edges: the line
// #graph-v1, then N|id|type and E|source|relation|target lines with escaped
// fields, joined by newlines (no final newline).
func EncodeTypedEdges(out io.Writer, g Graph) error {
	if err := checkUTF8(g); err != nil {
		return err
	}
	w := newWriter(out)
	w.str(TypedEdgesHeader)
	for _, n := range g.Nodes {
		w.str("\nN|" + EscapeAtom(n.ID) + "|" + EscapeAtom(n.Type))
	}
	for _, e := range g.Edges {
		w.str("\nE|" + EscapeAtom(e.Source) + "|" + EscapeAtom(e.Relation) + "|" + EscapeAtom(e.Target))
	}
	return w.flush()
}

// readAll reads r within the size limit and checks that it is UTF-8.
func readAll(r io.Reader, opts DecodeOptions, lim rdf.Limits) (string, error) {
	data, over, err := lim.ReadAll(r)
	if err != nil {
		return "", err
	}
	if over {
		return "", &rdf.ParseError{File: opts.File, Msg: fmt.Sprintf("input larger than %d bytes: %v", lim.MaxBytes, rdf.ErrLimit)}
	}
	s := string(data)
	if !utf8.ValidString(s) {
		return "", newDecoder(s, opts, lim).errAt(rdferr.InvalidUTF8(s), "invalid UTF-8")
	}
	return s, nil
}

// decoder holds what every decoder needs: the text, the options, and the
// graph being built.
type decoder struct {
	src     string
	opts    DecodeOptions
	lim     rdf.Limits
	g       Graph
	records int64
	nodeIDs map[string]bool
	edges   map[Edge]bool
	edgeOff []int
}

func newDecoder(src string, opts DecodeOptions, lim rdf.Limits) *decoder {
	return &decoder{src: src, opts: opts, lim: lim}
}

// position converts a byte offset to a 1-based line and column (in code
// points).
func (d *decoder) position(off int) (int, int) { return rdferr.Position(d.src, off) }

func (d *decoder) errAt(off int, format string, args ...any) error {
	line, col := d.position(off)
	return &rdf.ParseError{File: d.opts.File, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) limitErr(off int, what string, n int64) error {
	line, col := d.position(off)
	return &rdf.ParseError{File: d.opts.File, Line: line, Column: col,
		Msg: fmt.Sprintf("more than %d %s: %v", n, what, rdf.ErrLimit)}
}

func (d *decoder) count(off int) error {
	d.records++
	if d.lim.MaxQuads >= 0 && d.records > d.lim.MaxQuads {
		return d.limitErr(off, "records", d.lim.MaxQuads)
	}
	return nil
}

func (d *decoder) checkTerm(off int, s string) error {
	if d.lim.MaxTermLength >= 0 && len(s) > d.lim.MaxTermLength {
		return d.limitErr(off, "bytes in one field", int64(d.lim.MaxTermLength))
	}
	return nil
}

func (d *decoder) addNode(off int, n Node) error {
	if err := d.count(off); err != nil {
		return err
	}
	if err := errors.Join(d.checkTerm(off, n.ID), d.checkTerm(off, n.Type)); err != nil {
		return err
	}
	if d.opts.Strict {
		if d.nodeIDs == nil {
			d.nodeIDs = map[string]bool{}
		}
		if d.nodeIDs[n.ID] {
			return d.errAt(off, "duplicate node identifier %q", n.ID)
		}
		d.nodeIDs[n.ID] = true
	}
	d.g.Nodes = append(d.g.Nodes, n)
	return nil
}

func (d *decoder) addEdge(off int, e Edge) error {
	if err := d.count(off); err != nil {
		return err
	}
	if err := errors.Join(d.checkTerm(off, e.Source), d.checkTerm(off, e.Relation), d.checkTerm(off, e.Target)); err != nil {
		return err
	}
	if d.opts.Strict {
		if d.edges == nil {
			d.edges = map[Edge]bool{}
		}
		if d.edges[e] {
			return d.errAt(off, "duplicate edge %q %q %q", e.Source, e.Relation, e.Target)
		}
		d.edges[e] = true
		d.edgeOff = append(d.edgeOff, off)
	}
	d.g.Edges = append(d.g.Edges, e)
	return nil
}

// finish applies the strict orphan-edge check.
func (d *decoder) finish() (Graph, error) {
	if d.opts.Strict {
		for i, e := range d.g.Edges {
			for _, id := range []string{e.Source, e.Target} {
				if !d.nodeIDs[id] {
					return Graph{}, d.errAt(d.edgeOff[i], "edge endpoint %q has no node record (orphan edge)", id)
				}
			}
		}
	}
	if d.g.Nodes == nil {
		d.g.Nodes = []Node{}
	}
	if d.g.Edges == nil {
		d.g.Edges = []Edge{}
	}
	return d.g, nil
}

func start(r io.Reader, opts DecodeOptions) (*decoder, error) {
	lim := opts.Limits.WithDefaults()
	src, err := readAll(r, opts, lim)
	if err != nil {
		return nil, err
	}
	return newDecoder(src, opts, lim), nil
}

func (d *decoder) parseJSON(src string, base int) (*jsonValue, error) {
	p := &jsonParser{src: src, maxDepth: d.lim.MaxDepth, maxStr: d.lim.MaxTermLength,
		err: func(off int, format string, args ...any) error { return d.errAt(base+off, format, args...) }}
	if p.maxDepth < 0 {
		p.maxDepth = 1 << 30
	}
	return p.document()
}

// expect checks a JSON value's kind.
func (d *decoder) expect(v *jsonValue, base int, kind jsonKind, what string) error {
	if v.kind != kind {
		return d.errAt(base+v.off, "%s must be a JSON %s, found %s", what, kind, v.kind)
	}
	return nil
}

// fields reads an object whose members must be exactly names, all strings.
func (d *decoder) fields(v *jsonValue, base int, what string, names ...string) ([]string, error) {
	if err := d.expect(v, base, jsonObject, what); err != nil {
		return nil, err
	}
	for i, k := range v.keys {
		found := false
		for _, n := range names {
			found = found || n == k
		}
		if !found {
			return nil, d.errAt(base+v.koffs[i], "unexpected key %q in %s", k, what)
		}
	}
	out := make([]string, len(names))
	for i, n := range names {
		m := v.get(n)
		if m == nil {
			return nil, d.errAt(base+v.off, "%s lacks the key %q", what, n)
		}
		if err := d.expect(m, base, jsonString, fmt.Sprintf("%q of %s", n, what)); err != nil {
			return nil, err
		}
		out[i] = m.str
	}
	return out, nil
}

// tuple reads an array of exactly n strings.
func (d *decoder) tuple(v *jsonValue, base, n int, what string) ([]string, error) {
	if err := d.expect(v, base, jsonArray, what); err != nil {
		return nil, err
	}
	if len(v.items) != n {
		return nil, d.errAt(base+v.off, "%s must have %d items, found %d", what, n, len(v.items))
	}
	out := make([]string, n)
	for i, it := range v.items {
		if err := d.expect(it, base, jsonString, what+" item"); err != nil {
			return nil, err
		}
		out[i] = it.str
	}
	return out, nil
}

// topArrays reads the top-level object with exactly the two array members.
func (d *decoder) topArrays(v *jsonValue, nodesKey, edgesKey string) (*jsonValue, *jsonValue, error) {
	if err := d.expect(v, 0, jsonObject, "the document"); err != nil {
		return nil, nil, err
	}
	for i, k := range v.keys {
		if k != nodesKey && k != edgesKey {
			return nil, nil, d.errAt(v.koffs[i], "unexpected key %q in the document", k)
		}
	}
	nodes, edges := v.get(nodesKey), v.get(edgesKey)
	if nodes == nil || edges == nil {
		return nil, nil, d.errAt(v.off, "the document needs the keys %q and %q", nodesKey, edgesKey)
	}
	if err := d.expect(nodes, 0, jsonArray, fmt.Sprintf("%q", nodesKey)); err != nil {
		return nil, nil, err
	}
	if err := d.expect(edges, 0, jsonArray, fmt.Sprintf("%q", edgesKey)); err != nil {
		return nil, nil, err
	}
	return nodes, edges, nil
}

// DecodePrettyJSON reads pretty_json (any JSON layout of the same shape):
// an object with exactly "nodes" (objects with exactly "id" and "type") and
// "edges" (objects with exactly "source", "relation" and "target"), all
// values strings.
func DecodePrettyJSON(r io.Reader, opts DecodeOptions) (Graph, error) {
	return decodeJSONGraph(r, opts, "nodes", "edges", func(d *decoder, v *jsonValue, edge bool) ([]string, error) {
		if edge {
			return d.fields(v, 0, "an edge", "source", "relation", "target")
		}
		return d.fields(v, 0, "a node", "id", "type")
	})
}

// DecodeCompactJSON reads compact_json: an object with exactly "n" (arrays
// of two strings) and "e" (arrays of three strings).
func DecodeCompactJSON(r io.Reader, opts DecodeOptions) (Graph, error) {
	return decodeJSONGraph(r, opts, "n", "e", func(d *decoder, v *jsonValue, edge bool) ([]string, error) {
		if edge {
			return d.tuple(v, 0, 3, "an edge")
		}
		return d.tuple(v, 0, 2, "a node")
	})
}

// decodeJSONGraph reads a JSON document whose top object holds exactly the
// arrays nodesKey and edgesKey; item reads the strings of one node (two)
// or edge (three).
func decodeJSONGraph(r io.Reader, opts DecodeOptions, nodesKey, edgesKey string,
	item func(d *decoder, v *jsonValue, edge bool) ([]string, error)) (Graph, error) {
	d, err := start(r, opts)
	if err != nil {
		return Graph{}, err
	}
	v, err := d.parseJSON(d.src, 0)
	if err != nil {
		return Graph{}, err
	}
	nodes, edges, err := d.topArrays(v, nodesKey, edgesKey)
	if err != nil {
		return Graph{}, err
	}
	for _, it := range nodes.items {
		f, err := item(d, it, false)
		if err != nil {
			return Graph{}, err
		}
		if err := d.addNode(it.off, Node{f[0], f[1]}); err != nil {
			return Graph{}, err
		}
	}
	for _, it := range edges.items {
		f, err := item(d, it, true)
		if err != nil {
			return Graph{}, err
		}
		if err := d.addEdge(it.off, Edge{f[0], f[1], f[2]}); err != nil {
			return Graph{}, err
		}
	}
	return d.finish()
}

// lines calls fn for each "\n"-terminated line of d.src with its byte
// offset. A final empty line (after a trailing newline) is skipped.
func (d *decoder) lines(fn func(line string, off int) error) error {
	off := 0
	for off < len(d.src) {
		end := strings.IndexByte(d.src[off:], '\n')
		var line string
		next := len(d.src)
		if end < 0 {
			line = d.src[off:]
		} else {
			line = d.src[off : off+end]
			next = off + end + 1
		}
		if err := fn(line, off); err != nil {
			return err
		}
		off = next
	}
	return nil
}

// DecodeJSONL reads jsonl: one JSON object per line, {"k":"n","id","t"} or
// {"k":"e","s","r","t"} with exactly those keys; blank lines are skipped.
// Lines are separated by "\n" only (a "\r" or U+2028 is data, as json.dumps
// leaves U+2028 unescaped).
func DecodeJSONL(r io.Reader, opts DecodeOptions) (Graph, error) {
	d, err := start(r, opts)
	if err != nil {
		return Graph{}, err
	}
	err = d.lines(func(line string, off int) error {
		if strings.Trim(line, " \t\r") == "" {
			return nil
		}
		v, err := d.parseJSON(line, off)
		if err != nil {
			return err
		}
		if err := d.expect(v, off, jsonObject, "a record"); err != nil {
			return err
		}
		k := v.get("k")
		if k == nil {
			return d.errAt(off+v.off, `record lacks the key "k"`)
		}
		if err := d.expect(k, off, jsonString, `"k"`); err != nil {
			return err
		}
		switch k.str {
		case "n":
			f, err := d.fields(v, off, "a node record", "k", "id", "t")
			if err != nil {
				return err
			}
			return d.addNode(off, Node{f[1], f[2]})
		case "e":
			f, err := d.fields(v, off, "an edge record", "k", "s", "r", "t")
			if err != nil {
				return err
			}
			return d.addEdge(off, Edge{f[1], f[2], f[3]})
		default:
			return d.errAt(off+k.off, "unknown record kind %q", k.str)
		}
	})
	if err != nil {
		return Graph{}, err
	}
	return d.finish()
}

// csvRecord reads one CSV record (RFC 4180 with Python's excel dialect:
// comma, double quote, doubled quotes; records end at "\n" or "\r\n") from
// off, returning the fields, their offsets and the offset after the record.
func (d *decoder) csvRecord(off int) (fields []string, offs []int, next int, err error) {
	s := d.src
	i := off
	for {
		offs = append(offs, i)
		if len(fields) >= 64 {
			return nil, nil, 0, d.errAt(i, "too many fields in a CSV record")
		}
		var b strings.Builder
		if i < len(s) && s[i] == '"' {
			i++
			for {
				j := strings.IndexByte(s[i:], '"')
				if j < 0 {
					return nil, nil, 0, d.errAt(offs[len(offs)-1], "unterminated quoted field")
				}
				b.WriteString(s[i : i+j])
				i += j + 1
				if i < len(s) && s[i] == '"' {
					b.WriteByte('"')
					i++
					continue
				}
				break
			}
			if i < len(s) && s[i] != ',' && s[i] != '\n' && !(s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n') {
				return nil, nil, 0, d.errAt(i, "unexpected %q after a closing quote", s[i])
			}
		} else {
			j := i
			for j < len(s) && s[j] != ',' && s[j] != '\n' {
				if s[j] == '"' {
					return nil, nil, 0, d.errAt(j, `bare " in an unquoted field`)
				}
				if s[j] == '\r' {
					if j+1 < len(s) && s[j+1] == '\n' {
						break
					}
					return nil, nil, 0, d.errAt(j, `bare "\r" in an unquoted field`)
				}
				j++
			}
			b.WriteString(s[i:j])
			i = j
		}
		fields = append(fields, b.String())
		if i < len(s) && s[i] == ',' {
			i++
			continue
		}
		if i < len(s) && s[i] == '\r' {
			i++
		}
		if i < len(s) && s[i] == '\n' {
			i++
		}
		return fields, offs, i, nil
	}
}

// DecodeCSV reads csv: the header kind,a,b,c, then records of exactly four
// fields, N,id,type, (empty fourth field) or E,source,relation,target.
func DecodeCSV(r io.Reader, opts DecodeOptions) (Graph, error) {
	d, err := start(r, opts)
	if err != nil {
		return Graph{}, err
	}
	if d.src == "" {
		return Graph{}, d.errAt(0, "missing CSV header kind,a,b,c")
	}
	off := 0
	header := true
	for off < len(d.src) {
		f, offs, next, err := d.csvRecord(off)
		if err != nil {
			return Graph{}, err
		}
		if header {
			if len(f) != 4 || f[0] != "kind" || f[1] != "a" || f[2] != "b" || f[3] != "c" {
				return Graph{}, d.errAt(off, "unexpected CSV header, want kind,a,b,c")
			}
			header = false
			off = next
			continue
		}
		if len(f) != 4 {
			return Graph{}, d.errAt(off, "CSV record has %d fields, want 4", len(f))
		}
		switch f[0] {
		case "N":
			if f[3] != "" {
				return Graph{}, d.errAt(offs[3], "node record has a non-empty fourth field")
			}
			err = d.addNode(off, Node{f[1], f[2]})
		case "E":
			err = d.addEdge(off, Edge{f[1], f[2], f[3]})
		default:
			err = d.errAt(off, "unknown CSV record kind %q", f[0])
		}
		if err != nil {
			return Graph{}, err
		}
		off = next
	}
	return d.finish()
}

// splitAtoms splits a typed_edges line at unescaped pipes and unescapes each
// field (\\, \p, \n), returning the fields and their byte offsets. A line
// with more than maxFields fields is an error: records have a few, the
// dictionary lines of typed_edges_dict one per relation or type (bounded
// by the line, and so by the input size limit).
func (d *decoder) splitAtoms(line string, off, maxFields int) ([]string, []int, error) {
	var fields []string
	offs := []int{off}
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch c {
		case '\\':
			if i+1 >= len(line) {
				return nil, nil, d.errAt(off+i, "trailing escape")
			}
			i++
			switch line[i] {
			case '\\':
				b.WriteByte('\\')
			case 'p':
				b.WriteByte('|')
			case 'n':
				b.WriteByte('\n')
			default:
				r, _ := utf8.DecodeRuneInString(line[i:])
				return nil, nil, d.errAt(off+i-1, "unknown escape \\%c", r)
			}
		case '|':
			if len(fields) >= maxFields {
				return nil, nil, d.errAt(off+i, "too many fields")
			}
			fields = append(fields, b.String())
			b.Reset()
			offs = append(offs, off+i+1)
		default:
			b.WriteByte(c)
		}
	}
	fields = append(fields, b.String())
	return fields, offs, nil
}

// maxRecordFields bounds the fields of a typed_edges record line.
const maxRecordFields = 64

// DecodeTypedEdges reads typed_edges: the line #graph-v1, then N|id|type
// and E|source|relation|target lines. Lines are separated by "\n" only (a
// "\r" is data); one final newline is allowed.
func DecodeTypedEdges(r io.Reader, opts DecodeOptions) (Graph, error) {
	d, err := start(r, opts)
	if err != nil {
		return Graph{}, err
	}
	n, err := d.typedLines(TypedEdgesHeader, 0, nil, nil)
	if err != nil {
		return Graph{}, err
	}
	if n == 0 {
		return Graph{}, d.errAt(0, "missing graph format declaration %s", TypedEdgesHeader)
	}
	return d.finish()
}

// typedLines reads the lines of typed_edges and typed_edges_dict: the
// version line header, then nDict dictionary lines passed to dictLine
// (with their line number, from 2), then the N and E records, whose codes
// are translated through dict (nil: no dictionary). It returns the number
// of lines read.
func (d *decoder) typedLines(header string, nDict int, dictLine func(lineNo int, line string, off int) error, dict *dictMaps) (int, error) {
	lineNo := 0
	err := d.lines(func(line string, off int) error {
		lineNo++
		switch {
		case lineNo == 1:
			if line != header {
				return d.errAt(off, "missing graph format declaration %s", header)
			}
			return nil
		case lineNo <= 1+nDict:
			return dictLine(lineNo, line, off)
		}
		f, offs, err := d.splitAtoms(line, off, maxRecordFields)
		if err != nil {
			return err
		}
		return d.typedRecord(f, offs, off, dict)
	})
	return lineNo, err
}

// code translates a type code, or a relation code if rel, through dict
// (the code itself when dict is nil).
func (d *decoder) code(dict *dictMaps, rel bool, code string, off int) (string, error) {
	if dict == nil {
		return code, nil
	}
	names, what := dict.types, "type"
	if rel {
		names, what = dict.rels, "relation"
	}
	name, ok := names[code]
	if !ok {
		return "", d.errAt(off, "unknown %s code %q", what, code)
	}
	return name, nil
}

// typedRecord adds one N or E record, translating codes through dict when
// it is not nil.
func (d *decoder) typedRecord(f []string, offs []int, off int, dict *dictMaps) error {
	switch {
	case f[0] == "N" && len(f) == 3:
		typ, err := d.code(dict, false, f[2], offs[2])
		if err != nil {
			return err
		}
		return d.addNode(off, Node{f[1], typ})
	case f[0] == "E" && len(f) == 4:
		rel, err := d.code(dict, true, f[2], offs[2])
		if err != nil {
			return err
		}
		return d.addEdge(off, Edge{f[1], rel, f[3]})
	case f[0] == "N":
		return d.errAt(off, "N record has %d fields, want 3", len(f))
	case f[0] == "E":
		return d.errAt(off, "E record has %d fields, want 4", len(f))
	default:
		return d.errAt(off, "unknown record kind %q", f[0])
	}
}
