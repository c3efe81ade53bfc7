package xmltest

import (
	"encoding/xml"
	"testing"
)

// TestTokens reads a small document with a character reference and a
// predefined entity, token by token.
func TestTokens(t *testing.T) {
	toks := Tokens(t, `<svg a="1"><t>x &amp; &#233;</t></svg>`)
	if len(toks) != 5 {
		t.Fatalf("%d tokens, want 5: %v", len(toks), toks)
	}
	if se, ok := toks[0].(xml.StartElement); !ok || se.Name.Local != "svg" || se.Attr[0].Value != "1" {
		t.Errorf("first token %#v", toks[0])
	}
	if cd, ok := toks[2].(xml.CharData); !ok || string(cd) != "x & é" {
		t.Errorf("text %#v", toks[2])
	}
}

// TestNotWellFormed fails on an unknown entity and on an unclosed element.
func TestNotWellFormed(t *testing.T) {
	for _, s := range []string{"<a>&nbsp;</a>", "<a><b></a>"} {
		ft := &fakeT{TB: t}
		func() {
			defer func() { recover() }()
			Tokens(ft, s)
		}()
		if !ft.failed {
			t.Errorf("%q: no failure", s)
		}
	}
}

// fakeT records Fatalf instead of failing the test.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper() {}

func (f *fakeT) Fatalf(string, ...any) {
	f.failed = true
	panic("fatal")
}
