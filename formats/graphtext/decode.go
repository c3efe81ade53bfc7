package graphtext

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdferr"
)

// lines holds an input split into lines, for the line-oriented decoders.
type lines struct {
	format string
	ls     []string
}

func readLines(r io.Reader, format string) (*lines, error) {
	data, over, err := rdferr.Limits{MaxBytes: MaxDecodeBytes}.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if over {
		return nil, &rdf.ParseError{Line: 1, Column: 1, Msg: fmt.Sprintf("%s: input larger than %d bytes", format, MaxDecodeBytes), Err: rdf.ErrLimit}
	}
	s := string(data)
	if !strings.HasSuffix(s, "\n") {
		ls := strings.Split(s, "\n")
		last := len(ls)
		return nil, &rdf.ParseError{Line: last, Column: utf8.RuneCountInString(ls[last-1]) + 1, Msg: format + ": missing final newline"}
	}
	return &lines{format: format, ls: strings.Split(s[:len(s)-1], "\n")}, nil
}

// errAt reports an error at byte offset off of line i (0-based).
func (l *lines) errAt(i, off int, msg string, a ...any) error {
	col := 1
	if i < len(l.ls) {
		if off > len(l.ls[i]) {
			off = len(l.ls[i])
		}
		col = utf8.RuneCountInString(l.ls[i][:off]) + 1
	}
	return &rdf.ParseError{Line: i + 1, Column: col, Msg: l.format + ": " + fmt.Sprintf(msg, a...)}
}

// expect checks that line i is exactly want.
func (l *lines) expect(i int, want string) error {
	if i >= len(l.ls) {
		return l.errAt(len(l.ls)-1, 0, "unexpected end of input, want %q", want)
	}
	if l.ls[i] != want {
		n := 0
		for n < len(want) && n < len(l.ls[i]) && want[n] == l.ls[i][n] {
			n++
		}
		return l.errAt(i, n, "want %q", want)
	}
	return nil
}

// scanner reads tokens from one line.
type scanner struct {
	l    *lines
	line int
	s    string
	pos  int
}

func (l *lines) scan(i int) *scanner { return &scanner{l: l, line: i, s: l.ls[i]} }

func (sc *scanner) err(msg string, a ...any) error { return sc.l.errAt(sc.line, sc.pos, msg, a...) }

func (sc *scanner) eof() bool { return sc.pos >= len(sc.s) }

// listSep reads the separator before an item of a node list: " " before
// the first, ", " before the others.
func (sc *scanner) listSep(first bool) error {
	if !first {
		if err := sc.lit(","); err != nil {
			return err
		}
	}
	return sc.lit(" ")
}

func (sc *scanner) lit(want string) error {
	if !strings.HasPrefix(sc.s[sc.pos:], want) {
		return sc.err("want %q", want)
	}
	sc.pos += len(want)
	return nil
}

func (sc *scanner) accept(want string) bool {
	if strings.HasPrefix(sc.s[sc.pos:], want) {
		sc.pos += len(want)
		return true
	}
	return false
}

// quoted reads a Go-syntax quoted string.
func (sc *scanner) quoted() (string, error) {
	start := sc.pos
	if sc.eof() || sc.s[sc.pos] != '"' {
		return "", sc.err("want a quoted string")
	}
	i := sc.pos + 1
	for ; i < len(sc.s); i++ {
		if sc.s[i] == '\\' {
			i++
			continue
		}
		if sc.s[i] == '"' {
			break
		}
	}
	if i >= len(sc.s) {
		return "", sc.err("unterminated quoted string")
	}
	v, err := strconv.Unquote(sc.s[start : i+1])
	if err != nil {
		return "", sc.err("bad quoted string: %v", err)
	}
	sc.pos = i + 1
	return v, nil
}

// word reads a tok: a quoted string or a bare word.
func (sc *scanner) word() (string, error) {
	if !sc.eof() && sc.s[sc.pos] == '"' {
		return sc.quoted()
	}
	start := sc.pos
	for sc.pos < len(sc.s) {
		r, n := utf8.DecodeRuneInString(sc.s[sc.pos:])
		if r == ' ' || r == ',' || r == ')' || r == ']' || r == '|' {
			break
		}
		sc.pos += n
	}
	w := sc.s[start:sc.pos]
	if !bareWord(w) {
		sc.pos = start
		return "", sc.err("want an identifier (a plain word or a quoted string)")
	}
	return w, nil
}

