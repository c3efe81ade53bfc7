// Package sample cuts an RDF dataset to a token budget the way the ISOLDA
// paper cut its held-out graphs (§4.1): "the longest prefix of units
// (datasets, groups of municipalities, writers) whose largest context
// among all the formats fits in 20,000 o200k tokens".
//
// # Units
//
// A unit is an entity of a class (a subject of an rdf:type triple whose
// object is the class, in any graph) with what belongs to it: its own
// statements, and the statements of every node only it reaches. A node is
// reached from a unit when a statement of the unit, or of a node reached
// from it, names the node as object, predicate or graph; blank nodes and
// IRIs alike, but never through another unit. A node reached from exactly
// one unit belongs to that unit (its blank nodes, the entities only it
// references); a node reached from two or more units is shared, and so is
// every node reached from a shared node. A sample of k units holds the
// statements of those k units, of the nodes that belong to them, and of the
// shared nodes they reach (a publisher that several datasets name, a class
// or property with its label). Statements of nodes that no unit reaches
// are in no sample.
//
// # Order
//
// Units are taken in a documented, input-independent order: IRIs in
// code-point order of the IRI, then blank nodes in the order their first
// statement appears in the input (blank node labels carry no meaning to
// sort by). Statements keep the input's order.
//
// # The cut
//
// Cut encodes a prefix in every format, counts each text with the
// tokenizer and keeps the longest prefix whose largest count is at most the
// budget. It searches by doubling and then halving, which assumes that a
// longer prefix is never smaller (adding statements does not shrink any of
// the lab's encodings in practice); whatever the search, the answer k is
// checked exactly: prefix k fits and prefix k+1 does not (or k is every
// unit).
package sample

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/token"
)

// rdfType is rdf:type.
const rdfType = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"

// shared marks a node reached from more than one unit.
const shared = -2

// Units is a dataset split into the units of a class.
type Units struct {
	d     *rdf.Dataset
	units []rdf.TermID
	// owner[id] is the index of the unit a node belongs to, shared, or
	// -1 when no unit reaches it.
	owner []int
	// own[i] are the nodes of unit i (the unit first), sharedRefs[i] the
	// shared nodes they name.
	own        [][]rdf.TermID
	sharedRefs [][]rdf.TermID
	// bySubject[id] are the positions in d.IDQuads() of id's statements.
	bySubject [][]int32
	// sharedNext[id] are the nodes a shared node names.
	sharedNext map[rdf.TermID][]rdf.TermID
}

// Split finds the units of class in d (see the package documentation). It
// fails when class has no entity.
func Split(d *rdf.Dataset, class string) (*Units, error) {
	u := &Units{d: d, owner: make([]int, d.NumTerms()+1), sharedNext: map[rdf.TermID][]rdf.TermID{}}
	u.bySubject = make([][]int32, d.NumTerms()+1)
	quads := d.IDQuads()
	typeID, okType := d.Lookup(rdf.NewIRI(rdfType))
	classID, okClass := d.Lookup(rdf.NewIRI(class))
	isUnit := make([]bool, d.NumTerms()+1)
	var iris, blanks []rdf.TermID
	for i, q := range quads {
		u.bySubject[q[0]] = append(u.bySubject[q[0]], int32(i))
		if okType && okClass && q[1] == typeID && q[2] == classID && !isUnit[q[0]] {
			isUnit[q[0]] = true
			if d.Term(q[0]).IsBlank() {
				blanks = append(blanks, q[0])
			} else {
				iris = append(iris, q[0])
			}
		}
	}
	if len(iris)+len(blanks) == 0 {
		return nil, fmt.Errorf("sample: no entity of class <%s> (no subject with rdf:type <%s>)", class, class)
	}
	slices.SortFunc(iris, func(a, b rdf.TermID) int { return strings.Compare(d.Term(a).Value, d.Term(b).Value) })
	// Blank nodes in the order of their first statement.
	slices.SortStableFunc(blanks, func(a, b rdf.TermID) int { return int(u.bySubject[a][0]) - int(u.bySubject[b][0]) })
	u.units = append(iris, blanks...)
	for i := range u.owner {
		u.owner[i] = -1
	}
	// Ownership: a propagation in which a node's state only moves from
	// unreached to a unit to shared, so every node is expanded at most
	// twice.
	type item struct {
		id    rdf.TermID
		owner int
	}
	var work []item
	for i, id := range u.units {
		u.owner[id] = i
	}
	refs := func(id rdf.TermID, fn func(rdf.TermID)) {
		for _, qi := range u.bySubject[id] {
			q := quads[qi]
			for _, x := range []rdf.TermID{q[1], q[2], q[3]} {
				if x != 0 && x != id && !isUnit[x] && len(u.bySubject[x]) > 0 {
					fn(x)
				}
			}
		}
	}
	for i, id := range u.units {
		refs(id, func(x rdf.TermID) { work = append(work, item{x, i}) })
	}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		switch cur := u.owner[it.id]; {
		case cur == it.owner || cur == shared:
			continue
		case cur == -1:
			u.owner[it.id] = it.owner
		default:
			u.owner[it.id] = shared
		}
		o := u.owner[it.id]
		refs(it.id, func(x rdf.TermID) { work = append(work, item{x, o}) })
	}
	// The nodes of each unit, in the order they are first reached.
	u.own = make([][]rdf.TermID, len(u.units))
	u.sharedRefs = make([][]rdf.TermID, len(u.units))
	for i, id := range u.units {
		seen := map[rdf.TermID]bool{id: true}
		queue := []rdf.TermID{id}
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			u.own[i] = append(u.own[i], n)
			refs(n, func(x rdf.TermID) {
				if seen[x] {
					return
				}
				seen[x] = true
				switch u.owner[x] {
				case i:
					queue = append(queue, x)
				case shared:
					u.sharedRefs[i] = append(u.sharedRefs[i], x)
				}
			})
		}
	}
	for id, o := range u.owner {
		if o == shared {
			refs(rdf.TermID(id), func(x rdf.TermID) { u.sharedNext[rdf.TermID(id)] = append(u.sharedNext[rdf.TermID(id)], x) })
		}
	}
	return u, nil
}

