// Package failures runs the GraphRAG serialization article's failure cases
// ("Failure cases worth testing explicitly": duplicate identifiers,
// delimiter collisions, direction reversal, relationship-type collapse,
// orphan edges, broken monolithic JSON, tokenizer mismatch, identifier
// leakage) on the registry's labelled-graph formats and reports which
// formats survive each (`isolda bench --failure-cases`).
package failures

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/isolda/isolda/bench"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/formats/graphrag"
	"github.com/isolda/isolda/textbudget"
	"github.com/isolda/isolda/token"
)

// The article's failure cases ("Failure cases worth testing explicitly"),
// each a named fixture that Run applies to the formats.
const (
	// CaseDuplicateIDs: a node identifier recorded twice with different
	// types. A format survives when its decoder rejects the graph (strict
	// mode) or keeps both records; silently merging is a failure.
	CaseDuplicateIDs = "duplicate_identifiers"
	// CaseDelimiters: identifiers with pipes, commas, quotes, tabs,
	// newlines, backslashes, arrows, control and non-ASCII characters (the
	// reference program's hostile fixture). A format survives when the
	// decoded graph equals the input.
	CaseDelimiters = "delimiter_collisions"
	// CaseDirection: a → b, b → c against the reversed b → a, c → b. A
	// format survives when the two texts differ and, if it has a decoder,
	// the first decodes to itself. For a format without a decoder, differing
	// texts are only a necessary condition.
	CaseDirection = "direction_reversal"
	// CaseRelationCollapse: a depends_on b against a owned_by b; survival
	// as for CaseDirection.
	CaseRelationCollapse = "relationship_type_collapse"
	// CaseOrphanEdges: an edge whose target has no node record. A format
	// survives when its decoder keeps the edge or rejects the graph
	// (strict mode); silently dropping the edge is a failure.
	CaseOrphanEdges = "orphan_edges"
	// CaseBrokenJSON: the synthetic graph cut at half its tokens (raw
	// truncation). A format survives when the cut text, less a last
	// incomplete line, still parses; the evidence kept is reported.
	CaseBrokenJSON = "broken_monolithic_json"
	// CaseTokenizerMismatch: the synthetic graph measured in bytes and in
	// tokens of each tokenizer. A format "survives" when its rank among the
	// formats is the same by bytes as by every tokenizer's tokens, that is
	// when bytes would have been a safe proxy.
	CaseTokenizerMismatch = "tokenizer_mismatch"
	// CaseIdentifierLeakage: a graph whose affected services are named
	// svc-affected-by-identity-N, which gives the answer away. A format
	// survives when its text does not contain "affected".
	CaseIdentifierLeakage = "identifier_leakage"
)

// Cases returns the names of the failure cases in the article's
// order.
func Cases() []string {
	return []string{CaseDuplicateIDs, CaseDelimiters, CaseDirection, CaseRelationCollapse, CaseOrphanEdges,
		CaseBrokenJSON, CaseTokenizerMismatch, CaseIdentifierLeakage}
}

// Outcome is one format's outcome on a failure case.
type Outcome struct {
	Format   string `json:"format"`
	Survives bool   `json:"survives"`
	Detail   string `json:"detail"`
}

// Result is the outcome of a failure case for every format it
// applies to, in format order.
type Result struct {
	Case     string    `json:"case"`
	Outcomes []Outcome `json:"outcomes"`
}

// Survivors returns the names of the formats that survive.
func (r *Result) Survivors() []string {
	var out []string
	for _, o := range r.Outcomes {
		if o.Survives {
			out = append(out, o.Format)
		}
	}
	return out
}

// caseFormat is a format of labelled graphs as the cases see it: an
// encoder and, for lossless formats, a decoder (strict or not) of records.
type caseFormat struct {
	name   string
	encode func(g graphrag.Graph) (string, error)
	decode func(text string, strict bool) (graphrag.Graph, error) // nil: lossy
	strict bool                                                   // decode has a strict mode
}

