package reporttest

import (
	"bufio"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/eval/runner"
	"github.com/isolda/isolda/llm"
	"github.com/isolda/isolda/task"
)

// SynthShape is the shape of a synthetic eval run: the KG-LLM-Bench study's
// by default (KGLLMBenchShape).
type SynthShape struct {
	// Tasks are the question families; PerTask the instances of each.
	Tasks   []string
	PerTask int
	// Models maps each model to the arms it reads (every arm of Arms
	// when nil), in Models order.
	Models    []string
	ModelArms map[string][]string
	Arms      []string
	// ContextBytes is the size of each frozen context (one per arm and
	// instance, as KG-LLM-Bench's collection items).
	ContextBytes int
	// ByReference logs the requests with their contexts by reference, as
	// the runner does since it stores each context once.
	ByReference bool
}

// KGLLMBenchShape is the KG-LLM-Bench study as `isolda study init
// kgllmbench` writes it: five tasks × 100 instances, nine arms, six models
// with the arms of §4.5, 22,500 calls, contexts of ~28 KB (a prompt of
// ~8,000 tokens).
func KGLLMBenchShape() SynthShape {
	arms := []string{"list_of_edges", "structured_yaml", "structured_json", "rdf_turtle3", "json_ld3", "rdf_turtle2", "json_ld2", "isolda-0.1", "isolda-0.2"}
	paperAndRDF := []string{"list_of_edges", "structured_yaml", "structured_json", "rdf_turtle3", "json_ld3", "rdf_turtle2", "isolda-0.1", "isolda-0.2"}
	few := []string{"list_of_edges", "structured_json", "rdf_turtle2", "isolda-0.1", "isolda-0.2"}
	return SynthShape{
		Tasks:        []string{"AggByRelation", "AggNeighborProperty", "HighestDegreeNode", "ShortestPath", "TripleRetrieval"},
		PerTask:      100,
		Models:       []string{"llama-3.2-1b", "qwen3-4b", "gemma-4-e4b", "llama-3.3-70b", "qwen3.8-27b", "gemma-4-31b"},
		ModelArms:    map[string][]string{"llama-3.3-70b": paperAndRDF, "qwen3.8-27b": few, "gemma-4-31b": few},
		Arms:         arms,
		ContextBytes: 28 << 10,
	}
}

// Calls is the number of calls of a complete run of the shape.
func (s SynthShape) Calls() int {
	n := 0
	for _, m := range s.Models {
		n += len(s.armsOf(m))
	}
	return n * len(s.Tasks) * s.PerTask
}

func (s SynthShape) armsOf(model string) []string {
	if a, ok := s.ModelArms[model]; ok {
		return a
	}
	return s.Arms
}

// unit is a deterministic number in [0, 1) for the words given.
func unit(words ...string) float64 {
	h := fnv.New64a()
	for _, w := range words {
		h.Write([]byte(w))
		h.Write([]byte{0})
	}
	return float64(h.Sum64()>>11) / (1 << 53)
}

