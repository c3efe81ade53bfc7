package server

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error messages quote what clients sent (a JSON field, a Host header, a
// term of a graph) and what parsers say about it; these bounds keep an
// error answer small whatever the input.
const (
	// maxMessage bounds the message of an error answer, in bytes.
	maxMessage = 1000
	// maxQuoted bounds one quoted client value in a message.
	maxQuoted = 100
)

// capMessage cuts s to maxMessage bytes (at a rune boundary), saying how
// much was cut.
func capMessage(s string) string {
	return capString(s, maxMessage)
}

// capString cuts s to n bytes at a rune boundary, saying how much was
// cut.
func capString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d more bytes)", len(s)-cut)
}

// quoteCapped quotes s as Go does (%q), cut to n bytes first.
func quoteCapped(s string, n int) string {
	if len(s) <= n {
		return strconv.Quote(s)
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + fmt.Sprintf("… (%d bytes)", len(s))
}

// typeError says what a JSON value of the wrong type should have been,
// naming its path in the request ("options.hops: expected an integer,
// got 1.5") instead of Go's types ("cannot unmarshal number 1.5 into Go
// struct field IsoldaOptions.options.hops of type int").
func typeError(root reflect.Type, te *json.UnmarshalTypeError) string {
	got := te.Value
	if num, ok := strings.CutPrefix(got, "number "); ok {
		got = capString(num, 40)
	} else {
		got = article(got)
	}
	if te.Field == "" {
		return fmt.Sprintf("request body: expected %s, got %s", jsonKind(te.Type), got)
	}
	path := capString(te.Field, maxQuoted)
	if ft := fieldType(root, te.Field); ft != nil && (ft.Kind() == reflect.Slice || ft.Kind() == reflect.Array) && ft.Elem() == te.Type {
		return fmt.Sprintf("%s: expected an array of %s, found %s in it", path, plural(te.Type), got)
	}
	return fmt.Sprintf("%s: expected %s, got %s", path, jsonKind(te.Type), got)
}

// article puts "a" or "an" before a JSON kind named by encoding/json
// (string, number, bool, array, object).
func article(kind string) string {
	switch kind {
	case "array", "object":
		return "an " + kind
	case "bool":
		return "a boolean"
	}
	return "a " + kind
}

// jsonKind names the JSON value a Go type decodes from, with an article.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean (true or false)"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}

// plural names the JSON values of a Go type in the plural.
func plural(t reflect.Type) string {
	k := jsonKind(t)
	k = strings.TrimPrefix(strings.TrimPrefix(k, "an "), "a ")
	if i := strings.IndexByte(k, ' '); i >= 0 {
		k = k[:i]
	}
	return k + "s"
}

// fieldType follows a dotted path of JSON field names from root, or
// returns nil.
func fieldType(root reflect.Type, path string) reflect.Type {
	t := root
	for _, name := range strings.Split(path, ".") {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return nil
		}
		var next reflect.Type
		for i := range t.NumField() {
			f := t.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if tag == name || tag == "" && strings.EqualFold(f.Name, name) {
				next = f.Type
				break
			}
		}
		if next == nil {
			return nil
		}
		t = next
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}
