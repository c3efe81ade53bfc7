package py

import (
	"errors"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind is the type of a Python literal value.
type Kind int

// Kinds of Python literal values.
const (
	Str Kind = iota + 1
	Bytes
	Num
	Const // True, False, None
	List
	Tuple
	Set
	Dict
)

// Value is a Python literal. Numbers keep their source text only.
type Value struct {
	Kind Kind
	// S is the text of a str, the bytes of a bytes value, the source text
	// of a number, or the name of a constant.
	S string
	// Items are the elements of a list, tuple or set, or the keys of a dict.
	Items []Value
}

// Tuple returns the elements of tuple(v): the items of a list, tuple or set
// (a set in source order; Python's order there depends on hashing), the
// keys of a dict, the characters of a str, the bytes of a bytes value (as
// numbers). Numbers and constants are not iterable.
func (v Value) Tuple() ([]Value, bool) {
	switch v.Kind {
	case List, Tuple, Set, Dict:
		return v.Items, true
	case Str:
		out := make([]Value, 0, len(v.S))
		for _, r := range v.S {
			out = append(out, Value{Kind: Str, S: string(r)})
		}
		return out, true
	case Bytes:
		out := make([]Value, len(v.S))
		for i := range out {
			out[i] = Value{Kind: Num, S: strconv.Itoa(int(v.S[i]))}
		}
		return out, true
	}
	return nil, false
}

// Limits of the literal evaluator (Python itself fails on deep nesting).
const (
	maxLiteralDepth = 100
	maxLiteralBytes = 1 << 20
)

// ErrLiteral is returned for text that is not a literal LiteralEval reads
// (Python raises SyntaxError or ValueError).
var ErrLiteral = errors.New("malformed Python literal")

type literal struct {
	s     string
	p     int
	depth int
}

// LiteralEval evaluates s as ast.literal_eval does for the values a
// path answer can hold: str and bytes literals (with prefixes, escapes,
// triple quotes and implicit concatenation), numbers, True/False/None,
// lists, tuples (also without parentheses at the top level), sets and
// dicts. Leading spaces and tabs are ignored, as literal_eval does; comments
// are skipped. Anything else is an error, as SyntaxError or ValueError is.
func LiteralEval(s string) (Value, error) {
	if len(s) > maxLiteralBytes {
		return Value{}, ErrLiteral
	}
	l := &literal{s: strings.TrimLeft(s, " \t")}
	l.skip(true) // eval mode accepts blank and comment lines before the expression
	v, err := l.exprList(true)
	if err != nil {
		return Value{}, err
	}
	l.skip(true)
	if l.p != len(l.s) {
		return Value{}, ErrLiteral
	}
	return v, nil
}

// skip skips white space and comments; newlines only inside brackets.
func (l *literal) skip(newlines bool) {
	for l.p < len(l.s) {
		c := l.s[l.p]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			l.p++
		case (c == '\n' || c == '\r') && (newlines || l.depth > 0):
			l.p++
		case c == '\\' && l.p+1 < len(l.s) && l.s[l.p+1] == '\n':
			l.p += 2
		case c == '#':
			for l.p < len(l.s) && l.s[l.p] != '\n' {
				l.p++
			}
		default:
			return
		}
	}
}

func (l *literal) peek() byte {
	l.skip(false)
	if l.p < len(l.s) {
		return l.s[l.p]
	}
	return 0
}

// exprList parses item (',' item)* [','], a tuple when a comma occurs.
func (l *literal) exprList(top bool) (Value, error) {
	first, err := l.item()
	if err != nil {
		return first, err
	}
	if l.peek() != ',' {
		return first, nil
	}
	items := []Value{first}
	for l.peek() == ',' {
		l.p++
		c := l.peek()
		if c == 0 || c == ')' || (top && c == '\n') {
			break
		}
		v, err := l.item()
		if err != nil {
			return v, err
		}
		items = append(items, v)
	}
	return Value{Kind: Tuple, Items: items}, nil
}

func (l *literal) item() (Value, error) {
	c := l.peek()
	switch {
	case c == '[':
		return l.container('[', ']', List)
	case c == '(':
		return l.container('(', ')', Tuple)
	case c == '{':
		return l.braces()
	case c == '+' || c == '-':
		l.p++
		v, err := l.item()
		if err != nil || v.Kind != Num {
			return Value{}, ErrLiteral
		}
		return v, nil
	case c >= '0' && c <= '9' || c == '.':
		return l.number()
	case c == '\'' || c == '"':
		return l.strings()
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
		start := l.p
		for l.p < len(l.s) && (identByte(l.s[l.p])) {
			l.p++
		}
		word := l.s[start:l.p]
		if l.p < len(l.s) && (l.s[l.p] == '\'' || l.s[l.p] == '"') && strPrefix(word) {
			l.p = start
			return l.strings()
		}
		switch word {
		case "True", "False", "None":
			return Value{Kind: Const, S: word}, nil
		}
		return Value{}, ErrLiteral
	}
	return Value{}, ErrLiteral
}

func identByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

func strPrefix(w string) bool {
	switch strings.ToLower(w) {
	case "r", "u", "b", "br", "rb":
		return true
	}
	return false
}

func (l *literal) container(open, close byte, kind Kind) (Value, error) {
	if l.depth >= maxLiteralDepth {
		return Value{}, ErrLiteral
	}
	l.p++ // open
	l.depth++
	defer func() { l.depth-- }()
	var items []Value
	if l.peek() == close {
		l.p++
		return Value{Kind: kind, Items: items}, nil
	}
	if kind == Tuple {
		v, err := l.exprList(false)
		if err != nil {
			return v, err
		}
		if l.peek() != close {
			return Value{}, ErrLiteral
		}
		l.p++
		return v, nil // (x) is x; (x,) is a tuple
	}
	for {
		v, err := l.item()
		if err != nil {
			return v, err
		}
		items = append(items, v)
		c := l.peek()
		if c == ',' {
			l.p++
			if l.peek() == close {
				l.p++
				break
			}
			continue
		}
		if c == close {
			l.p++
			break
		}
		return Value{}, ErrLiteral
	}
	return Value{Kind: kind, Items: items}, nil
}

func (l *literal) braces() (Value, error) {
	if l.depth >= maxLiteralDepth {
		return Value{}, ErrLiteral
	}
	l.p++
	l.depth++
	defer func() { l.depth-- }()
	if l.peek() == '}' {
		l.p++
		return Value{Kind: Dict}, nil
	}
	var kind Kind
	var items []Value
	for {
		k, err := l.item()
		if err != nil {
			return k, err
		}
		if k.Kind == List || k.Kind == Set || k.Kind == Dict {
			return Value{}, ErrLiteral // unhashable
		}
		items = append(items, k)
		c := l.peek()
		if c == ':' {
			if kind == Set {
				return Value{}, ErrLiteral
			}
			kind = Dict
			l.p++
			if _, err := l.item(); err != nil {
				return Value{}, err
			}
			c = l.peek()
		} else {
			if kind == Dict {
				return Value{}, ErrLiteral
			}
			kind = Set
		}
		if c == ',' {
			l.p++
			if l.peek() == '}' {
				l.p++
				break
			}
			continue
		}
		if c == '}' {
			l.p++
			break
		}
		return Value{}, ErrLiteral
	}
	// Duplicate keys or elements collapse (keeping the first position).
	seen := map[string]bool{}
	out := items[:0]
	for _, it := range items {
		if it.Kind != Tuple {
			key := strconv.Itoa(int(it.Kind)) + "\x00" + it.S
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		out = append(out, it)
	}
	return Value{Kind: kind, Items: out}, nil
}

func (l *literal) number() (Value, error) {
	start := l.p
	for l.p < len(l.s) {
		c := l.s[l.p]
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.' {
			if (c == 'e' || c == 'E') && l.p+1 < len(l.s) && (l.s[l.p+1] == '+' || l.s[l.p+1] == '-') && !strings.HasPrefix(strings.ToLower(l.s[start:]), "0x") {
				l.p += 2
				continue
			}
			l.p++
			continue
		}
		break
	}
	text := strings.ReplaceAll(l.s[start:l.p], "_", "")
	if text == "." {
		return Value{}, ErrLiteral
	}
	low := strings.ToLower(text)
	body := strings.TrimSuffix(low, "j")
	if _, err := strconv.ParseInt(body, 0, 64); err == nil {
		if len(body) > 1 && body[0] == '0' && body[1] >= '0' && body[1] <= '9' && strings.Trim(body, "0") != "" {
			return Value{}, ErrLiteral // 012 is a SyntaxError
		}
		return Value{Kind: Num, S: text}, nil
	}
	if _, err := strconv.ParseFloat(body, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if !strings.HasPrefix(body, "0x") && !strings.Contains(body, "p") && !strings.Contains(body, "inf") && !strings.Contains(body, "nan") {
			return Value{Kind: Num, S: text}, nil
		}
	}
	if body != "" && strings.Trim(body, "0123456789") == "" { // a big integer
		return Value{Kind: Num, S: text}, nil
	}
	return Value{}, ErrLiteral
}

