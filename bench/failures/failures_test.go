package failures

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/formats/graphrag"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/token"
)

// loses returns the registry's documentation of what a format drops.
func loses(name string) string {
	f, _ := formats.Get(name)
	return f.Loses
}

func articleNames() []string {
	var out []string
	for _, f := range graphrag.Formats() {
		out = append(out, f.Name)
	}
	return out
}

func runCase(t *testing.T, name string) *Result {
	t.Helper()
	cl, err := token.NewRegistry(token.Options{}).Get(token.CL100KBase)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(name, []token.Tokenizer{testgraph.O200k(t), cl})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Outcomes) == 0 {
		t.Fatalf("%s: no outcomes", name)
	}
	s := r.Survivors()
	t.Logf("%s: %d of %d formats survive: %s", name, len(s), len(r.Outcomes), strings.Join(s, ", "))
	t.Logf("bench: failure case %s: %d/%d formats survive", name, len(s), len(r.Outcomes))
	return r
}

// The article's strict decoders reject duplicate identifiers and orphan
// edges with a position (graphrag.DecodeOptions.Strict); the registry's
// other lossless formats keep every record.
func TestFailureDuplicateIdentifiersAndOrphanEdges(t *testing.T) {
	for _, c := range []string{CaseDuplicateIDs, CaseOrphanEdges} {
		r := runCase(t, c)
		for _, o := range r.Outcomes {
			if !o.Survives {
				t.Errorf("%s: %s fails: %s", c, o.Format, o.Detail)
			}
			if slices.Contains(articleNames(), o.Format) && !strings.HasPrefix(o.Detail, "strict decoding rejects it: <input>:") {
				t.Errorf("%s: %s: %s", c, o.Format, o.Detail)
			}
		}
	}
}

// Delimiter collisions: the article's formats write the reference
// program's hostile fixture exactly as the reference program does, and
// every lossless format gives it back.
func TestFailureDelimiterCollisions(t *testing.T) {
	r := runCase(t, CaseDelimiters)
	if len(r.Survivors()) != len(r.Outcomes) {
		t.Errorf("not every lossless format survives: %v", r.Outcomes)
	}
	data, err := os.ReadFile(filepath.Join("../../formats/graphrag/testdata", "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Hostile struct {
			Nodes [][2]string       `json:"nodes"`
			Edges [][3]string       `json:"edges"`
			Texts map[string]string `json:"texts"`
		} `json:"hostile"`
	}
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	g := HostileGraph()
	if len(g.Nodes) != len(ref.Hostile.Nodes) || len(g.Edges) != len(ref.Hostile.Edges) {
		t.Fatalf("hostile graph has %d nodes, %d edges; reference %d, %d", len(g.Nodes), len(g.Edges),
			len(ref.Hostile.Nodes), len(ref.Hostile.Edges))
	}
	for i, n := range ref.Hostile.Nodes {
		if g.Nodes[i] != (graphrag.Node{ID: n[0], Type: n[1]}) {
			t.Errorf("node %d: %q, reference %q", i, g.Nodes[i], n)
		}
	}
	for name, want := range ref.Hostile.Texts {
		got, err := graphrag.EncodeString(name, g)
		if err != nil || got != want {
			t.Errorf("%s: hostile text differs from the reference program's (%v)", name, err)
		}
	}
}

// Direction reversal and relationship-type collapse: every lossless format
// survives; a lossy format fails exactly when the registry documents that
// it drops edge types (collapse), and only if it documents the loss of
// direction (reversal; texts that differ are only a necessary condition,
// so some formats documented as losing direction still pass it).
func TestFailureDirectionAndRelationCollapse(t *testing.T) {
	dir := runCase(t, CaseDirection)
	for _, o := range dir.Outcomes {
		f, _ := formats.Get(o.Format)
		if f.Lossless && !o.Survives {
			t.Errorf("direction: lossless %s fails: %s", o.Format, o.Detail)
		}
		if !o.Survives && !strings.Contains(loses(o.Format), "direction") {
			t.Errorf("direction: %s fails but its documentation does not say it loses direction", o.Format)
		}
		if strings.Contains(loses(o.Format), "undirected copy, losing edge direction") && o.Survives {
			t.Errorf("direction: %s writes the undirected copy but survives", o.Format)
		}
	}
	col := runCase(t, CaseRelationCollapse)
	for _, o := range col.Outcomes {
		if documented := strings.Contains(loses(o.Format), "edge types"); documented == o.Survives {
			t.Errorf("relationship type collapse: %s survives=%v, documented loss of edge types=%v", o.Format, o.Survives, documented)
		}
	}
}

