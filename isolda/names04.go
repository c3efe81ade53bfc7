package isolda

import (
	"cmp"
	"github.com/isolda/isolda/isolda/internal/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/isolda/isolda/rdf"
)

// WellKnownPrefixes returns ISOLDA 0.4's predeclared prefixes (name and
// namespace), sorted by name.
func WellKnownPrefixes() []rdf.Prefix {
	out := make([]rdf.Prefix, len(syntax.WellKnown04))
	for i, p := range syntax.WellKnown04 {
		out[i] = rdf.Prefix{Name: p[0], IRI: p[1]}
	}
	return out
}

// prefixStop are the words a derived prefix name skips: they say nothing
// about a namespace.
var prefixStop = map[string]bool{
	"www": true, "com": true, "org": true, "net": true, "edu": true, "gov": true, "info": true, "html": true,
	"htm": true, "php": true, "jsp": true, "asp": true, "xml": true, "rdf": true, "owl": true, "ttl": true,
	"def": true, "ns": true, "id": true, "uri": true, "uris": true, "resource": true, "resources": true,
	"ontology": true, "ontologies": true, "vocab": true, "vocabulary": true, "vocabularies": true,
	"terms": true, "term": true, "schema": true, "schemas": true, "data": true, "entity": true,
	"entities": true, "wiki": true, "page": true, "pages": true, "core": true, "http": true,
	"https": true, "urn": true, "index": true, "api": true, "v1": true, "v2": true, "v3": true,
}

// derivePrefix makes a prefix name from a namespace IRI (SPEC.md section
// 17.3): the last word of letters and digits (split at every other
// character, scheme excluded) that has three or more characters, starts
// with a letter and is not a stop word, lower-cased and cut to 14 bytes
// (a camelCase word longer than 10 bytes gives its first part of three or
// more letters); "ns" when there is none.
func derivePrefix(ns string) string {
	if names := prefixNames(ns); len(names) > 0 {
		return names[0]
	}
	return "ns"
}

// prefixNames lists the names derivePrefix can give a namespace, best
// first: the words of three or more characters that are not stop words
// from the last to the first (a number of one or two digits joined to the
// word before it), then the words of two letters, then the words that
// read as identifiers (idLike), then the stop words.
func prefixNames(ns string) []string {
	s := ns
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	} else if i := strings.IndexByte(s, ':'); i >= 0 {
		s = s[i+1:]
	}
	words := strings.FieldsFunc(s, func(r rune) bool { return r >= 0x80 || !syntax.IsNameChar(byte(r)) || r == '-' || r == '_' })
	var good, short, idlike, stop []string
	for i := len(words) - 1; i >= 0; i-- {
		w := words[i]
		if len(w) <= 2 && w[0] >= '0' && w[0] <= '9' && i > 0 {
			// A version number joins the word before it (vocab-dcat-3: dcat3).
			if p := strings.ToLower(words[i-1]); len(p) >= 3 && !prefixStop[p] && p[0] >= 'a' && p[0] <= 'z' {
				good = append(good, p+w)
			}
			continue
		}
		if len(w) > 10 {
			// A long camelCase word: its first hump (TopicCategoryCode: topic).
			for j := 3; j < len(w); j++ {
				if w[j] >= 'A' && w[j] <= 'Z' && w[j-1] >= 'a' && w[j-1] <= 'z' {
					w = w[:j]
					break
				}
			}
		}
		w = strings.ToLower(w)
		if len(w) < 2 || !(w[0] >= 'a' && w[0] <= 'z') {
			continue
		}
		if len(w) == 2 {
			short = append(short, w)
			continue
		}
		if len(w) > 14 {
			w = w[:14]
		}
		switch {
		case prefixStop[w]:
			stop = append(stop, w)
		case idLike(w):
			idlike = append(idlike, w)
		default:
			good = append(good, w)
		}
	}
	return append(append(append(good, short...), idlike...), stop...)
}