func (sc *scanner) end() error {
	if !sc.eof() {
		return sc.err("unexpected text at end of line")
	}
	return nil
}

// --- edge_list ---

func decEdgeList(r io.Reader) (*graph.Graph, error) {
	l, err := readLines(r, "edge_list")
	if err != nil {
		return nil, err
	}
	g := &graph.Graph{}
	switch l.ls[0] {
	case "Graph (directed).":
		g.Directed = true
	case "Graph (undirected).":
	default:
		return nil, l.errAt(0, 0, `want "Graph (directed)." or "Graph (undirected)."`)
	}
	if len(l.ls) < 3 {
		return nil, l.errAt(len(l.ls)-1, len(l.ls[len(l.ls)-1]), "unexpected end of input")
	}
	sc := l.scan(1)
	if err := sc.lit("Nodes:"); err != nil {
		return nil, err
	}
	for !sc.eof() {
		if err := sc.listSep(len(g.Nodes) == 0); err != nil {
			return nil, err
		}
		var n graph.Node
		if n.ID, err = sc.word(); err != nil {
			return nil, err
		}
		if sc.accept(" \"") {
			sc.pos--
			if n.Label, err = sc.quoted(); err != nil {
				return nil, err
			}
			if n.Label == "" {
				return nil, sc.err("empty label (write none)")
			}
		}
		if sc.accept(" (") {
			for {
				t, err := sc.word()
				if err != nil {
					return nil, err
				}
				n.Types = append(n.Types, t)
				if sc.accept(")") {
					break
				}
				if err := sc.lit(", "); err != nil {
					return nil, err
				}
			}
		}
		g.Nodes = append(g.Nodes, n)
	}
	if err := l.expect(2, "Edges:"); err != nil {
		return nil, err
	}
	for i := 3; i < len(l.ls); i++ {
		sc := l.scan(i)
		var e graph.Edge
		if e.From, err = sc.word(); err != nil {
			return nil, err
		}
		if err := sc.lit(" "); err != nil {
			return nil, err
		}
		directed := false
		switch {
		case sc.accept("-- "):
		case sc.accept("-> "):
			directed = true
		case sc.accept("-["):
			if e.Type, err = sc.word(); err != nil {
				return nil, err
			}
			if e.Type == "" {
				return nil, sc.err("empty edge type (write -- or ->)")
			}
			switch {
			case sc.accept("]-> "):
				directed = true
			case sc.accept("]- "):
			default:
				return nil, sc.err(`want "]- " or "]-> "`)
			}
		default:
			return nil, sc.err("want an edge operator (--, ->, -[type]- or -[type]->)")
		}
		if directed != g.Directed {
			sc.pos -= 3
			return nil, sc.err("edge direction does not match the graph header")
		}
		if e.To, err = sc.word(); err != nil {
			return nil, err
		}
		if err := sc.end(); err != nil {
			return nil, err
		}
		g.Edges = append(g.Edges, e)
	}
	return g, nil
}

// --- markdown_table ---

// rowCells splits a table row "| a | b |" into its trimmed cells.
func rowCells(l *lines, i, want int) ([]string, []int, error) {
	s := l.ls[i]
	if !strings.HasPrefix(s, "| ") || !strings.HasSuffix(s, " |") || len(s) < 4 {
		return nil, nil, l.errAt(i, 0, "want a table row | ... |")
	}
	var cells []string
	var offs []int
	pos := 1
	for _, c := range strings.Split(s[1:len(s)-1], "|") {
		if len(c) < 2 || c[0] != ' ' || c[len(c)-1] != ' ' {
			return nil, nil, l.errAt(i, pos, "table cells are written | value |")
		}
		cells = append(cells, c[1:len(c)-1])
		offs = append(offs, pos+1)
		pos += len(c) + 1
	}
	if len(cells) != want {
		return nil, nil, l.errAt(i, 0, "want %d cells, got %d", want, len(cells))
	}
	return cells, offs, nil
}

