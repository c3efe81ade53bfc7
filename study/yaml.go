package study

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/isolda/isolda/eval"
)

// This file writes an experiment as readable YAML: fields in the order of
// the eval types, zero values left out, multi-line templates as literal
// blocks. Init reads the file back with eval.ParseExperiment and compares,
// so what is written is what eval reads.

// kv is one key of a YAML mapping, with an optional comment line above.
type kv struct {
	k       string
	v       any
	comment string
}

// flow marks a list or mapping written on one line.
type flow struct{ v any }

type yw struct {
	b strings.Builder
}

// scalar formats a scalar value.
func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return quote(x)
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	panic(fmt.Sprintf("study: no YAML for %T", v))
}

// plainOK reports whether s can be written unquoted.
func plainOK(s string) bool {
	if s == "" || strings.TrimSpace(s) != s {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "~", "y", "n":
		return false
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return false
	}
	for i, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '/' ||
			(i > 0 && (r == '-' || r == '.' || r == ':'))
		if !ok {
			return false
		}
	}
	return !strings.Contains(s, ": ") && !strings.HasSuffix(s, ":")
}

// quote writes s plain when safe, else as a JSON string (a valid YAML
// double-quoted scalar).
func quote(s string) string {
	if plainOK(s) {
		return s
	}
	b, _ := json.Marshal(s)
	// encoding/json escapes <, > and & for HTML; YAML needs no such thing.
	r := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&")
	return r.Replace(string(b))
}

// literalOK reports whether s can be a literal block scalar that reads
// back exactly.
func literalOK(s string) bool {
	if !strings.Contains(s, "\n") || strings.ContainsAny(s, "\r\t") {
		return false
	}
	body := strings.TrimRight(s, "\n")
	if body == "" || strings.HasPrefix(body, " ") || strings.HasPrefix(body, "\n") {
		return false
	}
	for _, l := range strings.Split(body, "\n") {
		if strings.TrimSpace(l) == "" && l != "" {
			return false
		}
		for _, r := range l {
			if r < 0x20 || r == 0x7f || r == 0xfeff {
				return false
			}
		}
	}
	return true
}

func (w *yw) indent(n int) { w.b.WriteString(strings.Repeat("  ", n)) }

// value writes v after "key:" (or "- ") at nesting level n.
func (w *yw) value(v any, n int) {
	switch x := v.(type) {
	case []kv:
		w.b.WriteByte('\n')
		w.mapping(x, n+1)
	case []any:
		w.b.WriteByte('\n')
		for _, e := range x {
			w.indent(n + 1)
			w.b.WriteString("- ")
			if m, ok := e.([]kv); ok {
				w.mappingInline(m, n+2)
				continue
			}
			w.b.WriteString(scalar(e))
			w.b.WriteByte('\n')
		}
	case flow:
		w.b.WriteByte(' ')
		w.b.WriteString(flowText(x.v))
		w.b.WriteByte('\n')
	case string:
		if literalOK(x) {
			chomp := "-"
			switch {
			case strings.HasSuffix(x, "\n\n"):
				chomp = "+"
			case strings.HasSuffix(x, "\n"):
				chomp = ""
			}
			w.b.WriteString(" |" + chomp + "\n")
			for _, l := range strings.Split(strings.TrimRight(x, "\n"), "\n") {
				if l != "" {
					w.indent(n + 1)
				}
				w.b.WriteString(l + "\n")
			}
			if chomp == "+" {
				for range len(x) - len(strings.TrimRight(x, "\n")) - 1 {
					w.b.WriteByte('\n')
				}
			}
			return
		}
		w.b.WriteString(" " + scalar(x) + "\n")
	default:
		w.b.WriteString(" " + scalar(x) + "\n")
	}
}

