package naming

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/isolda/isolda/isolda/internal/syntax"
	"github.com/isolda/isolda/rdf"
)

// WellKnown returns the well-known namespaces and their prefix names
// (SPEC.md, "Prefixes"), a new slice each call.
func WellKnown() [][2]string {
	return [][2]string{
		{"rdf", rdf.RDFNS},
		{"rdfs", rdf.RDFSNS},
		{"xsd", rdf.XSD},
		{"owl", "http://www.w3.org/2002/07/owl#"},
		{"skos", "http://www.w3.org/2004/02/skos/core#"},
		{"dct", "http://purl.org/dc/terms/"},
		{"dc", "http://purl.org/dc/elements/1.1/"},
		{"foaf", "http://xmlns.com/foaf/0.1/"},
		{"schema", "http://schema.org/"},
		{"schema", "https://schema.org/"},
		{"dcat", "http://www.w3.org/ns/dcat#"},
		{"prov", "http://www.w3.org/ns/prov#"},
		{"wd", "http://www.wikidata.org/entity/"},
		{"wdt", "http://www.wikidata.org/prop/direct/"},
		{"p", "http://www.wikidata.org/prop/"},
		{"ps", "http://www.wikidata.org/prop/statement/"},
		{"pq", "http://www.wikidata.org/prop/qualifier/"},
		{"wikibase", "http://wikiba.se/ontology#"},
		{"ontolex", "http://www.w3.org/ns/lemon/ontolex#"},
		{"lexinfo", "http://www.lexinfo.net/ontology/3.0/lexinfo#"},
		{"sh", "http://www.w3.org/ns/shacl#"},
		{"void", "http://rdfs.org/ns/void#"},
		{"vcard", "http://www.w3.org/2006/vcard/ns#"},
		{"org", "http://www.w3.org/ns/org#"},
		{"geo", "http://www.opengis.net/ont/geosparql#"},
		{"time", "http://www.w3.org/2006/time#"},
		{"dcmitype", "http://purl.org/dc/dcmitype/"},
		{"nmo", "http://nomisma.org/ontology#"},
	}
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

// DerivePrefix makes a prefix name from a namespace IRI (SPEC.md section
// 17.3): the last word of letters and digits (split at every other
// character, scheme excluded) that has three or more characters, starts
// with a letter and is not a stop word, lower-cased and cut to 14 bytes
// (a camelCase word longer than 10 bytes gives its first part of three or
// more letters); "ns" when there is none.
func DerivePrefix(ns string) string {
	if names := PrefixNames(ns); len(names) > 0 {
		return names[0]
	}
	return "ns"
}

// PrefixNames lists the names DerivePrefix can give a namespace, best
// first: the words of three or more characters that are not stop words
// from the last to the first (a number of one or two digits joined to the
// word before it), then the words of two letters, then the words that
// read as identifiers (IDLike), then the stop words.
func PrefixNames(ns string) []string {
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
		case IDLike(w):
			idlike = append(idlike, w)
		default:
			good = append(good, w)
		}
	}
	return append(append(append(good, short...), idlike...), stop...)
}

// IDLike reports whether a word reads as an identifier rather than a
// name: a digit followed by a letter, or more than three digits
// (mlde6g8b0v2hc, but not wgs84 or iso639).
func IDLike(w string) bool {
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

// BareTerm04 returns how a local name of the @vocab namespace is written
// as a bare term in 0.4 (SPEC.md section 17.2): "%20" becomes a space, and
// the result must start with a letter or '_', hold only letters, digits,
// '_', '-', '.', single spaces between words and %XX escapes, and not end
// with '.' or a space.
func BareTerm04(local string) (string, bool) {
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
	if first, _, ok := strings.Cut(w, " "); ok && ReservedBare(first) {
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
