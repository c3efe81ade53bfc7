// Package w3c loads the W3C RDF test-suite manifests (Turtle manifests using
// the mf: and rdft: vocabularies) kept in the shared conformance folder, so
// every conformance test in the project walks the suites the same way.
//
// Base IRIs come from the folder's bases.tsv: a manifest is parsed with its
// published URL as base, and every IRI of a test file is mapped back to a
// local path by the longest matching prefix in bases.tsv.
package w3c

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/ntriples"
	"github.com/isolda/isolda/rdf/turtle"
)

// Vocabulary IRIs used in the manifests.
const (
	MF   = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#"
	RDFT = "http://www.w3.org/ns/rdftest#"
	RDFC = "https://w3c.github.io/rdf-canon/tests/vocab#"
	RDFS = "http://www.w3.org/2000/01/rdf-schema#"
)

// Test is one entry of a manifest.
type Test struct {
	ID        string // the test's IRI
	Name      string // mf:name
	Type      string // local name of its test type, e.g. "TestTurtleEval", "RDFC10EvalTest"
	TypeIRI   string // the full type IRI
	Comment   string // rdfs:comment
	Action    string // local path of mf:action ("" if none)
	ActionIRI string // published URL of mf:action: the base IRI for parsing it
	Result    string // local path of mf:result ("" if none)
	ResultIRI string // published URL of mf:result
	Approval  string // local name of rdft:approval ("Approved", "Proposed") or ""
	Manifest  string // local path of the manifest that lists the test
	Suite     string // the bases.tsv folder of that manifest without "/", e.g. "turtle"
	// Extra holds the test's other properties by predicate IRI (IRIs as
	// IRIs, literals as their lexical form), values sorted.
	Extra map[string][]string
}

// Negative reports whether the test expects the input to be rejected.
func (t Test) Negative() bool {
	return strings.Contains(t.Type, "Negative")
}

// Base is one line of bases.tsv: a published IRI prefix and its local folder.
type Base struct {
	IRI    string
	Folder string // absolute local path, ending in a path separator
}

// ReadResult reads the expected result of a test: an N-Quads file when its
// name ends in ".nq", else N-Triples. The file name given to the reader,
// for its errors, is the path's base name.
func ReadResult(path string) (*rdf.Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	syn := ntriples.NTriples
	if strings.HasSuffix(path, ".nq") {
		syn = ntriples.NQuads
	}
	d := rdf.NewDataset()
	err = ntriples.Parse(bufio.NewReader(f), syn, d, rdf.ReadOptions{File: filepath.Base(path)})
	return d, err
}

// Bases reads bases.tsv from the conformance folder dir.
func Bases(dir string) ([]Base, error) {
	f, err := os.Open(filepath.Join(dir, "bases.tsv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Base
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		iri, folder, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("bases.tsv: bad line %q", line)
		}
		abs, err := filepath.Abs(filepath.Join(dir, folder))
		if err != nil {
			return nil, err
		}
		out = append(out, Base{IRI: iri, Folder: abs + string(filepath.Separator)})
	}
	return out, sc.Err()
}

// LocalPath maps a published IRI to a local path by the longest matching
// prefix; ok is false when no prefix matches.
func LocalPath(bases []Base, iri string) (string, bool) {
	best := longestPrefix(bases, iri, func(b Base) string { return b.IRI })
	if best < 0 {
		return "", false
	}
	rest := iri[len(bases[best].IRI):]
	if i := strings.IndexAny(rest, "#?"); i >= 0 {
		rest = rest[:i]
	}
	return filepath.Join(bases[best].Folder, filepath.FromSlash(rest)), true
}

// PublishedIRI maps a local path to its published IRI by the longest
// matching folder; ok is false when the path is outside every folder.
func PublishedIRI(bases []Base, path string) (string, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", false
	}
	best := longestPrefix(bases, abs, func(b Base) string { return b.Folder })
	if best < 0 {
		return "", false
	}
	return bases[best].IRI + filepath.ToSlash(abs[len(bases[best].Folder):]), true
}

