// Package synth generates synthetic knowledge graphs of any size for scale
// tests: N-Triples streamed to an io.Writer in constant memory, with the
// shape of real entity graphs. Entities have a class (few classes, skewed
// frequencies), labels (some in two languages), typed literals (dates,
// integers, decimals, text with escapes), blank-node addresses, and links
// to other entities whose popularity follows a Zipf law, so that a few
// hubs gather most incoming links while out-degrees are skewed too.
//
// The output is a function of Options alone: the same seed gives the same
// bytes (for the same Go release, whose math/rand/v2 generators are
// fixed).
package synth

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
)

// Namespaces of the generated graph.
const (
	// NS is the namespace of the entities, classes and properties.
	NS        = "http://example.org/synth/"
	schemaNS  = "http://schema.org/"
	rdfType   = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
	rdfsLabel = "http://www.w3.org/2000/01/rdf-schema#label"
	rdfsClass = "http://www.w3.org/2000/01/rdf-schema#Class"
	xsd       = "http://www.w3.org/2001/XMLSchema#"
)

// Options configure a graph.
type Options struct {
	// Triples is the exact number of statements to write.
	Triples int64
	// Seed selects the graph; equal seeds give equal graphs.
	Seed uint64
}

// class is an entity class: its name, its share of the entities (a
// weight), the literal properties its entities get and the link
// properties they use.
type class struct {
	name  string
	share int
	lits  []string
	links []string
}

// classes are the entity classes, in the order of the weights.
var classes = []class{
	{"Person", 30, []string{"birthDate", "height", "description"}, []string{"knows", "worksFor", "birthPlace"}},
	{"CreativeWork", 25, []string{"datePublished", "wordCount", "description"}, []string{"author", "about", "publisher"}},
	{"Place", 15, []string{"population", "elevation"}, []string{"containedIn", "sameAs"}},
	{"Organization", 12, []string{"foundingDate", "employees", "description"}, []string{"location", "parentOrganization", "member"}},
	{"Event", 8, []string{"startDate", "attendees"}, []string{"location", "organizer", "about"}},
	{"Product", 6, []string{"price", "releaseDate"}, []string{"manufacturer", "isRelatedTo"}},
	{"Concept", 4, []string{"description"}, []string{"broader", "related"}},
}

// Syllables from which labels are made.
var syllables = []string{"ka", "lo", "mi", "ne", "ra", "to", "vi", "su", "den", "mar", "el", "an",
	"bor", "cy", "dra", "fen", "gal", "hu", "is", "jor", "qu", "sto", "ul", "wen", "xa", "ze"}

// langs are the languages of second labels.
var langs = []string{"de", "fr", "es", "it", "el", "ja"}

// avgStatements estimates the statements per entity; it sizes the pool
// of link targets so that most links point at entities that exist.
const avgStatements = 8

// Write streams a graph of exactly opts.Triples statements as N-Triples to
// w: first the classes (each typed rdfs:Class, with a label), then the
// entities one after another, each with all its statements (the last one
// cut at the count). It returns the first write error.
func Write(w io.Writer, opts Options) error {
	g := newGen(w, opts)
	g.run()
	if g.err != nil {
		return g.err
	}
	return g.w.Flush()
}

type gen struct {
	w        *bufio.Writer
	rnd      *rand.Rand
	left     int64  // statements still to write
	entities uint64 // size of the pool of link targets
	target   *rand.Zipf
	degree   *rand.Zipf
	blanks   int64
	line     []byte
	seen     []link // the links of the current entity
	err      error
}

func newGen(w io.Writer, opts Options) *gen {
	rnd := rand.New(rand.NewPCG(opts.Seed, 0x9e3779b97f4a7c15))
	ents := uint64(max(opts.Triples/avgStatements, 1))
	return &gen{
		w:        bufio.NewWriterSize(w, 256<<10),
		rnd:      rnd,
		left:     max(opts.Triples, 0),
		entities: ents,
		target:   rand.NewZipf(rnd, 1.2, 4, ents-1),
		degree:   rand.NewZipf(rnd, 2.2, 1, 200),
	}
}

// done reports whether every statement has been written (or writing
// failed).
func (g *gen) done() bool { return g.left <= 0 || g.err != nil }

// emit writes the statement held in g.line (without " .\n").
func (g *gen) emit() {
	if g.done() {
		return
	}
	g.line = append(g.line, " .\n"...)
	if _, err := g.w.Write(g.line); err != nil {
		g.err = err
	}
	g.left--
}

// The appendX methods add one term and a space to g.line.

func (g *gen) iri(ns, local string) {
	g.line = append(g.line, '<')
	g.line = append(g.line, ns...)
	g.line = append(g.line, local...)
	g.line = append(g.line, "> "...)
}

func (g *gen) entity(id uint64) {
	g.line = append(g.line, '<')
	g.line = append(g.line, NS...)
	g.line = append(g.line, 'e')
	g.line = strconv.AppendUint(g.line, id, 10)
	g.line = append(g.line, "> "...)
}

func (g *gen) blank(n int64) {
	g.line = append(g.line, "_:b"...)
	g.line = strconv.AppendInt(g.line, n, 10)
	g.line = append(g.line, ' ')
}

// literal appends a quoted literal with escapes as N-Triples needs them,
// then a language tag or a datatype.
func (g *gen) literal(s, lang, datatype string) {
	g.line = append(g.line, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			g.line = append(g.line, '\\', c)
		case '\n':
			g.line = append(g.line, '\\', 'n')
		default:
			g.line = append(g.line, c)
		}
	}
	g.line = append(g.line, '"')
	switch {
	case lang != "":
		g.line = append(g.line, '@')
		g.line = append(g.line, lang...)
	case datatype != "":
		g.line = append(g.line, "^^<"...)
		g.line = append(g.line, xsd...)
		g.line = append(g.line, datatype...)
		g.line = append(g.line, '>')
	}
}

