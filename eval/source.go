package eval

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/formats/ontology"
	"github.com/isolda/isolda/graph"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/task"
	"github.com/isolda/isolda/task/kg"
)

// source is one graph of an experiment: a graph file (one item, id "") or
// a collection (one item per context of its set).
type source struct {
	name       string
	collection bool
	items      []*item
	byID       map[string]*item
}

// item is one graph arms render.
type item struct {
	id string
	in *formats.Input
	// d is the RDF dataset; nil for a labelled graph or an ontology.
	d *rdf.Dataset
	// sha1 is kg.DatasetSHA1 of a graph file, or the SHA-1 of an item's
	// stored text.
	sha1 string
}

// loadSource reads a graph file or a collection.
func loadSource(g Graph, baseDir string) (*source, error) {
	src := &source{name: g.GraphName(), byID: map[string]*item{}}
	if g.File != "" {
		path := resolvePath(baseDir, g.File)
		d, err := rdfio.ReadFile(path, nil, rdfio.Options{ReadOptions: rdf.ReadOptions{File: path}})
		if err != nil {
			return nil, fmt.Errorf("graph %s: %w", src.name, err)
		}
		it := &item{in: formats.NewInput(d), d: d, sha1: kg.DatasetSHA1(d)}
		src.items, src.byID[""] = []*item{it}, it
		return src, nil
	}
	src.collection = true
	set, err := readSet(baseDir, g.Set)
	if err != nil {
		return nil, fmt.Errorf("graph %s: %w", src.name, err)
	}
	if len(set.Contexts) == 0 {
		return nil, fmt.Errorf("graph %s: %s has no contexts (items)", src.name, g.Set)
	}
	path := resolvePath(baseDir, g.Set)
	for _, c := range set.Contexts {
		if c.Text == "" {
			return nil, fmt.Errorf("graph %s: item %s has no stored text", src.name, c.ID)
		}
		it, err := readItem(g.Syntax, c.Text, path+"#"+c.ID)
		if err != nil {
			return nil, fmt.Errorf("graph %s: item %s: %w", src.name, c.ID, err)
		}
		it.id, it.sha1 = c.ID, c.SHA1
		src.items = append(src.items, it)
		src.byID[c.ID] = it
	}
	return src, nil
}

// readItem reads one item's text in a collection's syntax.
func readItem(syntax, text, file string) (*item, error) {
	if syntax == SyntaxOntology {
		o, err := ontology.Load(strings.NewReader(text), file)
		if err != nil {
			return nil, err
		}
		return &item{in: formats.NewOntologyInput(o)}, nil
	}
	if f, err := rdfio.ParseFormat(syntax); err == nil {
		d, err := rdfio.Read(strings.NewReader(text), rdfio.Options{Format: f, ReadOptions: rdf.ReadOptions{File: file}})
		if err != nil {
			return nil, err
		}
		return &item{in: formats.NewInput(d), d: d}, nil
	}
	f, ok := formats.Get(syntax)
	switch {
	case !ok:
		return nil, fmt.Errorf("unknown syntax %q", syntax)
	case f.Decode != nil:
		d, err := f.Decode(strings.NewReader(text))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return &item{in: formats.NewInput(d), d: d}, nil
	case f.DecodeGraph != nil:
		g, err := f.DecodeGraph(strings.NewReader(text))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return &item{in: formats.NewGraphInput(g)}, nil
	}
	return nil, fmt.Errorf("format %s has no decoder", syntax)
}

// readSet reads a frozen set relative to baseDir, through gzip when its
// name ends in .gz. Errors name the file.
func readSet(baseDir, name string) (*task.Set, error) {
	path := resolvePath(baseDir, name)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	set, err := task.ReadFrozen(r)
	if err != nil {
		if pe, ok := err.(*rdf.ParseError); ok && pe.File == "" {
			pe.File = path
			return nil, pe
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return set, nil
}

// roundTrip decodes a context of a lossless format and compares it with
// its item: an RDF dataset (isomorphism; the crop for an ISOLDA document
// cropped to hops around an anchor), or the nodes and edges of a labelled
// graph.
func roundTrip(f formats.Format, text string, it *item, opts isolda.Options) (string, string) {
	if f.Decode != nil {
		if it.d == nil {
			return RoundTripDiffers, "the item is not an RDF graph"
		}
		want := it.d
		if isISOLDA(f.Name) && opts.Hops > 0 {
			c, err := isolda.Crop(it.d, opts)
			if err != nil {
				return RoundTripDiffers, "crop: " + err.Error()
			}
			want = c
		}
		got, err := f.Decode(strings.NewReader(text))
		if err != nil {
			return RoundTripDecodeError, err.Error()
		}
		ok, err := canon.Isomorphic(want, got)
		switch {
		case err != nil:
			return RoundTripDiffers, "isomorphism check: " + err.Error()
		case !ok:
			return RoundTripDiffers, fmt.Sprintf("decoded %d statements, the graph has %d; not isomorphic", got.Len(), want.Len())
		}
		return RoundTripIsomorphic, ""
	}
	got, err := f.DecodeGraph(strings.NewReader(text))
	if err != nil {
		return RoundTripDecodeError, err.Error()
	}
	want := it.in.Graph()
	if d := graph.SameRecords(want, got); d != "" {
		return RoundTripDiffers, d
	}
	return RoundTripIsomorphic, ""
}

// InputFiles returns the paths of the files PrepareWith reads for e
// (graphs, collections, question sets, stored contexts), resolved against
// baseDir, sorted, each once. With the experiment itself they are
// everything a plan is made of, apart from the tokenizers of budgets.
func (e *Experiment) InputFiles(baseDir string) []string {
	var out []string
	add := func(name string) {
		if name != "" {
			out = append(out, resolvePath(baseDir, name))
		}
	}
	for _, g := range e.Graphs {
		add(g.File)
		add(g.Set)
	}
	for _, t := range e.Tasks {
		add(t.Set)
	}
	for _, a := range e.Arms {
		add(a.Stored)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// HasBudget reports whether e cuts a context to a token budget (whose
// tokenizer then shapes the plan).
func (e *Experiment) HasBudget() bool {
	if e.Budget != nil {
		return true
	}
	for _, a := range e.Arms {
		if a.Budget != nil {
			return true
		}
	}
	return false
}