// longestPrefix returns the index of the base whose key (its IRI or its
// folder) is the longest prefix of s (the first of equals), or -1.
func longestPrefix(bases []Base, s string, key func(Base) string) int {
	best := -1
	for i, b := range bases {
		if strings.HasPrefix(s, key(b)) && (best < 0 || len(key(b)) > len(key(bases[best]))) {
			best = i
		}
	}
	return best
}

// findConformanceDir returns the nearest folder above path holding bases.tsv.
func findConformanceDir(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "bases.tsv")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("w3c: no bases.tsv above " + path)
		}
	}
}

// Options changes how Load walks manifests.
type Options struct {
	// FollowExternal follows mf:include links to manifests outside the
	// including manifest's suite folder (such as the RDF 1.2 Turtle
	// manifest's include of the RDF 1.1 suite). By default they are skipped,
	// so each suite is counted once.
	FollowExternal bool
}

// Load reads the manifest at manifestPath (a Turtle file inside a folder
// listed in bases.tsv) and returns its tests in mf:entries order, followed
// by those of the manifests it includes with mf:include (in order, each
// once), skipping includes that leave the suite folder.
func Load(manifestPath string) ([]Test, error) {
	return LoadWith(manifestPath, Options{})
}

// LoadWith is Load with options.
func LoadWith(manifestPath string, opts Options) ([]Test, error) {
	if strings.HasSuffix(manifestPath, ".jsonld") {
		return nil, errors.New("w3c: " + manifestPath + ": JSON-LD manifests are not supported (only Turtle manifests)")
	}
	dir, err := findConformanceDir(manifestPath)
	if err != nil {
		return nil, err
	}
	bases, err := Bases(dir)
	if err != nil {
		return nil, err
	}
	l := &loader{bases: bases, opts: opts, seen: map[string]bool{}}
	if err := l.load(manifestPath, ""); err != nil {
		return nil, err
	}
	return l.tests, nil
}

type loader struct {
	bases []Base
	opts  Options
	seen  map[string]bool
	tests []Test
}

func (l *loader) suiteOf(path string) string {
	abs, _ := filepath.Abs(path)
	if i := longestPrefix(l.bases, abs, func(b Base) string { return b.Folder }); i >= 0 {
		return l.bases[i].Folder
	}
	return ""
}

func (l *loader) load(path, suiteFolder string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if l.seen[abs] {
		return nil
	}
	l.seen[abs] = true
	base, ok := PublishedIRI(l.bases, abs)
	if !ok {
		return fmt.Errorf("w3c: %s is outside the folders of bases.tsv", path)
	}
	folder := l.suiteOf(abs)
	if suiteFolder == "" {
		suiteFolder = folder
	}
	f, err := os.Open(abs)
	if err != nil {
		return err
	}
	defer f.Close()
	d := rdf.NewDataset()
	if err := turtle.Parse(bufio.NewReader(f), turtle.Turtle, d, rdf.ReadOptions{File: path, Base: base}); err != nil {
		return err
	}
	g := newGraph(d)
	// The manifest node: the subject typed mf:Manifest (prefer the one
	// named by the file's own IRI).
	var manifests []rdf.Term
	for _, q := range d.Quads() {
		if q.P.Value == rdf.RDFType && q.O.Value == MF+"Manifest" {
			manifests = append(manifests, q.S)
		}
	}
	if len(manifests) == 0 {
		return fmt.Errorf("w3c: %s has no mf:Manifest", path)
	}
	slices.SortFunc(manifests, rdf.Compare)
	m := manifests[0]
	for _, c := range manifests {
		if c.Value == base {
			m = c
		}
	}
	suite := strings.TrimSuffix(filepath.Base(strings.TrimSuffix(folder, string(filepath.Separator))), "/")
	for _, e := range g.listAll(g.objects(m, MF+"entries")) {
		t, err := l.test(g, e, abs, suite)
		if err != nil {
			return err
		}
		l.tests = append(l.tests, t)
	}
	for _, inc := range g.listAll(g.objects(m, MF+"include")) {
		local, ok := LocalPath(l.bases, inc.Value)
		if !ok {
			return fmt.Errorf("w3c: %s: cannot map include %s to a local file", path, inc.Value)
		}
		if l.suiteOf(local) != suiteFolder && !l.opts.FollowExternal {
			continue
		}
		if err := l.load(local, suiteFolder); err != nil {
			return err
		}
	}
	return nil
}

