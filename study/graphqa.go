package study

import (
	"fmt"
	"strings"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/formats/graphtext"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/graphqa"
)

// graphqaSeed seeds the graphs and questions of the GraphQA studies: the
// seed of Talk like a Graph's test split (the study gives none).
const graphqaSeed = 1234

// graphqaItemSyntax is the lossless format the graphs are stored in.
const graphqaItemSyntax = "edge_list"

// studyFormats are the 15 formats of "Graph Serializations for Reasoning
// LLMs" (Table 1) as (study name, registry name).
func studyFormats() [][2]string {
	var out [][2]string
	for _, n := range graphtext.StudyNames() {
		r := n
		if x, ok := formats.Renamed()[n]; ok {
			r = x
		}
		out = append(out, [2]string{n, r})
	}
	return out
}

// seed001Models are the nine model configurations of seed 001 (§3,
// "Models and controls"); withHigh false leaves out gpt-5.4-high, which
// Tables 7 and 8 exclude.
func seed001Models(withHigh bool) []PaperModel {
	openai := func(name, model string, extra map[string]any) PaperModel {
		return PaperModel{Name: name, Model: model, Tokenizer: "o200k_base", BaseURL: "https://api.openai.com/v1", APIKeyEnv: "OPENAI_API_KEY", ExtraBody: extra}
	}
	anthropic := func(name, model string, extra map[string]any, note string) PaperModel {
		return PaperModel{Name: name, Model: model, Tokenizer: "o200k_base", BaseURL: "https://api.anthropic.com/v1", APIKeyEnv: "ANTHROPIC_API_KEY", ExtraBody: extra, Note: note}
	}
	xai := func(name, model string) PaperModel {
		return PaperModel{Name: name, Model: model, Tokenizer: "o200k_base", BaseURL: "https://api.x.ai/v1", APIKeyEnv: "XAI_API_KEY"}
	}
	ms := []PaperModel{openai("gpt-5.4", "gpt-5.4", nil)}
	if withHigh {
		ms = append(ms, openai("gpt-5.4-high", "gpt-5.4", map[string]any{"reasoning_effort": "high"}))
	}
	return append(ms,
		openai("gpt-5.4-mini", "gpt-5.4-mini", nil),
		openai("o3", "o3", nil),
		anthropic("claude-sonnet-4-6", "claude-sonnet-4-6", nil, ""),
		anthropic("claude-sonnet-4-6-thinking", "claude-sonnet-4-6",
			map[string]any{"thinking": map[string]any{"type": "enabled", "budget_tokens": 8000}, "temperature": 1},
			"extended thinking; temperature 1 (the API default the paper kept) through extra_body"),
		anthropic("claude-haiku-4-5", "claude-haiku-4-5", nil, ""),
		xai("grok-4-fast-reasoning", "grok-4-fast-reasoning"),
		xai("grok-4-fast-non-reasoning", "grok-4-fast-non-reasoning"),
	)
}

// graphqaRegime describes one GraphQA study: a question set of the
// paper (graphqa.StudySpec) and the models that read it.
type graphqaRegime struct {
	name, table string
	version     int
	spec        graphqa.StudySpec
	models      []PaperModel
}

func graphqaSpec(name string) graphqa.StudySpec {
	s, ok := graphqa.LookupStudySpec(name)
	if !ok {
		panic("study: no GraphQA spec " + name)
	}
	return s
}

func graphqaStudyOf(r graphqaRegime) *Study {
	return &Study{
		Name: r.name, Version: max(1, r.version),
		Paper: "\"Graph Serializations for Reasoning LLMs\" (seed 001), " + r.table,
		Title: fmt.Sprintf("GraphQA %s regime: %d questions on %d generated graphs, in the study's 15 formats, with the appendix H.4 prompts and FINAL: parsing",
			r.spec.Regime, r.spec.N, r.spec.Graphs),
		Parts:  []Part{{Graph: "graphs", Questions: r.spec.N, Arms: graphtext.StudyNames()}},
		Models: r.models,
		build:  func(b *builder) error { return buildGraphQA(b, r) },
	}
}

func graphqaStudy() *Study {
	return graphqaStudyOf(graphqaRegime{name: "graphqa", table: "§3 and Table 6", spec: graphqaSpec("graphqa"), models: seed001Models(true)})
}

func hardenedStudy() *Study {
	return graphqaStudyOf(graphqaRegime{name: "graphqa-hardened", version: 2, table: "§3 and Table 7", spec: graphqaSpec("graphqa-hardened"), models: seed001Models(false)})
}

func topologyStudy() *Study {
	return graphqaStudyOf(graphqaRegime{name: "graphqa-topology", version: 2, table: "§3, Table 5 and Table 8", spec: graphqaSpec("graphqa-topology"), models: seed001Models(false)})
}

