package study

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/sample"
	"github.com/isolda/isolda/task/kg"
	"github.com/isolda/isolda/task/kgllm"
	"github.com/isolda/isolda/token"
)

// This file holds the studies of the ISOLDA paper (spec 000) on RDF graphs
// the user gives: the pilot runs (§4.3), the confirmatory run (§4.4) and
// the validation of ISOLDA 0.2 (§4.6).

// isoldaModels are the four models of the vLLM runs (§4.2).
func isoldaModels(large []string) []PaperModel {
	return []PaperModel{qwen4b(), gemmaE4B(), withArms(qwen27b(), large), withArms(gemma31b(), large)}
}

// rdfGraph copies the RDF file of a data slot into data/<name><ext> and
// reads it.
func (b *builder) rdfGraph(slot, name string) (string, *rdf.Dataset, error) {
	src, err := b.data(slot)
	if err != nil {
		return "", nil, err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return "", nil, err
	}
	ext := strings.ToLower(filepath.Ext(strings.TrimSuffix(src, ".gz")))
	if strings.HasSuffix(src, ".gz") {
		ext += ".gz"
	}
	if ext == "" {
		ext = ".ttl"
	}
	rel := "data/" + name + ext
	d, err := rdfio.ReadFile(src, nil, rdfio.Options{ReadOptions: rdf.ReadOptions{File: src}})
	if err != nil {
		return "", nil, err
	}
	cut, err := b.cutToBudget(slot, d, data)
	if err != nil {
		return "", nil, err
	}
	if cut != nil {
		var buf bytes.Buffer
		f, _ := formats.Get("nquads")
		if err := f.Encode(&buf, formats.NewInput(cut)); err != nil {
			return "", nil, err
		}
		rel, d, data = "data/"+name+".sample.nq", cut, buf.Bytes()
	}
	b.file(rel, data)
	b.exp.Graphs = append(b.exp.Graphs, eval.Graph{Name: name, File: rel})
	return rel, d, nil
}

// cutToBudget cuts the graph of a data slot that has units to the paper's
// budget (§4.1) when its largest encoding is over it, and says so in the
// README and through Options.Notes. It returns nil when the graph fits
// (or the slot has no units).
func (b *builder) cutToBudget(slot string, d *rdf.Dataset, raw []byte) (*rdf.Dataset, error) {
	var ds DataSlot
	for _, x := range b.study.Data {
		if x.Name == slot {
			ds = x
		}
	}
	if ds.Unit == "" {
		return nil, nil
	}
	class := ds.Unit
	if c, ok := b.opts.Units[slot]; ok && c != "" {
		class = c
	}
	tok, err := token.NewRegistry(token.Options{}).Get(token.O200KBase)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	fits := func() (bool, error) {
		sizes, err := sample.Measure(d, ds.SampleFormats, tok)
		if err != nil {
			return false, err
		}
		l := sample.Largest(sizes)
		if l.Tokens > SampleBudget {
			return false, nil
		}
		b.numbers = append(b.numbers, fmt.Sprintf("Data %s (SHA-256 %s): its largest encoding among %s takes %d o200k tokens (%s), "+
			"within the paper's budget of %d (§4.1), so it is used whole.", slot, hex.EncodeToString(sum[:]),
			strings.Join(ds.SampleFormats, ", "), l.Tokens, l.Format, SampleBudget))
		return true, nil
	}
	units, err := sample.Split(d, class)
	if err != nil {
		// No unit of the class: fine if the whole graph fits.
		ok, ferr := fits()
		if ferr != nil || ok {
			return nil, ferr
		}
		return nil, fmt.Errorf("data %s is larger than %d o200k tokens and must be cut into units (§4.1), but: %w (give the class with --unit %s=CLASS)",
			slot, SampleBudget, err, slot)
	}
	res, err := units.Cut(sample.Options{Budget: SampleBudget, Formats: ds.SampleFormats, Tokenizer: tok})
	if err != nil {
		return nil, fmt.Errorf("data %s: %w", slot, err)
	}
	if res.Units == res.Total {
		if ok, err := fits(); err != nil || ok {
			return nil, err
		}
	}
	l := sample.Largest(res.Sizes)
	note := fmt.Sprintf("Data %s (SHA-256 %s, %d statements) is larger than the paper's budget of %d o200k tokens in its largest encoding "+
		"among %s, so it was cut as §4.1 cut its held-out graphs (isolda sample --unit %s --budget %d --formats %s): "+
		"the first %d of its %d units of <%s> (%d statements, RDFC-1.0 hash %s) take %d tokens in %s",
		slot, hex.EncodeToString(sum[:]), d.Len(), SampleBudget, strings.Join(ds.SampleFormats, ", "), class, SampleBudget,
		strings.Join(ds.SampleFormats, ","), res.Units, res.Total, class, res.Sample.Len(), res.Hash, l.Tokens, l.Format)
	if res.Next != nil {
		n := sample.Largest(res.Next)
		note += fmt.Sprintf("; with one unit more %s would take %d", n.Format, n.Tokens)
	}
	note += "."
	b.numbers = append(b.numbers, note)
	if b.opts.Notes != nil {
		b.opts.Notes(note)
	}
	return res.Sample, nil
}

