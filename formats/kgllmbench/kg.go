// Package kgllmbench reproduces KG-LLM-Bench's knowledge-graph
// textualizations byte for byte (Markowitz et al. 2025, arXiv:2504.07087,
// repository Elanmarkowitz/kg-llm-bench, kg_builder.py
// KnowledgeGraphTextPresenter): list_of_edges, structured_yaml (PyYAML 6.0
// yaml.dump), structured_json (Python json.dumps), rdf_turtle1/2/3 (rdflib 7
// Turtle serializer) and json_ld1/2/3 (rdflib 7 JSON-LD serializer with the
// benchmark's doubly nested context).
//
// It also holds the benchmark's KG model, a loader for the regenerated
// instance files (shared/data/kgllmbench/instances) and a loader for the
// Countries graph that replicates the benchmark's networkx DiGraph
// construction.
package kgllmbench

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/isolda/isolda/rdf"
)

// Entity is a node of the benchmark's knowledge graph.
type Entity struct {
	ID         string // the benchmark's entity id (a decimal integer)
	WikidataID string // Q-number
	Label      string
	Core       bool // a country or historic state (nodes.tsv); only these are pseudonymized
}

// Relation is an edge type of the benchmark's knowledge graph.
type Relation struct {
	ID         string // the benchmark's relation id (a decimal integer)
	WikidataID string // P-number
	Label      string
}

// Edge is one directed fact; Head, Relation and Tail are entity and
// relation ids.
type Edge struct {
	Head, Relation, Tail string
	// RelationLabel is the relation label stored on the edge (networkx edge
	// data). The benchmark reads labels from there, and a few sampled
	// subgraphs keep edges whose relation was refined out of
	// KG.Relations. When empty, the label of Relation in KG.Relations is
	// used.
	RelationLabel string
}

// KG is the benchmark's knowledge graph (or one sampled subgraph): entities
// and relations in the benchmark's dictionary order, edges in networkx
// DiGraph iteration order, which is the order every textualizer uses.
type KG struct {
	Entities  []Entity
	Relations []Relation
	Edges     []Edge
}

// Pseudonym is one entry of an instance's pseudonym mapping.
type Pseudonym struct {
	EntityID string
	Name     string
}

// Instance is one benchmark instance as exported in
// shared/data/kgllmbench/instances/instances/*.jsonl.gz.
type Instance struct {
	Task     string // TripleRetrieval, ShortestPath, ...
	Variant  string // "real" or "pseudo"
	ID       int
	Question string
	Answer   json.RawMessage // the answer as the benchmark stores it
	KG       KG
	// CoreNodeIDs are the ids of the core entities of the subgraph.
	CoreNodeIDs []string
	// Fields are the remaining task-specific fields, verbatim.
	Fields json.RawMessage
	// Pseudonyms is the pseudonym mapping in creation order (pseudo only).
	Pseudonyms []Pseudonym
}

// maxInstanceLine bounds one JSONL line of an instance file.
const maxInstanceLine = 64 << 20

// LoadInstances reads instances from r, which holds JSON Lines, gzip
// compressed or not (detected from the gzip magic number). Errors about
// malformed lines are *rdf.ParseError with the line number.
func LoadInstances(r io.Reader) ([]Instance, error) {
	br := bufio.NewReader(r)
	var src io.Reader = br
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		src = zr
	}
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 0, 1<<20), maxInstanceLine)
	var out []Instance
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		inst, err := decodeInstance(b)
		if err != nil {
			return out, &rdf.ParseError{Line: line, Column: 1, Msg: err.Error(), Err: err}
		}
		out = append(out, inst)
	}
	if err := sc.Err(); err != nil {
		return out, &rdf.ParseError{Line: line + 1, Column: 1, Msg: err.Error(), Err: err}
	}
	return out, nil
}

type rawInstance struct {
	Task        string          `json:"task"`
	Variant     string          `json:"variant"`
	ID          int             `json:"id"`
	Question    string          `json:"question"`
	Answer      json.RawMessage `json:"answer"`
	Edges       [][]any         `json:"edges"`
	Entities    []rawEntity     `json:"entities"`
	Relations   []rawRelation   `json:"relations"`
	CoreNodeIDs []json.Number   `json:"core_node_ids"`
	Fields      json.RawMessage `json:"fields"`
	Pseudonyms  json.RawMessage `json:"pseudonym_mapping"`
}