// cellValue decodes a cell written by cell(); empty cells are allowed only
// when optional.
func cellValue(l *lines, i, off int, c string, optional bool) (string, error) {
	if c == "" && optional {
		return "", nil
	}
	sc := &scanner{l: l, line: i, s: l.ls[i][:off+len(c)], pos: off}
	v, err := sc.word()
	if err != nil {
		return "", err
	}
	if err := sc.end(); err != nil {
		return "", err
	}
	if optional && v == "" {
		return "", sc.err("empty value (leave the cell blank)")
	}
	return v, nil
}

func decMarkdown(r io.Reader) (*graph.Graph, error) {
	l, err := readLines(r, "markdown_table")
	if err != nil {
		return nil, err
	}
	g := &graph.Graph{}
	i := 0
	if l.ls[0] == "**Nodes**" {
		if err := l.expect(1, "| id | label | types |"); err != nil {
			return nil, err
		}
		if err := l.expect(2, "|---|---|---|"); err != nil {
			return nil, err
		}
		for i = 3; i < len(l.ls) && strings.HasPrefix(l.ls[i], "|"); i++ {
			cells, offs, err := rowCells(l, i, 3)
			if err != nil {
				return nil, err
			}
			var n graph.Node
			if n.ID, err = cellValue(l, i, offs[0], cells[0], false); err != nil {
				return nil, err
			}
			if n.Label, err = cellValue(l, i, offs[1], cells[1], true); err != nil {
				return nil, err
			}
			if cells[2] != "" {
				sc := &scanner{l: l, line: i, s: l.ls[i][:offs[2]+len(cells[2])], pos: offs[2]}
				for {
					t, err := sc.word()
					if err != nil {
						return nil, err
					}
					n.Types = append(n.Types, t)
					if sc.eof() {
						break
					}
					if err := sc.lit(", "); err != nil {
						return nil, err
					}
				}
			}
			g.Nodes = append(g.Nodes, n)
		}
	} else {
		sc := l.scan(0)
		if err := sc.lit("**Nodes:**"); err != nil {
			return nil, err
		}
		for !sc.eof() {
			if err := sc.listSep(len(g.Nodes) == 0); err != nil {
				return nil, err
			}
			id, err := sc.word()
			if err != nil {
				return nil, err
			}
			g.Nodes = append(g.Nodes, graph.Node{ID: id})
		}
		i = 1
	}
	if err := l.expect(i, ""); err != nil {
		return nil, err
	}
	i++
	if i >= len(l.ls) {
		return nil, l.errAt(i-1, 0, "unexpected end of input, want **Edges**")
	}
	switch l.ls[i] {
	case "**Edges**":
	case "**Edges (directed)**":
		g.Directed = true
	default:
		return nil, l.errAt(i, 0, `want "**Edges**" or "**Edges (directed)**"`)
	}
	i++
	typed := i < len(l.ls) && l.ls[i] == "| u | relation | v |"
	if typed {
		if err := l.expect(i+1, "|---|---|---|"); err != nil {
			return nil, err
		}
	} else {
		if err := l.expect(i, "| u | v |"); err != nil {
			return nil, err
		}
		if err := l.expect(i+1, "|---|---|"); err != nil {
			return nil, err
		}
	}
	for i += 2; i < len(l.ls); i++ {
		want := 2
		if typed {
			want = 3
		}
		cells, offs, err := rowCells(l, i, want)
		if err != nil {
			return nil, err
		}
		var e graph.Edge
		if e.From, err = cellValue(l, i, offs[0], cells[0], false); err != nil {
			return nil, err
		}
		if e.To, err = cellValue(l, i, offs[want-1], cells[want-1], false); err != nil {
			return nil, err
		}
		if typed {
			if e.Type, err = cellValue(l, i, offs[1], cells[1], true); err != nil {
				return nil, err
			}
		}
		g.Edges = append(g.Edges, e)
	}
	return g, nil
}

// --- dot ---