// kgQuestions generates the KG questions of a graph (kg.Generate), freezes
// them in sets/<name>.jsonl and adds the task asking them about the graph.
// per maps families to their caps (nil: every family, perFamily each).
func (b *builder) kgQuestions(name string, d *rdf.Dataset, seed int64, perFamily int, per map[string]int, prompt *eval.Prompt) (int, string, error) {
	var counts []string
	set, err := kg.Generate(d, kg.Options{PerFamily: perFamily, Seed: seed, Name: name})
	if err != nil {
		return 0, "", err
	}
	if per != nil {
		// Caps per family: each family generated on its own (a family's
		// questions do not depend on the others).
		set.Questions, set.Counts = nil, nil
		for _, f := range kg.Families() {
			n, ok := per[f]
			if !ok {
				continue
			}
			one, err := kg.Generate(d, kg.Options{Families: []string{f}, PerFamily: n, Seed: seed, Name: name})
			if err != nil {
				return 0, "", err
			}
			set.Questions = append(set.Questions, one.Questions...)
			set.Counts = append(set.Counts, one.Counts...)
		}
	}
	for _, c := range set.Counts {
		line := fmt.Sprintf("%s %d", c.Family, c.Questions)
		if c.Ambiguous > 0 {
			line += fmt.Sprintf(", %d ambiguous left out", c.Ambiguous)
		}
		if c.Skipped != "" {
			line += " (" + c.Skipped + ")"
		}
		counts = append(counts, line)
	}
	file := "sets/" + name + ".jsonl"
	if err := b.set(file, set); err != nil {
		return 0, "", err
	}
	b.exp.Tasks = append(b.exp.Tasks, eval.Task{Name: name, Set: file, Graph: name, Scorer: "kg", Prompt: prompt})
	return len(set.Questions), strings.Join(counts, ", "), nil
}

// ---- §4.3 pilot runs ----

func pilotArms() []string {
	return []string{"json-ld", "turtle", "toon", "proto-slugs", "proto-slugs-inline", "proto-labels", "proto-labels-inline",
		"proto-labels-types", "proto-labels-one-line", "proto-labels-no-constants"}
}

func pilotStudy() *Study {
	return &Study{
		Name: "isolda-pilot", Version: 1,
		Paper:  "\"ISOLDA: Indexed Subject-Ordered Linked Data for AI\" (spec 000) §4.3, pilot runs (exploratory)",
		Title:  "The pilot runs: 35 questions (15 lookups, 14 multi-hop, 6 counts) on the development graph, in JSON-LD, Turtle, TOON and the ISOLDA prototypes' variants",
		Data:   []DataSlot{{Name: "dev", What: "the development graph (any RDF syntax; the paper's is a schema.org graph of a person, articles and organizations)"}},
		Parts:  []Part{{Graph: "dev", Questions: 35, Arms: pilotArms()}},
		Models: isoldaModels(nil),
		build:  buildPilot,
	}
}

// The hybrid layout's threshold: the paper does not give run4's.
const hybridTheta = 0.5

