package study

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/kgllm"
)

// kgllmPaperFormats() are the paper's five KG-LLM-Bench formats
// (rdf_turtle3 and json_ld3 are its "RDF Turtle" and "JSON-LD").
func kgllmPaperFormats() []string { return kgllm.PaperFormats() }

// kgllmExtraFormats() are the two variants with readable relation IRIs the
// benchmark's code also writes.
func kgllmExtraFormats() []string { return []string{"rdf_turtle2", "json_ld2"} }

// kgllmItemFormat is the format whose RDF the ISOLDA arms encode: the
// items of the collection are its texts, read as Turtle.
const kgllmItemFormat = "rdf_turtle2"

// kgllmTemplate returns the benchmark's structure_prompt in a language as
// an eval template: kgllm.UserMessage filled with markers, which are then
// replaced, so that the template gives exactly kgllm.UserMessage's text;
// the format's DESCRIPTION is the arm variable descVar(lang).
func kgllmTemplate(lang string) (string, error) {
	const kg, q, f = "\x00KG\x00", "\x00QUESTION\x00", "list_of_edges"
	t := kgllm.UserMessage(lang, f, kg, q)
	d := kgllm.Description(lang, f)
	if strings.Count(t, d) != 1 || strings.Count(t, kg) != 1 || strings.Count(t, q) != 1 {
		return "", fmt.Errorf("the %s prompt of KG-LLM-Bench cannot be made a template", lang)
	}
	t = strings.Replace(t, d, "{{arm."+descVar(lang)+"}}", 1)
	t = strings.Replace(t, kg, "{{context}}", 1)
	return strings.Replace(t, q, "{{question}}", 1), nil
}

// descVar is the arm variable holding a format's DESCRIPTION in a
// language: description in English, description_<lang> otherwise.
func descVar(lang string) string {
	if lang == kgllm.LangEnglish {
		return "description"
	}
	return "description_" + lang
}

// descVars are the variables of a format's DESCRIPTION in every language.
func descVars(format string, langs []string) map[string]string {
	v := map[string]string{}
	for _, l := range langs {
		v[descVar(l)] = kgllm.Description(l, format)
	}
	return v
}

// kgllmInstanceDir finds the folder of <Task>.<variant>.jsonl.gz files in
// dir: dir itself, dir/instances (the regenerated data's folder), or
// dir/instances/instances (its parent).
func kgllmInstanceDir(dir string) (string, error) {
	if _, err := os.Stat(dir); err != nil {
		return "", fmt.Errorf("the KG-LLM-Bench data folder: %w (from the repository root the shared data is ../shared/data/kgllmbench/instances)", err)
	}
	for _, d := range []string{dir, filepath.Join(dir, "instances"), filepath.Join(dir, "instances", "instances")} {
		if _, err := os.Stat(filepath.Join(d, kgllm.TripleRetrieval+".pseudo.jsonl.gz")); err == nil {
			return d, nil
		}
	}
	return "", fmt.Errorf("%s holds no KG-LLM-Bench instances (<Task>.<variant>.jsonl.gz, as in ../shared/data/kgllmbench/instances/instances)", dir)
}

// loadKGLLM loads one variant of the instances in English, and the SHA-256
// of each file read.
func loadKGLLM(dir, variant string, phase func(string)) (*kgllm.Study, [][2]string, error) {
	dir, err := kgllmInstanceDir(dir)
	if err != nil {
		return nil, nil, err
	}
	phase("reading the KG-LLM-Bench instances (" + variant + ") in " + dir)
	st, err := kgllm.LoadStudy(dir, variant)
	if err != nil {
		return nil, nil, err
	}
	var sums [][2]string
	for _, t := range kgllm.Tasks() {
		path := filepath.Join(dir, t+"."+variant+".jsonl.gz")
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		h := sha256.Sum256(b)
		sums = append(sums, [2]string{filepath.Base(path), hex.EncodeToString(h[:])})
	}
	return st, sums, nil
}

// kgllmItem is the id of an instance in the collections of a study:
// language, variant, task and instance id.
func kgllmItem(st *kgllm.Study, i int) string {
	inst := st.Instances[i]
	return fmt.Sprintf("%s-%s-%s-%03d", st.Language, st.Variant, inst.Task, inst.ID)
}