// caseFormats returns the article's formats, then the registry's other
// labelled-graph formats (decoded through graphrag.FromGraph).
func caseFormats(withLossy bool) []caseFormat {
	var out []caseFormat
	for _, f := range graphrag.Formats() {
		out = append(out, caseFormat{
			name: f.Name,
			encode: func(g graphrag.Graph) (string, error) {
				var b strings.Builder
				err := f.Encode(&b, g)
				return b.String(), err
			},
			decode: func(text string, strict bool) (graphrag.Graph, error) {
				return f.Decode(strings.NewReader(text), graphrag.DecodeOptions{Strict: strict})
			},
			strict: true,
		})
	}
	for _, f := range formats.All() {
		if f.Input != formats.InputGraph || f.Source == formats.SourceGraphRAG || (f.DecodeGraph == nil && !withLossy) {
			continue
		}
		cf := caseFormat{name: f.Name, encode: func(g graphrag.Graph) (string, error) {
			var b strings.Builder
			err := f.Encode(&b, formats.NewGraphInput(graphrag.ToGraph(g)))
			return b.String(), err
		}}
		if f.DecodeGraph != nil {
			cf.decode = func(text string, _ bool) (graphrag.Graph, error) {
				dg, err := f.DecodeGraph(strings.NewReader(text))
				if err != nil {
					return graphrag.Graph{}, err
				}
				return graphrag.FromGraph(dg), nil
			}
		}
		out = append(out, cf)
	}
	return out
}

// HostileGraph returns the reference program's hostile fixture
// (gen_fixtures.py): identifiers and types with every delimiter the
// formats use.
func HostileGraph() graphrag.Graph {
	n := func(id, typ string) graphrag.Node { return graphrag.Node{ID: id, Type: typ} }
	e := func(s, r, t string) graphrag.Edge { return graphrag.Edge{Source: s, Relation: r, Target: t} }
	return graphrag.Canonical(graphrag.Graph{
		Nodes: []graphrag.Node{n("a|b", "service"), n("back\\slash", "service"), n("new\nline", "team"),
			n("quo\"te", "data,base"), n("tab\tstop", "service"), n("->arrow", "service"),
			n("ünï©ødé 😀", "service"), n("\\p", "team"), n("ctl\x01\x1f\x7f", "service"),
			n("", "empty"), n("line\u2028sep", "service"), n(" lead", " type ")},
		Edges: []graphrag.Edge{e("a|b", "depends_on", "back\\slash"), e("new\nline", "owned|by", "a|b"),
			e("quo\"te", "depends_on", "tab\tstop"), e("->arrow", "x\\n", "ünï©ødé 😀"),
			e("\\p", "owned_by", "\\p"), e("ctl\x01\x1f\x7f", "depends_on", ""),
			e("orphan", "depends_on", "a|b"), e("line\u2028sep", "a,b", " lead")},
	})
}

// LeakingGraph returns the identifier-leakage fixture: the article's fixed
// graph in which every service affected by a failure of db-identity is
// named svc-affected-by-identity-N.
func LeakingGraph() graphrag.Graph {
	g, _ := graphrag.Generate(4, 0, 0) // the seven fixed nodes and eight edges
	affected := graphrag.QuerySuite(g).IdentityFailureAffectedServices
	rename := map[string]string{}
	for i, s := range affected {
		rename[s] = fmt.Sprintf("svc-affected-by-identity-%d", i+1)
	}
	r := func(id string) string { return cmp.Or(rename[id], id) }
	for i := range g.Nodes {
		g.Nodes[i].ID = r(g.Nodes[i].ID)
	}
	for i := range g.Edges {
		g.Edges[i].Source, g.Edges[i].Target = r(g.Edges[i].Source), r(g.Edges[i].Target)
	}
	return graphrag.Canonical(g)
}