func buildPilot(b *builder) error {
	_, d, err := b.rdfGraph("dev", "dev")
	if err != nil {
		return err
	}
	n, counts, err := b.kgQuestions("dev", d, 1100, 0, map[string]int{kg.FamilyLookup: 15, kg.FamilyMultiHop: 14, kg.FamilyTypeCount: 6}, nil)
	if err != nil {
		return err
	}
	b.parts[0].Questions = n
	o := func(x eval.IsoldaOptions) *eval.IsoldaOptions { return &x }
	proto := func(name string, x eval.IsoldaOptions) eval.Arm {
		return eval.Arm{Name: name, Format: "isolda-0.1", Options: o(x)}
	}
	b.exp.Arms = []eval.Arm{
		{Name: "json-ld", Format: "b-json"}, {Name: "turtle", Format: "b-ttl"}, {Name: "toon", Format: "toon"},
		proto("proto-slugs", eval.IsoldaOptions{IDs: "slug", NoTypes: true, Layout: "hybrid", Theta: hybridTheta}),
		proto("proto-slugs-inline", eval.IsoldaOptions{IDs: "slug", NoTypes: true, Layout: "hybrid", Theta: hybridTheta, InlineBnodes: true}),
		proto("proto-labels", eval.IsoldaOptions{NoTypes: true, Layout: "hybrid", Theta: hybridTheta}),
		proto("proto-labels-inline", eval.IsoldaOptions{NoTypes: true, Layout: "hybrid", Theta: hybridTheta, InlineBnodes: true}),
		proto("proto-labels-types", eval.IsoldaOptions{Layout: "hybrid", Theta: hybridTheta}),
		proto("proto-labels-one-line", eval.IsoldaOptions{NoTypes: true}),
		proto("proto-labels-no-constants", eval.IsoldaOptions{NoTypes: true, Layout: "hybrid", Theta: hybridTheta, NoConstants: true}),
	}
	b.exp.Temperature, b.exp.MaxTokens = 0, 200
	b.comments["arms"] = "run1/run2: JSON-LD, Turtle and TOON; run3/run4: the prototype with slugs or labels as ids, with and without\n" +
		"inline blank nodes; run5: the labels prototype, with @types, one line per entity, or without constants."
	b.what = append(b.what,
		fmt.Sprintf("The five pilot runs of §4.3 as one experiment: the development graph, %d questions generated from it "+
			"(%s), the data in the system message and the question in the user message, scored after NFKC and case folding "+
			"(scorer kg). The pilots are exploratory: no criteria.", n, counts),
		"The arms stand for the pilots' inputs: JSON-LD and Turtle (run1, run2), TOON for the TOON-LD prototypes (run1, run2), "+
			"the first ISOLDA prototype with slugs or labels as ids, each with and without inline blank nodes (run3, run4), and "+
			"run5's variants of the labels prototype: the reference, with @types, one line per entity, without constants. "+
			"The prototypes are approximated by ISOLDA 0.1 with the options that differ (see the deviations).")
	b.numbers = append(b.numbers,
		"Questions: 15 lookups, 14 multi-hop and 6 counts (§4.3), from the structural generator of the confirmatory run (kg.Generate), seed 1100.",
		"Prompt: the data in the system message and the question in the user message (§4.3), eval's built-in prompt.",
		"Models: the four vLLM models of run2 to run5 (§4.2); max_tokens 200 as in the confirmatory run (§4.4).")
	b.deviations = append(b.deviations,
		"The development graph is not distributed: give it with --data dev=FILE.",
		"The paper gives no seed for the 35 questions; the study uses 1100 (the confirmatory run's are 1101 and 1102).",
		"run1 used the original JSON-LD blocks of the source pages; the study uses b-json, the compact JSON-LD of the graph.",
		"The TOON-LD prototypes v1 (opaque ids) and v2 (names) were built with a TOON encoder that is not part of isolda; the toon arm (TOON of the b-json document) stands for both.",
		fmt.Sprintf("The ISOLDA prototypes of run3 to run5 predate ISOLDA 0.1; they are approximated by 0.1 with the options that differ: no @types and the hybrid table/block layout (θ = %g, which the paper does not give) for the run4 reference.", hybridTheta),
		"run1 ran on LM Studio (Qwen3 4B 4-bit, Bonsai 27B 1-bit); the study names the four vLLM models of run2 to run5.")
	return nil
}

// ---- §4.4 confirmatory run ----

