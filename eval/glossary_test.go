package eval

import (
	"strings"
	"testing"
)

// TestGlossarySystem checks an arm with glossary: system: its context is
// the ISOLDA body (it starts with @isolda, decodes to the graph), the
// glossary is the start of the system message of every call, and glossary
// plus body is the document the same arm writes without the option.
func TestGlossarySystem(t *testing.T) {
	dir := t.TempDir()
	e := writeExp(t, dir, "http://127.0.0.1:1/v1", "")
	e.Arms = append(e.Arms, Arm{Name: "a3", Format: "isolda", Options: &IsoldaOptions{Glossary: GlossarySystem}})
	p := prepare(t, e, dir)
	var full, body *Context
	for i := range p.Contexts {
		switch c := &p.Contexts[i]; c.Arm {
		case "a2":
			full = c
		case "a3":
			body = c
		}
	}
	if full == nil || body == nil {
		t.Fatalf("contexts %+v", p.Contexts)
	}
	first, rest, _ := strings.Cut(body.Text, "\n")
	if !strings.HasPrefix(body.Glossary, "# ISOLDA 0.4: ") || first != "@isolda 0.4" || full.Glossary != "" ||
		body.Glossary+"\n"+rest != full.Text {
		t.Fatalf("glossary %q, body %q, the document without the option %q", body.Glossary, body.Text, full.Text)
	}
	if body.RoundTrip != RoundTripIsomorphic {
		t.Errorf("the body alone: round trip %s %s", body.RoundTrip, body.RoundTripDetail)
	}
	calls := 0
	for i := range p.Entries {
		msgs, err := p.Messages(&p.Entries[i], body)
		if err != nil {
			t.Fatal(err)
		}
		calls++
		if msgs[0].Role != "system" || !strings.HasPrefix(msgs[0].Content, body.Glossary) {
			t.Fatalf("messages %+v", msgs)
		}
		for _, m := range msgs[1:] {
			if strings.Contains(m.Content, "# ISOLDA") {
				t.Errorf("the glossary is also in a %s message", m.Role)
			}
		}
	}
	if calls == 0 {
		t.Fatal("no question")
	}
}