// idLike reports whether a word reads as an identifier rather than a
// name: a digit followed by a letter, or more than three digits
// (mlde6g8b0v2hc, but not wgs84 or iso639).
func idLike(w string) bool {
	digits := 0
	for i := 0; i < len(w); i++ {
		if w[i] >= '0' && w[i] <= '9' {
			digits++
			if i+1 < len(w) && w[i+1] >= 'a' && w[i+1] <= 'z' {
				return true
			}
		}
	}
	return digits > 3
}

// bareTerm04 returns how a local name of the @vocab namespace is written
// as a bare term in 0.4 (SPEC.md section 17.2): "%20" becomes a space, and
// the result must start with a letter or '_', hold only letters, digits,
// '_', '-', '.', single spaces between words and %XX escapes, and not end
// with '.' or a space.
func bareTerm04(local string) (string, bool) {
	if local == "" || strings.IndexByte(local, ' ') >= 0 {
		return "", false // a space in a bare term stands for %20 only
	}
	w := strings.ReplaceAll(local, "%20", " ")
	first, _ := utf8.DecodeRuneInString(w)
	if !(first == '_' || unicode.IsLetter(first)) {
		return "", false
	}
	if w[len(w)-1] == '.' || w[len(w)-1] == ' ' {
		return "", false
	}
	// "a x" and "id x" would read as the reserved column names a and id.
	if first, _, ok := strings.Cut(w, " "); ok && reservedBare(first) {
		return "", false
	}
	prev := rune(0)
	for i := 0; i < len(w); {
		r, n := utf8.DecodeRuneInString(w[i:])
		switch {
		case r == utf8.RuneError:
			return "", false
		case r == ' ':
			if prev == ' ' {
				return "", false
			}
		case r == '%':
			if i+2 >= len(w) || !syntax.IsHex(w[i+1]) || !syntax.IsHex(w[i+2]) {
				return "", false
			}
		case r == '_' || r == '-' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r):
		default:
			return "", false
		}
		if prev == ' ' && !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return "", false
		}
		prev = r
		i += n
	}
	return w, true
}

// names04 chooses @vocab, the prefixes and the @term aliases of a 0.4
// document (SPEC.md section 17.3): the vocabulary as in 0.2 but counting
// 0.4 bare terms; the well-known prefixes are predeclared; every other
// namespace gets a derived name and is declared only when that saves
// tokens by the estimate of tokenEstimate.
func (e *encoder) names04() {
	// Occurrences of each term, then of each namespace whose local names
	// can be bare.
	occ := make([]int32, e.d.NumTerms()+1)
	for _, q := range e.d.IDQuads() {
		if e.listNode[q[0]] {
			continue
		}
		if q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind {
			occ[q[2]]++
		} else {
			occ[q[1]]++
		}
	}
	vc := map[string]int{}
	for id, k := range occ {
		if k == 0 {
			continue
		}
		ns, l := splitNS(e.term(rdf.TermID(id)).Value)
		if t, ok := bareTerm04(l); ok && !reservedBare(t) {
			vc[ns] += int(k)
		}
	}
	best := 0
	for _, ns := range sortedKeys(vc) {
		if vc[ns] > best {
			best, e.n.vocab = vc[ns], ns
		}
	}
	for _, p := range syntax.WellKnown04 {
		e.n.prefixNS[p[0]] = p[1]
		e.n.nsPrefix[p[1]] = p[0]
		e.n.implicit[p[0]] = true
	}
	e.choosePrefixes04()
	if e.termAliases {
		e.aliases()
	}
}

// maxPrefixes04 bounds the prefixes a 0.4 document declares.
const maxPrefixes04 = 64