// confirmatoryAblations are the ablations of I (ISOLDA 0.1) in §4.4.
func confirmatoryAblations() []eval.Arm {
	o := func(x eval.IsoldaOptions) *eval.IsoldaOptions { return &x }
	a := func(name string, x eval.IsoldaOptions) eval.Arm {
		return eval.Arm{Name: name, Format: "isolda-0.1", Options: o(x)}
	}
	return []eval.Arm{
		a("I-slugs", eval.IsoldaOptions{IDs: "slug"}),
		a("I-inline-bnodes", eval.IsoldaOptions{InlineBnodes: true}),
		a("I-hybrid", eval.IsoldaOptions{Layout: "hybrid", Theta: hybridTheta}),
		a("I-no-types", eval.IsoldaOptions{NoTypes: true}),
		a("I-continuation", eval.IsoldaOptions{Continuation: true}),
		a("I-blocks", eval.IsoldaOptions{Layout: "blocks"}),
		a("I-no-glossary", eval.IsoldaOptions{Glossary: "none"}),
		a("I-legend", eval.IsoldaOptions{Glossary: "legend"}),
		a("I-inverse-index", eval.IsoldaOptions{InverseIndex: true}),
		{Name: "I-anchor", Format: "isolda-0.1", Ordering: &eval.Ordering{Kind: eval.OrderBFS}},
	}
}

func confirmatoryArmNames() []string {
	out := []string{"B-json", "B-ttl", "B-ttl-ids", "I"}
	for _, a := range confirmatoryAblations() {
		out = append(out, a.Name)
	}
	return out
}

// confirmatorySampleFormats are the formats of the confirmatory run's
// arms (the ablations are ISOLDA 0.1 with other options).
func confirmatorySampleFormats() []string {
	return []string{"b-json", "b-ttl", "b-ttl-ids", "isolda-0.1"}
}

func confirmatoryStudy() *Study {
	arms := confirmatoryArmNames()
	return &Study{
		Name: "isolda-confirmatory", Version: 1,
		Paper: "\"ISOLDA: Indexed Subject-Ordered Linked Data for AI\" (spec 000) §4.4, confirmatory run (pre-registered)",
		Title: "ISOLDA 0.1 (I), its ten ablations and the baselines B-json, B-ttl and B-ttl-ids on the DCAT and municipalities samples, with the structural question generator (seeds 1101 and 1102, at most 40 per family)",
		Data: []DataSlot{
			{Name: "dcat", What: "the DCAT catalogue or its sample (any RDF syntax); a graph over 20,000 o200k tokens is cut to the longest prefix of datasets (dcat:Dataset) that fits (§4.1)",
				Unit: "http://www.w3.org/ns/dcat#Dataset", SampleFormats: confirmatorySampleFormats()},
			{Name: "municipalities", What: "the Wikidata extract of Catalan municipalities or its sample (any RDF syntax), cut the same way into municipalities (Q33146843, municipality of Catalonia) (§4.1)",
				Unit: "http://www.wikidata.org/entity/Q33146843", SampleFormats: confirmatorySampleFormats()},
		},
		Parts:    []Part{{Graph: "dcat", Questions: 87, Arms: arms}, {Graph: "municipalities", Questions: 170, Arms: arms}},
		Models:   isoldaModels([]string{"B-json", "B-ttl-ids", "I"}),
		Criteria: "1, 2, 3, 4 (§4.4)",
		build:    buildConfirmatory,
	}
}