// strings parses one or more adjacent string literals.
func (l *literal) strings() (Value, error) {
	var out Value
	for n := 0; ; n++ {
		c := l.peek()
		isStr := c == '\'' || c == '"'
		if !isStr && c != 0 && identByte(c) {
			j := l.p
			for j < len(l.s) && identByte(l.s[j]) {
				j++
			}
			isStr = j < len(l.s) && (l.s[j] == '\'' || l.s[j] == '"') && strPrefix(l.s[l.p:j])
		}
		if !isStr {
			if n == 0 {
				return out, ErrLiteral
			}
			return out, nil
		}
		v, err := l.oneString()
		if err != nil {
			return v, err
		}
		if n == 0 {
			out = v
		} else {
			if v.Kind != out.Kind {
				return Value{}, ErrLiteral // cannot mix bytes and str
			}
			out.S += v.S
		}
	}
}

func (l *literal) oneString() (Value, error) {
	raw, bytesLit := false, false
	for l.s[l.p] != '\'' && l.s[l.p] != '"' {
		switch l.s[l.p] {
		case 'r', 'R':
			raw = true
		case 'b', 'B':
			bytesLit = true
		}
		l.p++
	}
	q := l.s[l.p]
	triple := strings.HasPrefix(l.s[l.p:], strings.Repeat(string(q), 3))
	delim := string(q)
	if triple {
		delim = strings.Repeat(string(q), 3)
	}
	l.p += len(delim)
	var b strings.Builder
	for {
		if l.p >= len(l.s) {
			return Value{}, ErrLiteral
		}
		if strings.HasPrefix(l.s[l.p:], delim) {
			l.p += len(delim)
			break
		}
		c := l.s[l.p]
		if c == '\n' && !triple {
			return Value{}, ErrLiteral
		}
		if bytesLit && c >= 0x80 {
			return Value{}, ErrLiteral
		}
		if c != '\\' {
			b.WriteByte(c)
			l.p++
			continue
		}
		if l.p+1 >= len(l.s) {
			return Value{}, ErrLiteral
		}
		if raw {
			b.WriteByte('\\')
			b.WriteByte(l.s[l.p+1])
			l.p += 2
			continue
		}
		if err := l.escape(&b, bytesLit); err != nil {
			return Value{}, err
		}
	}
	kind := Str
	if bytesLit {
		kind = Bytes
	} else if !utf8.ValidString(b.String()) {
		return Value{}, ErrLiteral
	}
	return Value{Kind: kind, S: b.String()}, nil
}

// escape decodes the escape sequence at l.p (a backslash).
func (l *literal) escape(b *strings.Builder, bytesLit bool) error {
	c := l.s[l.p+1]
	l.p += 2
	if s, ok := simpleEscape(c); ok {
		b.WriteString(s)
		return nil
	}
	hex := func(n int) (rune, error) {
		if l.p+n > len(l.s) {
			return 0, ErrLiteral
		}
		v, err := strconv.ParseUint(l.s[l.p:l.p+n], 16, 32)
		if err != nil {
			return 0, ErrLiteral
		}
		l.p += n
		return rune(v), nil
	}
	switch {
	case c >= '0' && c <= '7':
		v := int(c - '0')
		for k := 0; k < 2 && l.p < len(l.s) && l.s[l.p] >= '0' && l.s[l.p] <= '7'; k++ {
			v = v*8 + int(l.s[l.p]-'0')
			l.p++
		}
		if bytesLit {
			b.WriteByte(byte(v))
		} else {
			b.WriteRune(rune(v))
		}
	case c == 'x':
		r, err := hex(2)
		if err != nil {
			return err
		}
		if bytesLit {
			b.WriteByte(byte(r))
		} else {
			b.WriteRune(r)
		}
	case (c == 'u' || c == 'U') && !bytesLit:
		n := 4
		if c == 'U' {
			n = 8
		}
		r, err := hex(n)
		if err != nil || r > unicode.MaxRune || (r >= 0xd800 && r < 0xe000) {
			// Python accepts lone surrogates; Go strings cannot hold them.
			return ErrLiteral
		}
		b.WriteRune(r)
	case c == 'N' && !bytesLit:
		// \N{NAME} needs the Unicode name table; treated as malformed.
		return ErrLiteral
	default:
		// Unknown escapes are kept as written (with a warning in Python).
		b.WriteByte('\\')
		b.WriteByte(c)
	}
	return nil
}

func simpleEscape(c byte) (string, bool) {
	switch c {
	case '\n':
		return "", true
	case '\\', '\'', '"':
		return string(c), true
	case 'a':
		return "\a", true
	case 'b':
		return "\b", true
	case 'f':
		return "\f", true
	case 'n':
		return "\n", true
	case 'r':
		return "\r", true
	case 't':
		return "\t", true
	case 'v':
		return "\v", true
	}
	return "", false
}
