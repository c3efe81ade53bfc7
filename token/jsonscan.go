package token

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// A small JSON scanner for the two big members of tokenizer.json
// (model.vocab, model.merges: hundreds of thousands of entries), which
// encoding/json decodes slowly through reflection. Everything else is still
// decoded by encoding/json. The scanner is strict about structure, bounds
// nesting depth, and never indexes out of range.

// maxJSONDepth bounds the nesting the scanner accepts.
const maxJSONDepth = 512

type jscan struct {
	data []byte
	pos  int
}

func (s *jscan) errorf(format string, args ...any) error {
	return fmt.Errorf("json offset %d: %s", s.pos, fmt.Sprintf(format, args...))
}

func (s *jscan) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\r', '\n':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (s *jscan) peek() byte {
	s.ws()
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

func (s *jscan) expect(c byte) error {
	if s.peek() != c {
		return s.errorf("want %q", c)
	}
	s.pos++
	return nil
}

// str reads a string.
func (s *jscan) str() (string, error) {
	if s.peek() != '"' {
		return "", s.errorf("want a string")
	}
	start := s.pos
	s.pos++
	escaped := false
	for s.pos < len(s.data) {
		switch c := s.data[s.pos]; {
		case c == '\\':
			escaped = true
			s.pos += 2
			continue
		case c == '"':
			s.pos++
			if !escaped {
				return string(s.data[start+1 : s.pos-1]), nil
			}
			var out string
			if err := json.Unmarshal(s.data[start:s.pos], &out); err != nil {
				return "", s.errorf("bad string: %v", err)
			}
			return out, nil
		case c < 0x20:
			return "", s.errorf("control character in string")
		}
		s.pos++
	}
	return "", errors.New("json: unterminated string")
}

// int reads an integer.
func (s *jscan) int() (int64, error) {
	s.ws()
	start := s.pos
	for s.pos < len(s.data) && (s.data[s.pos] == '-' || (s.data[s.pos] >= '0' && s.data[s.pos] <= '9')) {
		s.pos++
	}
	n, err := strconv.ParseInt(string(s.data[start:s.pos]), 10, 64)
	if err != nil {
		return 0, s.errorf("want an integer")
	}
	return n, nil
}

// skip skips one value and returns its bytes.
func (s *jscan) skip(depth int) ([]byte, error) {
	if depth > maxJSONDepth {
		return nil, s.errorf("nesting too deep")
	}
	c := s.peek()
	start := s.pos
	switch {
	case c == '"':
		if _, err := s.str(); err != nil {
			return nil, err
		}
	case c == '{' || c == '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		s.pos++
		if s.peek() == end {
			s.pos++
			break
		}
		for {
			if c == '{' {
				if _, err := s.str(); err != nil {
					return nil, err
				}
				if err := s.expect(':'); err != nil {
					return nil, err
				}
			}
			if _, err := s.skip(depth + 1); err != nil {
				return nil, err
			}
			if s.peek() == ',' {
				s.pos++
				continue
			}
			if err := s.expect(end); err != nil {
				return nil, err
			}
			break
		}
	case c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'):
		for s.pos < len(s.data) {
			b := s.data[s.pos]
			if b == ',' || b == '}' || b == ']' || b == ' ' || b == '\t' || b == '\r' || b == '\n' {
				break
			}
			s.pos++
		}
	default:
		return nil, s.errorf("want a value")
	}
	return s.data[start:s.pos], nil
}

// object calls member for each member of an object.
func (s *jscan) object(member func(key string) error) error {
	return s.list('{', '}', func() error {
		key, err := s.str()
		if err != nil {
			return err
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		return member(key)
	})
}

// array calls elem for each element of an array.
func (s *jscan) array(elem func() error) error {
	return s.list('[', ']', elem)
}

// list calls item for each comma-separated item between the brackets
// opening and closing.
func (s *jscan) list(opening, closing byte, item func() error) error {
	if err := s.expect(opening); err != nil {
		return err
	}
	if s.peek() == closing {
		s.pos++
		return nil
	}
	for {
		if err := item(); err != nil {
			return err
		}
		if s.peek() == ',' {
			s.pos++
			continue
		}
		return s.expect(closing)
	}
}

// rawObject re-assembles the given members as a JSON object for
// encoding/json.
func rawObject(members map[string][]byte) []byte {
	out := []byte{'{'}
	for k, v := range members {
		if len(out) > 1 {
			out = append(out, ',')
		}
		kb, _ := json.Marshal(k)
		out = append(append(append(out, kb...), ':'), v...)
	}
	return append(out, '}')
}

// vocabEntry is one model.vocab member.
type vocabEntry struct {
	text string
	id   int32
}

// parseTokenizerJSON decodes tokenizer.json: model.vocab and model.merges
// with the scanner, the rest with encoding/json.
func parseTokenizerJSON(data []byte) (*hfFile, []vocabEntry, [][2]string, error) {
	s := &jscan{data: data}
	top := map[string][]byte{}
	model := map[string][]byte{}
	var vocab []vocabEntry
	var merges [][2]string
	err := s.object(func(key string) error {
		if key != "model" {
			v, err := s.skip(1)
			top[key] = v
			return err
		}
		return s.object(func(key string) error {
			switch key {
			case "vocab":
				return s.object(func(text string) error {
					id, err := s.int()
					if err != nil {
						return err
					}
					if id < 0 || id > 1<<30 {
						return s.errorf("token id %d out of range", id)
					}
					vocab = append(vocab, vocabEntry{text, int32(id)})
					return nil
				})
			case "merges":
				return s.array(func() error {
					if s.peek() == '"' {
						m, err := s.str()
						if err != nil {
							return err
						}
						a, b, ok := cutSpace(m)
						if !ok {
							return s.errorf("merge %q is not a pair", m)
						}
						merges = append(merges, [2]string{a, b})
						return nil
					}
					var pair []string
					err := s.array(func() error {
						t, err := s.str()
						pair = append(pair, t)
						return err
					})
					if err == nil && len(pair) != 2 {
						err = s.errorf("merge is not a pair")
					}
					if err == nil {
						merges = append(merges, [2]string{pair[0], pair[1]})
					}
					return err
				})
			}
			v, err := s.skip(2)
			model[key] = v
			return err
		})
	})
	if err != nil {
		return nil, nil, nil, err
	}
	if s.peek() != 0 {
		return nil, nil, nil, s.errorf("data after the top-level object")
	}
	var f hfFile
	if err := json.Unmarshal(rawObject(top), &f); err != nil {
		return nil, nil, nil, err
	}
	if err := json.Unmarshal(rawObject(model), &f.Model); err != nil {
		return nil, nil, nil, fmt.Errorf("model: %w", err)
	}
	return &f, vocab, merges, nil
}

// cutSpace splits a "a b" merge at its single space.
func cutSpace(m string) (string, string, bool) {
	for i := 0; i < len(m); i++ {
		if m[i] == ' ' {
			return m[:i], m[i+1:], true
		}
	}
	return "", "", false
}