// flowText writes a list of scalars or a mapping of scalars on one line.
func flowText(v any) string {
	switch x := v.(type) {
	case flow:
		return flowText(x.v)
	case []string:
		parts := make([]string, len(x))
		for i, s := range x {
			parts[i] = quote(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case []kv:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = e.k + ": " + flowText(e.v)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return scalar(v)
}

func (w *yw) mapping(m []kv, n int) {
	for _, e := range m {
		if e.comment != "" {
			for _, l := range strings.Split(e.comment, "\n") {
				w.indent(n)
				w.b.WriteString("# " + l + "\n")
			}
		}
		w.indent(n)
		w.b.WriteString(e.k + ":")
		w.value(e.v, n)
	}
}

// mappingInline writes a mapping that starts after "- ".
func (w *yw) mappingInline(m []kv, n int) {
	for i, e := range m {
		if i > 0 {
			w.indent(n)
		}
		w.b.WriteString(e.k + ":")
		w.value(e.v, n)
	}
}

// experimentYAML writes e as YAML, with head (comment lines) first and a
// comment above the keys named in comments.
func experimentYAML(e *eval.Experiment, head string, comments map[string]string) string {
	var top []kv
	add := func(k string, v any, keep bool) {
		if keep {
			top = append(top, kv{k: k, v: v, comment: comments[k]})
		}
	}
	add("name", e.Name, true)
	var graphs []any
	for _, g := range e.Graphs {
		var m []kv
		m = append(m, kv{k: "name", v: g.Name})
		if g.File != "" {
			m = append(m, kv{k: "file", v: g.File})
		}
		if g.Set != "" {
			m = append(m, kv{k: "set", v: g.Set}, kv{k: "syntax", v: g.Syntax})
		}
		graphs = append(graphs, m)
	}
	add("graphs", graphs, len(graphs) > 0)
	var arms []any
	for _, a := range e.Arms {
		arms = append(arms, armNode(a))
	}
	add("arms", arms, true)
	var models []any
	for _, m := range e.Models {
		models = append(models, modelNode(m))
	}
	add("models", models, true)
	var tasks []any
	for _, t := range e.Tasks {
		m := []kv{{k: "name", v: t.Name}}
		if t.Set != "" {
			m = append(m, kv{k: "set", v: t.Set})
		}
		if t.Graph != "" {
			m = append(m, kv{k: "graph", v: t.Graph})
		}
		if g := t.Generate; g != nil {
			gm := []kv{{k: "families", v: flow{g.Families}}, {k: "per_family", v: g.PerFamily}, {k: "seed", v: g.Seed}}
			m = append(m, kv{k: "generate", v: gm})
		}
		if t.Scorer != "" {
			m = append(m, kv{k: "scorer", v: t.Scorer})
		}
		if t.Prompt != nil {
			m = append(m, kv{k: "prompt", v: promptNode(t.Prompt)})
		}
		tasks = append(tasks, m)
	}
	add("tasks", tasks, true)
	if e.Prompt != nil {
		add("prompt", promptNode(e.Prompt), true)
	}
	add("layout", e.Layout, e.Layout != "")
	add("temperature", e.Temperature, true)
	add("max_tokens", e.MaxTokens, e.MaxTokens != 0)
	if e.Seed != nil {
		add("seed", *e.Seed, true)
	}
	add("trials", e.Trials, e.Trials != 0)
	add("retries", e.Retries, e.Retries != 0)
	add("timeout_seconds", e.TimeoutSeconds, e.TimeoutSeconds != 0)
	var w yw
	for _, l := range strings.Split(strings.TrimRight(head, "\n"), "\n") {
		w.b.WriteString("# " + l + "\n")
	}
	w.mapping(top, 0)
	return strings.ReplaceAll(w.b.String(), "# \n", "#\n")
}

func promptNode(p *eval.Prompt) []kv {
	var m []kv
	if p.System != "" {
		m = append(m, kv{k: "system", v: p.System})
	}
	return append(m, kv{k: "user", v: p.User})
}

func armNode(a eval.Arm) []kv {
	m := []kv{{k: "name", v: a.Name}}
	if a.Format != "" {
		m = append(m, kv{k: "format", v: a.Format})
	}
	if a.Stored != "" {
		m = append(m, kv{k: "stored", v: a.Stored})
	}
	if len(a.Graphs) > 0 {
		m = append(m, kv{k: "graphs", v: flow{a.Graphs}})
	}
	if o := a.Options; o != nil {
		m = append(m, kv{k: "options", v: flow{optionsNode(o)}})
	}
	if a.HideName {
		m = append(m, kv{k: "hide_name", v: true})
	}
	if o := a.Ordering; o != nil {
		om := []kv{{k: "kind", v: o.Kind}}
		if o.Seed != 0 {
			om = append(om, kv{k: "seed", v: o.Seed})
		}
		m = append(m, kv{k: "ordering", v: flow{om}})
	}
	if a.Prompt != nil {
		m = append(m, kv{k: "prompt", v: promptNode(a.Prompt)})
	}
	if len(a.Vars) > 0 {
		var vm []kv
		for _, k := range slices.Sorted(maps.Keys(a.Vars)) {
			vm = append(vm, kv{k: k, v: a.Vars[k]})
		}
		m = append(m, kv{k: "vars", v: vm})
	}
	return m
}

// mapNode turns a map of scalars and maps into a mapping with sorted keys.
func mapNode(m map[string]any) []kv {
	var out []kv
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		if sub, ok := v.(map[string]any); ok {
			v = flow{mapNode(sub)}
		}
		out = append(out, kv{k: k, v: v})
	}
	return out
}

// optionsNode lists the options set, under their experiment-file names.
func optionsNode(o *eval.IsoldaOptions) []kv {
	var om []kv
	add := func(k string, v any, keep bool) {
		if keep {
			om = append(om, kv{k: k, v: v})
		}
	}
	add("spec", o.Spec, o.Spec != "")
	add("ids", o.IDs, o.IDs != "")
	add("no_constants", true, o.NoConstants)
	add("no_types", true, o.NoTypes)
	add("glossary", o.Glossary, o.Glossary != "")
	add("inverse_index", true, o.InverseIndex)
	add("layout", o.Layout, o.Layout != "")
	add("theta", o.Theta, o.Theta != 0)
	add("continuation", true, o.Continuation)
	add("inline_bnodes", true, o.InlineBnodes)
	add("anchor", o.Anchor, o.Anchor != "")
	add("hops", o.Hops, o.Hops != 0)
	add("no_preferred_language", true, o.NoPreferredLanguage)
	add("no_row_label_ids", true, o.NoRowLabelIDs)
	add("no_term_aliases", true, o.NoTermAliases)
	add("no_vocab_prefix", true, o.NoVocabPrefix)
	add("iri_ids", true, o.IRIIDs)
	add("datatype_prefixes", true, o.DatatypePrefixes)
	return om
}

func modelNode(md eval.Model) []kv {
	m := []kv{{k: "name", v: md.Name}, {k: "base_url", v: md.BaseURL}, {k: "model", v: md.Model}}
	if md.APIKeyEnv != "" {
		m = append(m, kv{k: "api_key_env", v: md.APIKeyEnv})
	}
	if md.Tokenizer != "" {
		m = append(m, kv{k: "tokenizer", v: md.Tokenizer})
	}
	if md.ExtraBody != nil {
		m = append(m, kv{k: "extra_body", v: flow{mapNode(md.ExtraBody)}})
	}
	if md.MaxConcurrency != 0 {
		m = append(m, kv{k: "max_concurrency", v: md.MaxConcurrency})
	}
	if len(md.Arms) > 0 {
		m = append(m, kv{k: "arms", v: flow{md.Arms}})
	}
	if len(md.Graphs) > 0 {
		m = append(m, kv{k: "graphs", v: flow{md.Graphs}})
	}
	return m
}