// graphqaStabilityStudy is the repeated-run check: every format three times
// on fixed Hardened and Topology sets, with gpt-5.4 and gpt-5.4-mini.
func graphqaStabilityStudy() *Study {
	h, tp := graphqaSpec("graphqa-hardened-105"), graphqaSpec("graphqa-topology-120")
	return &Study{
		Name: "graphqa-stability", Version: 2,
		Paper: "\"Graph Serializations for Reasoning LLMs\" (seed 001), appendix \"Repeated-run stability\"",
		Title: "The repeated-run check: the 15 formats three times on fixed sets of 105 GraphQA-Hardened and 120 GraphQA-Topology questions",
		Parts: []Part{{Graph: "hardened", Questions: h.N, Arms: graphtext.StudyNames()},
			{Graph: "topology", Questions: tp.N, Arms: graphtext.StudyNames()}},
		Models: seed001Models(false)[:2], Trials: 3,
		build: buildStability,
	}
}

// graphqaSet generates the questions of a regime with the graphs stored as
// their items (in graphqaItemSyntax), each question with the study's
// instruction for its answer kind in Meta["instruction"].
func graphqaSet(spec graphqa.StudySpec) (*task.Set, error) {
	render := func(g *graph.Graph) (string, error) {
		return formats.EncodeString(graphqaItemSyntax, formats.NewGraphInput(g))
	}
	set, err := graphqa.Generate(graphqa.Options{Regime: spec.Regime, Graphs: spec.Graphs, Limit: spec.Limit, Seed: graphqaSeed, Render: render})
	if err != nil {
		return nil, err
	}
	for i := range set.Questions {
		q := &set.Questions[i]
		kind := q.Gold.Kind
		if q.Task == graphqa.TaskShortestPath {
			kind = task.KindNoPath
		}
		q.Meta["instruction"] = graphqa.FinalInstruction(kind)
	}
	return set, nil
}

// graphqaUser is the user message of appendix H.4 with eval's
// placeholders: exactly graphqa.FinalPrompt's for a rendering that ends in
// one newline (all 15 formats do).
const graphqaUser = "You are given an undirected graph below. {{meta.instruction}}\n\n{{context}}\nQuestion: {{meta.study_question}}"

func buildGraphQA(b *builder, r graphqaRegime) error {
	set, err := graphqaSet(r.spec)
	if err != nil {
		return err
	}
	if len(set.Questions) != r.spec.N {
		return fmt.Errorf("the %s set has %d questions, the spec %d", r.spec.Name, len(set.Questions), r.spec.N)
	}
	setFile := "sets/" + r.name + ".jsonl"
	if err := b.set(setFile, set); err != nil {
		return err
	}
	graphqaExperiment(b, []graphqaPart{{graph: "graphs", set: setFile}})
	b.what = append(b.what, fmt.Sprintf("The %s regime of the study's GraphQA extension: %d %s graphs generated with seed %d, "+
		"one question per task and graph (%d questions), each graph rendered in the study's 15 formats "+
		"(Table 1: %s). The graphs are stored losslessly (%s) in %s and rendered by isolda when the run is prepared; "+
		"every format sees the same graph, node ids and order.",
		r.spec.Regime, len(set.Contexts), graphqaGenerators(r.spec.Regime), graphqaSeed, len(set.Questions),
		strings.Join(graphtext.StudyNames(), ", "), graphqaItemSyntax, setFile))
	b.what = append(b.what, "Prompts are appendix H.4's: the system message \"You are a careful reasoner. ...\" and the "+
		"user message \"You are given an undirected graph below.\" with the answer instruction of the question's kind, "+
		"the rendered graph and the question (graphqa.StudyTemplate). Answers are scored on the line that begins with FINAL: (scorer final).")
	b.numbers = append(b.numbers, graphqaNumbers(r.spec)...)
	b.deviations = append(b.deviations, graphqaDeviations(r.spec)...)
	return nil
}

// graphqaPart is one question set of a GraphQA experiment.
type graphqaPart struct{ graph, set string }

// graphqaExperiment sets the graphs, arms, tasks and prompt of a GraphQA
// experiment.
func graphqaExperiment(b *builder, parts []graphqaPart) {
	e := b.exp
	for _, p := range parts {
		e.Graphs = append(e.Graphs, eval.Graph{Name: p.graph, Set: p.set, Syntax: graphqaItemSyntax})
		e.Tasks = append(e.Tasks, eval.Task{Name: p.graph, Set: p.set, Graph: p.graph, Scorer: "final"})
	}
	for _, f := range studyFormats() {
		e.Arms = append(e.Arms, eval.Arm{Name: f[0], Format: f[1]})
	}
	e.Prompt = &eval.Prompt{System: graphqa.FinalSystemPrompt, User: graphqaUser}
	e.Temperature, e.MaxTokens = 0, 16000
	b.comments["arms"] = graphqaArmsComment
	b.comments["prompt"] = "Appendix H.4: the system prompt, and the GraphQA user prompt with the instruction of the answer kind."
	b.comments["max_tokens"] = "Room for the reasoning the prompt asks for (the paper gives no limit)."
}