// kgllmGraph names the collection of a variant and language.
func kgllmGraph(variant, lang string) string {
	if lang == kgllm.LangEnglish {
		return "kgllmbench-" + variant
	}
	return "kgllmbench-" + lang + "-" + variant
}

// kgllmParts adds KG-LLM-Bench in one or more variants and languages to
// the experiment: a collection per study (the rdf_turtle2 text of each
// instance, and its question), one stored arm per benchmark format holding
// its texts of every instance of every collection, and a task per
// collection with the benchmark's prompt in its language and the scorer.
// It returns the collections' names. The ISOLDA arms are the caller's
// (isoldaArm).
func kgllmParts(b *builder, studies []*kgllm.Study, formats []string, scorer string) ([]string, error) {
	var graphs, langs []string
	for _, st := range studies {
		graphs = append(graphs, kgllmGraph(st.Variant, st.Language))
		if !slices.Contains(langs, st.Language) {
			langs = append(langs, st.Language)
		}
	}
	e := b.exp
	itemFiles := make([]string, len(studies))
	for k, st := range studies {
		b.phase("writing the collection " + graphs[k])
		items := &task.Set{Name: graphs[k]}
		for i, q := range st.Questions {
			text, err := st.Context(i, kgllm.FormatArm(kgllmItemFormat))
			if err != nil {
				return nil, err
			}
			id := kgllmItem(st, i)
			q.ContextID = id
			items.Contexts = append(items.Contexts, task.Context{ID: id, Text: text, Source: "KG-LLM-Bench " + kgllmItemFormat})
			items.Questions = append(items.Questions, q)
		}
		itemFiles[k] = "sets/" + graphs[k] + ".jsonl.gz"
		if err := b.set(itemFiles[k], items); err != nil {
			return nil, err
		}
		e.Graphs = append(e.Graphs, eval.Graph{Name: graphs[k], Set: itemFiles[k], Syntax: "turtle"})
	}
	for fi, f := range formats {
		b.phase(fmt.Sprintf("writing the stored contexts of %s (format %d of %d)", f, fi+1, len(formats)))
		stored := "sets/" + f + ".jsonl.gz"
		if f == kgllmItemFormat && len(studies) == 1 {
			stored = itemFiles[0]
		} else {
			s := &task.Set{Name: f}
			for _, st := range studies {
				for i := range st.Instances {
					text, err := st.Context(i, kgllm.FormatArm(f))
					if err != nil {
						return nil, err
					}
					s.Contexts = append(s.Contexts, task.Context{ID: kgllmItem(st, i), Text: text, Source: "KG-LLM-Bench " + f})
				}
			}
			if err := b.set(stored, s); err != nil {
				return nil, err
			}
		}
		e.Arms = append(e.Arms, eval.Arm{Name: f, Format: f, Stored: stored, Graphs: graphs, Vars: descVars(f, langs)})
	}
	for k, st := range studies {
		tpl, err := kgllmTemplate(st.Language)
		if err != nil {
			return nil, err
		}
		e.Tasks = append(e.Tasks, eval.Task{Name: graphs[k], Set: itemFiles[k], Graph: graphs[k], Scorer: scorer, Prompt: &eval.Prompt{User: tpl}})
	}
	return graphs, nil
}

// isoldaArm is an ISOLDA arm with the variables of the studies' templates:
// the benchmark prompt's DESCRIPTION of ISOLDA in each language, and the
// format name of the ISOLDA studies' prompt (the same for every ISOLDA arm,
// §4.6).
func isoldaArm(name, format string, langs []string, o *eval.IsoldaOptions) eval.Arm {
	v := descVars(kgllm.FormatISOLDA, langs)
	v["format_name"] = "isolda"
	return eval.Arm{Name: name, Format: format, Options: o, Vars: v}
}

// kgllmbenchSlot is the data slot of the studies that read KG-LLM-Bench's
// instances.
func kgllmbenchSlot() DataSlot {
	return DataSlot{Name: "kgllmbench", What: "the KG-LLM-Bench instances regenerated with the benchmark's own script " +
		"(the folder of <Task>.<variant>.jsonl.gz files, ../shared/data/kgllmbench/instances/instances from the repository root, or a folder above it)"}
}

// kgllmbenchArms are the eight formats of §4.5: the benchmark's five,
// rdf_turtle2, json_ld2 and ISOLDA 0.1.
func kgllmbenchArms() []string {
	return append(append(append([]string{}, kgllmPaperFormats()...), kgllmExtraFormats()...), "isolda-0.1")
}

