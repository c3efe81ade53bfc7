package kgllmbench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
)

// The seven formats the regenerated instances were textualized in.
var oracleFormats = []string{"list_of_edges", "structured_yaml", "structured_json", "rdf_turtle2", "rdf_turtle3", "json_ld2", "json_ld3"}

var tasks = []string{"TripleRetrieval", "ShortestPath", "HighestDegreeNode", "AggByRelation", "AggNeighborProperties"}

func kgDir(t testing.TB) string {
	t.Helper()
	return shared.MustPath(t, "data", "kgllmbench")
}

var (
	instOnce sync.Once
	instAll  map[string]*Instance // "task/variant/id"
	instErr  error
)

func instKey(task, variant string, id int) string {
	return fmt.Sprintf("%s/%s/%d", task, variant, id)
}

// loadAllInstances reads the 10 instance files once.
func loadAllInstances(t testing.TB) map[string]*Instance {
	t.Helper()
	dir := filepath.Join(kgDir(t), "instances", "instances")
	instOnce.Do(func() {
		instAll = map[string]*Instance{}
		for _, task := range tasks {
			for _, v := range []string{"real", "pseudo"} {
				f, err := os.Open(filepath.Join(dir, task+"."+v+".jsonl.gz"))
				if err != nil {
					instErr = err
					return
				}
				insts, err := LoadInstances(f)
				f.Close()
				if err != nil {
					instErr = fmt.Errorf("%s.%s: %w", task, v, err)
					return
				}
				for i := range insts {
					in := &insts[i]
					instAll[instKey(in.Task, in.Variant, in.ID)] = in
				}
			}
		}
	})
	if instErr != nil {
		t.Fatal(instErr)
	}
	return instAll
}

type textRecord struct {
	Task string `json:"task"`
	ID   int    `json:"id"`
	Text string `json:"text"`
}

func loadTexts(t testing.TB, format, variant string) []textRecord {
	t.Helper()
	zr := shared.OpenGzip(t, filepath.Join(kgDir(t), "instances", "textualized", format+"."+variant+".jsonl.gz"))
	defer zr.Close()
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 64<<20)
	var out []textRecord
	for sc.Scan() {
		var r textRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// splitJSONLD splits a JSON-LD text into its frame (everything but the
// @graph nodes) and the sorted node texts, so that node order, which is
// random in the source, does not matter while every byte is still compared.
func splitJSONLD(text string) (frame string, nodes []string) {
	lines := strings.Split(text, "\n")
	var fr []string
	var cur []string
	in := false
	for _, l := range lines {
		switch {
		case !in && l == "    {":
			in = true
			cur = []string{l}
			fr = append(fr, "<node>")
		case in && (l == "    }" || l == "    },"):
			cur = append(cur, "    }")
			nodes = append(nodes, strings.Join(cur, "\n"))
			in = false
		case in:
			cur = append(cur, l)
		default:
			fr = append(fr, l)
		}
	}
	slices.Sort(nodes)
	return strings.Join(fr, "\n"), nodes
}

// firstDiff returns the 1-based line number and the two lines where a and
// b first differ.
func firstDiff(a, b string) (int, string, string) {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y || i >= len(al) || i >= len(bl) {
			return i + 1, x, y
		}
	}
	return 0, "", ""
}

// sameText compares our output with the oracle: byte for byte, except that
// JSON-LD @graph nodes are compared as a multiset.
// diffNodeOrder is sameText's diff for JSON-LD texts whose only
// difference is the order of their @graph nodes.
const diffNodeOrder = "same nodes in another @graph order"

func sameText(format, got, want string) (bool, string) {
	if got == want {
		return true, ""
	}
	if strings.HasPrefix(format, "json_ld") {
		gf, gn := splitJSONLD(got)
		wf, wn := splitJSONLD(want)
		if gf != wf {
			n, x, y := firstDiff(gf, wf)
			return false, fmt.Sprintf("frame line %d: got %q want %q", n, x, y)
		}
		if len(gn) != len(wn) {
			return false, fmt.Sprintf("%d nodes, want %d", len(gn), len(wn))
		}
		for i := range gn {
			if gn[i] != wn[i] {
				n, x, y := firstDiff(gn[i], wn[i])
				return false, fmt.Sprintf("node %d line %d: got %q want %q", i, n, x, y)
			}
		}
		return false, diffNodeOrder
	}
	n, x, y := firstDiff(got, want)
	return false, fmt.Sprintf("line %d: got %q want %q", n, x, y)
}

// knownMismatches lists instance texts we do not reproduce, with the
// reason: format/variant/task/id -> reason. It is empty: every text of the
// regenerated instances is reproduced.
var knownMismatches = map[string]string{}

