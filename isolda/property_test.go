package isolda

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

const (
	sdo  = "http://schema.org/"
	exNS = "http://example.org/"
)

// nasty are literal values that look like parts of the notation.
var nasty = []string{
	"", " ", " lead", "trail ", "plain", "[3] a | b | c", "[x", "@slug", "@", "@@", "a, b", "a|b", "say \"hi\"",
	"{brace}", "}", "line\nbreak", "cr\rlf", "tab\there", "42", "-0.0", "1e5", "ex:foo", "http://example.org/x",
	"_:b1", "node-1", "thing-1", "Thing_", "a:b", "key: value", "p=v", "x>=y", ">", "#comment", "~extra:",
	"Catalunya · Barça", "\u2028sep", "\u0085nel", "日本語", "Occupation[3]{name}:", "id", "a", "\\back\\slash",
	"\"", "''", "null", "true", "é", "Dup Label", "dup-label", "Chief Technology Officer",
}

var langs = []string{"en", "en-GB", "ca", "EN-us", "zh-Hant-TW", "es", "x-private"}

var datatypes = []string{
	rdf.XSD + "int", rdf.XSDInteger, rdf.XSDDecimal, rdf.XSD + "date", rdf.XSDBoolean,
	rdf.XSD + "gYear", "http://example.org/dt#custom", "urn:x:dt", "http://example.org/odd dt",
	rdf.RDFNS + "HTML", "ex:dt",
}

var iris = []string{
	exNS + "a", exNS + "b", exNS + "c", exNS + "d", exNS + "Dup_Label", "http://example.org/path/with space",
	"urn:isbn:0451450523", "http://example.org/x#frag", "relative", "ex:thing", "_:notblank", "http://example.org/",
	"http://example.org/a,b", "http://example.org/q?x=1&y=\"2\"", "mailto:someone@example.org", "@iri",
	"http://example.org/ünïcödé", sdo + "Person", "tag:x:y|z",
}

var preds = []string{
	sdo + "name", sdo + "headline", rdf.RDFSNS + "label", "http://purl.org/dc/terms/title",
	"http://www.w3.org/2004/02/skos/core#prefLabel", sdo + "knows", sdo + "url", sdo + "age", sdo + "a",
	sdo + "id", sdo + "Thing_", exNS + "p", exNS + "q", exNS + "rel-ation", "http://example.org/odd pred",
	"urn:p:1", "http://other.example/ns#int", "http://www.wikidata.org/prop/direct/P1082", sdo + "int",
}

var classes = []string{sdo + "Person", sdo + "Organization", exNS + "Thing", "http://example.org/Odd Class", sdo + "Place", "urn:class:1"}

// genGraph builds a hostile random dataset.
func genGraph(r *rand.Rand, named bool) *rdf.Dataset {
	d := rdf.NewDataset()
	nb := 1 + r.IntN(6)
	node := func() rdf.Term {
		if r.IntN(3) == 0 {
			return rdf.NewBlank("g" + strconv.Itoa(r.IntN(nb)))
		}
		return rdf.NewIRI(iris[r.IntN(len(iris))])
	}
	lit := func() rdf.Term {
		s := nasty[r.IntN(len(nasty))]
		switch r.IntN(4) {
		case 0:
			t := rdf.NewLangString(s, langs[r.IntN(len(langs))])
			if r.IntN(5) == 0 {
				t.Dir, t.Datatype = "rtl", rdf.RDFDirLangString
			}
			return t
		case 1:
			dts := []string{"abc", "01", "2020-13-45", "1.50", s}
			return rdf.NewLiteral(dts[r.IntN(len(dts))], datatypes[r.IntN(len(datatypes))])
		}
		return rdf.NewString(s)
	}
	graph := func() rdf.Term {
		if !named || r.IntN(2) == 0 {
			return rdf.Term{}
		}
		if r.IntN(2) == 0 {
			return rdf.NewBlank("g" + strconv.Itoa(r.IntN(nb)))
		}
		return rdf.NewIRI(iris[r.IntN(len(iris))])
	}
	n := 1 + r.IntN(25)
	for i := 0; i < n; i++ {
		s, g := node(), graph()
		switch r.IntN(7) {
		case 0:
			d.Add(rdf.Quad{S: s, P: rdf.NewIRI(rdf.RDFType), O: rdf.NewIRI(classes[r.IntN(len(classes))]), G: g})
		case 1:
			d.Add(rdf.Quad{S: s, P: rdf.NewIRI(preds[r.IntN(5)]), O: lit(), G: g})
		case 2:
			d.Add(rdf.Quad{S: s, P: rdf.NewIRI(preds[r.IntN(len(preds))]), O: node(), G: g})
		case 3:
			d.Add(rdf.Quad{S: s, P: rdf.NewIRI(preds[r.IntN(len(preds))]), O: s, G: g}) // self-link
		case 4:
			// An RDF list of two items.
			l1, l2 := rdf.NewBlank("l"+strconv.Itoa(i)+"a"), rdf.NewBlank("l"+strconv.Itoa(i)+"b")
			d.Add(rdf.Quad{S: s, P: rdf.NewIRI(exNS + "list"), O: l1, G: g})
			d.Add(rdf.Quad{S: l1, P: rdf.NewIRI(rdf.RDFFirst), O: lit(), G: g})
			d.Add(rdf.Quad{S: l1, P: rdf.NewIRI(rdf.RDFRest), O: l2, G: g})
			d.Add(rdf.Quad{S: l2, P: rdf.NewIRI(rdf.RDFFirst), O: node(), G: g})
			d.Add(rdf.Quad{S: l2, P: rdf.NewIRI(rdf.RDFRest), O: rdf.NewIRI(rdf.RDFNil), G: g})
		case 5:
			d.Add(rdf.Quad{S: s, P: rdf.NewIRI(rdf.RDFType), O: node(), G: g}) // type that is a node
		default:
			d.Add(rdf.Quad{S: s, P: rdf.NewIRI(preds[r.IntN(len(preds))]), O: lit(), G: g})
		}
	}
	if r.IntN(3) == 0 {
		d.Prefixes = append(d.Prefixes, rdf.Prefix{Name: "http", IRI: exNS}, rdf.Prefix{Name: "my", IRI: "urn:isbn:"})
	}
	return d
}

