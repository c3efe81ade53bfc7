package study

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/formats/graphtext"
	"github.com/isolda/isolda/formats/ontology"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/graphqa"
	"github.com/isolda/isolda/task/text2kg"
	"github.com/isolda/isolda/task/wikidata"
	"github.com/isolda/isolda/token"
)

// This file holds seed 001's experiments beyond GraphQA: ontology-based
// extraction on Text2KGBench, and reasoning over Wikidata subgraphs.

// ontologyFormats are the study's 12 ontology renderings as (study name,
// registry name).
func ontologyFormats() [][2]string {
	var out [][2]string
	for _, n := range ontology.Names() {
		out = append(out, [2]string{n, "onto_" + n})
	}
	return out
}

func text2kgStudy() *Study {
	return &Study{
		Name: "text2kgbench", Version: 1,
		Paper: "\"Graph Serializations for Reasoning LLMs\" (seed 001), §3 and §4 \"Ontology-based knowledge extraction\", Tables 2 and 12",
		Title: "Text2KGBench's 2,014 DBpedia-WebNLG test sentences with their ontology in each of the 12 renderings, the H.4 extraction prompt, Hopcroft–Karp rescoring at 0.60 and per-domain F1",
		Data: []DataSlot{{Name: "text2kgbench", What: "the benchmark's data/dbpedia_webnlg folder (ontologies/, test/, ground_truth/) from a copy of " +
			"github.com/cenguix/Text2KGBench; its sentences (WebNLG, CC BY-NC-SA 4.0) are not shipped with isolda"}},
		Parts:  []Part{{Graph: "ontologies", Questions: 2014, Arms: ontology.Names()}},
		Models: seed001Models(true),
		build:  buildText2KG,
	}
}

// text2kgUser is the H.4 extraction prompt's user message with eval's
// placeholders: exactly text2kg.ExtractionPrompt's for a rendering that
// ends in one newline.
const text2kgUser = text2kg.ExtractionInstruction + "\n\n{{context}}\nSentence: {{question}}"

func buildText2KG(b *builder) error {
	dir, err := b.data("text2kgbench")
	if err != nil {
		return err
	}
	sp, err := text2kg.LoadSplit(dir)
	if err != nil {
		return err
	}
	first := ontology.Names()[0]
	qs, err := sp.Set(first)
	if err != nil {
		return err
	}
	set := &task.Set{Name: "text2kgbench", Counts: qs.Counts}
	for _, d := range sp.Domains {
		// The item is the ontology file as the benchmark ships it.
		paths, err := filepath.Glob(filepath.Join(dir, "ontologies", d+"_ontology.json"))
		if err != nil || len(paths) != 1 {
			return fmt.Errorf("ontology file of %s not found in %s", d, filepath.Join(dir, "ontologies"))
		}
		text, err := os.ReadFile(paths[0])
		if err != nil {
			return err
		}
		set.Contexts = append(set.Contexts, task.Context{ID: d, Text: string(text), Source: "Text2KGBench ontologies/" + filepath.Base(paths[0])})
	}
	for _, q := range qs.Questions {
		q.ContextID = q.Meta["ontology"]
		delete(q.Meta, "format")
		set.Questions = append(set.Questions, q)
	}
	if err := b.set("sets/text2kgbench.jsonl.gz", set); err != nil {
		return err
	}
	b.parts[0].Questions = len(set.Questions)
	e := b.exp
	e.Graphs = []eval.Graph{{Name: "ontologies", Set: "sets/text2kgbench.jsonl.gz", Syntax: eval.SyntaxOntology}}
	for _, f := range ontologyFormats() {
		e.Arms = append(e.Arms, eval.Arm{Name: f[0], Format: f[1]})
	}
	e.Tasks = []eval.Task{{Name: "extraction", Set: "sets/text2kgbench.jsonl.gz", Graph: "ontologies", Scorer: "text2kg"}}
	e.Prompt = &eval.Prompt{System: text2kg.SystemPrompt, User: text2kgUser}
	e.Temperature, e.MaxTokens = 0, 16000
	b.comments["arms"] = "The study's 12 ontology renderings (appendix H.3), rendered from each of the 19 ontologies."
	b.comments["prompt"] = "Appendix H.4: the system prompt, and the extraction prompt with the rendered ontology and the sentence."
	sizes, err := ontologySizeTable(sp)
	if err != nil {
		return err
	}
	b.extra = append(b.extra, section{"Ontology sizes (the study's Table 12)", sizes})
	b.what = append(b.what,
		fmt.Sprintf("The ontology-based extraction experiment of seed 001: the %d test sentences of Text2KGBench's "+
			"DBpedia-WebNLG split, each asked with its domain's ontology rendered in each of the study's 12 formats (%s), "+
			"with the appendix H.4 prompts. Answers are read as \"(subject, relation, object)\" lines, filtered to the gold "+
			"relations as the benchmark's evaluation does, and matched to the gold triples with Hopcroft–Karp at similarity "+
			"0.60 (scorer text2kg): the log has each answer's precision, recall and F1, and parse success.", len(set.Questions),
			strings.Join(ontology.Names(), ", ")),
		"Each domain (ontology) is a question family, so the report's per-family rows give the per-domain F1 (mean F1 "+
			"column); the study's mean F1 is the mean of the 19 per-domain figures.")
	b.numbers = append(b.numbers,
		"Sentences, ground truth and ontologies: the benchmark's data/dbpedia_webnlg folder given with --data (2,014 test sentences, 19 ontologies).",
		"Formats: appendix H.3 (formats/ontology); prompts: appendix H.4 (text2kg.ExtractionPrompt).",
		"Rescoring: the appendix's \"Comparison with the original baselines\": Hopcroft–Karp maximum matching at threshold 0.60 in place of the benchmark's greedy matcher.",
		"Models: the nine configurations of §3.")
	b.deviations = append(b.deviations,
		"The sentences are not shipped (CC BY-NC-SA 4.0): give the benchmark's folder with --data; the study writes them into its own sets/ for your runs only.",
		"The paper gives no max_tokens; the study allows 16,000 tokens for the reasoning the system prompt asks for.")
	return nil
}

