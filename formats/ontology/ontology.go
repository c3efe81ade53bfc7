// Package ontology writes Text2KGBench ontologies (concepts, and relations
// with a domain and a range) in the 12 representation formats of the study
// "Graph Serializations for Reasoning LLMs" (spec 001, appendix H.3):
// edge_list, entity_centric, jsonld, markdown_table, mermaid, nl_summary,
// relation_indexed, shacl_lite, structured, text2kgbench, toon and turtle.
// text2kgbench is the compact form of the Text2KGBench prompts ("Ontology
// Concepts: ..., / Ontology Relations: rel(Domain,Range), ..."). It also
// loads the benchmark's ontology JSON files.
package ontology

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/formats/graphtext"
	"github.com/isolda/isolda/formats/internal/registry"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdferr"
)

// Concept is a class of the ontology.
type Concept struct {
	ID    string // Text2KGBench "qid" (in DBpedia-WebNLG equal to the label)
	Label string
}

// Relation is a typed relation: it links a Domain concept to a Range
// concept or literal type (such as "string", "number" or "Date"). Domain
// and Range are concept labels; either may be empty or name a concept that
// is not listed, as in the benchmark's files.
type Relation struct {
	ID     string // Text2KGBench "pid"
	Label  string
	Domain string
	Range  string
}

// Ontology is a Text2KGBench ontology.
type Ontology struct {
	Title     string // e.g. "Company Ontology"
	ID        string // e.g. "ont_7_company"
	Concepts  []Concept
	Relations []Relation
}

// Source is the Info.Source of every format here.
const Source = "Graph Serializations for Reasoning LLMs, appendix H.3; Text2KGBench (Mihindukulasooriya et al., ISWC 2023)"

// Info describes a format.
type Info struct {
	Name     string
	Family   string
	Source   string
	Lossless bool   // always false: no format here keeps concept and relation ids apart from labels
	Loses    string // what the format drops, in words
}

const lossIDs = "concept and relation ids (qid, pid: only labels are written)"

type format struct {
	info   Info
	encode func(w *bufio.Writer, o *Ontology)
}

func formats() []format {
	f := func(name, family string, enc func(*bufio.Writer, *Ontology), loses string) format {
		return format{Info{Name: name, Family: family, Source: Source, Loses: loses}, enc}
	}
	return []format{
		f("turtle", graphtext.FamilySemanticWeb, encTurtle, lossIDs+" and the title"),
		f("jsonld", graphtext.FamilySemanticWeb, encJSONLD, lossIDs+" and the title"),
		f("shacl_lite", graphtext.FamilyConstraint, encSHACL, lossIDs+", the title, relations whose domain is not a listed concept, and the order of relations across domains (relations are grouped by domain)"),
		f("text2kgbench", graphtext.FamilyStructured, encText2KG, lossIDs+", the title, and spaces in relation labels (written _)"),
		f("entity_centric", graphtext.FamilyStructured, encEntityCentric, lossIDs+", the title, and the order of relations across domains (relations are grouped by domain)"),
		f("relation_indexed", graphtext.FamilyStructured, encRelationIndexed, lossIDs+" and the title"),
		f("markdown_table", graphtext.FamilyTabular, encMarkdown, lossIDs+" and the title"),
		f("toon", graphtext.FamilyTabular, encToon, lossIDs+" and the title"),
		f("mermaid", graphtext.FamilyDiagram, encMermaid, lossIDs+", the title, and characters Mermaid class names cannot hold (written _)"),
		f("edge_list", graphtext.FamilyConnect, encEdgeList, lossIDs+" and the title"),
		f("structured", graphtext.FamilyConnect, encStructured, lossIDs+" and the title"),
		f("nl_summary", graphtext.FamilyProse, encNLSummary, lossIDs+" and the title"),
	}
}

func lookup(name string) (format, bool) {
	return registry.Find(formats(), name, func(f format) string { return f.info.Name })
}

// Names returns the 12 format names, in the study's Table 1 family order.
func Names() []string {
	return registry.Map(formats(), func(f format) string { return f.info.Name })
}

// Formats returns the metadata of every format, in the order of Names.
func Formats() []Info {
	return registry.Map(formats(), func(f format) Info { return f.info })
}

// Lookup returns the metadata of the named format.
func Lookup(name string) (Info, bool) {
	f, ok := lookup(name)
	return f.info, ok
}

// Encode writes o to w in the named format.
func Encode(w io.Writer, o *Ontology, format string) error {
	f, ok := lookup(format)
	if !ok {
		return fmt.Errorf("ontology: unknown format %q", format)
	}
	if o == nil {
		o = &Ontology{}
	}
	bw := bufio.NewWriter(w)
	f.encode(bw, o)
	return bw.Flush()
}

// --- loading ---