// Len returns the number of units.
func (u *Units) Len() int { return len(u.units) }

// Unit returns the entity of unit i.
func (u *Units) Unit(i int) rdf.Term { return u.d.Term(u.units[i]) }

// Prefix returns the sample of the first k units: a new dataset with their
// statements, those of the nodes that belong to them and those of the
// shared nodes they reach, in the input's order, with the input's
// prefixes and base.
func (u *Units) Prefix(k int) *rdf.Dataset {
	k = max(0, min(k, len(u.units)))
	keep := map[rdf.TermID]bool{}
	var stack []rdf.TermID
	for i := range k {
		for _, n := range u.own[i] {
			keep[n] = true
		}
		stack = append(stack, u.sharedRefs[i]...)
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if keep[n] {
			continue
		}
		keep[n] = true
		stack = append(stack, u.sharedNext[n]...)
	}
	var pos []int32
	for n := range keep {
		pos = append(pos, u.bySubject[n]...)
	}
	slices.Sort(pos)
	out := rdf.NewDataset()
	out.Prefixes = slices.Clone(u.d.Prefixes)
	out.Base = u.d.Base
	quads := u.d.IDQuads()
	for _, p := range pos {
		out.Add(u.d.Quad(quads[p]))
	}
	return out
}

// Size is the size of a sample in one format.
type Size struct {
	Format string
	Tokens int
	Bytes  int
	// SHA256 is the hex SHA-256 of the text.
	SHA256 string
}

// Options configure Cut.
type Options struct {
	// Budget is the most tokens the largest encoding may take.
	Budget int
	// Formats are the format registry names every prefix is encoded in.
	Formats []string
	// Tokenizer counts the tokens.
	Tokenizer token.Tokenizer
}

// Result is the cut.
type Result struct {
	// Units is the number of units kept, of Total.
	Units, Total int
	// Sample is the dataset of the kept units.
	Sample *rdf.Dataset
	// Hash is the RDFC-1.0 SHA-256 hash of Sample (canonical N-Quads).
	Hash string
	// Sizes are Sample's sizes per format; Next those of the sample with
	// one more unit, which does not fit (nil when every unit is kept).
	Sizes, Next []Size
	// Encodings is the number of prefixes encoded.
	Encodings int
}

// Largest returns the largest token count of sizes and its format.
func Largest(sizes []Size) Size {
	var l Size
	for _, s := range sizes {
		if s.Tokens > l.Tokens || l.Format == "" {
			l = s
		}
	}
	return l
}

// Measure encodes d in every format and counts its tokens.
func Measure(d *rdf.Dataset, names []string, tok token.Tokenizer) ([]Size, error) {
	var out []Size
	for _, name := range names {
		text, err := formats.EncodeString(name, formats.NewInput(d))
		if err != nil {
			return nil, fmt.Errorf("sample: %s: %w", name, err)
		}
		h := sha256.Sum256([]byte(text))
		out = append(out, Size{Format: name, Tokens: tok.Count(text), Bytes: len(text), SHA256: hex.EncodeToString(h[:])})
	}
	return out, nil
}

// Cut keeps the longest prefix of u whose largest encoding among
// o.Formats fits o.Budget tokens (see the package documentation). A first
// unit that does not fit alone is an error.
func (u *Units) Cut(o Options) (*Result, error) {
	if o.Budget <= 0 {
		return nil, errors.New("sample: the budget must be positive")
	}
	if len(o.Formats) == 0 || o.Tokenizer == nil {
		return nil, errors.New("sample: no formats or no tokenizer")
	}
	for _, f := range o.Formats {
		if _, ok := formats.Get(f); !ok {
			return nil, fmt.Errorf("sample: unknown format %q", f)
		}
	}
	res := &Result{Total: len(u.units)}
	memo := map[int][]Size{}
	measure := func(k int) ([]Size, error) {
		if s, ok := memo[k]; ok {
			return s, nil
		}
		s, err := Measure(u.Prefix(k), o.Formats, o.Tokenizer)
		if err != nil {
			return nil, err
		}
		res.Encodings++
		memo[k] = s
		return s, nil
	}
	fits := func(k int) (bool, error) {
		s, err := measure(k)
		if err != nil {
			return false, err
		}
		return Largest(s).Tokens <= o.Budget, nil
	}
	ok, err := fits(1)
	if err != nil {
		return nil, err
	}
	if !ok {
		s := Largest(memo[1])
		return nil, fmt.Errorf("sample: the first unit (%s) alone takes %d tokens in %s, more than the budget of %d",
			u.Unit(0), s.Tokens, s.Format, o.Budget)
	}
	// Doubling: lo fits; hi does not, or is past the last unit.
	lo, hi := 1, 2
	for hi <= len(u.units) {
		ok, err := fits(hi)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		lo, hi = hi, hi*2
	}
	hi = min(hi, len(u.units)+1)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		ok, err := fits(mid)
		if err != nil {
			return nil, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	res.Units = lo
	res.Sample = u.Prefix(lo)
	res.Sizes = memo[lo]
	if lo < len(u.units) {
		if res.Next, err = measure(lo + 1); err != nil {
			return nil, err
		}
	}
	if res.Hash, err = canon.Hash(res.Sample); err != nil {
		return nil, err
	}
	return res, nil
}
