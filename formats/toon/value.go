package toon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Value is a node of the JSON data model TOON carries: nil (null), bool,
// string, a number (json.Number, float64, float32 or any Go integer type),
// []any (an array) or *Object (an object with ordered keys).
//
// Decode and FromJSON produce only nil, bool, string, json.Number (in the
// canonical decimal form of spec §2, losslessly), []any and *Object.
type Value = any

// Object is a JSON object that keeps its keys in insertion order.
//
// Keys lists each key once, in order; Values maps every key to its value.
// Use NewObject and Set to keep the two consistent.
type Object struct {
	Keys   []string
	Values map[string]Value
}

// NewObject returns an empty object with room for n keys.
func NewObject(n int) *Object {
	return &Object{Keys: make([]string, 0, n), Values: make(map[string]Value, n)}
}

// Len returns the number of keys.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.Keys)
}

// Get returns the value stored under key and whether the key exists.
func (o *Object) Get(key string) (Value, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.Values[key]
	return v, ok
}

// Set stores v under key. A new key is appended to Keys; an existing key
// keeps its position and gets the new value (last write wins).
func (o *Object) Set(key string, v Value) {
	if o.Values == nil {
		o.Values = make(map[string]Value)
	}
	if _, ok := o.Values[key]; !ok {
		o.Keys = append(o.Keys, key)
	}
	o.Values[key] = v
}

// maxJSONDepth bounds the nesting FromJSON and ToJSON accept.
const maxJSONDepth = 10000

// FromJSON parses one JSON value, keeping object key order and the exact
// digits of every number (as a canonical json.Number). A duplicate key keeps
// its first position and its last value, as JavaScript's JSON.parse does.
func FromJSON(data []byte) (Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readJSON(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			return nil, errors.New("toon: trailing data after JSON value")
		}
		return nil, fmt.Errorf("toon: %w", err)
	}
	return v, nil
}

func readJSON(dec *json.Decoder, depth int) (Value, error) {
	if depth > maxJSONDepth {
		return nil, errors.New("toon: JSON nesting too deep")
	}
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("toon: %w", err)
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := NewObject(4)
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("toon: %w", err)
				}
				key, ok := kt.(string)
				if !ok {
					return nil, errors.New("toon: object key is not a string")
				}
				v, err := readJSON(dec, depth+1)
				if err != nil {
					return nil, err
				}
				obj.Set(key, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("toon: %w", err)
			}
			return obj, nil
		case '[':
			arr := make([]any, 0, 4)
			for dec.More() {
				v, err := readJSON(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("toon: %w", err)
			}
			return arr, nil
		}
		return nil, fmt.Errorf("toon: unexpected %v", t)
	case json.Number:
		c, ok := canonicalNumber(string(t))
		if !ok {
			return nil, fmt.Errorf("toon: number %s out of range", t)
		}
		return json.Number(c), nil
	default: // string, bool, nil
		return t, nil
	}
}

// ToJSON writes v as compact JSON, keeping object key order. Numbers are
// written in the canonical form of spec §2; NaN and infinities become null.
func ToJSON(v Value) ([]byte, error) {
	var b []byte
	return appendJSON(b, v, 0)
}

func appendJSON(b []byte, v Value, depth int) ([]byte, error) {
	if depth > maxJSONDepth {
		return b, errors.New("toon: value nesting too deep")
	}
	switch t := v.(type) {
	case *Object:
		if t == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '{')
		for i, k := range t.Keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			var err error
			if b, err = appendJSON(b, t.Values[k], depth+1); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	case []any:
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(b, e, depth+1); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case string:
		return appendJSONString(b, t), nil
	default:
		s, err := primitiveLiteral(v)
		if err != nil {
			return b, err
		}
		return append(b, s...), nil
	}
}

// appendJSONString appends s as a JSON string: TOON's escapes, which are
// JSON's, with invalid UTF-8 bytes written as the escape \ufffd.
func appendJSONString(b []byte, s string) []byte { return appendEscaped(b, s, "\\ufffd") }