// kgllmWith02 is the suffix of the variants that add an ISOLDA 0.2 arm
// wherever the paper has ISOLDA 0.1.
const kgllmWith02 = "+isolda-0.2"

// kgllmVariant adds the isolda-0.2 arm to the parts and to every model that
// reads isolda-0.1, for the variants ending in kgllmWith02.
func kgllmVariant(s *Study, v string) {
	if !strings.HasSuffix(v, kgllmWith02) {
		return
	}
	for i := range s.Parts {
		s.Parts[i].Arms = append(s.Parts[i].Arms, "isolda-0.2")
	}
	for i := range s.Models {
		if slices.Contains(s.Models[i].Arms, "isolda-0.1") {
			s.Models[i].Arms = append(s.Models[i].Arms, "isolda-0.2")
		}
	}
}

// kgllmModels are the models of §4.5 and the arms each reads.
func kgllmModels() []PaperModel {
	paperAndRDF := append(append([]string{}, kgllmPaperFormats()...), "rdf_turtle2", "isolda-0.1")
	few := []string{"list_of_edges", "structured_json", "rdf_turtle2", "isolda-0.1"}
	return []PaperModel{
		{Name: "llama-3.2-1b", Model: "meta-llama/Llama-3.2-1B-Instruct", Tokenizer: "llama3", ExtraBody: noThinking(), Note: "bf16"},
		qwen4b(), gemmaE4B(),
		{Name: "llama-3.3-70b", Model: "meta-llama/Llama-3.3-70B-Instruct", Tokenizer: "llama3", ExtraBody: noThinking(), Arms: paperAndRDF, Note: "FP8"},
		withArms(qwen27b(), few), withArms(gemma31b(), few),
	}
}

// The four models of the ISOLDA paper's vLLM runs (§4.2).
func qwen4b() PaperModel {
	return PaperModel{Name: "qwen3-4b", Model: "Qwen/Qwen3-4B", Tokenizer: "qwen3", ExtraBody: noThinking(), Note: "bf16"}
}

func gemmaE4B() PaperModel {
	return PaperModel{Name: "gemma-4-e4b", Model: "google/gemma-4-E4B-it", Tokenizer: "gemma3", ExtraBody: noThinking(), Note: "bf16; local counts with the Gemma 3 tokenizer"}
}

func qwen27b() PaperModel {
	return PaperModel{Name: "qwen3.8-27b", Model: "Qwen/Qwen3.8-27B-FP8", Tokenizer: "qwen3", ExtraBody: noThinking(), Note: "FP8"}
}

func gemma31b() PaperModel {
	return PaperModel{Name: "gemma-4-31b", Model: "google/gemma-4-31B-it", Tokenizer: "gemma3", ExtraBody: noThinking(), Note: "bf16; local counts with the Gemma 3 tokenizer"}
}

func withArms(m PaperModel, arms []string) PaperModel {
	m.Arms = arms
	return m
}

func kgllmbenchStudy() *Study {
	return &Study{
		Name: "kgllmbench", Version: 2,
		Paper: "\"ISOLDA: Indexed Subject-Ordered Linked Data for AI\" (spec 000) §4.5, KG-LLM-Bench study",
		Title: "KG-LLM-Bench's 500 regenerated instances with its prompt and scoring, in its five formats, rdf_turtle2, json_ld2, " +
			"and ISOLDA 0.1 encoded from the RDF of rdf_turtle2 (the variants +isolda-0.2 add ISOLDA 0.2)",
		Variants: []string{kgllm.VariantPseudo, kgllm.VariantReal, kgllm.VariantPseudo + kgllmWith02, kgllm.VariantReal + kgllmWith02},
		Data:     []DataSlot{kgllmbenchSlot()},
		Parts:    []Part{{Graph: "kgllmbench", Questions: 500, Arms: kgllmbenchArms()}},
		Models:   kgllmModels(),
		Criteria: "R, K1, K2, K3 (§4.5)",
		build:    buildKGLLMBench,
		variant:  kgllmVariant,
	}
}