func (g *gen) start() { g.line = g.line[:0] }

func (g *gen) run() {
	for _, c := range classes {
		g.start()
		g.iri(NS, c.name)
		g.iri(rdfType, "")
		g.iri(rdfsClass, "")
		g.line = g.line[:len(g.line)-1]
		g.emit()
		g.start()
		g.iri(NS, c.name)
		g.iri(rdfsLabel, "")
		g.literal(c.name, "en", "")
		g.emit()
	}
	total := 0
	for _, c := range classes {
		total += c.share
	}
	for id := uint64(0); !g.done(); id++ {
		k := g.rnd.IntN(total)
		ci := 0
		for k >= classes[ci].share {
			k -= classes[ci].share
			ci++
		}
		g.entityStatements(id, &classes[ci])
	}
}

// name returns a pronounceable name of two to four syllables.
func (g *gen) name() string {
	n := 2 + g.rnd.IntN(3)
	b := make([]byte, 0, 16)
	for i := 0; i < n; i++ {
		b = append(b, syllables[g.rnd.IntN(len(syllables))]...)
	}
	b[0] -= 'a' - 'A'
	return string(b)
}

// subject starts a statement about entity id with predicate p.
func (g *gen) subject(id uint64, ns, p string) {
	g.start()
	g.entity(id)
	g.iri(ns, p)
}

func (g *gen) entityStatements(id uint64, c *class) {
	g.subject(id, rdfType, "")
	g.iri(NS, c.name)
	g.line = g.line[:len(g.line)-1]
	g.emit()
	label := g.name() + " " + g.name()
	g.subject(id, schemaNS, "name")
	g.literal(label, "", "")
	g.emit()
	if g.rnd.IntN(10) < 3 {
		g.subject(id, rdfsLabel, "")
		g.literal(label+" ("+g.name()+")", langs[g.rnd.IntN(len(langs))], "")
		g.emit()
	}
	for _, p := range c.lits {
		if g.rnd.IntN(10) < 2 {
			continue // a missing value
		}
		g.subject(id, NS, p)
		g.value(p)
		g.emit()
	}
	links := 1 + int(g.degree.Uint64())
	g.seen = g.seen[:0]
	for range links {
		p := c.links[g.rnd.IntN(len(c.links))]
		t, ok := g.linkTarget(id, p)
		if !ok {
			continue
		}
		g.subject(id, NS, p)
		g.entity(t)
		g.line = g.line[:len(g.line)-1]
		g.emit()
	}
	if c.name == "Person" || c.name == "Organization" {
		if g.rnd.IntN(10) < 4 {
			g.address(id)
		}
	}
}

// linkTarget draws the target of a link from entity id with property p:
// a Zipf rank scattered over the ids (a multiplicative permutation modulo
// the pool size when it is coprime), so that hubs are not all at the
// start. It gives up (ok false) after a few draws that hit id itself or
// repeat a link of this entity: a graph is a set of statements.
func (g *gen) linkTarget(id uint64, p string) (uint64, bool) {
	for range 4 {
		t := g.target.Uint64()
		if g.entities > 1 && gcd(0x9E3779B1, g.entities) == 1 {
			t = t * 0x9E3779B1 % g.entities
		}
		if t == id || slices.Contains(g.seen, link{p, t}) {
			continue
		}
		g.seen = append(g.seen, link{p, t})
		return t, true
	}
	return 0, false
}

// link is a link of the current entity, to avoid repeating one.
type link struct {
	p string
	t uint64
}

// address writes a blank-node postal address of entity id.
func (g *gen) address(id uint64) {
	b := g.blanks
	g.blanks++
	g.subject(id, schemaNS, "address")
	g.blank(b)
	g.line = g.line[:len(g.line)-1]
	g.emit()
	g.start()
	g.blank(b)
	g.iri(rdfType, "")
	g.iri(schemaNS, "PostalAddress")
	g.line = g.line[:len(g.line)-1]
	g.emit()
	g.start()
	g.blank(b)
	g.iri(schemaNS, "streetAddress")
	g.literal(strconv.Itoa(1+g.rnd.IntN(200))+" "+g.name()+" Street", "", "")
	g.emit()
	g.start()
	g.blank(b)
	g.iri(schemaNS, "postalCode")
	g.literal(fmt.Sprintf("%05d", g.rnd.IntN(100000)), "", "")
	g.emit()
}

// value appends a literal for a literal property.
func (g *gen) value(p string) {
	switch p {
	case "birthDate", "datePublished", "foundingDate", "startDate", "releaseDate":
		g.literal(fmt.Sprintf("%04d-%02d-%02d", 1700+g.rnd.IntN(325), 1+g.rnd.IntN(12), 1+g.rnd.IntN(28)), "", "date")
	case "height", "price":
		g.literal(fmt.Sprintf("%d.%02d", g.rnd.IntN(300), g.rnd.IntN(100)), "", "decimal")
	case "description":
		s := "A " + g.name() + " of " + g.name()
		switch g.rnd.IntN(20) {
		case 0:
			s += ", called \"" + g.name() + "\""
		case 1:
			s += ";\nsee also " + g.name()
		case 2:
			s += " — " + "Ωμέγα" // non-ASCII text
		}
		g.literal(s, "en", "")
	default:
		g.literal(strconv.Itoa(g.rnd.IntN(1_000_000)), "", "integer")
	}
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