func buildConfirmatory(b *builder) error {
	var summary []string
	for i, g := range []struct {
		name string
		seed int64
	}{{"dcat", 1101}, {"municipalities", 1102}} {
		_, d, err := b.rdfGraph(g.name, g.name)
		if err != nil {
			return err
		}
		n, counts, err := b.kgQuestions(g.name, d, g.seed, 40, nil, nil)
		if err != nil {
			return err
		}
		b.parts[i].Questions = n
		summary = append(summary, fmt.Sprintf("%s: %d questions (%s)", g.name, n, counts))
	}
	b.exp.Arms = append([]eval.Arm{{Name: "B-json", Format: "b-json"}, {Name: "B-ttl", Format: "b-ttl"}, {Name: "B-ttl-ids", Format: "b-ttl-ids"},
		{Name: "I", Format: "isolda-0.1"}}, confirmatoryAblations()...)
	b.exp.Temperature, b.exp.MaxTokens = 0, 200
	b.comments["arms"] = "The three baselines, I (ISOLDA 0.1 with its defaults) and its ten ablations (§4.4)."
	b.criteria = confirmatoryCriteria()
	b.what = append(b.what,
		"The confirmatory run of §4.4: ISOLDA 0.1 (arm I) against three baselines (B-json, compact JSON-LD; B-ttl, Turtle; "+
			"B-ttl-ids, Turtle with the label of each linked entity in a comment) and ten ablations of I, on the DCAT and "+
			"municipalities samples, with the questions of the structural generator: "+strings.Join(summary, "; ")+". "+
			"The outgoing aggregation questions whose answer is above 4 form the sub-family outgoing_aggregation_deg_gt4 of "+
			"criterion 4 (the generator marks them; the report shows them as a task of outgoing_aggregation).",
		"Every context is decoded when the run is prepared (the report's arm table); criterion 1 reads those round trips.")
	b.numbers = append(b.numbers,
		"Questions: seeds 1101 (DCAT) and 1102 (municipalities), at most 40 per family, all eight families (§4.4); the paper's run had 87 and 170.",
		"Arms and models: §4.4 (Qwen3 4B and Gemma 4 E4B read all 14 arms; Qwen3.8 27B and Gemma 4 31B read B-json, B-ttl-ids and I); max_tokens 200; temperature 0; thinking disabled (§4).",
		"Criteria 1–4 and their statistics (exact two-sided McNemar, alpha 0.05, questions of both graphs pooled per model, the best baseline per model by overall accuracy): §4.4, as pre-registered.",
		"The paper's answer counts (2,958 for DCAT, 5,780 for municipalities) are 87 × 34 and 170 × 34: 14 arms for the two small models and 3 for the two large ones.")
	b.deviations = append(b.deviations,
		"The DCAT and municipalities samples are not distributed (their questions and contexts were frozen unread): give them with --data. "+
			"A graph larger than the budget is cut by isolda's §4.1 rule (package sample); the paper's units for the municipalities were "+
			"\"groups of municipalities\", which it does not define: isolda's unit is one municipality (class Q33146843) with what "+
			"only it references; give another class with --unit municipalities=CLASS. The largest context is measured over the "+
			"formats of the arms (b-json, b-ttl, b-ttl-ids, isolda-0.1), not over each ablation's options.",
		"§4.4 says \"eleven ablations\" but lists ten, and its 14 arms and answer counts (2,958 = 87 × 34) fit ten: the study has the ten listed.",
		fmt.Sprintf("The hybrid layout's threshold θ is not given; I-hybrid uses %g.", hybridTheta),
		"The anchor-mode ablation (I-anchor) orders each question's context from the entity the question is about (eval ordering bfs, one context per anchor), without cropping.",
		"Criterion 1 asks for 100 % isomorphic round trips: the study checks every context of every arm (each one is lossless), not only I's.")
	return nil
}

func confirmatoryCriteria() string {
	return `# Criteria 1-4 of the ISOLDA paper's confirmatory run (§4.4), pre-registered
# before the run. Arms: B-json, B-ttl, B-ttl-ids (the baselines) and I (ISOLDA
# 0.1 with its defaults). Statistics as in the paper: exact two-sided McNemar
# tests, alpha 0.05, one test per model with the questions of both graphs
# pooled; the best baseline of each model is the one with the highest overall
# accuracy on both graphs; for criterion 4 one test per family and model; no
# correction for multiple comparisons. The sub-family "aggregation with degree
# above 4" is outgoing_aggregation_deg_gt4 (marked by the question generator).
name: ISOLDA paper §4.4 confirmatory run (ISOLDA 0.1)
alpha: 0.05
criteria:
  - id: "1"
    kind: all_of
    description: 100 % of the round trips are isomorphic (every arm's contexts, decoded when the run was prepared).
    criteria:
` + confirmatoryLossless() + `  - id: "2"
    kind: token_reduction
    description: I takes at least 15 % fewer tokens than B-ttl-ids on DCAT, with each model's tokenizer.
    arm: I
    than: [B-ttl-ids]
    at_least: 0.15
    graphs: [dcat]
    per: model
    for: every
  - id: "3"
    kind: not_worse
    description: For no model is the overall accuracy of I significantly lower than that of the best baseline.
    arm: I
    than: [B-json, B-ttl, B-ttl-ids]
    best: true
    test: exact
    per: model
    for: every
  - id: "4"
    kind: any_of
    description: >-
      I is significantly better than the best baseline in at least one family: aggregation with
      degree above 4, incoming aggregation, or multi-hop with the 4B models.
    criteria:
      - id: 4a
        kind: better
        description: aggregation with degree above 4 or incoming aggregation, any model
        arm: I
        than: [B-json, B-ttl, B-ttl-ids]
        best: true
        families: [outgoing_aggregation_deg_gt4, incoming_aggregation]
        per: model_family
        for: any
      - id: 4b
        kind: better
        description: multi-hop with the 4B models
        arm: I
        than: [B-json, B-ttl, B-ttl-ids]
        best: true
        families: [multi_hop]
        models: [qwen3-4b, gemma-4-e4b]
        per: model_family
        for: any
`
}

