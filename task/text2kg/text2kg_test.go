package text2kg

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/isolda/isolda/formats/ontology"
	"github.com/isolda/isolda/internal/testkit/shared"
)

func readJSONL(t *testing.T, path string, each func(line []byte)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		each(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// testOntology loads the ontology of a sentence id such as
// "ont_7_company_test_1".
func testOntology(t *testing.T, id string) *ontology.Ontology {
	t.Helper()
	name := strings.TrimPrefix(id[:strings.Index(id, "_test_")], "ont_")
	o, err := ontology.LoadFile(shared.MustPath(t, "data", "text2kgbench", "ontologies", name+"_ontology.json"))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

type refRecord struct {
	ID        string     `json:"id"`
	Precision float64    `json:"precision"`
	Recall    float64    `json:"recall"`
	F1        float64    `json:"f1"`
	OntoConf  float64    `json:"onto_conf"`
	RelHall   float64    `json:"rel_halluc"`
	SubHall   float64    `json:"sub_halluc"`
	ObjHall   float64    `json:"obj_halluc"`
	LLM       [][]string `json:"llm_triples"`
	Filtered  [][]string `json:"filtered_llm_triples"`
	GT        [][]string `json:"gt_triples"`
	Sent      string     `json:"sent"`
}

func tripleRows(rows [][]string) []Triple {
	out := make([]Triple, len(rows))
	for i, r := range rows {
		out[i] = Triple{Sub: r[0], Rel: r[1], Obj: r[2]}
	}
	return out
}

// TestT2KReferenceScores is the acceptance test: for the 57 sample
// sentences, scoring the stored Vicuna-13B triples against the ground truth
// reproduces every score of the benchmark's stored per-sentence results
// (shared/data/text2kgbench/sample/vicuna13b_eval_results_sample.jsonl),
// and the relation filter keeps exactly the stored filtered triples.
func TestT2KReferenceScores(t *testing.T) {
	dir := shared.MustPath(t, "data", "text2kgbench", "sample")
	gold := map[string][]Triple{}
	sents := map[string]string{}
	readJSONL(t, filepath.Join(dir, "ground_truth_sample.jsonl"), func(b []byte) {
		var g sentenceRecord
		if err := json.Unmarshal(b, &g); err != nil {
			t.Fatal(err)
		}
		for _, tr := range g.Triples {
			gold[g.ID] = append(gold[g.ID], Triple{tr.Sub, tr.Rel, tr.Obj})
		}
		sents[g.ID] = g.Sent
	})
	system := map[string][]Triple{}
	readJSONL(t, filepath.Join(dir, "vicuna13b_responses_sample.jsonl"), func(b []byte) {
		var r struct {
			ID      string     `json:"id"`
			Triples [][]string `json:"triples"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		system[r.ID] = tripleRows(r.Triples)
	})
	metrics := []string{"precision", "recall", "f1", "onto_conf", "rel_halluc", "sub_halluc", "obj_halluc"}
	pass := map[string]int{}
	n, allOK := 0, 0
	readJSONL(t, filepath.Join(dir, "vicuna13b_eval_results_sample.jsonl"), func(b []byte) {
		var ref refRecord
		if err := json.Unmarshal(b, &ref); err != nil {
			t.Fatal(err)
		}
		n++
		o := testOntology(t, ref.ID)
		if ref.Sent != sents[ref.ID] {
			t.Errorf("%s: sentence differs from the ground truth file", ref.ID)
		}
		s := Score(o, sents[ref.ID], gold[ref.ID], system[ref.ID])
		got := []float64{s.Precision, s.Recall, s.F1, s.OntologyConformance, s.RelationHallucination, s.SubjectHallucination, s.ObjectHallucination}
		want := []float64{ref.Precision, ref.Recall, ref.F1, ref.OntoConf, ref.RelHall, ref.SubHall, ref.ObjHall}
		ok := true
		for i := range got {
			if math.Abs(got[i]-want[i]) <= 1e-9 {
				pass[metrics[i]]++
			} else {
				ok = false
				t.Errorf("%s %s = %v, reference %v", ref.ID, metrics[i], got[i], want[i])
			}
		}
		if fmt.Sprint(tripleRows(ref.Filtered)) != fmt.Sprint(s.Filtered) && !(len(ref.Filtered) == 0 && len(s.Filtered) == 0) {
			ok = false
			t.Errorf("%s filtered triples %v, reference %v", ref.ID, s.Filtered, ref.Filtered)
		}
		if ok {
			allOK++
		}
	})
	for _, m := range metrics {
		t.Logf("Text2KGBench sample %s: %d/%d match the reference", m, pass[m], n)
	}
	t.Logf("Text2KGBench sample sentences with every score reproduced: %d/%d", allOK, n)
	if n != 57 {
		t.Errorf("%d reference sentences, want 57", n)
	}
}

// TestT2KPromptReference rebuilds the 19 reference prompts
// (prompts_sample.jsonl, one per ontology) from the ontology files, the
// test sentence, and the example sentence and example triples read from the
// reference prompt itself (the training split and the SBERT similarity
// ranking that chose them are not part of the shared data).
func TestT2KPromptReference(t *testing.T) {
	dir := shared.MustPath(t, "data", "text2kgbench", "sample")
	sents := map[string]string{}
	readJSONL(t, filepath.Join(dir, "test_sample.jsonl"), func(b []byte) {
		var s struct{ ID, Sent string }
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		sents[s.ID] = s.Sent
	})
	n, ok := 0, 0
	readJSONL(t, filepath.Join(dir, "prompts_sample.jsonl"), func(b []byte) {
		var p struct{ ID, Prompt string }
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
		n++
		o := testOntology(t, p.ID)
		i := strings.Index(p.Prompt, "\n\nExample Sentence: ")
		j := strings.Index(p.Prompt, "\nExample Output:\n")
		k := strings.Index(p.Prompt, "\n\nTest Sentence: ")
		if i < 0 || j < i || k < j {
			t.Fatalf("%s: unexpected prompt layout", p.ID)
		}
		exSent := p.Prompt[i+len("\n\nExample Sentence: ") : j]
		exLines := strings.Split(p.Prompt[j+len("\nExample Output:\n"):k], "\n")
		var ex []Triple
		for _, l := range exLines {
			// rel(sub, obj): the relation runs to the first "(", the
			// subject to the first ", " (the example lines are rendered
			// back exactly, whatever the split).
			a := strings.Index(l, "(")
			c := strings.Index(l[a:], ", ")
			if a < 0 || c < 0 || !strings.HasSuffix(l, ")") {
				t.Fatalf("%s: example line %q", p.ID, l)
			}
			ex = append(ex, Triple{Rel: l[:a], Sub: l[a+1 : a+c], Obj: l[a+c+2 : len(l)-1]})
		}
		got := Prompt(o, exSent, ex, sents[p.ID])
		if got == p.Prompt {
			ok++
		} else {
			t.Errorf("%s: prompt differs\n got %q\nwant %q", p.ID, got, p.Prompt)
		}
	})
	t.Logf("Text2KGBench prompts reproduced: %d/%d", ok, n)
}

// TestT2KParseResponses compares the parser with the triples the benchmark
// stored beside each raw Vicuna-13B response (its own extraction, whose
// code is not published).
func TestT2KParseResponses(t *testing.T) {
	dir := shared.MustPath(t, "data", "text2kgbench", "sample")
	n, same := 0, 0
	var diffs []string
	readJSONL(t, filepath.Join(dir, "vicuna13b_responses_sample.jsonl"), func(b []byte) {
		var r struct {
			ID       string     `json:"id"`
			Response string     `json:"response"`
			Triples  [][]string `json:"triples"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		n++
		got := ParseResponse(r.Response)
		want := tripleRows(r.Triples)
		if fmt.Sprint(got) == fmt.Sprint(want) || len(got) == 0 && len(want) == 0 {
			same++
			return
		}
		diffs = append(diffs, fmt.Sprintf("%s: got %v, stored %v", r.ID, got, want))
	})
	sort.Strings(diffs)
	for _, d := range diffs {
		t.Errorf("parse differs: %s", d)
	}
	t.Logf("Text2KGBench responses parsed as stored: %d/%d", same, n)
}

// TestT2KEndToEnd parses each raw Vicuna-13B response and scores it: the F1
// and hallucination scores equal the reference ones.
func TestT2KEndToEnd(t *testing.T) {
	dir := shared.MustPath(t, "data", "text2kgbench", "sample")
	refs := map[string]refRecord{}
	readJSONL(t, filepath.Join(dir, "vicuna13b_eval_results_sample.jsonl"), func(b []byte) {
		var ref refRecord
		if err := json.Unmarshal(b, &ref); err != nil {
			t.Fatal(err)
		}
		refs[ref.ID] = ref
	})
	n, ok := 0, 0
	readJSONL(t, filepath.Join(dir, "vicuna13b_responses_sample.jsonl"), func(b []byte) {
		var r struct{ ID, Response string }
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		ref := refs[r.ID]
		s := Score(testOntology(t, r.ID), ref.Sent, tripleRows(ref.GT), ParseResponse(r.Response))
		n++
		got := []float64{s.Precision, s.Recall, s.F1, s.OntologyConformance, s.SubjectHallucination, s.ObjectHallucination}
		want := []float64{ref.Precision, ref.Recall, ref.F1, ref.OntoConf, ref.SubHall, ref.ObjHall}
		same := true
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-9 {
				same = false
			}
		}
		if same {
			ok++
		} else {
			t.Errorf("%s: scores %v from the raw response, reference %v", r.ID, got, want)
		}
	})
	t.Logf("Text2KGBench raw responses parsed and scored as the reference: %d/%d", ok, n)
}

// TestT2KPorterStem checks NLTK PorterStemmer outputs (NLTK_EXTENSIONS
// mode), from the examples of Porter (1980) and NLTK's documented
// departures (irregular forms, "ies"/"ied" on four-letter words).
func TestT2KPorterStem(t *testing.T) {
	cases := map[string]string{
		"caresses": "caress", "ponies": "poni", "cats": "cat", "feed": "feed", "agreed": "agre",
		"plastered": "plaster", "motoring": "motor", "sing": "sing", "hopping": "hop", "falling": "fall",
		"hissing": "hiss", "filing": "file", "happy": "happi", "sky": "sky", "skies": "sky", "dying": "die",
		"lying": "lie", "news": "news", "ties": "tie", "died": "die", "cried": "cri", "relational": "relat",
		"electrical": "electr", "hopeful": "hope", "goodness": "good", "adjustable": "adjust",
		"adoption": "adopt", "controlling": "control", "rolled": "roll", "generously": "gener",
		"Running": "run", "is": "is", "a": "a", "United": "unit", "States": "state",
		// Runs of "y" (checked with NLTK 3.8).
		"yyyyyy": "yyyyyi", "ayyyyy": "ayyyyy", "syzygy": "syzygi", "yay": "yay", "slyly": "slyli",
		"yyyyyyyyyyyyyyying": "yyyyyyyyyyyyyi", "buyyying": "buyi", "toying": "toy", "enjoyed": "enjoy", "crying": "cri",
	}
	for in, want := range cases {
		if got := PorterStem(in); got != want {
			t.Errorf("PorterStem(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestT2KHopcroftKarp compares the maximum matching with brute force over
// every subset assignment on random small bipartite graphs, and checks that
// the exact-key matching reproduces the set-based precision and recall.
func TestT2KHopcroftKarp(t *testing.T) {
	rng := uint64(12345)
	next := func(n int) int {
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return int(rng % uint64(n))
	}
	for trial := 0; trial < 400; trial++ {
		nl, nr := next(7), next(7)
		adj := make([][]int, nl)
		for u := range adj {
			for v := 0; v < nr; v++ {
				if next(3) == 0 {
					adj[u] = append(adj[u], v)
				}
			}
		}
		match, size := HopcroftKarp(nl, nr, adj)
		// Validity.
		used := map[int]bool{}
		cnt := 0
		for u, v := range match {
			if v < 0 {
				continue
			}
			cnt++
			if used[v] {
				t.Fatalf("trial %d: right vertex %d matched twice", trial, v)
			}
			used[v] = true
			found := false
			for _, w := range adj[u] {
				found = found || w == v
			}
			if !found {
				t.Fatalf("trial %d: pair %d-%d is not an edge", trial, u, v)
			}
		}
		if cnt != size {
			t.Fatalf("trial %d: size %d, %d pairs", trial, size, cnt)
		}
		if want := bruteMatching(adj, 0, map[int]bool{}); size != want {
			t.Fatalf("trial %d: Hopcroft-Karp %d, brute force %d (adj %v)", trial, size, want, adj)
		}
	}
	gold := []Triple{{"A_B", "rel", "C"}, {"A B", "rel", "D"}, {"Xavier", "r2", "York"}}
	sys := []Triple{{"ab", "rel", "c"}, {"Xavier", "r2", "Yorks"}}
	exact := func(s, g Triple) float64 {
		if NormalizeTriple(s) == NormalizeTriple(g) {
			return 1
		}
		return 0
	}
	res, err := Match(gold, sys, exact, 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Matched != 1 || res.Precision != 0.5 || math.Abs(res.Recall-1.0/3) > 1e-12 {
		t.Errorf("exact matching: %+v", res)
	}
	res, _ = Match(gold, sys, nil, MatchThreshold)
	if res.Matched != 2 {
		t.Errorf("similarity matching at %.2f: %+v, want 2 matched (Xavier r2 Yorks ~ Xavier r2 York)", MatchThreshold, res)
	}
}

func bruteMatching(adj [][]int, u int, used map[int]bool) int {
	if u == len(adj) {
		return 0
	}
	best := bruteMatching(adj, u+1, used)
	for _, v := range adj[u] {
		if !used[v] {
			used[v] = true
			if m := 1 + bruteMatching(adj, u+1, used); m > best {
				best = m
			}
			used[v] = false
		}
	}
	return best
}

// FuzzT2K parses and scores arbitrary responses: no panic, parsed triples
// keep their parts free of quotes, and scores stay within [0, 1].
func FuzzT2K(f *testing.F) {
	for _, s := range []string{"staff(The AWH Engineering College, 250)", "a(b,)", "x((1) y, 2 (kg))\nrel(\"s\", 's')", "((((,))))", "dean(X,\n)", "é(ü, ß)"} {
		f.Add(s)
	}
	o := &ontology.Ontology{Concepts: []ontology.Concept{{ID: "University", Label: "University"}}, Relations: []ontology.Relation{{ID: "staff", Label: "staff", Domain: "University", Range: "number"}}}
	gold := []Triple{{"AWH_Engineering_College", "staff", "250"}}
	f.Fuzz(func(t *testing.T, resp string) {
		tr := ParseResponse(resp)
		for _, x := range tr {
			if strings.ContainsAny(x.Sub+x.Obj, `"'`) {
				t.Errorf("quote left in %v", x)
			}
		}
		s := Score(o, resp, gold, tr)
		for _, v := range []float64{s.Precision, s.Recall, s.F1, s.OntologyConformance, s.RelationHallucination, s.SubjectHallucination, s.ObjectHallucination} {
			if v < 0 || v > 1 || math.IsNaN(v) {
				t.Errorf("score %v out of range for %q", v, resp)
			}
		}
	})
}

func BenchmarkT2KScore(b *testing.B) {
	o := &ontology.Ontology{Concepts: []ontology.Concept{{ID: "University", Label: "University"}, {ID: "City", Label: "City"}}, Relations: []ontology.Relation{{ID: "staff", Label: "staff", Domain: "University", Range: "number"}, {ID: "city", Label: "city", Domain: "University", Range: "City"}}}
	sent := "The AWH Engineering College is located in Kuttikkattoor, Kerala and it has 250 academic staff."
	gold := []Triple{{"AWH_Engineering_College", "academicStaffSize", "250"}, {"AWH_Engineering_College", "city", "\"Kuttikkattoor\""}}
	resp := "staff(The AWH Engineering College, 250)\ncity(AWH Engineering College, Kuttikkattoor)"
	for i := 0; i < b.N; i++ {
		Score(o, sent, gold, ParseResponse(resp))
	}
}

// TestT2KPorterNLTK compares PorterStem with NLTK 3.8's
// PorterStemmer().stem on every word of the sample data, the ontologies, a
// tenth of the Countries labels and the shared tokenizer corpus
// (testdata/text2kgbench_porter_nltk38.tsv, written by
// testdata/text2kgbench_gen_nltk.py).
func TestT2KPorterNLTK(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "text2kgbench_porter_nltk38.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	n, ok := 0, 0
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if strings.HasPrefix(line, "# ") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 2 {
			t.Fatalf("bad line %q", line)
		}
		n++
		if got := PorterStem(f[0]); got == f[1] {
			ok++
		} else if n-ok <= 20 {
			t.Errorf("PorterStem(%q) = %q, NLTK %q", f[0], got, f[1])
		}
	}
	t.Logf("Text2KGBench Porter stems equal to NLTK 3.8's: %d/%d", ok, n)
	if ok != n {
		t.Errorf("%d stems differ", n-ok)
	}
}

// TestT2KTreebankNLTK compares the per-sentence tokenizer with NLTK 3.8's
// NLTKWordTokenizer on the same texts
// (testdata/text2kgbench_treebank_nltk38.jsonl). Punkt's sentence
// splitting, which word_tokenize applies first, needs a model that is not
// available offline and is approximated (Sentences); it is not covered
// here.
func TestT2KTreebankNLTK(t *testing.T) {
	n, ok := 0, 0
	readJSONL(t, filepath.Join("testdata", "text2kgbench_treebank_nltk38.jsonl"), func(b []byte) {
		var r struct {
			Text   string   `json:"text"`
			Tokens []string `json:"tokens"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		n++
		got := treebank(r.Text)
		if strings.Join(got, "\x00") == strings.Join(r.Tokens, "\x00") {
			ok++
		} else if n-ok <= 20 {
			t.Errorf("tokens of %q\n got %q\nNLTK %q", r.Text, got, r.Tokens)
		}
	})
	t.Logf("Text2KGBench Treebank tokenizations equal to NLTK 3.8's: %d/%d", ok, n)
	if ok != n {
		t.Errorf("%d tokenizations differ", n-ok)
	}
}

// TestT2KPublishedGlobal recomputes the published global figures of both
// baselines (shared/data/text2kgbench/published_baselines) from their
// per-ontology rows with GlobalAverage over PublishedOntoList. The
// rows are rounded to two decimals, so the mean of the rounded rows can
// differ from the published mean of the unrounded ones by up to 0.005; the
// one figure where rounding flips the second decimal is listed below.
func TestT2KPublishedGlobal(t *testing.T) {
	// model/metric: mean of the rounded rows, published value.
	roundingFlips := map[string]string{"Vicuna-13B/precision": "0.3455 vs 0.34"}
	exact, total := 0, 0
	for _, model := range []string{"Vicuna-13B", "Alpaca-LoRA-13B"} {
		byOnto := map[string]Scores{}
		var global map[string]string
		readJSONL(t, shared.MustPath(t, "data", "text2kgbench", "published_baselines", "dbpedia_webnlg_"+model+"_avg_eval_results.jsonl"), func(b []byte) {
			var r map[string]any
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			f := func(k string) float64 {
				var v float64
				fmt.Sscan(r[k].(string), &v)
				return v
			}
			if r["type"] == "global" {
				global = map[string]string{}
				for _, k := range []string{"avg_precision", "avg_recall", "avg_f1", "avg_onto_conf", "avg_rel_halluc", "avg_sub_halluc", "avg_obj_halluc"} {
					global[k] = r[k].(string)
				}
				return
			}
			byOnto[r["onto"].(string)] = Scores{Precision: f("avg_precision"), Recall: f("avg_recall"), F1: f("avg_f1"),
				OntologyConformance: f("avg_onto_conf"), RelationHallucination: f("avg_rel_halluc"),
				SubjectHallucination: f("avg_sub_halluc"), ObjectHallucination: f("avg_obj_halluc")}
		})
		var per []Scores
		for _, o := range PublishedOntoList() {
			s, ok := byOnto[o]
			if !ok {
				t.Fatalf("%s: no row for %s", model, o)
			}
			per = append(per, s)
		}
		g := GlobalAverage(per)
		for k, v := range map[string]float64{"precision": g.Precision, "recall": g.Recall, "f1": g.F1, "onto_conf": g.OntologyConformance,
			"rel_halluc": g.RelationHallucination, "sub_halluc": g.SubjectHallucination, "obj_halluc": g.ObjectHallucination} {
			total++
			want := global["avg_"+k]
			var w float64
			fmt.Sscan(want, &w)
			switch {
			case fmt.Sprintf("%.2f", v) == want:
				exact++
			case roundingFlips[model+"/"+k] != "" && math.Abs(v-w) <= 0.01:
				t.Logf("%s %s: %.4f from rounded rows, published %s (rounding)", model, k, v, want)
			default:
				t.Errorf("%s %s: %.4f, published %s", model, k, v, want)
			}
		}
	}
	t.Logf("Text2KGBench published global figures reproduced from per-ontology rows: %d/%d (+%d within rounding)", exact, total, total-exact)
}

// hostileTexts are long hostile model answers: the stemmer's "y" rule and
// the tokenizer's expressions must stay linear in them.
func hostileTexts() map[string]string {
	return map[string]string{
		"y run":  strings.Repeat("y", 200_000),
		"parens": strings.Repeat("a(", 20_000),
		"commas": strings.Repeat("a(b,", 20_000),
		"dots":   strings.Repeat(". ", 20_000),
		"quotes": strings.Repeat("'a \"", 20_000),
	}
}

// TestT2KHostileInput scores hallucinations on long hostile texts; their
// time is measured by BenchmarkT2KHostileInput.
func TestT2KHostileInput(t *testing.T) {
	o := &ontology.Ontology{Concepts: []ontology.Concept{{ID: "University", Label: "University"}}}
	for name, s := range hostileTexts() {
		tr := ParseResponse(s)
		if sub, obj := Hallucination(o, s, append(tr, Triple{Sub: s, Rel: "r", Obj: s})); sub < 0 || obj < 0 {
			t.Errorf("%s: (%v, %v)", name, sub, obj)
		}
	}
}

// BenchmarkT2KHostileInput times the parse and the hallucination scores of
// each hostile text.
func BenchmarkT2KHostileInput(b *testing.B) {
	o := &ontology.Ontology{Concepts: []ontology.Concept{{ID: "University", Label: "University"}}}
	texts := hostileTexts()
	for _, name := range slices.Sorted(maps.Keys(texts)) {
		s := texts[name]
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			for b.Loop() {
				tr := ParseResponse(s)
				Hallucination(o, s, append(tr, Triple{Sub: s, Rel: "r", Obj: s}))
			}
		})
	}
}