// WriteSynthRun writes a complete synthetic run of shape s into dir, as
// isolda eval run writes one (manifest.json, questions.jsonl, the contexts
// and answers.jsonl with each call's whole request body), answered by a
// fake model whose accuracy depends on the model, arm and task. About one
// call in 200 failed; every answer is deterministic.
func WriteSynthRun(dir string, s SynthShape) error {
	if err := os.MkdirAll(filepath.Join(dir, "contexts"), 0o755); err != nil {
		return err
	}
	const graph = "kgllmbench-pseudo"
	seed := int64(0)
	m := eval.Manifest{Version: 1, RunID: "synthetic-kgllmbench", Name: "kgllmbench (synthetic)", Calls: s.Calls(),
		Params: eval.Params{Layout: "user", Temperature: 0, MaxTokens: 512, Seed: &seed, Trials: 1}}
	for _, md := range s.Models {
		m.Params.Models = append(m.Params.Models, eval.ModelParams{Name: md, Model: "org/" + md, Tokenizer: "o200k_base", Arms: s.ModelArms[md]})
	}
	for _, a := range s.Arms {
		m.Arms = append(m.Arms, eval.ArmInfo{Name: a, Format: a})
	}
	var qbuf strings.Builder
	type inst struct {
		entry eval.Entry
		ctx   map[string]eval.Context // by arm
		text  map[string]string
	}
	var insts []inst
	for _, t := range s.Tasks {
		for i := range s.PerTask {
			id := fmt.Sprintf("%s-%03d", t, i)
			gold := fmt.Sprintf("Entity_%d", int(unit(id, "gold")*10000))
			q := task.Question{ID: id, Family: t, Task: t, Text: fmt.Sprintf("%s question %d: which entity does the graph name for item %s?", t, i, id),
				Gold: task.Answer{Text: gold, Kind: "name", Value: gold}}
			e := eval.Entry{Key: "kgllmbench/" + graph + "/" + id, Task: "kgllmbench", Graph: graph, Item: id, Scorer: "kgllm_strict", Q: q}
			b, err := json.Marshal(e)
			if err != nil {
				return err
			}
			qbuf.Write(b)
			qbuf.WriteByte('\n')
			in := inst{entry: e, ctx: map[string]eval.Context{}, text: map[string]string{}}
			for _, a := range s.Arms {
				text := synthContext(a, id, s.ContextBytes)
				sum := sha1.Sum([]byte(text))
				sha := hex.EncodeToString(sum[:])
				file := "contexts/" + sha + ".txt"
				if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
					return err
				}
				c := eval.Context{Graph: graph, Item: id, Arm: a, Format: a, GraphSHA1: sha, SHA1: sha, File: file}
				if strings.HasPrefix(a, "isolda") {
					c.RoundTrip = eval.RoundTripIsomorphic
				}
				in.ctx[a], in.text[a] = c, text
				m.Contexts = append(m.Contexts, c)
			}
			insts = append(insts, in)
		}
	}
	m.Questions = len(insts)
	qsum := sha1.Sum([]byte(qbuf.String()))
	m.QuestionsSHA1 = hex.EncodeToString(qsum[:])
	if err := os.WriteFile(filepath.Join(dir, runner.QuestionsFile), []byte(qbuf.String()), 0o644); err != nil {
		return err
	}
	mb, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, runner.ManifestFile), mb, 0o644); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, runner.AnswersFile))
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	n := 0
	for _, md := range s.Models {
		for _, a := range s.armsOf(md) {
			for _, in := range insts {
				q := in.entry.Q
				prompt := "Your job is to answer questions using the following knowledge graph. Knowledge Graph:\n" + in.text[a] + "\n\n" + q.Text
				req, _ := json.Marshal(map[string]any{"model": "org/" + md, "messages": []llm.Message{{Role: "user", Content: prompt}},
					"temperature": 0, "max_tokens": 512, "seed": 0})
				p := 0.15 + 0.6*unit(md) + 0.2*unit(a) - 0.3*unit(q.Family)
				answer := q.Gold.Value
				correct := unit(md, a, q.ID) < p
				if !correct {
					answer = fmt.Sprintf("Entity_%d", int(unit(md, a, q.ID, "wrong")*10000))
				}
				n++
				rec := runner.Record{RunID: m.RunID, Key: runner.CallKey(a, md, in.entry.Key, 1), Trial: 1,
					Time: fmt.Sprintf("2026-12-01T%02d:%02d:%02dZ", n/3600%24, n/60%60, n%60), Task: in.entry.Task, Graph: graph, Item: q.ID,
					GraphSHA1: in.ctx[a].GraphSHA1, Arm: a, Format: a, ContextSHA: in.ctx[a].SHA1, Ordering: "canonical",
					Model: md, BaseURL: "http://127.0.0.1:8000/v1", Tokenizer: "o200k_base", QuestionID: q.ID, QuestionK: in.entry.Key}
				rec.CallRecord = llm.CallRecord{Status: llm.StatusOK, HTTPStatus: 200, Attempts: 1, LatencyMS: 400 + 1000*unit(md, q.ID),
					RawRequest: string(req), Response: "Answer: " + answer, Finish: "stop",
					PromptTokens: int64(len(prompt) / 4), CompletionTokens: 6, LocalPromptTokens: len(prompt)/4 - 3, LocalCompletionTokens: 6}
				rec.RawResponse = `{"choices":[{"message":{"role":"assistant","content":` + mustJSON(rec.Response) + `},"finish_reason":"stop"}]}`
				if unit(md, a, q.ID, "fail") < 0.005 {
					rec.CallRecord = llm.CallRecord{Status: llm.StatusFailed, Error: "HTTP 500: internal error", HTTPStatus: 500, Attempts: 3,
						RawRequest: string(req), LocalPromptTokens: -1, LocalCompletionTokens: -1}
				} else {
					rec.Scorer, rec.Rule, rec.Parsed, rec.Correct = "kgllm_strict", "exact", answer, correct
					if correct {
						rec.Score = 1
					}
				}
				if s.ByReference {
					rec.RawRequest, rec.RequestContext, rec.RequestContextEscape = runner.CompactRequest(rec.RawRequest, in.text[a], in.ctx[a].SHA1)
				}
				if err := enc.Encode(&rec); err != nil {
					return err
				}
			}
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// synthContext is a context of about n bytes: triples about the item's
// entities, different for each arm and item.
func synthContext(arm, item string, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%s: Entity_%d, relation_%d, Entity_%d\n", arm, int(unit(item, fmt.Sprint(i))*10000), i%37, int(unit(item, fmt.Sprint(i), "o")*10000))
	}
	return b.String()
}