// primitiveLiteral renders a non-string primitive (null, bool, number) in
// its TOON/JSON literal form.
func primitiveLiteral(v Value) (string, error) {
	switch t := v.(type) {
	case nil:
		return "null", nil
	case *Object: // only a nil *Object reaches here
		if t == nil {
			return "null", nil
		}
	case bool:
		if t {
			return "true", nil
		}
		return "false", nil
	case json.Number:
		c, ok := canonicalNumber(string(t))
		if !ok {
			return "", fmt.Errorf("toon: invalid number %q", string(t))
		}
		return c, nil
	case float64:
		return formatFloat(t, 64), nil
	case float32:
		return formatFloat(float64(t), 32), nil
	case int:
		return strconv.FormatInt(int64(t), 10), nil
	case int8:
		return strconv.FormatInt(int64(t), 10), nil
	case int16:
		return strconv.FormatInt(int64(t), 10), nil
	case int32:
		return strconv.FormatInt(int64(t), 10), nil
	case int64:
		return strconv.FormatInt(t, 10), nil
	case uint:
		return strconv.FormatUint(uint64(t), 10), nil
	case uint8:
		return strconv.FormatUint(uint64(t), 10), nil
	case uint16:
		return strconv.FormatUint(uint64(t), 10), nil
	case uint32:
		return strconv.FormatUint(uint64(t), 10), nil
	case uint64:
		return strconv.FormatUint(t, 10), nil
	}
	return "", fmt.Errorf("toon: unsupported value of type %T", v)
}

// formatFloat renders a finite float in canonical form (shortest digits that
// round-trip); NaN and infinities become null (spec §3).
func formatFloat(f float64, bits int) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	c, _ := canonicalNumber(strconv.FormatFloat(f, 'e', -1, bits))
	return c
}

// maxExponentDigits bounds the exponent of numbers we canonicalise, so
// arithmetic on it cannot overflow.
const maxExponentDigits = 15

// canonicalNumber rewrites a JSON-grammar number (optionally with a leading
// '+' in the exponent, any case of 'e') to the canonical form of spec §2:
// plain decimal without exponent when the value is 0 or 1e-6 <= |n| < 1e21,
// with no leading zeros, no trailing fractional zeros and -0 as 0; outside
// that range, shortest exponent form d[.ddd]e±x. The conversion is exact (no
// rounding). ok is false when s is not a number of that grammar or its
// exponent has more than maxExponentDigits digits.
func canonicalNumber(s string) (string, bool) {
	neg := s != "" && s[0] == '-'
	i := 0
	if neg {
		i++
	}
	intPart, fracPart, eneg, ed, ok := decimalParts(s, i)
	if !ok {
		return "", false
	}
	var exp int64
	if ed != "" {
		for len(ed) > 1 && ed[0] == '0' {
			ed = ed[1:]
		}
		if len(ed) > maxExponentDigits {
			return "", false
		}
		exp, _ = strconv.ParseInt(ed, 10, 64)
		if eneg {
			exp = -exp
		}
	}
	// value = 0.digits × 10^point
	digits := intPart + fracPart
	point := int64(len(intPart)) + exp
	lead := 0
	for lead < len(digits) && digits[lead] == '0' {
		lead++
	}
	digits = digits[lead:]
	point -= int64(lead)
	end := len(digits)
	for end > 0 && digits[end-1] == '0' {
		end--
	}
	digits = digits[:end]
	if digits == "" {
		return "0", true
	}
	var b []byte
	if neg {
		b = append(b, '-')
	}
	nd := int64(len(digits))
	switch {
	case point >= 22 || point <= -6:
		b = append(b, digits[0])
		if nd > 1 {
			b = append(b, '.')
			b = append(b, digits[1:]...)
		}
		b = append(b, 'e')
		e := point - 1
		if e >= 0 {
			b = append(b, '+')
		}
		b = strconv.AppendInt(b, e, 10)
	case point <= 0:
		b = append(b, '0', '.')
		for j := int64(0); j < -point; j++ {
			b = append(b, '0')
		}
		b = append(b, digits...)
	case point >= nd:
		b = append(b, digits...)
		for j := nd; j < point; j++ {
			b = append(b, '0')
		}
	default:
		b = append(b, digits[:point]...)
		b = append(b, '.')
		b = append(b, digits[point:]...)
	}
	return string(b), true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digitRun returns the run of digits at s[i:] and the index after it.
func digitRun(s string, i int) (string, int) {
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	return s[i:j], j
}

// decimalParts splits s[i:], when all of it is
// [0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?, into its integer digits, fraction
// digits, exponent sign (negative or not) and exponent digits (empty when it
// has no exponent); ok is false when s[i:] is not of that grammar.
func decimalParts(s string, i int) (intPart, fracPart string, expNeg bool, expDigits string, ok bool) {
	intPart, i = digitRun(s, i)
	if intPart == "" {
		return
	}
	if i < len(s) && s[i] == '.' {
		if fracPart, i = digitRun(s, i+1); fracPart == "" {
			return
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		if expDigits, i = digitRun(s, i); expDigits == "" {
			return
		}
	}
	return intPart, fracPart, expNeg, expDigits, i == len(s)
}