type rawEntity struct {
	EntityID   json.Number `json:"entity_id"`
	WikidataID string      `json:"wikidata_id"`
	Label      string      `json:"label"`
	Core       bool        `json:"core"`
}

type rawRelation struct {
	RelationID json.Number `json:"relation_id"`
	WikidataID string      `json:"wikidata_id"`
	Label      string      `json:"label"`
}

func decodeInstance(b []byte) (Instance, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var raw rawInstance
	if err := dec.Decode(&raw); err != nil {
		return Instance{}, err
	}
	inst := Instance{
		Task: raw.Task, Variant: raw.Variant, ID: raw.ID, Question: raw.Question,
		Answer: raw.Answer, Fields: raw.Fields,
	}
	for _, e := range raw.Entities {
		inst.KG.Entities = append(inst.KG.Entities, Entity{ID: e.EntityID.String(), WikidataID: e.WikidataID, Label: e.Label, Core: e.Core})
	}
	for _, r := range raw.Relations {
		inst.KG.Relations = append(inst.KG.Relations, Relation{ID: r.RelationID.String(), WikidataID: r.WikidataID, Label: r.Label})
	}
	for i, e := range raw.Edges {
		if len(e) != 6 {
			return Instance{}, fmt.Errorf("edge %d: want 6 fields, got %d", i, len(e))
		}
		h, ok1 := e[0].(json.Number)
		r, ok2 := e[2].(json.Number)
		t, ok3 := e[4].(json.Number)
		rl, ok4 := e[3].(string)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return Instance{}, fmt.Errorf("edge %d: want [head_id, head_label, relation_id, relation_label, tail_id, tail_label]", i)
		}
		inst.KG.Edges = append(inst.KG.Edges, Edge{Head: h.String(), Relation: r.String(), Tail: t.String(), RelationLabel: rl})
	}
	for _, c := range raw.CoreNodeIDs {
		inst.CoreNodeIDs = append(inst.CoreNodeIDs, c.String())
	}
	if len(raw.Pseudonyms) > 0 && !bytes.Equal(raw.Pseudonyms, []byte("null")) {
		ps, err := decodeOrderedStrings(raw.Pseudonyms)
		if err != nil {
			return Instance{}, fmt.Errorf("pseudonym_mapping: %w", err)
		}
		inst.Pseudonyms = ps
	}
	return inst, nil
}

// decodeOrderedStrings decodes a JSON object of strings keeping key order.
func decodeOrderedStrings(b []byte) ([]Pseudonym, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("want an object")
	}
	var out []Pseudonym
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v string
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, Pseudonym{EntityID: k.(string), Name: v})
	}
	return out, nil
}

// pandasNA are the strings pandas.read_csv turns into NaN by default; the
// benchmark then formats them as "nan".
var pandasNA = map[string]bool{
	"": true, "#N/A": true, "#N/A N/A": true, "#NA": true, "-1.#IND": true, "-1.#QNAN": true,
	"-NaN": true, "-nan": true, "1.#IND": true, "1.#QNAN": true, "<NA>": true, "N/A": true,
	"NA": true, "NULL": true, "NaN": true, "None": true, "n/a": true, "nan": true, "null": true,
}

// pandasString returns the string the benchmark sees for a TSV cell.
func pandasString(s string) string {
	if pandasNA[s] {
		return "nan"
	}
	return s
}

// readTSV reads a headed TSV file as pandas.read_csv(sep='\t') does
// (double-quoted fields allowed) and returns its rows without the header.
func readTSV(path string, cols int) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReader(f))
	r.Comma = '\t'
	r.FieldsPerRecord = cols
	r.ReuseRecord = false
	rows, err := r.ReadAll()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, &rdf.ParseError{File: path, Line: pe.Line, Column: pe.Column, Msg: pe.Err.Error(), Err: err}
		}
		return nil, err
	}
	if len(rows) == 0 {
		return nil, &rdf.ParseError{File: path, Line: 1, Column: 1, Msg: "missing header"}
	}
	return rows[1:], nil
}

func checkInt(path string, line int, s string) error {
	if _, err := strconv.ParseInt(s, 10, 64); err != nil {
		return &rdf.ParseError{File: path, Line: line, Column: 1, Msg: fmt.Sprintf("not an integer id: %q", s)}
	}
	return nil
}