// MaxFileBytes bounds the size of an ontology file Load reads.
const MaxFileBytes = 64 << 20

type jsonOntology struct {
	Title     string            `json:"title"`
	ID        string            `json:"id"`
	Concepts  []json.RawMessage `json:"concepts"`
	Relations []json.RawMessage `json:"relations"`
}

type jsonConcept struct {
	QID   *string `json:"qid"`
	Label *string `json:"label"`
}

type jsonRelation struct {
	PID    *string `json:"pid"`
	Label  *string `json:"label"`
	Domain *string `json:"domain"`
	Range  *string `json:"range"`
}

// Load reads a Text2KGBench ontology JSON document ({"title", "id",
// "concepts": [{"qid", "label"}], "relations": [{"pid", "label", "domain",
// "range"}]}). Malformed input is an *rdf.ParseError with line and column;
// file names the input in errors.
func Load(r io.Reader, file string) (*Ontology, error) {
	data, over, err := rdferr.Limits{MaxBytes: MaxFileBytes}.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if over {
		return nil, &rdf.ParseError{File: file, Line: 1, Column: 1, Msg: fmt.Sprintf("ontology larger than %d bytes", MaxFileBytes), Err: rdf.ErrLimit}
	}
	perr := func(off int64, msg string) error {
		line, col := rdferr.Position(string(data), int(off))
		return &rdf.ParseError{File: file, Line: line, Column: col, Msg: msg}
	}
	if !utf8.Valid(data) {
		return nil, perr(int64(rdferr.InvalidUTF8(string(data))), "invalid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j jsonOntology
	if err := dec.Decode(&j); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			// Offset counts the offending byte; point at it.
			return nil, perr(max(se.Offset-1, 0), se.Error())
		case errors.As(err, &te):
			return nil, perr(te.Offset, te.Error())
		case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
			return nil, perr(int64(len(data)), "unexpected end of JSON input")
		default:
			off := dec.InputOffset()
			if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
				// Point at the field's key.
				if k := bytes.LastIndex(data[:off], []byte(name)); k >= 0 {
					off = int64(k)
				}
			}
			return nil, perr(off, err.Error())
		}
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		for end < int64(len(data)) && strings.IndexByte(" \t\r\n", data[end]) >= 0 {
			end++
		}
		return nil, perr(end, "text after the ontology object")
	}
	o := &Ontology{Title: j.Title, ID: j.ID}
	// Each element is a verbatim slice of data, in order: find it to
	// report positions.
	cursor := 0
	element := func(raw json.RawMessage, v any, what string, i int) error {
		at := cursor
		if k := bytes.Index(data[cursor:], raw); k >= 0 {
			at = cursor + k
			cursor = at + len(raw)
		}
		d := json.NewDecoder(bytes.NewReader(raw))
		d.DisallowUnknownFields()
		if err := d.Decode(v); err != nil {
			off := int64(at)
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				off += te.Offset
			}
			return perr(off, fmt.Sprintf("%s %d: %v", what, i+1, err))
		}
		return nil
	}
	for i, raw := range j.Concepts {
		var c jsonConcept
		if err := element(raw, &c, "concept", i); err != nil {
			return nil, err
		}
		if c.QID == nil || c.Label == nil {
			return nil, perr(int64(cursor-len(raw)), fmt.Sprintf("concept %d: qid and label are required", i+1))
		}
		o.Concepts = append(o.Concepts, Concept{ID: *c.QID, Label: *c.Label})
	}
	for i, raw := range j.Relations {
		var r jsonRelation
		if err := element(raw, &r, "relation", i); err != nil {
			return nil, err
		}
		if r.PID == nil || r.Label == nil || r.Domain == nil || r.Range == nil {
			return nil, perr(int64(cursor-len(raw)), fmt.Sprintf("relation %d: pid, label, domain and range are required", i+1))
		}
		o.Relations = append(o.Relations, Relation{ID: *r.PID, Label: *r.Label, Domain: *r.Domain, Range: *r.Range})
	}
	return o, nil
}

// LoadFile reads one ontology file.
func LoadFile(path string) (*Ontology, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Load(f, path)
}

// LoadDir reads every *_ontology.json file of a Text2KGBench ontologies
// folder, ordered by the number that starts their names (1_university,
// 2_musicalwork, ..., 19_film).
func LoadDir(dir string) ([]*Ontology, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*_ontology.json"))
	if err != nil {
		return nil, err
	}
	num := func(p string) int {
		n, _ := strconv.Atoi(strings.SplitN(filepath.Base(p), "_", 2)[0])
		return n
	}
	slices.SortFunc(paths, func(a, b string) int {
		if c := num(a) - num(b); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	var out []*Ontology
	for _, p := range paths {
		o, err := LoadFile(p)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}