// ontologySizeTable is the study's Table 12: each ontology's concepts,
// relations and mean o200k tokens over the 12 renderings.
func ontologySizeTable(sp *text2kg.Split) (string, error) {
	tok, err := token.NewRegistry(token.Options{}).Get("o200k_base")
	if err != nil {
		return "", err
	}
	rows, err := sp.OntologySizes(tok, nil)
	if err != nil {
		return "", err
	}
	var w strings.Builder
	w.WriteString("Concepts and relations of each ontology, and the o200k tokens of its rendering, averaged over the 12 formats:\n\n")
	w.WriteString("| ontology | concepts | relations | mean tokens |\n|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&w, "| %s | %d | %d | %.1f |\n", r.Domain, r.Concepts, r.Relations, r.MeanTokens)
	}
	return w.String(), nil
}

func wikidataStudy() *Study {
	return &Study{
		Name: "wikidata-subgraphs", Version: 1,
		Paper: "\"Graph Serializations for Reasoning LLMs\" (seed 001), §3 and §4 \"Reasoning over retrieved Wikidata subgraphs\"",
		Title: "Ten Wikidata seeds, each one's two-hop neighbourhood capped at 450 triples and pseudonymized, 110 questions of three families, in the study's 15 formats",
		Data: []DataSlot{
			{Name: "wikidata", What: "Wikidata entity JSON: a file or a folder of files saved from Special:EntityData, JSON Lines with one entity per line, or a dump (latest-all.json); it must hold the seeds, the entities two hops away and the properties"},
			{Name: "seeds", What: "a file of seed ids (Q…), one per line; default: the ten of task/wikidata (films, scientists, cities, companies, a novel, a band)", Optional: true},
		},
		Parts:  []Part{{Graph: "subgraphs", Questions: 110, Arms: graphtext.StudyNames()}},
		Models: seed001Models(false)[:2],
		build:  buildWikidata,
	}
}

// wikidataUser is the study's prompt for the Wikidata questions with eval's
// placeholders: exactly wikidata.StudyTemplate's user message for a
// rendering that ends in one newline.
const wikidataUser = wikidata.Instruction + "\n\n{{context}}\nQuestion: {{question}}"