// confirmatoryLossless is criterion 1's lossless check of every arm.
func confirmatoryLossless() string {
	var b strings.Builder
	for _, a := range confirmatoryArmNames() {
		fmt.Fprintf(&b, "      - {id: 1.%s, kind: lossless, arm: %s}\n", a, a)
	}
	return b.String()
}

// ---- §4.6 validation of ISOLDA 0.2 ----

// validationAblations are the four changes of ISOLDA 0.2 (§3.6), as the
// arms that switch each off.
func validationAblations() []eval.Arm {
	a := func(name string, o eval.IsoldaOptions) eval.Arm {
		o.Spec = "0.2"
		return isoldaArm(name, "isolda", []string{kgllm.LangEnglish}, &o)
	}
	return []eval.Arm{
		a("isolda-0.2-no-preferred-language", eval.IsoldaOptions{NoPreferredLanguage: true}),
		a("isolda-0.2-no-row-label-ids", eval.IsoldaOptions{NoRowLabelIDs: true}),
		a("isolda-0.2-no-term-aliases", eval.IsoldaOptions{NoTermAliases: true}),
		a("isolda-0.2-no-vocab-prefix", eval.IsoldaOptions{NoVocabPrefix: true}),
	}
}

func validationWriterArms() []string {
	out := []string{"B-json", "B-ttl", "B-ttl-ids", "isolda-0.2", "isolda-0.1"}
	for _, a := range validationAblations() {
		out = append(out, a.Name)
	}
	return out
}

func validationKGLLMArms() []string {
	return append(append([]string{}, kgllmPaperFormats()...), "rdf_turtle2", "isolda-0.1", "isolda-0.2")
}

func validationStudy() *Study {
	large := []string{"B-json", "B-ttl-ids", "isolda-0.1", "isolda-0.2", "list_of_edges", "structured_json", "rdf_turtle2"}
	return &Study{
		Name: "isolda-validation", Version: 1,
		Paper: "\"ISOLDA: Indexed Subject-Ordered Linked Data for AI\" (spec 000) §4.6, validation of ISOLDA 0.2 (pre-registered)",
		Title: "ISOLDA 0.2, 0.1, 0.2 without each of its four changes and the baselines on the Catalan writers graph, and both ISOLDA versions on KG-LLM-Bench with real names",
		Data: []DataSlot{
			{Name: "writers", What: "the writers graph (any RDF syntax): people who are writers and write in Catalan in Wikidata, with Catalan, Spanish and English labels (§4.6); a graph over 20,000 o200k tokens is cut to the longest prefix of writers (Q5, human) that fits (§4.1)",
				Unit: "http://www.wikidata.org/entity/Q5", SampleFormats: []string{"b-json", "b-ttl", "b-ttl-ids", "isolda-0.1", "isolda-0.2"}},
			kgllmbenchSlot(),
		},
		Parts: []Part{{Graph: "writers", Questions: 201, Arms: validationWriterArms()},
			{Graph: "kgllmbench-real", Questions: 500, Arms: validationKGLLMArms()}},
		Models: []PaperModel{
			withGraphs(PaperModel{Name: "llama-3.2-1b", Model: "meta-llama/Llama-3.2-1B-Instruct", Tokenizer: "llama3", ExtraBody: noThinking(), Note: "bf16; KG-LLM-Bench only"}, []string{"kgllmbench-real"}),
			qwen4b(), gemmaE4B(), withArms(qwen27b(), large), withArms(gemma31b(), large),
		},
		Criteria: "W1–W4, K1–K3, V (§4.6)",
		build:    buildValidation,
	}
}