// dotWord reads a DOT id: a quoted string (with the escapes dotID writes)
// or a bare identifier or numeral.
func (sc *scanner) dotWord() (string, error) {
	if !sc.eof() && sc.s[sc.pos] == '"' {
		var sb strings.Builder
		i := sc.pos + 1
		for ; i < len(sc.s) && sc.s[i] != '"'; i++ {
			c := sc.s[i]
			if c != '\\' {
				sb.WriteByte(c)
				continue
			}
			if i+1 >= len(sc.s) {
				break
			}
			i++
			switch sc.s[i] {
			case '"', '\\':
				sb.WriteByte(sc.s[i])
			case 'n':
				sb.WriteByte('\n')
			case 'r':
				sb.WriteByte('\r')
			case 't':
				sb.WriteByte('\t')
			default:
				sc.pos = i - 1
				return "", sc.err("unknown escape \\%c", sc.s[i])
			}
		}
		if i >= len(sc.s) {
			return "", sc.err("unterminated quoted string")
		}
		sc.pos = i + 1
		return sb.String(), nil
	}
	start := sc.pos
	for sc.pos < len(sc.s) {
		c := sc.s[sc.pos]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			break
		}
		sc.pos++
	}
	w := sc.s[start:sc.pos]
	if !dotBare(w) {
		sc.pos = start
		return "", sc.err("want a DOT identifier")
	}
	return w, nil
}

// dotAttrs reads " [k=v, k=v]" if present.
func (sc *scanner) dotAttrs(allowed ...string) (map[string]string, error) {
	if !sc.accept(" [") {
		return nil, nil
	}
	m := map[string]string{}
	for {
		start := sc.pos
		k, err := sc.dotWord()
		if err != nil {
			return nil, err
		}
		ok := false
		for _, a := range allowed {
			ok = ok || a == k
		}
		if _, dup := m[k]; !ok || dup {
			sc.pos = start
			return nil, sc.err("unexpected attribute %q", k)
		}
		if err := sc.lit("="); err != nil {
			return nil, err
		}
		if m[k], err = sc.dotWord(); err != nil {
			return nil, err
		}
		if m[k] == "" {
			sc.pos = start
			return nil, sc.err("empty %s", k)
		}
		if sc.accept("]") {
			return m, nil
		}
		if err := sc.lit(", "); err != nil {
			return nil, err
		}
	}
}

func decDOT(r io.Reader) (*graph.Graph, error) {
	l, err := readLines(r, "dot")
	if err != nil {
		return nil, err
	}
	g := &graph.Graph{}
	op := " -- "
	switch l.ls[0] {
	case "digraph G {":
		g.Directed = true
		op = " -> "
	case "graph G {":
	default:
		return nil, l.errAt(0, 0, `want "graph G {" or "digraph G {"`)
	}
	last := len(l.ls) - 1
	if last < 1 || l.ls[last] != "}" {
		return nil, l.errAt(last, 0, `want "}" on the last line`)
	}
	edges := false
	for i := 1; i < last; i++ {
		sc := l.scan(i)
		if err := sc.lit("  "); err != nil {
			return nil, err
		}
		a, err := sc.dotWord()
		if err != nil {
			return nil, err
		}
		if sc.accept(op) {
			edges = true
			e := graph.Edge{From: a}
			if e.To, err = sc.dotWord(); err != nil {
				return nil, err
			}
			attrs, err := sc.dotAttrs("label")
			if err != nil {
				return nil, err
			}
			e.Type = attrs["label"]
			if err := sc.lit(";"); err != nil {
				return nil, err
			}
			if err := sc.end(); err != nil {
				return nil, err
			}
			g.Edges = append(g.Edges, e)
			continue
		}
		if edges {
			return nil, sc.err("node statements come before edge statements; want %q", strings.TrimSpace(op))
		}
		attrPos := sc.pos
		attrs, err := sc.dotAttrs("label", "class")
		if err != nil {
			return nil, err
		}
		n := graph.Node{ID: a, Label: attrs["label"]}
		if c, ok := attrs["class"]; ok {
			if n.Types, err = parseTypeList(c); err != nil {
				sc.pos = attrPos
				return nil, sc.err("%v", err)
			}
		}
		if err := sc.lit(";"); err != nil {
			return nil, err
		}
		if err := sc.end(); err != nil {
			return nil, err
		}
		g.Nodes = append(g.Nodes, n)
	}
	return g, nil
}
