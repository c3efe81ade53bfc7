package study

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/formats/kgllmbench"
	"github.com/isolda/isolda/task"
)

// KG-LLM-Bench formats: the paper's five (rdf_turtle3 and json_ld3 are its
// "RDF Turtle" and "JSON-LD"), and the two variants with readable relation
// IRIs the benchmark's code also writes.
var (
	kgllmPaperFormats = []string{"list_of_edges", "structured_yaml", "structured_json", "rdf_turtle3", "json_ld3"}
	kgllmExtraFormats = []string{"rdf_turtle2", "json_ld2"}
)

// kgllmItemFormat is the format whose RDF the ISOLDA arms encode: the
// items of the collection are its texts, read as Turtle.
const kgllmItemFormat = "rdf_turtle2"

// isoldaDescription is the DESCRIPTION of the benchmark's prompt for the
// ISOLDA arms (the benchmark has none; the ISOLDA glossary explains the
// notation).
const isoldaDescription = "The knowledge graph is presented in the ISOLDA notation, which its first lines explain."

// kgllmIntro is BaseTask.structure_prompt with eval's placeholders:
// {{arm.description}} is the format's DESCRIPTION (which ends in ".", so
// the prompt has "..", as the benchmark's does).
const kgllmTemplate = "Your job is to answer questions using the following knowledge graph. {{arm.description}}. " +
	"You must rely exclusively on the information presented in the Knowledge Graph to answer questions. " +
	"If the answer includes entities, always respond using the entity label rather than entity ID (if applicable)." +
	"\n\nKnowledge Graph:\n{{context}}\n\n{{question}}"

// kgllmData is one variant of the regenerated instances: the instances of
// the five tasks in the benchmark's order, and each format's text of each,
// by item id.
type kgllmData struct {
	variant string
	insts   []kgllmbench.Instance
	texts   map[string]map[string]string // format → item id → text
	// sources are the files read, with their SHA-256.
	sources [][2]string
}

// kgllmItem is the id of an instance in the collection.
func kgllmItem(inst kgllmbench.Instance) string { return fmt.Sprintf("%s-%03d", inst.Task, inst.ID) }

// loadKGLLM reads one variant from dir, a folder with instances/ and
// textualized/ as in the regenerated KG-LLM-Bench data (or its parent).
func loadKGLLM(dir, variant string, formats []string) (*kgllmData, error) {
	if _, err := os.Stat(filepath.Join(dir, "textualized")); err != nil {
		if _, err2 := os.Stat(filepath.Join(dir, "instances", "textualized")); err2 == nil {
			dir = filepath.Join(dir, "instances")
		} else {
			return nil, fmt.Errorf("%s has no textualized/ folder: give the folder of the regenerated instances (instances/, textualized/)", dir)
		}
	}
	d := &kgllmData{variant: variant, texts: map[string]map[string]string{}}
	hash := func(path string) error {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		h := sha256.Sum256(b)
		d.sources = append(d.sources, [2]string{path, hex.EncodeToString(h[:])})
		return nil
	}
	for _, t := range task.KGLLMTasks() {
		path := filepath.Join(dir, "instances", t+"."+variant+".jsonl.gz")
		insts, err := task.KGLLMLoadInstances(filepath.Join(dir, "instances"), t, variant)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if err := hash(path); err != nil {
			return nil, err
		}
		d.insts = append(d.insts, insts...)
	}
	for _, f := range formats {
		path := filepath.Join(dir, "textualized", f+"."+variant+".jsonl.gz")
		m, err := readTextualized(path)
		if err != nil {
			return nil, err
		}
		if err := hash(path); err != nil {
			return nil, err
		}
		for _, inst := range d.insts {
			if _, ok := m[kgllmItem(inst)]; !ok {
				return nil, fmt.Errorf("%s has no text for %s", path, kgllmItem(inst))
			}
		}
		d.texts[f] = m
	}
	return d, nil
}

// readTextualized reads a textualized file: {"task", "id", "text"} lines.
func readTextualized(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer zr.Close()
	out := map[string]string{}
	dec := json.NewDecoder(bufio.NewReader(zr))
	for line := 1; ; line++ {
		var r struct {
			Task string `json:"task"`
			ID   int    `json:"id"`
			Text string `json:"text"`
		}
		if err := dec.Decode(&r); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("%s: record %d: %w", path, line, err)
		}
		out[fmt.Sprintf("%s-%03d", r.Task, r.ID)] = r.Text
	}
	return out, nil
}