func withGraphs(m PaperModel, graphs []string) PaperModel {
	m.Graphs = graphs
	return m
}

// writersPrompt is eval's built-in system_user prompt with the format's
// name from the arm, so that every ISOLDA arm is presented with the same
// name (§4.6).
var writersPrompt = &eval.Prompt{
	System: "Answer the question about the data below.\n\nKnowledge graph ({{arm.format_name}} format):\n\n{{context}}",
	User:   "{{question}}",
}

func buildValidation(b *builder) error {
	_, d, err := b.rdfGraph("writers", "writers")
	if err != nil {
		return err
	}
	n, counts, err := b.kgQuestions("writers", d, 1201, 40, nil, writersPrompt)
	if err != nil {
		return err
	}
	b.parts[0].Questions = n
	dir, err := b.data("kgllmbench")
	if err != nil {
		return err
	}
	st, sums, err := loadKGLLM(dir, kgllm.VariantReal, b.phase)
	if err != nil {
		return err
	}
	graphs, err := kgllmParts(b, []*kgllm.Study{st}, append(append([]string{}, kgllmPaperFormats()...), "rdf_turtle2"), "kgllm_strict")
	if err != nil {
		return err
	}
	b.parts[1].Questions = len(st.Questions)
	e := b.exp
	en := []string{kgllm.LangEnglish}
	var writerArms []eval.Arm
	for _, f := range []string{"B-json", "B-ttl", "B-ttl-ids"} {
		writerArms = append(writerArms, eval.Arm{Name: f, Format: strings.ToLower(f), Graphs: []string{"writers"},
			Vars: map[string]string{"format_name": strings.ToLower(f)}})
	}
	writerArms = append(writerArms, isoldaArm("isolda-0.2", "isolda", en, &eval.IsoldaOptions{Spec: "0.2"}),
		isoldaArm("isolda-0.1", "isolda-0.1", en, nil))
	for _, a := range validationAblations() {
		a.Graphs = []string{"writers"}
		writerArms = append(writerArms, a)
	}
	e.Arms = append(writerArms, e.Arms...)
	e.Temperature, e.MaxTokens = 0, 512
	b.comments["arms"] = "Writers: the baselines, ISOLDA 0.2 and 0.1, and 0.2 without each of its four changes; every ISOLDA arm is\n" +
		"presented as \"isolda\" (format_name). KG-LLM-Bench with real names: the benchmark's five formats, rdf_turtle2 (stored),\n" +
		"and both ISOLDA versions from the RDF of rdf_turtle2."
	b.criteria = validationCriteria(graphs[0])
	b.what = append(b.what,
		fmt.Sprintf("The validation of ISOLDA 0.2 (§4.6) on two data sets that were not used to design it. Writers: the "+
			"structural questions of the confirmatory run's generator with seed 1201 and all eight families (%d: %s), asked "+
			"with the data in the system message, in the baselines, ISOLDA 0.2, ISOLDA 0.1 and 0.2 without each of its four "+
			"changes (preferred label language, label ids row by row, @term aliases, the @vocab prefix). KG-LLM-Bench with "+
			"real names: the 500 instances in the benchmark's five formats, rdf_turtle2, ISOLDA 0.1 and ISOLDA 0.2, with the "+
			"benchmark's prompt and scoring.", n, counts),
		"Every ISOLDA context (both data sets) is decoded when the run is prepared; W1 reads those round trips.")
	b.numbers = append(b.numbers,
		"Writers questions: seed 1201, all eight families, at most 40 each; the paper's run had 201 (40 each of lookup, multi-hop, outgoing aggregation, incoming aggregation and language choice, one count).",
		"Arms and models: §4.6 (Qwen3 4B and Gemma 4 E4B read the nine writers arms and the eight KG-LLM-Bench formats; Qwen3.8 27B and Gemma 4 31B B-json, B-ttl-ids, both ISOLDA versions, list_of_edges, structured_json and rdf_turtle2; Llama 3.2 1B the eight KG-LLM-Bench formats).",
		"Criteria W1–W4, K1–K3 and V: §4.6, as pre-registered (exact McNemar per model, alpha 0.05).")
	for _, s := range sums {
		b.numbers = append(b.numbers, fmt.Sprintf("KG-LLM-Bench instances: %s, SHA-256 %s.", s[0], s[1]))
	}
	b.deviations = append(b.deviations,
		"The writers graph is not distributed: give it with --data writers=FILE.",
		"The experiment has one max_tokens: 512 (KG-LLM-Bench's); the writers questions had 200 in the confirmatory run. Answers to them are short, so the limit only matters for a model that rambles.",
		"The exploratory comparisons (each ablation against 0.2, by family and model) are in the report's paired comparison and per-family tables, not in criteria.")
	return nil
}