func buildKGLLMBench(b *builder) error {
	dir, err := b.data("kgllmbench")
	if err != nil {
		return err
	}
	dataVariant, with02 := strings.CutSuffix(b.variant, kgllmWith02)
	st, sums, err := loadKGLLM(dir, dataVariant, b.phase)
	if err != nil {
		return err
	}
	formats := append(append([]string{}, kgllmPaperFormats()...), kgllmExtraFormats()...)
	graphs, err := kgllmParts(b, []*kgllm.Study{st}, formats, "kgllm_strict")
	if err != nil {
		return err
	}
	graph := graphs[0]
	b.parts[0].Graph, b.parts[0].Questions = graph, len(st.Questions)
	e := b.exp
	en := []string{kgllm.LangEnglish}
	isoldaVersions := "ISOLDA 0.1 is"
	if with02 {
		isoldaVersions = "ISOLDA 0.1 and 0.2 are"
	}
	e.Arms = append(e.Arms, isoldaArm("isolda-0.1", "isolda-0.1", en, nil))
	if with02 {
		e.Arms = append(e.Arms, isoldaArm("isolda-0.2", "isolda", en, &eval.IsoldaOptions{Spec: "0.2"}))
	}
	e.Temperature, e.MaxTokens = 0, 512
	b.comments["arms"] = "The benchmark's own texts (stored in sets/, as its textualizer writes them) and ISOLDA encoded from the\n" +
		"RDF of rdf_turtle2 (the collection's items, read as Turtle), checked isomorphic when the run is prepared."
	b.comments["tasks"] = "One question per instance; the prompt is BaseTask.structure_prompt, with the format's DESCRIPTION."
	b.criteria = kgllmCriteria(graph, st.Variant)
	b.what = append(b.what,
		fmt.Sprintf("The KG-LLM-Bench study of the ISOLDA paper (§4.5): the benchmark's five tasks × 100 instances (%d questions), "+
			"regenerated with its own script and configuration (seeds 41–45), variant %s. Every instance is asked with the "+
			"benchmark's prompt, as one user message, in each format; answers are scored with the benchmark's own functions "+
			"(scorer kgllm_strict). Each KG-LLM-Bench task is its own question family, so the report gives the results per task.", len(st.Questions), st.Variant),
		"The benchmark's formats are written by formats/kgllmbench exactly as its textualizer writes them (JSON-LD node order "+
			"included, with Python's string hashing at PYTHONHASHSEED=0), so the prompts are the benchmark's byte for byte. "+isoldaVersions+" "+
			"encoded by isolda from the RDF of rdf_turtle2 (the collection's items, parsed as Turtle); every ISOLDA "+
			"context is decoded when the run is prepared and compared with that RDF (the report's arm table).")
	b.numbers = append(b.numbers,
		"Prompt: BaseTask.structure_prompt (intro with the format's DESCRIPTION, \"Knowledge Graph:\", the text, the question), one user message, temperature 0, max_tokens 512 (the benchmark's llm/llm.py).",
		"Models and the arms each reads: §4.5 (Llama 3.2 1B, Qwen3 4B and Gemma 4 E4B all formats; Llama 3.3 70B the five, rdf_turtle2 and ISOLDA; Qwen3.8 27B and Gemma 4 31B list_of_edges, structured_json, rdf_turtle2 and ISOLDA).",
		"Criterion R's expected accuracies: the Overall columns of the benchmark's published tables for Llama 3.2 1B and Llama 3.3 70B (paper_tables/results_summary_us.meta.llama3-*.tex), pseudonymized = "+map[string]string{"pseudo": "True", "real": "False"}[st.Variant]+".",
		"The paper's o200k sizes (§3.6): pseudonymized prompts of 8,076 tokens with ISOLDA 0.1, 5,925 with 0.2, 7,263 with rdf_turtle2.")
	for _, s := range sums {
		b.numbers = append(b.numbers, fmt.Sprintf("Instances: %s, SHA-256 %s.", s[0], s[1]))
	}
	if with02 {
		b.deviations = append(b.deviations, "Variant "+b.variant+": §4.5 runs ISOLDA 0.1 only (8 arms, 19,500 calls); this variant adds ISOLDA 0.2 "+
			"(§3.6, validated in §4.6) wherever the paper has ISOLDA, so the run makes 22,500 calls. The criteria are the paper's, on 0.1. "+
			"The variants "+kgllm.VariantPseudo+" and "+kgllm.VariantReal+" are the paper's design exactly.")
	} else {
		b.numbers = append(b.numbers, "Arms and calls: §4.5's eight formats (the five, rdf_turtle2, json_ld2, ISOLDA 0.1), 19,500 calls over the six models. "+
			"The variant "+b.variant+kgllmWith02+" adds an ISOLDA 0.2 arm wherever the paper has ISOLDA (22,500 calls).")
	}
	b.deviations = append(b.deviations,
		"The benchmark's prompt has no DESCRIPTION for ISOLDA; the ISOLDA arms say: \""+kgllm.Description(kgllm.LangEnglish, kgllm.FormatISOLDA)+"\"")
	return nil
}