// choosePrefixes04 declares the prefixes of a 0.4 document (SPEC.md
// section 17.3). Every IRI written in a cell (an entity's IRI, an IRI
// value, a graph name) may use the longest declared namespace it starts
// with, a term (predicate, class, datatype) only its own namespace. A
// candidate is every namespace of a term and every prefix of an IRI that
// ends in '/', '#' or ':' after the scheme; candidates are declared
// greedily, the largest estimated saving first (tokenEstimate: each use
// saves the namespace minus "name:", the declaration costs its line),
// while the saving is positive.
func (e *encoder) choosePrefixes04() {
	terms := map[string]int{} // namespace -> estimated writings of its terms
	nIRI := make([]int32, e.d.NumTerms()+1)
	iriUse := func(id rdf.TermID) { nIRI[id]++ } // IRI written in cells -> uses
	// A term is written in table headers and on property lines: count
	// each use up to termUses (a header column is written once).
	const termUses = 4
	seenTerm := make([]int8, e.d.NumTerms()+1)
	addTerm := func(id rdf.TermID, iri string) {
		if id != 0 && seenTerm[id] >= termUses {
			return
		}
		seenTerm[id]++
		if _, bare := e.n.bare(iri); bare {
			return
		}
		if ns, l := splitNS(iri); ns != "" && isLocal(l) {
			terms[ns]++
		}
	}
	type sg struct{ s, g rdf.TermID }
	seenSG := map[sg]bool{}                   // subjects of named graphs
	seenDef := make([]int8, e.d.NumTerms()+1) // subjects of the default graph
	lastDT, lastDTID := "", rdf.TermID(0)     // datatypes come in runs
	for _, q := range e.d.IDQuads() {
		s, p, o, g := e.term(q[0]), e.term(q[1]), e.term(q[2]), e.term(q[3])
		if e.listNode[q[0]] {
			if p.Value == rdf.RDFFirst {
				switch {
				case o.Kind == rdf.IRIKind && !e.entity[q[2]]:
					iriUse(q[2])
				case o.Kind == rdf.LiteralKind && o.Lang == "" && o.Datatype != rdf.XSDString && syntax.ShortOf(o.Datatype) == "":
					addTerm(0, o.Datatype)
				}
			}
			continue
		}
		if s.Kind == rdf.IRIKind && (q[3] == 0 && seenDef[q[0]] == 0 || q[3] != 0 && !seenSG[sg{q[0], q[3]}]) {
			if q[3] == 0 {
				seenDef[q[0]] = 1
			} else {
				seenSG[sg{q[0], q[3]}] = true
			}
			iriUse(q[0])
		}
		isType := q[1] == e.typeID && o.Kind == rdf.IRIKind
		if !isType {
			addTerm(q[1], p.Value)
		}
		switch {
		case isType:
			addTerm(q[2], o.Value)
		case o.Kind == rdf.IRIKind && !e.entity[q[2]]:
			iriUse(q[2])
		case o.Kind == rdf.LiteralKind && o.Lang == "" && o.Datatype != rdf.XSDString && syntax.ShortOf(o.Datatype) == "":
			if o.Datatype != lastDT {
				lastDT = o.Datatype
				lastDTID, _ = e.d.Lookup(rdf.NewIRI(o.Datatype))
			}
			addTerm(lastDTID, o.Datatype)
		}
		if g.Kind == rdf.IRIKind && !seenSG[sg{0, q[3]}] {
			seenSG[sg{0, q[3]}] = true
			iriUse(q[3])
		}
	}
	free := func(ns string) bool {
		_, ok := e.n.nsPrefix[ns]
		return ok || ns == e.n.vocab
	}
	// Candidates and the IRIs under each.
	type cand struct {
		ns, base  string
		sav, decl int
		terms     int
		iris      []int
		done      bool
	}
	byNS := map[string]*cand{}
	var cands []*cand
	get := func(ns string) *cand {
		c := byNS[ns]
		if c == nil {
			c = &cand{ns: ns}
			byNS[ns] = c
			cands = append(cands, c)
		}
		return c
	}
	for _, ns := range sortedKeys(terms) {
		if !free(ns) {
			get(ns).terms = terms[ns]
		}
	}
	var ids []rdf.TermID
	for id, k := range nIRI {
		if k > 0 {
			ids = append(ids, rdf.TermID(id))
		}
	}
	// The order of the IRIs does not matter: only sums over them do.
	list := make([]string, len(ids))
	use := make([]int, len(ids))
	for i, id := range ids {
		list[i], use[i] = e.term(id).Value, int(nIRI[id])
	}
	have := make([]int, len(list)) // saving of the best namespace so far
	freeSaving := map[string]int{}
	for i, iri := range list {
		start := strings.Index(iri, "://")
		if start < 0 {
			start = strings.IndexByte(iri, ':')
		} else {
			start += 3
		}
		if start < 0 {
			continue
		}
		for j := start + 1; j <= len(iri); j++ {
			if c := iri[j-1]; c != '/' && c != '#' && c != ':' {
				continue
			}
			ns := iri[:j]
			if free(ns) {
				sv, ok := freeSaving[ns]
				if !ok {
					sv = tokenEstimate(ns) - tokenEstimate(e.n.nsPrefix[ns]) - 1
					freeSaving[ns] = sv
				}
				have[i] = max(have[i], sv)
				continue
			}
			c := get(ns)
			c.iris = append(c.iris, i)
		}
	}
	// Estimates, for the candidates that can gain: a derived name is
	// only worth computing for a namespace used twice or more.
	live := cands[:0]
	for _, c := range cands {
		if c.terms == 0 && (len(c.iris) == 0 || len(c.iris) == 1 && use[c.iris[0]] < 2) {
			continue // one use never pays for a declaration
		}
		c.base = derivePrefix(c.ns)
		t, tn := tokenEstimate(c.ns), tokenEstimate(c.base)
		c.sav, c.decl = t-tn-1, t+tn+3
		live = append(live, c)
	}
	cands = live
	// Greedy: declare the candidate with the largest positive gain.
	for picked := 0; picked < maxPrefixes04; picked++ {
		var best *cand
		bestGain := 0
		for _, c := range cands {
			if c.done {
				continue
			}
			gain := c.terms*c.sav - c.decl
			for _, i := range c.iris {
				if d := c.sav - have[i]; d > 0 {
					gain += use[i] * d
				}
			}
			if gain > bestGain || (gain == bestGain && best != nil && gain > 0 && c.ns < best.ns) {
				best, bestGain = c, gain
			}
		}
		if best == nil {
			break
		}
		best.done = true
		for _, i := range best.iris {
			have[i] = max(have[i], best.sav)
		}
	}
	// Names: the most used namespace first (ties in bytewise order) takes
	// its first free derived name; a number is added only when all are
	// taken.
	var chosen []*cand
	for _, c := range cands {
		if c.done {
			chosen = append(chosen, c)
		}
	}
	total := func(c *cand) int {
		n := c.terms
		for _, i := range c.iris {
			n += use[i]
		}
		return n
	}
	slices.SortFunc(chosen, func(a, b *cand) int {
		if ta, tb := total(a), total(b); ta != tb {
			return cmp.Compare(tb, ta)
		}
		return strings.Compare(a.ns, b.ns)
	})
	for _, c := range chosen {
		name := ""
		for _, w := range prefixNames(c.ns) {
			if !e.prefixTaken(w) {
				name = w
				break
			}
		}
		for k := 2; name == ""; k++ {
			if w := c.base + strconv.Itoa(k); !e.prefixTaken(w) {
				name = w
			}
		}
		e.n.prefixNS[name] = c.ns
		e.n.nsPrefix[c.ns] = name
	}
}

// prefixTaken reports whether a prefix name is in use or reserved.
func (e *encoder) prefixTaken(name string) bool {
	_, ok := e.n.prefixNS[name]
	return ok || reservedPrefix(name)
}