func graphqaGenerators(regime string) string {
	switch regime {
	case graphqa.RegimeTopology:
		return "Erdős–Rényi, Barabási–Albert, SBM, star, complete and path (in turn)"
	}
	return "Erdős–Rényi"
}

func graphqaNumbers(spec graphqa.StudySpec) []string {
	n := []string{
		"Formats: Table 1 and appendix H.2 (formats/graphtext reproduces every H.2 reference output).",
		"Prompts: appendix H.4; the instructions of answer kinds other than integers follow the integer one (graphqa.FinalInstruction).",
		"Models: §3 \"Models and controls\": temperature 0 for every configuration except claude-sonnet-4-6 with extended thinking, which keeps the API default of 1.",
		fmt.Sprintf("Set size: %s; this set has %d questions (graphqa.StudySpecs).", spec.Source, spec.N),
	}
	switch spec.Regime {
	case graphqa.RegimeGraphQA:
		n = append(n, "Tasks: the 9 Talk like a Graph tasks plus num_components and connectivity (§3, Table 4), on Erdős–Rényi graphs with n in {8, 15, 25, 35, 50} and p ~ U[0, 1].")
	case graphqa.RegimeHardened:
		n = append(n, "Tasks: the seven Hardened operators (k-core size, diameter, k-th shortest path, local clustering, high-degree-neighbour count, maximum clique, top betweenness) on Erdős–Rényi graphs with n in {35, 50, 75} and p = min(0.5, 2.5 log10 n / n) (appendix, \"Task inventory\").")
	case graphqa.RegimeTopology:
		n = append(n, "Tasks: the four bounded-answer operators (kth_shortest_path, local_clustering, neighbour_degree_ge, betweenness_top1) at n = 50 and the calibrated density, over the six generators of Table 5 in turn.")
	}
	return n
}

func graphqaDeviations(spec graphqa.StudySpec) []string {
	d := []string{
		fmt.Sprintf("The paper gives no seed: the study uses %d, the seed of Talk like a Graph's test split.", graphqaSeed),
		"The nine task templates the paper took from Talk like a Graph are not listed; graphqa.StudyTasks documents the choice (disconnected_nodes and maximum_flow, whose capacities no encoder shows, are left out).",
		"The H.4 prompt is given for integer answers only; the other answer kinds get the same sentence with their own form (yes/no, node list, number with two decimals, node).",
		"The paper gives no max_tokens; the study allows 16,000 tokens for the reasoning the prompt asks for.",
	}
	if spec.Deviation != "" {
		d = append(d, fmt.Sprintf("The paper reports n = %d (%s); this set has %d questions: %s.", spec.PaperN, spec.Source, spec.N, spec.Deviation))
	}
	if spec.Rule != "" {
		d = append(d, fmt.Sprintf("The set has the paper's n = %d (%s), but the paper does not determine its questions: %s.", spec.PaperN, spec.Source, spec.Rule))
	}
	return d
}

func buildStability(b *builder) error {
	var parts []graphqaPart
	var devs []string
	for i, x := range []struct{ graph, spec string }{{"hardened", "graphqa-hardened-105"}, {"topology", "graphqa-topology-120"}} {
		spec := graphqaSpec(x.spec)
		set, err := graphqaSet(spec)
		if err != nil {
			return err
		}
		f := "sets/stability-" + x.graph + ".jsonl"
		if err := b.set(f, set); err != nil {
			return err
		}
		b.parts[i].Questions = len(set.Questions)
		parts = append(parts, graphqaPart{graph: x.graph, set: f})
		if spec.Deviation != "" {
			devs = append(devs, fmt.Sprintf("The %s set has %d questions, not the paper's %d: %s.", x.graph, spec.N, spec.PaperN, spec.Deviation))
		}
		if spec.Rule != "" {
			devs = append(devs, fmt.Sprintf("The %s set has the paper's %d questions, but the paper does not determine them: %s.", x.graph, spec.N, spec.Rule))
		}
	}
	graphqaExperiment(b, parts)
	b.exp.Trials = 3
	b.what = append(b.what, "The repeated-run check of the appendix: every one of the 15 formats is asked three times, "+
		"on fixed GraphQA-Hardened (15 graphs, 7 operators) and GraphQA-Topology (30 graphs, 4 operators) sets, with gpt-5.4 and "+
		"gpt-5.4-mini at temperature 0. The report's run-to-run table gives the spread of accuracy over the three trials per "+
		"format and model, to compare with the spread between formats.")
	b.numbers = append(b.numbers, "Sets and models: appendix \"Repeated-run stability\" (105 Hardened and 120 Topology questions, "+
		"three decodes, gpt-5.4 and gpt-5.4-mini, 20,250 calls).")
	b.deviations = append(append(b.deviations, devs...),
		"The paper disabled response caches; the study cannot: disable prompt caching on the server if it has one.",
		fmt.Sprintf("The paper gives no seed: the study uses %d.", graphqaSeed))
	return nil
}