func validationCriteria(kgllmGraph string) string {
	return `# Criteria of the ISOLDA paper's validation of ISOLDA 0.2 (§4.6), pre-registered.
# Exact McNemar per model, alpha 0.05, no correction for multiple comparisons.
# The four main models are qwen3-4b, gemma-4-e4b, qwen3.8-27b and gemma-4-31b.
name: ISOLDA paper §4.6 validation of ISOLDA 0.2
alpha: 0.05
criteria:
  - id: W1
    kind: lossless
    description: Writers graph, ISOLDA 0.2 is lossless (100 % of the round trips isomorphic).
    arm: isolda-0.2
    graphs: [writers]
  - id: W2
    kind: token_reduction
    description: Writers graph, ISOLDA 0.2 takes at least 15 % fewer tokens than B-ttl-ids for every model.
    arm: isolda-0.2
    than: [B-ttl-ids]
    at_least: 0.15
    graphs: [writers]
    per: model
    for: every
  - id: W3
    kind: not_worse
    description: Writers graph, ISOLDA 0.2 is never significantly worse than the best baseline.
    arm: isolda-0.2
    than: [B-json, B-ttl, B-ttl-ids]
    best: true
    graphs: [writers]
    per: model
    for: every
  - id: W4
    kind: any_of
    description: >-
      Writers graph, ISOLDA 0.2 is significantly better than the best baseline in at least one
      family (aggregation with degree above 4, incoming aggregation, or multi-hop with the 4B models).
    criteria:
      - id: W4a
        kind: better
        arm: isolda-0.2
        than: [B-json, B-ttl, B-ttl-ids]
        best: true
        graphs: [writers]
        families: [outgoing_aggregation_deg_gt4, incoming_aggregation]
        per: model_family
        for: any
      - id: W4b
        kind: better
        arm: isolda-0.2
        than: [B-json, B-ttl, B-ttl-ids]
        best: true
        graphs: [writers]
        families: [multi_hop]
        models: [qwen3-4b, gemma-4-e4b]
        per: model_family
        for: any
` + kgllmKCriteria("", "isolda-0.2", kgllmGraph, false) + fmt.Sprintf(`  - id: V-writers
    kind: all_of
    description: Writers graph, ISOLDA 0.2 is significantly more accurate than ISOLDA 0.1 for at least two of the four main models, and significantly less accurate for none of the models that ran both.
    criteria:
      - id: V-writers.better
        kind: better
        arm: isolda-0.2
        than: [isolda-0.1]
        graphs: [writers]
        models: [qwen3-4b, gemma-4-e4b, qwen3.8-27b, gemma-4-31b]
        per: model
        min_count: 2
      - id: V-writers.not_worse
        kind: not_worse
        arm: isolda-0.2
        than: [isolda-0.1]
        graphs: [writers]
        per: model
        for: every
  - id: V-kgllmbench
    kind: all_of
    description: KG-LLM-Bench with real names, ISOLDA 0.2 is significantly more accurate than ISOLDA 0.1 for at least two of the four main models, and significantly less accurate for none of the models that ran both.
    criteria:
      - id: V-kgllmbench.better
        kind: better
        arm: isolda-0.2
        than: [isolda-0.1]
        graphs: [%[1]s]
        models: [qwen3-4b, gemma-4-e4b, qwen3.8-27b, gemma-4-31b]
        per: model
        min_count: 2
      - id: V-kgllmbench.not_worse
        kind: not_worse
        arm: isolda-0.2
        than: [isolda-0.1]
        graphs: [%[1]s]
        per: model
        for: every
`, kgllmGraph)
}
