package eval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/isolda/isolda/llm"
	"github.com/isolda/isolda/task"
)

// Prompt is a message template: the whole prompt of a study, with nothing
// added around it. System (optional) is the system message, User the user
// message. Both may hold placeholders, replaced once, left to right (a
// replacement is never scanned again):
//
//	{{context}}    the rendered context (exactly once in System and User together)
//	{{question}}   the question's text (at most once)
//	{{format}}     the arm's format
//	{{arm.NAME}}   the arm's variable NAME (Arm.Vars)
//	{{meta.NAME}}  the question's Meta value NAME
//	{{glossary}}   the ISOLDA glossary of an arm with glossary: system
//
// Any other "{{" is an error.
type Prompt struct {
	System string `yaml:"system"`
	User   string `yaml:"user"`
}

// Placeholder names.
const (
	phContext  = "context"
	phQuestion = "question"
	phFormat   = "format"
	phGlossary = "glossary"
	phArm      = "arm."
	phMeta     = "meta."
)

// segment is a literal text or a placeholder of a parsed template.
type segment struct {
	lit string
	ph  string // placeholder name; "" for a literal
}

// parseTemplate splits a template into literals and placeholders.
func parseTemplate(s string) ([]segment, error) {
	var out []segment
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			if s != "" {
				out = append(out, segment{lit: s})
			}
			return out, nil
		}
		if i > 0 {
			out = append(out, segment{lit: s[:i]})
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return nil, fmt.Errorf("unclosed {{ at byte %d", i)
		}
		name := s[i+2 : i+j]
		if err := checkPlaceholder(name); err != nil {
			return nil, err
		}
		out = append(out, segment{ph: name})
		s = s[i+j+2:]
	}
}

func checkPlaceholder(name string) error {
	switch name {
	case phContext, phQuestion, phFormat, phGlossary:
		return nil
	}
	for _, p := range []string{phArm, phMeta} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			if !validVar(rest) {
				return fmt.Errorf("placeholder {{%s}}: %s needs a name of letters, digits and '_'", name, p)
			}
			return nil
		}
	}
	return fmt.Errorf("unknown placeholder {{%s}} (known: {{context}}, {{question}}, {{format}}, {{glossary}}, {{arm.NAME}}, {{meta.NAME}})", name)
}

func validVar(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// template is a parsed Prompt.
type template struct {
	system, user []segment
}

// promptError is an error in one message of a template.
type promptError struct {
	field string // "system" or "user"
	msg   string
}

func (e *promptError) Error() string { return "prompt " + e.field + ": " + e.msg }

// compile parses both messages and checks the placeholder counts. Errors
// are *promptError.
func (p *Prompt) compile() (*template, error) {
	if strings.TrimSpace(p.User) == "" {
		return nil, &promptError{"user", "the user message is required"}
	}
	t := &template{}
	var err error
	if t.system, err = parseTemplate(p.System); err != nil {
		return nil, &promptError{"system", err.Error()}
	}
	if t.user, err = parseTemplate(p.User); err != nil {
		return nil, &promptError{"user", err.Error()}
	}
	count := map[string]int{}
	for _, s := range append(append([]segment(nil), t.system...), t.user...) {
		if s.ph != "" {
			count[s.ph]++
		}
	}
	if count[phContext] != 1 {
		return nil, &promptError{"user", fmt.Sprintf("{{context}} must appear exactly once (system and user together), not %d times", count[phContext])}
	}
	if count[phQuestion] > 1 {
		return nil, &promptError{"user", fmt.Sprintf("{{question}} appears %d times, at most once allowed", count[phQuestion])}
	}
	if count[phGlossary] > 1 {
		return nil, &promptError{"user", fmt.Sprintf("{{glossary}} appears %d times, at most once allowed", count[phGlossary])}
	}
	return t, nil
}

// vars returns the {{arm.NAME}} and {{meta.NAME}} names the template uses.
func (t *template) vars(prefix string) []string {
	var out []string
	for _, s := range append(append([]segment(nil), t.system...), t.user...) {
		if n, ok := strings.CutPrefix(s.ph, prefix); ok && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// fill renders one message of the template.
func fill(segs []segment, c *Context, a *Arm, q task.Question) (string, error) {
	var b strings.Builder
	for _, s := range segs {
		switch {
		case s.ph == "":
			b.WriteString(s.lit)
		case s.ph == phContext:
			b.WriteString(c.Text)
		case s.ph == phQuestion:
			b.WriteString(q.Text)
		case s.ph == phFormat:
			b.WriteString(c.Format)
		case s.ph == phGlossary:
			b.WriteString(c.Glossary)
		case strings.HasPrefix(s.ph, phArm):
			v, ok := a.Vars[s.ph[len(phArm):]]
			if !ok {
				return "", fmt.Errorf("arm %s has no variable %s", a.ArmName(), s.ph[len(phArm):])
			}
			b.WriteString(v)
		case strings.HasPrefix(s.ph, phMeta):
			v, ok := q.Meta[s.ph[len(phMeta):]]
			if !ok {
				return "", fmt.Errorf("question %s has no meta %s", q.ID, s.ph[len(phMeta):])
			}
			b.WriteString(v)
		}
	}
	return b.String(), nil
}

// render returns the messages of the template.
func (t *template) render(c *Context, a *Arm, q task.Question) ([]llm.Message, error) {
	var msgs []llm.Message
	if len(t.system) > 0 || c.Glossary != "" {
		sys, err := fill(t.system, c, a, q)
		if err != nil {
			return nil, err
		}
		if c.Glossary != "" && !t.uses(phGlossary) {
			sys = c.Glossary + sys
		}
		msgs = append(msgs, llm.Message{Role: "system", Content: sys})
	}
	user, err := fill(t.user, c, a, q)
	if err != nil {
		return nil, err
	}
	return append(msgs, llm.Message{Role: "user", Content: user}), nil
}

func (t *template) uses(ph string) bool {
	for _, s := range append(append([]segment(nil), t.system...), t.user...) {
		if s.ph == ph {
			return true
		}
	}
	return false
}

// Messages returns the chat messages of the built-in prompt of an entry
// asked about a context, in the given layout: the context under a
// "Knowledge graph" (or, for a set's own context, "Context") header, then
// the question. Experiments with a Prompt template use it instead, with
// nothing added.
func Messages(layout string, c *Context, q task.Question) []llm.Message {
	header := "Knowledge graph"
	switch {
	case c.Arm == SetContextArm:
		header = "Context"
	case !c.HideName:
		header = "Knowledge graph (" + c.Format + " format)"
	}
	data := header + ":\n\n" + c.Text
	if layout == LayoutUser {
		return []llm.Message{{Role: "user", Content: data + "\n\nQuestion: " + q.Text}}
	}
	return []llm.Message{
		{Role: "system", Content: "Answer the question about the data below.\n\n" + data},
		{Role: "user", Content: q.Text},
	}
}