// readIDRows reads a headed TSV file of three columns (id, Wikidata id,
// label) whose ids are integers.
func readIDRows(path string) ([][]string, error) {
	rows, err := readTSV(path, 3)
	if err != nil {
		return nil, err
	}
	for i, row := range rows {
		if err := checkInt(path, i+2, row[0]); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// upsert puts v, whose id is id, in list: in place of the earlier element
// with that id (index maps ids to positions, so a later row replaces an
// earlier one and keeps its position), else at the end.
func upsert[T any](list []T, index map[string]int, id string, v T) []T {
	if j, ok := index[id]; ok {
		list[j] = v
		return list
	}
	index[id] = len(list)
	return append(list, v)
}

// LoadCountries loads the Countries KG from dir (entities.tsv, nodes.tsv,
// relations.tsv, edges.tsv, attributes.tsv) as the benchmark does: entities
// from entities.tsv then nodes.tsv (nodes.tsv marks the core entities),
// then a networkx DiGraph built from edges.tsv followed by attributes.tsv.
// A DiGraph keeps one relation per (head, tail) pair: a later row replaces
// the relation but keeps the edge's position. Edges come out in DiGraph
// iteration order (nodes in insertion order, then each node's successors in
// insertion order). Attribute rows with an unknown relation are skipped, as
// the benchmark does; edge rows with one are an error.
func LoadCountries(dir string) (*KG, error) {
	kg := &KG{}
	entIndex := map[string]int{}
	// Graph nodes in insertion order.
	var nodes []string
	nodeIndex := map[string]int{}
	addNode := func(id string) int {
		if i, ok := nodeIndex[id]; ok {
			return i
		}
		nodeIndex[id] = len(nodes)
		nodes = append(nodes, id)
		return len(nodes) - 1
	}
	for _, name := range []string{"entities.tsv", "nodes.tsv"} {
		rows, err := readIDRows(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		for _, row := range rows {
			e := Entity{ID: row[0], WikidataID: pandasString(row[1]), Label: pandasString(row[2]), Core: name == "nodes.tsv"}
			if j, ok := entIndex[e.ID]; ok {
				e.Core = e.Core || kg.Entities[j].Core
			}
			kg.Entities = upsert(kg.Entities, entIndex, e.ID, e)
			addNode(e.ID)
		}
	}
	rows, err := readIDRows(filepath.Join(dir, "relations.tsv"))
	if err != nil {
		return nil, err
	}
	relIndex := map[string]int{}
	for _, row := range rows {
		r := Relation{ID: row[0], WikidataID: pandasString(row[1]), Label: pandasString(row[2])}
		kg.Relations = upsert(kg.Relations, relIndex, r.ID, r)
	}
	// succ[node] lists (tail, relation) in insertion order; pos finds a pair.
	type adj struct {
		tail, rel string
	}
	succ := make([][]adj, 0, len(nodes))
	pos := map[[2]string]int{}
	for _, name := range []string{"edges.tsv", "attributes.tsv"} {
		path := filepath.Join(dir, name)
		rows, err := readTSV(path, 3)
		if err != nil {
			return nil, err
		}
		for i, row := range rows {
			for _, c := range row {
				if err := checkInt(path, i+2, c); err != nil {
					return nil, err
				}
			}
			h, t, rel := row[0], row[1], row[2]
			if _, ok := relIndex[rel]; !ok {
				if name == "edges.tsv" {
					return nil, &rdf.ParseError{File: path, Line: i + 2, Column: 1, Msg: fmt.Sprintf("relation ID %s not found in the relations", rel)}
				}
				continue
			}
			hi := addNode(h)
			addNode(t)
			for len(succ) < len(nodes) {
				succ = append(succ, nil)
			}
			key := [2]string{h, t}
			if j, ok := pos[key]; ok {
				succ[hi][j].rel = rel
				continue
			}
			pos[key] = len(succ[hi])
			succ[hi] = append(succ[hi], adj{t, rel})
		}
	}
	for i, id := range nodes {
		if i >= len(succ) {
			break
		}
		for _, a := range succ[i] {
			kg.Edges = append(kg.Edges, Edge{Head: id, Relation: a.rel, Tail: a.tail})
		}
	}
	return kg, nil
}