// TestInstanceTexts is the acceptance test: every text of
// shared/data/kgllmbench/instances/textualized (7 formats × 2 variants ×
// 500 instances) must be reproduced from the instance's KG.
func TestInstanceTexts(t *testing.T) {
	all := loadAllInstances(t)
	total, pass := 0, 0
	for _, format := range oracleFormats {
		for _, variant := range []string{"real", "pseudo"} {
			recs := loadTexts(t, format, variant)
			ok, known := 0, 0
			for _, r := range recs {
				in := all[instKey(r.Task, variant, r.ID)]
				if in == nil {
					t.Errorf("%s %s: no instance %s/%d", format, variant, r.Task, r.ID)
					continue
				}
				var buf bytes.Buffer
				if err := Textualize(&buf, &in.KG, format); err != nil {
					t.Errorf("%s %s %s/%d: %v", format, variant, r.Task, r.ID, err)
					continue
				}
				same, diff := sameText(format, buf.String(), r.Text)
				if same {
					ok++
					continue
				}
				key := fmt.Sprintf("%s/%s/%s/%d", format, variant, r.Task, r.ID)
				if reason, listed := knownMismatches[key]; listed {
					known++
					t.Logf("known mismatch %s (%s): %s", key, reason, diff)
					continue
				}
				t.Errorf("%s: %s", key, diff)
			}
			total += len(recs)
			pass += ok
			how := "byte-exact"
			msg := fmt.Sprintf("kgllmbench instances %-16s %-6s: %d/%d %s (%d known mismatches)", format, variant, ok, len(recs), how, known)
			t.Log(msg)
			if len(recs) != 500 {
				t.Errorf("%s %s: %d texts, want 500", format, variant, len(recs))
			}
		}
	}
	msg := fmt.Sprintf("kgllmbench instances total: %d/%d", pass, total)
	t.Log(msg)
}

// TestPromptExamples checks Prompt and Description against the exact
// prompts of instance 0 in shared/data/kgllmbench/instances/prompt_examples.
func TestPromptExamples(t *testing.T) {
	all := loadAllInstances(t)
	n := 0
	for _, variant := range []string{"real", "pseudo"} {
		for _, task := range tasks {
			in := all[instKey(task, variant, 0)]
			for _, format := range oracleFormats {
				want, err := os.ReadFile(filepath.Join(kgDir(t), "instances", "prompt_examples", variant, task+"."+format+".txt"))
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if err := Textualize(&buf, &in.KG, format); err != nil {
					t.Fatal(err)
				}
				got := Prompt(format, buf.String(), in.Question)
				if same, diff := sameText(format, got, string(want)); !same {
					t.Errorf("prompt %s %s %s: %s", variant, task, format, diff)
					continue
				}
				n++
			}
		}
	}
	msg := fmt.Sprintf("kgllmbench prompt examples: %d/70 exact", n)
	t.Log(msg)
}

// TestCountriesMatchInstances checks the Countries loader's entities,
// relations and edges against the 500 real instances, whose subgraphs the
// benchmark sampled from the same graph.
func TestCountriesMatchInstances(t *testing.T) {
	kg, err := LoadCountries(filepath.Join(kgDir(t), "countries"))
	if err != nil {
		t.Fatal(err)
	}
	ents := map[string]Entity{}
	for _, e := range kg.Entities {
		ents[e.ID] = e
	}
	rels := map[string]Relation{}
	for _, r := range kg.Relations {
		rels[r.ID] = r
	}
	edges := map[[2]string]string{}
	for _, e := range kg.Edges {
		edges[[2]string{e.Head, e.Tail}] = e.Relation
	}
	nEnt, nRel, nEdge := 0, 0, 0
	for _, in := range loadAllInstances(t) {
		if in.Variant != "real" {
			continue
		}
		for _, e := range in.KG.Entities {
			nEnt++
			if ents[e.ID] != e {
				t.Errorf("%s/%d: entity %+v, Countries has %+v", in.Task, in.ID, e, ents[e.ID])
			}
		}
		for _, r := range in.KG.Relations {
			nRel++
			if rels[r.ID] != r {
				t.Errorf("%s/%d: relation %+v, Countries has %+v", in.Task, in.ID, r, rels[r.ID])
			}
		}
		for _, e := range in.KG.Edges {
			nEdge++
			if edges[[2]string{e.Head, e.Tail}] != e.Relation || rels[e.Relation].Label != e.RelationLabel {
				t.Errorf("%s/%d: edge %+v not in Countries", in.Task, in.ID, e)
			}
		}
	}
	msg := fmt.Sprintf("kgllmbench Countries vs real instances: %d entities, %d relations, %d edges checked", nEnt, nRel, nEdge)
	t.Log(msg)
}