// TestHostileRoundTrip encodes random hostile datasets under both versions
// and requires isomorphic round trips and order-independent output.
func TestHostileRoundTrip(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	fails := 0
	for seed := 0; seed < n; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 42))
		d := genGraph(r, seed%2 == 1)
		for _, v := range versions {
			text, err, iso := roundTrip(t, d, Options{Version: v})
			if err != nil || !iso {
				fails++
				if fails < 4 {
					var nq strings.Builder
					for _, q := range d.Sorted() {
						nq.WriteString(q.String() + "\n")
					}
					t.Errorf("seed %d version %s: err=%v iso=%v\ninput:\n%s\noutput:\n%s", seed, v, err, iso, nq.String(), text)
				}
				continue
			}
			if again := encodeString(t, shuffled(d, uint64(seed)+1), Options{Version: v}); again != text {
				fails++
				if fails < 4 {
					t.Errorf("seed %d version %s: not deterministic:\n%s\n---\n%s", seed, v, text, again)
				}
			}
		}
	}
	msg := fmt.Sprintf("hostile graphs: %d datasets x %d versions, %d failures", n, len(versions), fails)
	t.Log(msg)
}

var childSeed = flag.Int("isolda.childseed", -1, "internal: print the encoding of a shuffled test graph")

// TestDeterminismAcrossProcesses runs the test binary again in child
// processes, each encoding its own shuffle of the same graphs, and compares
// the bytes with this process's output.
func TestDeterminismAcrossProcesses(t *testing.T) {
	if *childSeed >= 0 {
		return
	}
	want := childOutput(0)
	for _, seed := range []int{11, 12} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestChildEncode$", "-isolda.childseed="+strconv.Itoa(seed))
		cmd.Env = append(os.Environ(), "ISOLDA_CHILD=1")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("child process: %v", err)
		}
		got, _, _ := strings.Cut(string(out), "\x00END\x00")
		if got != want {
			t.Fatalf("child process with shuffle %d wrote different bytes (%d vs %d)", seed, len(got), len(want))
		}
	}
	msg := fmt.Sprintf("determinism across processes: 2 child processes, %d bytes identical", len(want))
	t.Log(msg)
}

// TestChildEncode is the child side of TestDeterminismAcrossProcesses.
func TestChildEncode(t *testing.T) {
	if *childSeed < 0 || os.Getenv("ISOLDA_CHILD") == "" {
		return
	}
	fmt.Print(childOutput(*childSeed) + "\x00END\x00")
}

func childOutput(shuffle int) string {
	var b strings.Builder
	for seed := 0; seed < 40; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		d := genGraph(r, true)
		if shuffle > 0 {
			d = shuffled(d, uint64(shuffle*1000+seed))
		}
		for _, v := range versions {
			if err := Encode(&b, d, Options{Version: v}); err != nil {
				b.WriteString("error: " + err.Error())
			}
		}
	}
	return b.String()
}