func buildWikidata(b *builder) error {
	src, err := b.data("wikidata")
	if err != nil {
		return err
	}
	store := wikidata.NewStore("en")
	var files []string
	if st, err := os.Stat(src); err != nil {
		return err
	} else if st.IsDir() {
		for _, pat := range []string{"*.json", "*.jsonl"} {
			m, err := filepath.Glob(filepath.Join(src, pat))
			if err != nil {
				return err
			}
			files = append(files, m...)
		}
	} else {
		files = []string{src}
	}
	if len(files) == 0 {
		return fmt.Errorf("%s holds no .json or .jsonl entity file", src)
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return err
		}
		err = store.Load(fh, f)
		fh.Close()
		if err != nil {
			return err
		}
	}
	seeds := wikidata.SuggestedSeeds()
	if p := b.opts.Data["seeds"]; p != "" {
		if seeds, err = readSeeds(p); err != nil {
			return err
		}
	}
	st, err := wikidata.NewStudy(store, seeds, wikidata.Options{})
	if err != nil {
		return err
	}
	set := &task.Set{Name: "wikidata-subgraphs", Counts: st.Counts}
	for _, n := range st.Subgraphs {
		text, err := formats.EncodeString(graphqaItemSyntax, formats.NewGraphInput(n.Graph))
		if err != nil {
			return err
		}
		set.Contexts = append(set.Contexts, task.Context{ID: "wikidata-" + n.Seed, Text: text,
			Source: fmt.Sprintf("wikidata %s: %d triples (truncated: %t), pseudonymized", n.Seed, len(n.Triples), n.Truncated)})
	}
	set.Questions = st.Questions
	if err := b.set("sets/wikidata-subgraphs.jsonl", set); err != nil {
		return err
	}
	b.parts[0].Questions = len(set.Questions)
	e := b.exp
	e.Graphs = []eval.Graph{{Name: "subgraphs", Set: "sets/wikidata-subgraphs.jsonl", Syntax: graphqaItemSyntax}}
	for _, f := range studyFormats() {
		e.Arms = append(e.Arms, eval.Arm{Name: f[0], Format: f[1]})
	}
	e.Tasks = []eval.Task{{Name: "wikidata", Set: "sets/wikidata-subgraphs.jsonl", Graph: "subgraphs", Scorer: "final"}}
	e.Prompt = &eval.Prompt{System: graphqa.FinalSystemPrompt, User: wikidataUser}
	e.Temperature, e.MaxTokens = 0, 16000
	b.comments["arms"] = graphqaArmsComment
	var sizes []string
	for _, n := range st.Subgraphs {
		sizes = append(sizes, fmt.Sprintf("%s %d", n.Seed, len(n.Triples)))
	}
	b.what = append(b.what,
		fmt.Sprintf("The Wikidata-subgraph experiment of seed 001: %d seed entities, each one's two-hop neighbourhood "+
			"(item-valued statements, breadth first) capped at 450 triples (%s), entity labels pseudonymized (predicate labels "+
			"and the classes entities are typed with kept), and %d questions of three families (relation-specific aggregation, "+
			"typed entity aggregation, multi-hop reachability) with gold answers computed on the subgraph. Each subgraph is "+
			"stored losslessly (%s) and rendered in the study's 15 formats.", len(seeds), strings.Join(sizes, ", "), len(set.Questions), graphqaItemSyntax))
	b.numbers = append(b.numbers,
		"Seeds, hops, cap, pseudonyms and families: §3 (10 seeds spanning films, scientists, cities and companies; two hops; 450 triples; 110 questions); the seeds are task/wikidata's (the paper does not list its own) unless --data seeds=FILE names others.",
		"Models: gpt-5.4 and gpt-5.4-mini, the two the paper ran (§4).",
		"Prompt: appendix H.4's template worded for a directed graph, integer answers after FINAL: (scorer final).")
	b.deviations = append(b.deviations,
		"The paper does not name its seeds or its entity snapshot: the subgraphs depend on the entity files given.",
		"The paper gives no max_tokens; the study allows 16,000 tokens.")
	return nil
}

const graphqaArmsComment = "The study's 15 formats (Table 1), rendered from each stored graph; turtle, jsonld and toon are the\n" +
	"registry's study_turtle, study_jsonld and study_toon (graphs of labelled nodes, not the RDF syntaxes)."

// readSeeds reads one Wikidata id per line (blank lines and # comments
// skipped).
func readSeeds(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		if len(s) < 2 || s[0] != 'Q' || strings.Trim(s[1:], "0123456789") != "" {
			return nil, fmt.Errorf("%s:%d: %q is not a Wikidata item id (Q and digits)", path, line, s)
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no seed", path)
	}
	return out, nil
}