// kgllmPart adds one variant of KG-LLM-Bench to the experiment: the
// collection kgllmbench-<variant> (the rdf_turtle2 text of each instance,
// and its question), one stored arm per benchmark format (restricted to the
// collection), and the task with the benchmark's prompt. It returns the
// collection's name. The ISOLDA arms are the caller's (they need the
// description variable).
func kgllmPart(b *builder, d *kgllmData, formats []string) (string, error) {
	graph := "kgllmbench-" + d.variant
	items := &task.Set{Name: graph}
	for _, inst := range d.insts {
		q, err := task.KGLLMQuestion(inst)
		if err != nil {
			return "", err
		}
		id := kgllmItem(inst)
		q.ContextID = id
		items.Contexts = append(items.Contexts, task.Context{ID: id, Text: d.texts[kgllmItemFormat][id], Source: "KG-LLM-Bench " + kgllmItemFormat})
		items.Questions = append(items.Questions, q)
	}
	itemFile := "sets/" + graph + ".jsonl.gz"
	if err := b.set(itemFile, items); err != nil {
		return "", err
	}
	e := b.exp
	e.Graphs = append(e.Graphs, eval.Graph{Name: graph, Set: itemFile, Syntax: "turtle"})
	for _, f := range formats {
		stored := itemFile
		if f != kgllmItemFormat {
			stored = "sets/" + f + "." + d.variant + ".jsonl.gz"
			s := &task.Set{Name: f + "." + d.variant}
			for _, inst := range d.insts {
				id := kgllmItem(inst)
				s.Contexts = append(s.Contexts, task.Context{ID: id, Text: d.texts[f][id], Source: "KG-LLM-Bench " + f})
			}
			if err := b.set(stored, s); err != nil {
				return "", err
			}
		}
		e.Arms = append(e.Arms, eval.Arm{Name: f, Format: f, Stored: stored, Graphs: []string{graph},
			Vars: map[string]string{"description": kgllmbench.Description(f)}})
	}
	e.Tasks = append(e.Tasks, eval.Task{Name: graph, Set: itemFile, Graph: graph, Scorer: "kgllm_strict",
		Prompt: &eval.Prompt{User: kgllmTemplate}})
	for _, s := range d.sources {
		b.numbers = append(b.numbers, fmt.Sprintf("Source file %s, SHA-256 %s.", filepath.Base(s[0]), s[1]))
	}
	return graph, nil
}

// isoldaArm is an ISOLDA arm with the variables of the studies' templates.
func isoldaArm(name, format, spec string, o *eval.IsoldaOptions) eval.Arm {
	if spec != "" {
		if o == nil {
			o = &eval.IsoldaOptions{}
		}
		o.Spec = spec
	}
	return eval.Arm{Name: name, Format: format, Options: o,
		Vars: map[string]string{"description": isoldaDescription, "format_name": "isolda"}}
}

func kgllmbenchArms() []string {
	return append(append(append([]string{}, kgllmPaperFormats...), kgllmExtraFormats...), "isolda-0.1", "isolda-0.2")
}

// kgllmModels are the models of §4.5 and the arms each reads (the ISOLDA
// arms are 0.1 and 0.2 wherever the paper has isolda).
func kgllmModels() []PaperModel {
	paperAndRDF := append(append([]string{}, kgllmPaperFormats...), "rdf_turtle2", "isolda-0.1", "isolda-0.2")
	few := []string{"list_of_edges", "structured_json", "rdf_turtle2", "isolda-0.1", "isolda-0.2"}
	return []PaperModel{
		{Name: "llama-3.2-1b", Model: "meta-llama/Llama-3.2-1B-Instruct", Tokenizer: "llama3", ExtraBody: noThinking(), Note: "bf16"},
		{Name: "qwen3-4b", Model: "Qwen/Qwen3-4B", Tokenizer: "qwen3", ExtraBody: noThinking(), Note: "bf16"},
		{Name: "gemma-4-e4b", Model: "google/gemma-4-E4B-it", Tokenizer: "gemma3", ExtraBody: noThinking(), Note: "bf16; local counts with the Gemma 3 tokenizer"},
		{Name: "llama-3.3-70b", Model: "meta-llama/Llama-3.3-70B-Instruct", Tokenizer: "llama3", ExtraBody: noThinking(), Arms: paperAndRDF, Note: "FP8"},
		{Name: "qwen3.8-27b", Model: "Qwen/Qwen3.8-27B-FP8", Tokenizer: "qwen3", ExtraBody: noThinking(), Arms: few, Note: "FP8"},
		{Name: "gemma-4-31b", Model: "google/gemma-4-31B-it", Tokenizer: "gemma3", ExtraBody: noThinking(), Arms: few, Note: "bf16; local counts with the Gemma 3 tokenizer"},
	}
}

func kgllmbenchStudy() *Study {
	return &Study{
		Name: "kgllmbench", Version: 1,
		Paper: "ISOLDA paper (spec 000) §4.5, KG-LLM-Bench study",
		Title: "KG-LLM-Bench's 500 regenerated instances with its prompt and scoring, in its five formats, rdf_turtle2, json_ld2, " +
			"and ISOLDA 0.1 and 0.2 encoded from the RDF of rdf_turtle2",
		Variants: []string{"pseudo", "real"},
		Data: []DataSlot{{Name: "kgllmbench", What: "the folder of KG-LLM-Bench instances regenerated with the benchmark's own script " +
			"(instances/<Task>.<variant>.jsonl.gz and textualized/<format>.<variant>.jsonl.gz, as in shared/data/kgllmbench/instances)"}},
		Parts:    []Part{{Graph: "kgllmbench", Questions: 500, Arms: kgllmbenchArms()}},
		Models:   kgllmModels(),
		Criteria: "R, K1, K2, K3 (§4.5)",
		build:    buildKGLLMBench,
	}
}