// Broken monolithic JSON: cut at half its tokens, the JSON documents no
// longer parse, while the line formats keep a valid prefix (the article's
// observation) that lacks part of the evidence.
func TestFailureBrokenMonolithicJSON(t *testing.T) {
	r := runCase(t, CaseBrokenJSON)
	for _, o := range r.Outcomes {
		monolithic := o.Format == graphrag.PrettyJSON || o.Format == graphrag.CompactJSON
		if o.Survives == monolithic {
			t.Errorf("%s: survives=%v: %s", o.Format, o.Survives, o.Detail)
		}
		if o.Survives && strings.Contains(o.Detail, "evidence 1.00") {
			t.Errorf("%s: half the text cannot hold all the evidence: %s", o.Format, o.Detail)
		}
	}
}

// Tokenizer mismatch: by the reference program's byte counts typed_edges_dict
// is the smallest and compact_json only fourth, but compact_json has the
// fewest tokens for both OpenAI tokenizers.
func TestFailureTokenizerMismatch(t *testing.T) {
	r := runCase(t, CaseTokenizerMismatch)
	i := slices.IndexFunc(r.Outcomes, func(o Outcome) bool { return o.Format == graphrag.CompactJSON })
	if i < 0 || r.Outcomes[i].Survives || !strings.Contains(r.Outcomes[i].Detail, "5375 bytes: rank 4 by bytes, rank 1 by o200k_base") {
		t.Errorf("compact_json: %+v", r.Outcomes[i])
	}
	j := slices.IndexFunc(r.Outcomes, func(o Outcome) bool { return o.Format == graphrag.PrettyJSON })
	if j < 0 || !r.Outcomes[j].Survives {
		t.Errorf("pretty_json is the largest by every measure: %+v", r.Outcomes[j])
	}
}

// Identifier leakage: only formats that rename nodes from a fixed name list
// hide the leaking identifiers.
func TestFailureIdentifierLeakage(t *testing.T) {
	g := LeakingGraph()
	leaked := 0
	for _, n := range g.Nodes {
		if strings.Contains(n.ID, "affected") {
			leaked++
		}
	}
	// svc-api, svc-auth, svc-profile and svc-web depend on db-identity.
	if leaked != 4 || len(g.Nodes) != 7 || len(g.Edges) != 8 {
		t.Fatalf("leaking fixture: %d leaking ids, %d nodes, %d edges", leaked, len(g.Nodes), len(g.Edges))
	}
	r := runCase(t, CaseIdentifierLeakage)
	for _, o := range r.Outcomes {
		if renames := strings.Contains(loses(o.Format), "named from a fixed list"); renames != o.Survives {
			t.Errorf("%s: survives=%v, renames nodes=%v", o.Format, o.Survives, renames)
		}
	}
	if _, err := Run("nope", nil); err == nil {
		t.Error("an unknown case must be an error")
	}
}

// TestWriteNoTrailingSpaces: the failure table has a header and ends no
// line with a space.
func TestWriteNoTrailingSpaces(t *testing.T) {
	tok := testgraph.O200k(t)
	var b strings.Builder
	var results []*Result
	for _, c := range Cases() {
		r, err := Run(c, []token.Tokenizer{tok})
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, r)
	}
	if err := Write(&b, results); err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(b.String(), "\n") {
		if strings.TrimRight(line, " \t") != line {
			t.Errorf("Write: line %d ends with a space: %q", i+1, line)
		}
	}
	if !slices.ContainsFunc(strings.Split(b.String(), "\n"), func(l string) bool { return strings.HasPrefix(l, "case") }) {
		t.Errorf("Write has no header:\n%s", b.String())
	}
}
