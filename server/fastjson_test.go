package server

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkUnquote compares unquoteFast with encoding/json on the body of a
// string literal: when unquoteFast accepts it, encoding/json must decode
// the same string.
func checkUnquote(t *testing.T, lit string) {
	t.Helper()
	got, ok := unquoteFast([]byte(lit))
	var want string
	err := json.Unmarshal([]byte(`"`+lit+`"`), &want)
	if !ok {
		// Declining is always allowed, but the cases below say when it is
		// expected; a valid plain literal must be accepted.
		if err == nil && utf8.ValidString(want) && !strings.Contains(lit, `\u`) && !strings.ContainsAny(lit, "\x00\x1f") &&
			utf8.ValidString(lit) {
			t.Errorf("unquoteFast(%q) declined a plain literal", lit)
		}
		return
	}
	if err != nil {
		t.Errorf("unquoteFast(%q) = %q, but encoding/json rejects it: %v", lit, got, err)
		return
	}
	if got != want {
		t.Errorf("unquoteFast(%q) = %q, encoding/json %q", lit, got, want)
	}
}

// TestUnquoteFast checks the literal decoder against encoding/json.
func TestUnquoteFast(t *testing.T) {
	accept := []string{
		``, `abc`, `a\"b`, `\\`, `\/`, `\b\f\n\r\t`, `\u003chttp://a\u003e`, `\u00e9\u20AC`, `\u0000`,
		`é€😀`, `<http://example.org/a> <http://b> \"x\\\"y\"@en .\n`, `\uFFFF`, `\uFEFF`,
	}
	for _, lit := range accept {
		if _, ok := unquoteFast([]byte(lit)); !ok {
			t.Errorf("unquoteFast(%q) declined", lit)
		}
		checkUnquote(t, lit)
	}
	decline := []string{
		`\`, `a\`, `\x`, `\u12`, `\u12g4`, `\ud83d\ude00`, `\ud800`, `\udfff`, "a\x01b", "\xff", "a\xc3", `"`,
		"\t", "\n",
	}
	for _, lit := range decline {
		if s, ok := unquoteFast([]byte(lit)); ok {
			t.Errorf("unquoteFast(%q) = %q, want a decline", lit, s)
		}
		checkUnquote(t, lit)
	}
}

// FuzzUnquoteFast compares unquoteFast with encoding/json.
func FuzzUnquoteFast(f *testing.F) {
	for _, s := range []string{`a\"b`, `\u003c`, `\ud83d\ude00`, "\xff", `\n\t`, `é`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		checkUnquote(t, lit)
	})
}

// TestLongestString checks the string lexer on literals with escapes.
func TestLongestString(t *testing.T) {
	cases := []struct {
		in   string
		want string
	}{
		{`{}`, ``},
		{`{"a":"bc"}`, `"bc"`},
		{`{"graph":{"data":"x\"y\\\\","format":"nt"}}`, `"x\"y\\\\"`},
		{`{"a":"\\","bb":"\\\""}`, `"\\\""`},
		{`{"a":"unterminated`, ``},
		{`{"a":"xy","b":"unterminated\"`, ``},
	}
	for _, c := range cases {
		s, e := longestString([]byte(c.in))
		if got := c.in[s:e]; got != c.want {
			t.Errorf("longestString(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestDecodeWithData checks that the fast path gives exactly what
// decodeJSON gives: the same value, or the same error with the same
// position, on bodies with a big string in and out of place.
func TestDecodeWithData(t *testing.T) {
	big := strings.Repeat(`<http://example.org/s> <http://example.org/p> \"o\\\"\"@en .\n\u003cx\u003e `, 100)
	huge := strings.Repeat("a", bigString)
	if _, ok := unquoteFast([]byte(big)); !ok || len(big) < bigString {
		t.Fatal("the big literal does not take the fast path")
	}
	bodies := []string{
		`{"graph":{"data":"` + big + `","format":"nt"},"format":"isolda","tokenizer":"o200k_base"}`,
		`{"graph":{"format":"nt","data":"` + big + `"},"budget":10,"options":{"layout":"blocks"}}`,
		`{"graph":{"data":"` + big + `","data":"x"}}`,                   // a duplicate key: the last wins
		`{"graph":{"data":"x","data":"` + big + `"}}`,                   // idem
		`{"graph":{"data":"small"},"anchor":"` + big + `"}`,             // big string elsewhere
		`{"graph":{"data":"` + big + `"},"nope":1}`,                     // unknown field
		`{"graph":{"data":"` + big + `"}} {}`,                           // trailing data
		`{"graph":{"data":"` + big + `"}`,                               // truncated
		`{"graph":{"data":"` + big + `","base":5}}`,                     // a type error
		`{"graph":{"` + huge + `":"x"}}`,                                // a big key
		`{"graph":{"data":"` + huge + `\ud83d\ude00"}}`,                 // surrogates: the slow path
		`{"graph":{"data":"` + huge + "\xff" + `"}}`,                    // invalid UTF-8: replaced
		`{"graph":{"data":"` + huge + "\x01" + `"}}`,                    // a control character
		`{"graph":{"data":"` + huge + `\q"}}`,                           // a bad escape
		`{"graph":{"data":"` + big + `"},"budget":-1,"truncation":"x"}`, // decoded fine, checked later
		`{"graph":{"data":"` + big + `"},"options":null}`,
		`{"Graph":{"DATA":"` + big + `"}}`, // encoding/json matches names case-insensitively
	}
	for i, body := range bodies {
		var fast, slow SerializeRequest
		ef := decodeWithData([]byte(body), &fast, graphData(&fast))
		es := decodeJSON([]byte(body), &slow)
		if !reflect.DeepEqual(ef, es) {
			t.Errorf("body %d: fast error %+v, slow %+v", i, ef, es)
		}
		if es == nil && !reflect.DeepEqual(fast, slow) {
			t.Errorf("body %d: fast value differs:\n%+v\n%+v", i, fast, slow)
		}
	}
}

// FuzzDecodeWithData compares decodeWithData with decodeJSON on bodies
// around a big string literal, so that the fast path is taken or declined.
func FuzzDecodeWithData(f *testing.F) {
	f.Add(`{"graph":{"data":`, `a\"b\u003c`, `,"format":"nt"}}`)
	f.Add(`{"graph":{"data":"x","data":`, `\ud83d\ude00`, `}}`)
	f.Add(`{"anchor":`, "\xff", `,"graph":{"data":"y"}}`)
	f.Add(`{"graph":{`, `"`, `:1}}`)
	f.Fuzz(func(t *testing.T, prefix, lit, suffix string) {
		body := prefix + `"` + strings.Repeat("x", bigString) + lit + `"` + suffix
		var fast, slow SerializeRequest
		ef := decodeWithData([]byte(body), &fast, graphData(&fast))
		es := decodeJSON([]byte(body), &slow)
		if !reflect.DeepEqual(ef, es) {
			t.Fatalf("fast error %+v, slow %+v", ef, es)
		}
		if es == nil && !reflect.DeepEqual(fast, slow) {
			t.Fatalf("fast value differs:\n%+v\n%+v", fast, slow)
		}
	})
}

// graphData returns the accessor of the graph's data of a request.
func graphData(r *SerializeRequest) func() *string {
	return func() *string {
		if r.Graph == nil {
			return nil
		}
		return &r.Graph.Data
	}
}
