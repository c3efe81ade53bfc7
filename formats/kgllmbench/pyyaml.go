package kgllmbench

import (
	"bufio"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// This file ports the parts of PyYAML 6.0's Emitter (emitter.py), Resolver
// (resolver.py) and SafeRepresenter that yaml.dump(d, default_flow_style=
// False) uses for a {str: {str: [str]}} document: sorted keys, block
// mappings, indentless block sequences, scalar style selection, quoting,
// escaping (allow_unicode=False) and folding at best_width 80.

const (
	yamlBestIndent = 2
	yamlBestWidth  = 80
	// yamlStrTagLen is len("!!str"), the prepared tag check_simple_key
	// counts even though the tag is never written.
	yamlStrTagLen = 5
)

// yamlEmitter holds the Emitter's layout state.
type yamlEmitter struct {
	w          *bufio.Writer
	column     int
	indent     int // -1 is Python's None
	indents    []int
	whitespace bool
	indention  bool
}

func (e *yamlEmitter) write(s string) {
	e.w.WriteString(s)
}

func (e *yamlEmitter) increaseIndent(flow, indentless bool) {
	e.indents = append(e.indents, e.indent)
	if e.indent < 0 {
		if flow {
			e.indent = yamlBestIndent
		} else {
			e.indent = 0
		}
	} else if !indentless {
		e.indent += yamlBestIndent
	}
}

func (e *yamlEmitter) popIndent() {
	e.indent = e.indents[len(e.indents)-1]
	e.indents = e.indents[:len(e.indents)-1]
}

func (e *yamlEmitter) writeIndent() {
	indent := max(e.indent, 0)
	if !e.indention || e.column > indent || (e.column == indent && !e.whitespace) {
		e.writeLineBreak("\n")
	}
	if e.column < indent {
		e.whitespace = true
		e.write(strings.Repeat(" ", indent-e.column))
		e.column = indent
	}
}

func (e *yamlEmitter) writeIndicator(ind string, needWhitespace, whitespace, indention bool) {
	data := ind
	if !e.whitespace && needWhitespace {
		data = " " + ind
	}
	e.whitespace = whitespace
	e.indention = e.indention && indention
	e.column += utf8.RuneCountInString(data)
	e.write(data)
}

func (e *yamlEmitter) writeLineBreak(br string) {
	e.whitespace = true
	e.indention = true
	e.column = 0
	e.write(br)
}

// yamlAnalysis is PyYAML's ScalarAnalysis.
type yamlAnalysis struct {
	empty, multiline                                bool
	allowBlockPlain, allowSingleQuoted, allowDouble bool
}

func isYAMLBreak(r rune) bool {
	return r == '\n' || r == '\x85' || r == '\u2028' || r == '\u2029'
}

func isYAMLSpaceOrBreak(r rune) bool {
	return r == 0 || r == ' ' || r == '\t' || r == '\r' || isYAMLBreak(r)
}

// analyzeScalar is Emitter.analyze_scalar with allow_unicode=False; only the
// results the block context needs are kept.
func analyzeScalar(s []rune) yamlAnalysis {
	if len(s) == 0 {
		return yamlAnalysis{empty: true, allowBlockPlain: true, allowSingleQuoted: true, allowDouble: true}
	}
	var blockIndicators, lineBreaks, specialCharacters bool
	var edgeWhitespace, mixedWhitespace bool
	if hasPrefixRunes(s, "---") || hasPrefixRunes(s, "...") {
		blockIndicators = true
	}
	precededByWhitespace := true
	followedByWhitespace := len(s) == 1 || isYAMLSpaceOrBreak(s[1])
	previousSpace, previousBreak := false, false
	for i, ch := range s {
		if i == 0 {
			if strings.ContainsRune("#,[]{}&*!|>'\"%@`", ch) {
				blockIndicators = true
			}
			if (ch == '?' || ch == ':') && followedByWhitespace {
				blockIndicators = true
			}
			if ch == '-' && followedByWhitespace {
				blockIndicators = true
			}
		} else {
			if ch == ':' && followedByWhitespace {
				blockIndicators = true
			}
			if ch == '#' && precededByWhitespace {
				blockIndicators = true
			}
		}
		if isYAMLBreak(ch) {
			lineBreaks = true
		}
		if !(ch == '\n' || (0x20 <= ch && ch <= 0x7E)) {
			// allow_unicode is False: every other character is special.
			specialCharacters = true
		}
		// PyYAML tracks leading/trailing spaces and breaks, and a space
		// after a break or a break after a space, separately; the block
		// context only asks whether any of them occurred.
		if space, brk := ch == ' ', isYAMLBreak(ch); space || brk {
			if i == 0 || i == len(s)-1 {
				edgeWhitespace = true
			}
			if space && previousBreak || brk && previousSpace {
				mixedWhitespace = true
			}
			previousSpace, previousBreak = space, brk
		} else {
			previousSpace, previousBreak = false, false
		}
		precededByWhitespace = isYAMLSpaceOrBreak(ch)
		followedByWhitespace = i+2 >= len(s) || isYAMLSpaceOrBreak(s[i+2])
	}
	a := yamlAnalysis{multiline: lineBreaks, allowBlockPlain: true, allowSingleQuoted: true, allowDouble: true}
	if edgeWhitespace || lineBreaks || blockIndicators {
		a.allowBlockPlain = false
	}
	if mixedWhitespace || specialCharacters {
		a.allowBlockPlain, a.allowSingleQuoted = false, false
	}
	return a
}

func hasPrefixRunes(s []rune, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if s[i] != rune(p[i]) {
			return false
		}
	}
	return true
}

