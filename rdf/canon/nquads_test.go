package canon

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
)

// readNQuads is a small test-only N-Quads reader (the suites' inputs and
// the big N-Triples file are simple, valid documents), so that these tests
// do not depend on another package's work in progress.
func readNQuads(r io.Reader) (*rdf.Dataset, error) {
	d := rdf.NewDataset()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || s[0] == '#' {
			continue
		}
		var terms []rdf.Term
		for {
			s = strings.TrimLeft(s, " \t")
			if s == "" {
				return nil, fmt.Errorf("line %d: missing '.'", line)
			}
			if s[0] == '.' {
				break
			}
			t, rest, err := readTerm(s)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", line, err)
			}
			terms = append(terms, t)
			s = rest
		}
		switch len(terms) {
		case 3:
			d.Add(rdf.Quad{S: terms[0], P: terms[1], O: terms[2]})
		case 4:
			d.Add(rdf.Quad{S: terms[0], P: terms[1], O: terms[2], G: terms[3]})
		default:
			return nil, fmt.Errorf("line %d: %d terms", line, len(terms))
		}
	}
	return d, sc.Err()
}

func readTerm(s string) (rdf.Term, string, error) {
	switch {
	case s[0] == '<':
		i := strings.IndexByte(s, '>')
		if i < 0 {
			return rdf.Term{}, "", fmt.Errorf("unterminated IRI")
		}
		v, err := unescape(s[1:i])
		return rdf.NewIRI(v), s[i+1:], err
	case strings.HasPrefix(s, "_:"):
		i := 2
		for i < len(s) && s[i] != ' ' && s[i] != '\t' {
			i++
		}
		label := s[2:i]
		if strings.HasSuffix(label, ".") && i == len(s) {
			label = label[:len(label)-1]
			i--
		}
		return rdf.NewBlank(label), s[i:], nil
	case s[0] == '"':
		i := 1
		for i < len(s) && s[i] != '"' {
			if s[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(s) {
			return rdf.Term{}, "", fmt.Errorf("unterminated literal")
		}
		lex, err := unescape(s[1:i])
		if err != nil {
			return rdf.Term{}, "", err
		}
		rest := s[i+1:]
		switch {
		case strings.HasPrefix(rest, "^^<"):
			j := strings.IndexByte(rest, '>')
			if j < 0 {
				return rdf.Term{}, "", fmt.Errorf("unterminated datatype")
			}
			dt, err := unescape(rest[3:j])
			return rdf.NewLiteral(lex, dt), rest[j+1:], err
		case strings.HasPrefix(rest, "@"):
			j := 1
			for j < len(rest) && rest[j] != ' ' && rest[j] != '\t' {
				j++
			}
			tag := rest[1:j]
			t := rdf.NewLangString(lex, tag)
			if k := strings.Index(tag, "--"); k >= 0 {
				t.Lang, t.Dir = tag[:k], tag[k+2:]
				t.Datatype = rdf.RDFDirLangString
			}
			return t, rest[j:], nil
		}
		return rdf.NewString(lex), rest, nil
	}
	return rdf.Term{}, "", fmt.Errorf("unexpected %q", s)
}

func unescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			return "", fmt.Errorf("bad escape")
		}
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'b':
			b.WriteByte('\b')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case '"', '\'', '\\':
			b.WriteByte(s[i])
		case 'u', 'U':
			n := 4
			if s[i] == 'U' {
				n = 8
			}
			if i+1+n > len(s) {
				return "", fmt.Errorf("short \\u escape")
			}
			v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil {
				return "", err
			}
			b.WriteRune(rune(v))
			i += n
		default:
			return "", fmt.Errorf("bad escape \\%c", s[i])
		}
	}
	return b.String(), nil
}

// loadNQuads reads an N-Quads (or gzipped N-Triples) file.
func loadNQuads(t testing.TB, path string) *rdf.Dataset {
	t.Helper()
	var r io.ReadCloser
	if strings.HasSuffix(path, ".gz") {
		r = shared.OpenGzip(t, path)
	} else {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		r = f
	}
	defer r.Close()
	d, err := readNQuads(r)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return d
}

// parseNQ reads N-Quads from a string.
func parseNQ(t testing.TB, s string) *rdf.Dataset {
	t.Helper()
	d, err := readNQuads(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func bytesReader(b []byte) io.Reader { return strings.NewReader(string(b)) }
