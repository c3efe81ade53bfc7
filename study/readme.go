package study

import (
	"fmt"
	"strings"

	"github.com/isolda/isolda/eval"
)

// readme writes the folder's README.md.
func (b *builder) readme(sums string) string {
	s := b.study
	var w strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&w, format, a...) }
	p("# Study %s (version %d)\n\n%s.\n\nSource: %s.", s.Name, s.Version, s.Title, s.Paper)
	if b.variant != "" {
		p(" Variant: **%s** (`--variant` takes %s).", b.variant, strings.Join(s.Variants, ", "))
	}
	p("\n\n## What it is\n\n")
	for _, para := range b.what {
		p("%s\n\n", para)
	}
	p("## Run it\n\n```sh\n")
	p("isolda eval run experiment.yaml --dry-run   # calls and input tokens per model, no call made\n")
	p("isolda eval run experiment.yaml --out run   # run (or resume) every call\n")
	if b.criteria != "" {
		p("isolda report run --criteria criteria.yaml --out run/report\n")
	} else {
		p("isolda report run --out run/report\n")
	}
	p("```\n\n")
	if b.opts.Model == "" {
		p("`experiment.yaml` names the paper's models with the placeholder endpoint %s: point each at its server "+
			"(or write the folder again with `isolda study init %s DIR --base-url URL --model ID` for one model that reads every arm).\n\n", PlaceholderURL, s.Name)
	}
	if b.criteria != "" {
		p("`criteria.yaml` holds the criteria the paper pre-registered; `isolda report` gives PASS, FAIL or NOT EVALUATED for each, with the figures behind it.\n\n")
	} else {
		p("The paper pre-registered no criteria for this study: the report gives the tables only.\n\n")
	}
	p("## Arms\n\n| arm | format | options | graphs | source of the text |\n|---|---|---|---|---|\n")
	for _, a := range b.exp.Arms {
		src := "rendered by isolda from the graph"
		if a.Stored != "" {
			src = "stored: `" + a.Stored + "`"
		}
		p("| %s | %s | %s | %s | %s |\n", a.ArmName(), a.Format, optionWords(a), strings.Join(a.Graphs, ", "), src)
	}
	p("\n## Models and calls\n\n| model | model id | arms | graphs | calls | note |\n|---|---|---|---|---|---|\n")
	if b.opts.Model != "" {
		m := b.exp.Models[0]
		p("| %s | %s | all | all | %d | the model given to `study init` |\n", m.Name, m.Model, b.calls(nil, nil))
	} else {
		for _, m := range s.Models {
			arms, graphs := "all", "all"
			if len(m.Arms) > 0 {
				arms = strings.Join(m.Arms, ", ")
			}
			if len(m.Graphs) > 0 {
				graphs = strings.Join(m.Graphs, ", ")
			}
			p("| %s | %s | %s | %s | %d | %s |\n", m.Name, m.Model, arms, graphs, b.calls(m.Arms, m.Graphs), m.Note)
		}
	}
	p("\nCalls count every question asked with every arm the model reads, %d time(s) each; `eval run --dry-run` prints the same figures from the frozen inputs.\n\n", max(1, s.Trials))
	p("## Where the numbers come from\n\n")
	for _, n := range b.numbers {
		p("- %s\n", n)
	}
	p("\n## What deviates from the paper, and why\n\n")
	if len(b.deviations) == 0 {
		p("Nothing known.\n")
	}
	for _, d := range b.deviations {
		p("- %s\n", d)
	}
	for _, x := range b.extra {
		p("\n## %s\n\n%s\n", x.title, strings.TrimRight(x.body, "\n"))
	}
	p("\n## Files\n\nSHA-256 of every file written (also in %s; check with `sha256sum -c %s`):\n\n```\n%s```\n", SumsFile, SumsFile, sums)
	return w.String()
}

// optionWords lists an arm's options and ordering.
func optionWords(a eval.Arm) string {
	var w []string
	if o := a.Options; o != nil {
		w = append(w, flowText(optionsNode(o)))
	}
	if a.Ordering != nil {
		w = append(w, "ordering "+a.Ordering.Kind)
	}
	return strings.Join(w, " ")
}

// calls counts the calls of a model reading arms and graphs (nil: all)
// from the study's parts.
func (b *builder) calls(arms, graphs []string) int {
	s := *b.study
	s.Parts = b.parts
	return s.Calls(PaperModel{Arms: arms, Graphs: graphs})
}