// The YAML 1.1 implicit resolvers of PyYAML's Resolver, keyed by the
// characters they are registered for (the empty string for "").
var (
	yamlBoolRE  = regexp.MustCompile(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	yamlFloatRE = regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	yamlIntRE   = regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	yamlMergeRE = regexp.MustCompile(`^(?:<<)$`)
	yamlNullRE  = regexp.MustCompile(`^(?:~|null|Null|NULL|)$`)
	yamlTimeRE  = regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`)
	yamlValueRE = regexp.MustCompile(`^(?:=)$`)
)

// pyMatch is Python's re.match for a pattern ending in "$": "$" also
// matches just before a final newline.
func pyMatch(re *regexp.Regexp, s string) bool {
	if re.MatchString(s) {
		return true
	}
	return strings.HasSuffix(s, "\n") && re.MatchString(s[:len(s)-1])
}

// resolvesToNonStr reports whether Resolver.resolve(ScalarNode, s,
// (True, False)) gives a tag other than str, that is whether a plain
// scalar s would be read back as something else.
func resolvesToNonStr(s string) bool {
	if s == "" {
		return true // null
	}
	first := s[0]
	switch {
	case strings.IndexByte("yYnNtTfFoO", first) >= 0 && pyMatch(yamlBoolRE, s):
		return true
	case strings.IndexByte("-+0123456789.", first) >= 0 && pyMatch(yamlFloatRE, s):
		return true
	case strings.IndexByte("-+0123456789", first) >= 0 && pyMatch(yamlIntRE, s):
		return true
	case first == '<' && pyMatch(yamlMergeRE, s):
		return true
	case strings.IndexByte("~nN", first) >= 0 && pyMatch(yamlNullRE, s):
		return true
	case strings.IndexByte("0123456789", first) >= 0 && pyMatch(yamlTimeRE, s):
		return true
	case first == '=' && pyMatch(yamlValueRE, s):
		return true
	}
	return false
}

// chooseStyle is Emitter.choose_scalar_style in block context for a str
// scalar: "" (plain), "'" or "\"".
func chooseStyle(s string, a yamlAnalysis, simpleKey bool) byte {
	implicit := !resolvesToNonStr(s)
	if implicit && !(simpleKey && (a.empty || a.multiline)) && a.allowBlockPlain {
		return 0
	}
	if a.allowSingleQuoted && !(simpleKey && a.multiline) {
		return '\''
	}
	return '"'
}

// emitScalar is expect_scalar: the scalar is written with the indentation
// increased as for a flow node.
func (e *yamlEmitter) emitScalar(s string, simpleKey bool) {
	e.increaseIndent(true, false)
	r := []rune(s)
	a := analyzeScalar(r)
	split := !simpleKey
	switch chooseStyle(s, a, simpleKey) {
	case 0:
		e.writePlain(r, split)
	case '\'':
		e.writeSingleQuoted(r, split)
	default:
		e.writeDoubleQuoted(r, split)
	}
	e.popIndent()
}

// checkSimpleKey is Emitter.check_simple_key for a str scalar.
func checkSimpleKey(s string) bool {
	r := []rune(s)
	a := analyzeScalar(r)
	return yamlStrTagLen+len(r) < 128 && !a.empty && !a.multiline
}

// writeRun writes a run of a scalar's characters with no line break.
func (e *yamlEmitter) writeRun(run []rune) {
	e.column += len(run)
	e.write(string(run))
}

// writeBreaks writes a run of line breaks inside a scalar as PyYAML does:
// one more "\n" before a run that starts with '\n', then the breaks and
// the indent.
func (e *yamlEmitter) writeBreaks(run []rune) {
	if run[0] == '\n' {
		e.writeLineBreak("\n")
	}
	for _, br := range run {
		e.writeLineBreak(string(br))
	}
	e.writeIndent()
}

func (e *yamlEmitter) writePlain(text []rune, split bool) {
	if len(text) == 0 {
		return
	}
	if !e.whitespace {
		e.column++
		e.write(" ")
	}
	e.whitespace = false
	e.indention = false
	spaces, breaks := false, false
	start := 0
	for end := 0; end <= len(text); end++ {
		ch := runeAt(text, end)
		switch {
		case spaces:
			if ch != ' ' {
				if start+1 == end && e.column > yamlBestWidth && split {
					e.writeIndent()
					e.whitespace = false
					e.indention = false
				} else {
					e.writeRun(text[start:end])
				}
				start = end
			}
		case breaks:
			if ch == -1 || !isYAMLBreak(ch) {
				e.writeBreaks(text[start:end])
				e.whitespace = false
				e.indention = false
				start = end
			}
		default:
			if ch == -1 || ch == ' ' || isYAMLBreak(ch) {
				e.writeRun(text[start:end])
				start = end
			}
		}
		if ch != -1 {
			spaces = ch == ' '
			breaks = isYAMLBreak(ch)
		}
	}
}

func (e *yamlEmitter) writeSingleQuoted(text []rune, split bool) {
	e.writeIndicator("'", true, false, false)
	spaces, breaks := false, false
	start := 0
	for end := 0; end <= len(text); end++ {
		ch := runeAt(text, end)
		switch {
		case spaces:
			if ch == -1 || ch != ' ' {
				if start+1 == end && e.column > yamlBestWidth && split && start != 0 && end != len(text) {
					e.writeIndent()
				} else {
					e.writeRun(text[start:end])
				}
				start = end
			}
		case breaks:
			if ch == -1 || !isYAMLBreak(ch) {
				e.writeBreaks(text[start:end])
				start = end
			}
		default:
			if ch == -1 || ch == ' ' || isYAMLBreak(ch) || ch == '\'' {
				if start < end {
					e.writeRun(text[start:end])
					start = end
				}
			}
		}
		if ch == '\'' {
			e.column += 2
			e.write("''")
			start = end + 1
		}
		if ch != -1 {
			spaces = ch == ' '
			breaks = isYAMLBreak(ch)
		}
	}
	e.writeIndicator("'", false, false, false)
}

// runeAt is text[i], or -1 (PyYAML's None) past the end: the scalar
// writers look one character past the text to flush the last run.
func runeAt(text []rune, i int) rune {
	if i < len(text) {
		return text[i]
	}
	return -1
}

// yamlEscape is the short escape of ch in a double-quoted scalar
// (Emitter.ESCAPE_REPLACEMENTS), "" when it has none.
func yamlEscape(ch rune) string {
	switch ch {
	case 0:
		return "0"
	case '\x07':
		return "a"
	case '\x08':
		return "b"
	case '\x09':
		return "t"
	case '\x0A':
		return "n"
	case '\x0B':
		return "v"
	case '\x0C':
		return "f"
	case '\x0D':
		return "r"
	case '\x1B':
		return "e"
	case '"':
		return "\""
	case '\\':
		return "\\"
	case '\x85':
		return "N"
	case '\xA0':
		return "_"
	case '\u2028':
		return "L"
	case '\u2029':
		return "P"
	}
	return ""
}

func (e *yamlEmitter) writeDoubleQuoted(text []rune, split bool) {
	e.writeIndicator("\"", true, false, false)
	start := 0
	for end := 0; end <= len(text); end++ {
		ch := runeAt(text, end)
		if ch == -1 || ch == '"' || ch == '\\' || ch == '\x85' || ch == '\u2028' || ch == '\u2029' ||
			ch == '\uFEFF' || !(0x20 <= ch && ch <= 0x7E) {
			if start < end {
				e.writeRun(text[start:end])
				start = end
			}
			if ch != -1 {
				var data string
				if esc := yamlEscape(ch); esc != "" {
					data = "\\" + esc
				} else if ch <= 0xFF {
					data = fmt.Sprintf("\\x%02X", ch)
				} else if ch <= 0xFFFF {
					data = fmt.Sprintf("\\u%04X", ch)
				} else {
					data = fmt.Sprintf("\\U%08X", ch)
				}
				e.column += len(data)
				e.write(data)
				start = end + 1
			}
		}
		if 0 < end && end < len(text)-1 && (ch == ' ' || start >= end) &&
			e.column+(end-start) > yamlBestWidth && split {
			data := "\\"
			if start < end {
				data = string(text[start:end]) + "\\"
				start = end
			}
			e.column += utf8.RuneCountInString(data)
			e.write(data)
			e.writeIndent()
			e.whitespace = false
			e.indention = false
			if text[start] == ' ' {
				e.column++
				e.write("\\")
			}
		}
	}
	e.writeIndicator("\"", false, false, false)
}

// emitMappingKey writes a block mapping key (simple or complex) and the
// ":" indicator that follows it (expect_block_mapping_key and the
// *_value states).
func (e *yamlEmitter) emitMappingKey(key string) {
	e.writeIndent()
	if checkSimpleKey(key) {
		e.emitScalar(key, true)
		e.writeIndicator(":", false, false, false)
		return
	}
	e.writeIndicator("?", true, false, true)
	e.emitScalar(key, false)
	e.writeIndent()
	e.writeIndicator(":", true, false, true)
}

// writeStructuredYAML is yaml.dump(structured_data, default_flow_style=False).
func writeStructuredYAML(w *bufio.Writer, kg *KG) error {
	s, err := buildStructured(kg)
	if err != nil {
		return err
	}
	e := &yamlEmitter{w: w, indent: -1, whitespace: true, indention: true}
	if len(s.heads) == 0 {
		_, err := w.WriteString("{}\n")
		return err
	}
	heads := slices.Clone(s.heads)
	slices.Sort(heads)
	e.increaseIndent(false, false) // top-level block mapping
	for _, h := range heads {
		e.emitMappingKey(h)
		rm := s.rels[h]
		e.increaseIndent(false, false) // nested block mapping
		rels := slices.Clone(rm.keys)
		slices.Sort(rels)
		for _, r := range rels {
			e.emitMappingKey(r)
			// expect_block_sequence: indentless in a mapping unless the
			// value indicator left us at the start of an indented line.
			e.increaseIndent(false, !e.indention)
			for _, t := range rm.tails[r] {
				e.writeIndent()
				e.writeIndicator("-", true, false, true)
				e.emitScalar(t, false)
			}
			e.popIndent()
		}
		e.popIndent()
	}
	e.popIndent()
	e.writeIndent() // document end
	return nil
}