func localName(iri string) string {
	if i := strings.LastIndexAny(iri, "#/"); i >= 0 {
		return iri[i+1:]
	}
	return iri
}

func (l *loader) test(g *graph, e rdf.Term, manifest, suite string) (Test, error) {
	t := Test{ID: e.Value, Manifest: manifest, Suite: suite, Extra: map[string][]string{}}
	for _, pv := range g.props(e) {
		p, o := pv.p, pv.o
		switch p {
		case rdf.RDFType:
			// Prefer a type from a test vocabulary.
			if t.TypeIRI == "" || strings.HasPrefix(o.Value, RDFT) || strings.HasPrefix(o.Value, RDFC) {
				t.TypeIRI = o.Value
			}
		case MF + "name":
			t.Name = o.Value
		case RDFS + "comment":
			t.Comment = o.Value
		case MF + "action":
			t.ActionIRI = o.Value
		case MF + "result":
			t.ResultIRI = o.Value
		case RDFT + "approval":
			t.Approval = localName(o.Value)
		default:
			t.Extra[p] = append(t.Extra[p], o.Value)
		}
	}
	t.Type = localName(t.TypeIRI)
	if t.ActionIRI != "" {
		p, ok := LocalPath(l.bases, t.ActionIRI)
		if !ok {
			return t, fmt.Errorf("w3c: test %s: cannot map action %s to a local file", t.ID, t.ActionIRI)
		}
		t.Action = p
	}
	if t.ResultIRI != "" {
		p, ok := LocalPath(l.bases, t.ResultIRI)
		if !ok {
			return t, fmt.Errorf("w3c: test %s: cannot map result %s to a local file", t.ID, t.ResultIRI)
		}
		t.Result = p
	}
	for k := range t.Extra {
		slices.Sort(t.Extra[k])
	}
	return t, nil
}

// graph is a small subject index over a manifest's dataset.
type graph struct {
	d   *rdf.Dataset
	ix  *rdf.Index
	ids []rdf.IDQuad
}

type propValue struct {
	p string
	o rdf.Term
}

func newGraph(d *rdf.Dataset) *graph {
	return &graph{d: d, ix: rdf.NewIndex(d), ids: d.IDQuads()}
}

// props returns the (predicate, object) pairs of s, sorted.
func (g *graph) props(s rdf.Term) []propValue {
	id, ok := g.d.Lookup(s)
	if !ok {
		return nil
	}
	var out []propValue
	for _, i := range g.ix.BySubject[id] {
		q := g.d.Quad(g.ids[i])
		out = append(out, propValue{q.P.Value, q.O})
	}
	slices.SortFunc(out, func(a, b propValue) int {
		if c := strings.Compare(a.p, b.p); c != 0 {
			return c
		}
		return rdf.Compare(a.o, b.o)
	})
	return out
}

func (g *graph) objects(s rdf.Term, p string) []rdf.Term {
	var out []rdf.Term
	for _, pv := range g.props(s) {
		if pv.p == p {
			out = append(out, pv.o)
		}
	}
	return out
}

// listAll returns the members of the RDF lists heads, in order.
func (g *graph) listAll(heads []rdf.Term) []rdf.Term {
	var out []rdf.Term
	for _, h := range heads {
		seen := map[rdf.Term]bool{}
		for h.Value != rdf.RDFNil && !seen[h] {
			seen[h] = true
			first := g.objects(h, rdf.RDFFirst)
			rest := g.objects(h, rdf.RDFRest)
			if len(first) != 1 || len(rest) != 1 {
				break
			}
			out = append(out, first[0])
			h = rest[0]
		}
	}
	return out
}