func buildKGLLMBench(b *builder) error {
	dir, err := b.data("kgllmbench")
	if err != nil {
		return err
	}
	formats := append(append([]string{}, kgllmPaperFormats...), kgllmExtraFormats...)
	d, err := loadKGLLM(dir, b.variant, formats)
	if err != nil {
		return err
	}
	graph, err := kgllmPart(b, d, formats)
	if err != nil {
		return err
	}
	b.parts[0].Graph, b.parts[0].Questions = graph, len(d.insts)
	e := b.exp
	e.Arms = append(e.Arms, isoldaArm("isolda-0.1", "isolda-0.1", "", nil), isoldaArm("isolda-0.2", "isolda", "0.2", nil))
	e.Temperature, e.MaxTokens = 0, 512
	b.comments["arms"] = "The benchmark's own texts (stored, byte for byte as its script wrote them) and ISOLDA encoded from the\n" +
		"RDF of rdf_turtle2 (the collection's items, read as Turtle), checked isomorphic when the run is prepared."
	b.comments["tasks"] = "One question per instance; the prompt is BaseTask.structure_prompt, with the format's DESCRIPTION."
	b.criteria = kgllmCriteria(graph, d.variant)
	b.what = append(b.what,
		fmt.Sprintf("The KG-LLM-Bench study of the ISOLDA paper (§4.5): the benchmark's five tasks × 100 instances (%d questions), "+
			"regenerated with its own script and configuration (seeds 41–45), variant %s. Every instance is asked with the "+
			"benchmark's prompt, as one user message, in each format; answers are scored with the benchmark's own functions "+
			"(scorer kgllm_strict), and the report gives the results per task.", len(d.insts), d.variant),
		"The benchmark's formats are its own texts (the textualized files, stored unchanged in sets/), so the prompts are the "+
			"benchmark's byte for byte. ISOLDA 0.1 and 0.2 are encoded by isolda from the RDF of rdf_turtle2 (the collection's "+
			"items, parsed as Turtle); every ISOLDA context is decoded when the run is prepared and compared with that RDF.")
	b.numbers = append(b.numbers,
		"Prompt: BaseTask.structure_prompt (intro with the format's DESCRIPTION, \"Knowledge Graph:\", the text, the question), one user message, temperature 0, max_tokens 512 (the benchmark's llm/llm.py).",
		"Models and the arms each reads: §4.5 (Llama 3.2 1B, Qwen3 4B and Gemma 4 E4B all formats; Llama 3.3 70B the five, rdf_turtle2 and ISOLDA; Qwen3.8 27B and Gemma 4 31B list_of_edges, structured_json, rdf_turtle2 and ISOLDA).",
		"Criterion R's expected accuracies: the Overall columns of the benchmark's published tables for Llama 3.2 1B and Llama 3.3 70B (paper_tables/results_summary_us.meta.llama3-*.tex), pseudonymized = "+map[string]string{"pseudo": "True", "real": "False"}[d.variant]+".",
		"The paper's o200k sizes (§3.6): pseudonymized contexts of 8,076 tokens with ISOLDA 0.1, 5,925 with 0.2, 7,263 with rdf_turtle2 (the mean of the whole prompt).")
	b.deviations = append(b.deviations,
		"§4.5 runs ISOLDA 0.1 only (19,500 calls); the study adds ISOLDA 0.2 (§3.6, validated in §4.6) wherever the paper has ISOLDA, so the run makes 22,500 calls; the criteria are the paper's, on 0.1. Remove the isolda-0.2 arm to run the paper's calls exactly.",
		"The benchmark's prompt has no DESCRIPTION for ISOLDA; the ISOLDA arms say: \""+isoldaDescription+"\"",
		"json_ld2 and json_ld3 list their nodes in an order that depends on Python's hash seed; the stored texts are the ones the regeneration wrote (PYTHONHASHSEED=0).")
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
  - id: K1
    kind: token_reduction
    description: For each model, the mean token count of ISOLDA is lower than that of rdf_turtle3, json_ld3, rdf_turtle2 and json_ld2.
    arm: isolda-0.1
    than: [rdf_turtle3, json_ld3, rdf_turtle2, json_ld2]
    at_least: 0
    graphs: [%[1]s]
    per: model
    for: every
  - id: K2
    kind: not_worse
    description: For no model is the overall accuracy of ISOLDA significantly lower than that of the best of the paper's formats that the model ran.
    arm: isolda-0.1
    than: [list_of_edges, structured_yaml, structured_json, rdf_turtle3, json_ld3]
    best: true
    graphs: [%[1]s]
    per: model
    for: every
  - id: K3
    kind: better
    description: For each model that ran rdf_turtle3, ISOLDA is significantly more accurate than rdf_turtle3.
    arm: isolda-0.1
    than: [rdf_turtle3]
    graphs: [%[1]s]
    per: model
    for: every
`, graph, variant, col, exp["llama-3.2-1b"], exp["llama-3.3-70b"])
}