// Run applies the named case to the formats it concerns.
// toks are the tokenizers of CaseTokenizerMismatch and CaseBrokenJSON
// (the first one cuts); the other cases need none.
func Run(name string, toks []token.Tokenizer) (*Result, error) {
	res := &Result{Case: name}
	add := func(f string, ok bool, format string, args ...any) {
		res.Outcomes = append(res.Outcomes, Outcome{Format: f, Survives: ok, Detail: fmt.Sprintf(format, args...)})
	}
	switch name {
	case CaseDuplicateIDs, CaseOrphanEdges:
		g := graphrag.Graph{Nodes: []graphrag.Node{{ID: "svc-a", Type: "service"}, {ID: "svc-b", Type: "service"}},
			Edges: []graphrag.Edge{{Source: "svc-a", Relation: graphrag.DependsOn, Target: "svc-b"}}}
		if name == CaseDuplicateIDs {
			g.Nodes = append(g.Nodes, graphrag.Node{ID: "svc-a", Type: "database"})
		} else {
			g.Edges = append(g.Edges, graphrag.Edge{Source: "svc-a", Relation: graphrag.DependsOn, Target: "svc-missing"})
		}
		g = graphrag.Canonical(g)
		for _, f := range caseFormats(false) {
			text, err := f.encode(g)
			if err != nil {
				add(f.name, false, "cannot encode: %v", err)
				continue
			}
			if f.strict {
				if _, err := f.decode(text, true); err != nil {
					add(f.name, true, "strict decoding rejects it: %v", err)
					continue
				}
			}
			dec, err := f.decode(text, false)
			switch {
			case err != nil:
				add(f.name, true, "decoding rejects it: %v", err)
			case graphrag.Equal(dec, g):
				add(f.name, true, "decoding keeps every record")
			default:
				add(f.name, false, "decoding silently changes the records: %d nodes, %d edges for %d, %d",
					len(dec.Nodes), len(dec.Edges), len(g.Nodes), len(g.Edges))
			}
		}
	case CaseDelimiters:
		g := HostileGraph()
		for _, f := range caseFormats(false) {
			text, err := f.encode(g)
			if err != nil {
				add(f.name, false, "cannot encode: %v", err)
				continue
			}
			dec, err := f.decode(text, false)
			switch {
			case err != nil:
				add(f.name, false, "cannot decode its own text: %v", err)
			case !graphrag.Equal(dec, g):
				add(f.name, false, "decodes to another graph")
			default:
				add(f.name, true, "round trip equal")
			}
		}
	case CaseDirection, CaseRelationCollapse:
		e := func(s, r, t string) graphrag.Edge { return graphrag.Edge{Source: s, Relation: r, Target: t} }
		nodes := []graphrag.Node{{ID: "svc-a", Type: "service"}, {ID: "svc-b", Type: "service"}, {ID: "svc-c", Type: "service"}}
		g1 := graphrag.Graph{Nodes: nodes, Edges: []graphrag.Edge{e("svc-a", "depends_on", "svc-b"), e("svc-b", "depends_on", "svc-c")}}
		g2 := graphrag.Graph{Nodes: nodes, Edges: []graphrag.Edge{e("svc-b", "depends_on", "svc-a"), e("svc-c", "depends_on", "svc-b")}}
		if name == CaseRelationCollapse {
			g1.Edges = []graphrag.Edge{e("svc-a", "depends_on", "svc-b")}
			g2.Edges = []graphrag.Edge{e("svc-a", "owned_by", "svc-b")}
		}
		g1, g2 = graphrag.Canonical(g1), graphrag.Canonical(g2)
		for _, f := range caseFormats(true) {
			t1, err1 := f.encode(g1)
			t2, err2 := f.encode(g2)
			if err := cmp.Or(err1, err2); err != nil {
				add(f.name, false, "cannot encode: %v", err)
				continue
			}
			if t1 == t2 {
				add(f.name, false, "the two graphs have the same text")
				continue
			}
			if f.decode == nil {
				add(f.name, true, "the texts differ (no decoder: a necessary condition only)")
				continue
			}
			dec, err := f.decode(t1, false)
			if err != nil || !graphrag.Equal(dec, g1) {
				add(f.name, false, "does not decode to the graph (%v)", err)
				continue
			}
			add(f.name, true, "the texts differ and decode to their graphs")
		}
	case CaseBrokenJSON:
		if len(toks) == 0 {
			return nil, fmt.Errorf("bench: %s needs a tokenizer", name)
		}
		g, err := graphrag.Generate(40, 80, 7)
		if err != nil {
			return nil, err
		}
		ev := bench.Evidence(g)
		for _, f := range graphrag.Formats() {
			var b strings.Builder
			if err := f.Encode(&b, g); err != nil {
				return nil, err
			}
			full := b.String()
			cut := textbudget.Raw(full, toks[0].Count, toks[0].Count(full)/2).Text
			if i := strings.LastIndexByte(cut, '\n'); i >= 0 && len(cut) < len(full) {
				cut = cut[:i]
			}
			dec, err := f.Decode(strings.NewReader(cut), graphrag.DecodeOptions{})
			if err != nil {
				add(f.Name, false, "the cut text does not parse: %v", err)
				continue
			}
			add(f.Name, true, "the cut text parses: %d of %d records, evidence %.2f", dec.Records(), g.Records(), bench.Survival(ev, dec))
		}
	case CaseTokenizerMismatch:
		if len(toks) == 0 {
			return nil, fmt.Errorf("bench: %s needs a tokenizer", name)
		}
		g, err := graphrag.Generate(40, 80, 7)
		if err != nil {
			return nil, err
		}
		fs := graphrag.Formats()
		texts := make([]string, len(fs))
		for i, f := range fs {
			if texts[i], err = graphrag.EncodeString(f.Name, g); err != nil {
				return nil, err
			}
		}
		rank := func(size func(string) int) []int {
			idx := make([]int, len(texts))
			for i := range idx {
				idx[i] = i
			}
			slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(size(texts[a]), size(texts[b])) })
			r := make([]int, len(texts))
			for pos, i := range idx {
				r[i] = pos + 1
			}
			return r
		}
		byBytes := rank(func(s string) int { return len(s) })
		byTok := make([][]int, len(toks))
		for j, t := range toks {
			byTok[j] = rank(t.Count)
		}
		for i, f := range fs {
			same := true
			detail := fmt.Sprintf("%d bytes: rank %d by bytes", len(texts[i]), byBytes[i])
			for j, t := range toks {
				detail += fmt.Sprintf(", rank %d by %s (%d tokens)", byTok[j][i], t.Name(), t.Count(texts[i]))
				same = same && byTok[j][i] == byBytes[i]
			}
			add(f.Name, same, "%s", detail)
		}
	case CaseIdentifierLeakage:
		g := LeakingGraph()
		for _, f := range caseFormats(true) {
			text, err := f.encode(g)
			if err != nil {
				add(f.name, false, "cannot encode: %v", err)
				continue
			}
			if strings.Contains(text, "affected") {
				add(f.name, false, "the identifiers give the answer away")
			} else {
				add(f.name, true, "the text hides the identifiers")
			}
		}
	default:
		return nil, fmt.Errorf("bench: unknown failure case %q", name)
	}
	return res, nil
}

// Write writes one line per case and format: the case, the format,
// SURVIVES or FAILS, and why.
func Write(w io.Writer, results []*Result) error {
	tw, flush := bench.NewTable(w)
	fmt.Fprintln(tw, "case\tformat\toutcome\tdetail")
	for _, r := range results {
		for _, o := range r.Outcomes {
			outcome := "FAILS"
			if o.Survives {
				outcome = "survives"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Case, o.Format, outcome, strings.ReplaceAll(o.Detail, "\n", " "))
		}
		fmt.Fprintf(tw, "# %s: %d of %d formats survive\n", r.Case, len(r.Survivors()), len(r.Outcomes))
	}
	return flush()
}
