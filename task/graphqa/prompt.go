package graphqa

import (
	"fmt"
	"strings"

	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/task"
)

// Prompting variants of Talk like a Graph (graph_task_utils.py); the study
// calls cot_bag "build-a-graph".
const (
	VariantZeroShot = "zero_shot"
	VariantZeroCoT  = "zero_cot"
	VariantFewShot  = "few_shot"
	VariantCoT      = "cot"
	VariantCoTBag   = "cot_bag"
)

// Variants lists the prompting variants.
func Variants() []string {
	return []string{VariantZeroShot, VariantZeroCoT, VariantFewShot, VariantCoT, VariantCoTBag}
}

// ZeroCoTSuffix is appended to the question by the zero_cot variant.
const ZeroCoTSuffix = "Let's think step by step. "

// BuildAGraphLine is what cot_bag inserts before every "\nQ: ".
const BuildAGraphLine = "\nLet's construct the graph with the nodes and edges first."

// Example is a solved few-shot example: its prompt (graph text and question,
// ending in "A: "), its answer string, and the chain-of-thought explanation
// the cot variants add after the answer.
type Example struct {
	Prompt      string
	Answer      string
	Explanation string
}

// Prompt builds the prompt of a variant for one question prompt (the graph
// text followed by the question, as Talk like a Graph writes it):
//
//   - zero_shot: the prompt as is;
//   - zero_cot: the prompt followed by "Let's think step by step. ";
//   - few_shot: two examples drawn with random.choice from examples, each as
//     "Example: " + prompt + answer + "\n", then "Example: " + the prompt;
//   - cot: the same with each example's explanation after its answer;
//   - cot_bag: the cot prompt with every "\nQ: " preceded by "\nLet's
//     construct the graph with the nodes and edges first.".
func Prompt(variant, prompt string, examples []Example, rng *py.Rand) (string, error) {
	switch variant {
	case VariantZeroShot:
		return prompt, nil
	case VariantZeroCoT:
		return prompt + ZeroCoTSuffix, nil
	case VariantFewShot, VariantCoT, VariantCoTBag:
		if len(examples) == 0 {
			return "", fmt.Errorf("task: variant %s needs examples", variant)
		}
		var b strings.Builder
		for range 2 {
			ex := examples[rng.Below(len(examples))]
			b.WriteString("Example: " + ex.Prompt + ex.Answer)
			if variant != VariantFewShot {
				b.WriteString(ex.Explanation)
			}
			b.WriteString("\n")
		}
		b.WriteString("Example: " + prompt)
		out := b.String()
		if variant == VariantCoTBag {
			out = strings.ReplaceAll(out, "\nQ: ", BuildAGraphLine+"\nQ: ")
		}
		return out, nil
	}
	return "", fmt.Errorf("task: unknown prompting variant %q", variant)
}

// MakeExamples generates count solved examples of a task on Talk like a
// Graph's train-split graphs (seed 9876, er generator), rendered with render
// (nil: TLAGAdjacency with integer names), with explanations for the cot
// variants. Only edge_existence's explanation is the source's wording
// (" Because, there is an edge from X to Y in the graph description."); the
// others are ours and say how the answer follows from the graph.
func MakeExamples(taskName string, count int, render Renderer) ([]Example, error) {
	if render == nil {
		render = TLAGAdjacency
	}
	graphs, err := TLAGGraphs(GenER, count, 9876)
	if err != nil {
		return nil, err
	}
	rng := py.NewRand(9876 + 1)
	var out []Example
	for _, g := range graphs {
		a, ok := SampleArgs(taskName, g, rng)
		if !ok {
			continue
		}
		tq, err := g.Ask(taskName, nil, true, a)
		if err != nil {
			continue
		}
		text, err := render(g.Labelled(nil))
		if err != nil {
			return nil, err
		}
		out = append(out, Example{Prompt: text + tq.Text, Answer: tq.Gold.Text, Explanation: explain(taskName, g, a, tq.Gold)})
	}
	return out, nil
}

func explain(taskName string, g *GenGraph, a TaskArgs, gold task.Answer) string {
	s, t := fmt.Sprint(a.Source), fmt.Sprint(a.Target)
	switch taskName {
	case TaskEdgeExistence:
		if gold.Value == "yes" {
			return " Because, there is an edge from " + s + " to " + t + " in the graph description."
		}
		return " Because, there is no edge from " + s + " to " + t + " in the graph description."
	case TaskNodeDegree:
		return fmt.Sprintf(" Because, node %s is in %s edges of the graph description.", s, gold.Value)
	case TaskNodeCount:
		return " Because, the graph description lists nodes 0 to " + fmt.Sprint(g.N-1) + "."
	case TaskEdgeCount:
		return " Because, the graph description lists " + gold.Value + " edges."
	case TaskConnectedNodes, TaskDisconnectedNodes:
		return " Because, these are the nodes that do" + map[bool]string{true: "", false: " not"}[taskName == TaskConnectedNodes] + " share an edge with node " + s + "."
	}
	return " Because, this follows from the edges in the graph description."
}

// FinalSystemPrompt is the study's system prompt (appendix H.4).
const FinalSystemPrompt = "You are a careful reasoner. Read the graph (or ontology), think through the question step by step, then write your final answer on a line that begins with 'FINAL: '."

// FinalInstruction returns the study's answer instruction for a gold answer
// kind. The integer form is the paper's ("Answer the question in one
// integer. Show your reasoning, then write 'FINAL: <int>'."); the others
// follow it for the other answer kinds.
func FinalInstruction(kind string) string {
	switch kind {
	case task.KindYesNo:
		return "Answer the question with yes or no. Show your reasoning, then write 'FINAL: <yes|no>'."
	case task.KindList:
		return "Answer the question with a comma-separated list of nodes (or 'none'). Show your reasoning, then write 'FINAL: <nodes>'."
	case task.KindFloat:
		return "Answer the question with a number rounded to two decimals. Show your reasoning, then write 'FINAL: <number>'."
	case task.KindNode:
		return "Answer the question with one node. Show your reasoning, then write 'FINAL: <node>'."
	case task.KindNoPath:
		return "Answer the question in one integer, or 'no path' if there is none. Show your reasoning, then write 'FINAL: <int>'."
	}
	return "Answer the question in one integer. Show your reasoning, then write 'FINAL: <int>'."
}

// FinalPrompt builds the study's prompt (appendix H.4) for a GraphQA question
// and its rendered graph: the system message FinalSystemPrompt and the user
// message "You are given an undirected graph below. <instruction>\n\n<rendered
// graph>\n\nQuestion: <question>". The question is the study's wording
// (Meta["study_question"]), or the question text without "Q: " and "\nA: ".
// Shortest-path questions get the integer instruction with "no path" allowed.
func FinalPrompt(q task.Question, rendered string) (system, user string) {
	text := q.Meta["study_question"]
	if text == "" {
		text = strings.TrimSuffix(strings.TrimPrefix(q.Text, "Q: "), "\nA: ")
	}
	kind := q.Gold.Kind
	if q.Task == TaskShortestPath {
		kind = task.KindNoPath
	}
	user = "You are given an undirected graph below. " + FinalInstruction(kind) + "\n\n" +
		strings.TrimRight(rendered, "\n") + "\n\nQuestion: " + text
	return FinalSystemPrompt, user
}