// kgllmCriteria writes criteria R and K1–K3 of §4.5 for one collection.
func kgllmCriteria(graph, variant string) string {
	col := map[string]string{"pseudo": "True", "real": "False"}[variant]
	exp := map[string]map[string]string{
		"pseudo": {"llama-3.2-1b": "list_of_edges: 0.260, structured_yaml: 0.234, structured_json: 0.262, rdf_turtle3: 0.148, json_ld3: 0.150",
			"llama-3.3-70b": "list_of_edges: 0.452, structured_yaml: 0.448, structured_json: 0.476, rdf_turtle3: 0.322, json_ld3: 0.298"},
		"real": {"llama-3.2-1b": "list_of_edges: 0.258, structured_yaml: 0.262, structured_json: 0.256, rdf_turtle3: 0.178, json_ld3: 0.184",
			"llama-3.3-70b": "list_of_edges: 0.460, structured_yaml: 0.434, structured_json: 0.460, rdf_turtle3: 0.326, json_ld3: 0.290"},
	}[variant]
	return fmt.Sprintf(`# Criteria R and K1-K3 of the ISOLDA paper's KG-LLM-Bench study (§4.5), pre-registered:
# ISOLDA 0.1 (arm isolda-0.1) with the tasks, instances, prompt and scoring of
# KG-LLM-Bench, variant %[2]s (graph %[1]s). Exact McNemar paired by instance,
# alpha 0.05. R's expected values are the published overall accuracies
# (pseudonymized = %[3]s) of the benchmark's tables for Llama 3.2 1B and 3.3 70B.
name: ISOLDA paper §4.5 KG-LLM-Bench study (ISOLDA 0.1), %[2]s
alpha: 0.05
criteria:
  - id: R
    kind: accuracy_within
    description: For Llama 3.2 1B and Llama 3.3 70B, in each of the paper's five formats, our overall accuracy is within ±0.10 of the published one.
    tolerance: 0.10
    graphs: [%[1]s]
    expected:
      llama-3.2-1b: {%[4]s}
      llama-3.3-70b: {%[5]s}
`, graph, variant, col, exp["llama-3.2-1b"], exp["llama-3.3-70b"]) + kgllmKCriteria("", "isolda-0.1", graph, true)
}

// kgllmKCriteria writes K1–K3 for an ISOLDA arm on a collection; json_ld2
// is among K1's formats in §4.5, not in §4.6.
func kgllmKCriteria(prefix, arm, graph string, jsonld2 bool) string {
	than := "rdf_turtle3, json_ld3, rdf_turtle2"
	desc := "rdf_turtle3, json_ld3 and rdf_turtle2"
	if jsonld2 {
		than += ", json_ld2"
		desc = "rdf_turtle3, json_ld3, rdf_turtle2 and json_ld2"
	}
	return fmt.Sprintf(`  - id: %[1]sK1
    kind: token_reduction
    description: For each model, the mean token count of ISOLDA is lower than that of %[5]s.
    arm: %[2]s
    than: [%[4]s]
    at_least: 0
    graphs: [%[3]s]
    per: model
    for: every
  - id: %[1]sK2
    kind: not_worse
    description: For no model is the overall accuracy of ISOLDA significantly lower than that of the best of the paper's formats that the model ran.
    arm: %[2]s
    than: [list_of_edges, structured_yaml, structured_json, rdf_turtle3, json_ld3]
    best: true
    graphs: [%[3]s]
    per: model
    for: every
  - id: %[1]sK3
    kind: better
    description: For each model that ran rdf_turtle3, ISOLDA is significantly more accurate than rdf_turtle3.
    arm: %[2]s
    than: [rdf_turtle3]
    graphs: [%[3]s]
    per: model
    for: every
`, prefix, arm, graph, than, desc)
}
