// Package syntax is the lexical grammar of the ISOLDA notation and its
// fixed tables, shared by the encoder (package isolda) and the decoder
// (isolda/internal/decode): versions, value classes, quoted strings,
// NAME, LOCAL and <IRI> scanners, 0.4 bare terms, language tags, the 0.4
// well-known prefixes and the datatype shortcuts.
package syntax

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/isolda/isolda/rdf"
)

// Unquote decodes the JSON string at the start of s (which starts with '"').
// It returns the value and the number of bytes consumed, or an error message.
func Unquote(s string) (string, int, string) {
	var b strings.Builder
	i := 1
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), i + 1, ""
		case c == '\\':
			if i+1 >= len(s) {
				return "", i, "unterminated escape in quoted string"
			}
			e := s[i+1]
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'u':
				r, ok := hex4(s[i+2:])
				if !ok {
					return "", i, `expected four hex digits after \u`
				}
				i += 6
				if r >= 0xD800 && r < 0xDC00 {
					if !strings.HasPrefix(s[i:], `\u`) {
						return "", i - 6, "expected the low surrogate of a surrogate pair"
					}
					r2, ok := hex4(s[i+2:])
					if !ok || r2 < 0xDC00 || r2 > 0xDFFF {
						return "", i - 6, "expected the low surrogate of a surrogate pair"
					}
					r = 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
					i += 6
				} else if r >= 0xDC00 && r <= 0xDFFF {
					return "", i - 6, "unpaired surrogate in quoted string"
				}
				b.WriteRune(r)
				continue
			default:
				return "", i, "invalid escape in quoted string"
			}
			i += 2
		case c < 0x20:
			return "", i, "control character in quoted string"
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", len(s), "unterminated quoted string"
}

// hex4 reads four hexadecimal digits at the start of s.
func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(s[:4], 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(v), true
}

// IsNameStart reports whether c may start a NAME = [A-Za-z_][A-Za-z0-9_-]*.
func IsNameStart(c byte) bool {
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
}

// IsNameChar reports whether c may continue a NAME.
func IsNameChar(c byte) bool {
	return IsNameStart(c) || (c >= '0' && c <= '9') || c == '-'
}

// isLocalChar defines LOCAL = [A-Za-z0-9_][A-Za-z0-9_.-]* (a '.' may not end it).
func isLocalChar(c byte) bool {
	return IsNameChar(c) || c == '.'
}

// IsName reports whether s is a NAME.
func IsName(s string) bool { return s != "" && ScanName(s) == len(s) }

// pctAt reports whether s[i:] starts with a percent escape %XX.
func pctAt(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && IsHex(s[i+1]) && IsHex(s[i+2])
}

// ScanLocal returns the length of the LOCAL at the start of s (percent
// escapes %XX included).
func ScanLocal(s string) int {
	if s == "" || s[0] == '.' || s[0] == '-' || !isLocalChar(s[0]) && !pctAt(s, 0) {
		return 0
	}
	n := 0
	for n < len(s) {
		if pctAt(s, n) {
			n += 3
			continue
		}
		if !isLocalChar(s[n]) {
			break
		}
		n++
	}
	for n > 0 && s[n-1] == '.' {
		n--
	}
	return n
}

// ScanName returns the length of the NAME at the start of s (0: none).
func ScanName(s string) int {
	if s == "" || !IsNameStart(s[0]) {
		return 0
	}
	n := 1
	for n < len(s) && IsNameChar(s[n]) {
		n++
	}
	return n
}

// ScanAngle reads <...> at the start of s (s[0] == '<'); it returns the IRI,
// the bytes consumed, or an error message.
func ScanAngle(s string) (string, int, string) {
	var b strings.Builder
	i := 1
	for i < len(s) {
		c := s[i]
		switch {
		case c == '>':
			return b.String(), i + 1, ""
		case c == '\\':
			if i+1 < len(s) && s[i+1] == 'u' {
				r, ok := hex4(s[i+2:])
				if !ok || (r >= 0xD800 && r <= 0xDFFF) {
					return "", i, `expected four hex digits after \u`
				}
				b.WriteRune(r)
				i += 6
				continue
			}
			if i+1 < len(s) && s[i+1] == 'U' && len(s) >= i+10 {
				v, err := strconv.ParseUint(s[i+2:i+10], 16, 32)
				if err != nil || v > unicode.MaxRune || (v >= 0xD800 && v <= 0xDFFF) {
					return "", i, `expected eight hex digits after \U`
				}
				b.WriteRune(rune(v))
				i += 10
				continue
			}
			return "", i, `expected \u or \U escape in <IRI>`
		case c <= 0x20 || c == '<' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' || c == '`' || c == ',':
			return "", i, "character not allowed in <IRI>: write it as \\uXXXX"
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", len(s), "unterminated <IRI>"
}

// ValidLang reports whether a language tag can be written after '@':
// letters, digits and single hyphens.
func ValidLang(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
			return false
		}
	}
	return true
}

// WellKnown04 returns ISOLDA 0.4's table of well-known prefixes (SPEC.md section
// 17.3): the RDFa 1.1 initial context, the Wikidata and DBpedia namespaces
// and other widely used vocabularies and identifier spaces. In a 0.4
// document these prefixes are predeclared: they are used without a @prefix
// line. The table is part of the version: it never changes for 0.4. Each
// call returns a new slice, sorted by name.
func WellKnown04() [][2]string {
	return [][2]string{
		{"adms", "http://www.w3.org/ns/adms#"},
		{"as", "https://www.w3.org/ns/activitystreams#"},
		{"bf", "http://id.loc.gov/ontologies/bibframe/"},
		{"bibo", "http://purl.org/ontology/bibo/"},
		{"cc", "http://creativecommons.org/ns#"},
		{"cito", "http://purl.org/spar/cito/"},
		{"csvw", "http://www.w3.org/ns/csvw#"},
		{"ctag", "http://commontag.org/ns#"},
		{"dbo", "http://dbpedia.org/ontology/"},
		{"dbp", "http://dbpedia.org/property/"},
		{"dbr", "http://dbpedia.org/resource/"},
		{"dc", "http://purl.org/dc/elements/1.1/"},
		{"dcam", "http://purl.org/dc/dcam/"},
		{"dcat", "http://www.w3.org/ns/dcat#"},
		{"dcmitype", "http://purl.org/dc/dcmitype/"},
		{"dct", "http://purl.org/dc/terms/"},
		{"doap", "http://usefulinc.com/ns/doap#"},
		{"doi", "https://doi.org/"},
		{"dpv", "https://w3id.org/dpv#"},
		{"dqv", "http://www.w3.org/ns/dqv#"},
		{"duv", "http://www.w3.org/ns/duv#"},
		{"earl", "http://www.w3.org/ns/earl#"},
		{"edm", "http://www.europeana.eu/schemas/edm/"},
		{"fabio", "http://purl.org/spar/fabio/"},
		{"foaf", "http://xmlns.com/foaf/0.1/"},
		{"geo", "http://www.opengis.net/ont/geosparql#"},
		{"gn", "http://www.geonames.org/ontology#"},
		{"gnd", "https://d-nb.info/gnd/"},
		{"gndo", "https://d-nb.info/standards/elementset/gnd#"},
		{"gr", "http://purl.org/goodrelations/v1#"},
		{"grddl", "http://www.w3.org/2003/g/data-view#"},
		{"hydra", "http://www.w3.org/ns/hydra/core#"},
		{"ical", "http://www.w3.org/2002/12/cal/icaltzd#"},
		{"ldp", "http://www.w3.org/ns/ldp#"},
		{"lexinfo", "http://www.lexinfo.net/ontology/3.0/lexinfo#"},
		{"locn", "http://www.w3.org/ns/locn#"},
		{"ma", "http://www.w3.org/ns/ma-ont#"},
		{"mads", "http://www.loc.gov/mads/rdf/v1#"},
		{"nmo", "http://nomisma.org/ontology#"},
		{"np", "http://www.nanopub.org/nschema#"},
		{"npx", "http://purl.org/nanopub/x/"},
		{"oa", "http://www.w3.org/ns/oa#"},
		{"odrl", "http://www.w3.org/ns/odrl/2/"},
		{"og", "http://ogp.me/ns#"},
		{"ontolex", "http://www.w3.org/ns/lemon/ontolex#"},
		{"orcid", "https://orcid.org/"},
		{"ore", "http://www.openarchives.org/ore/terms/"},
		{"org", "http://www.w3.org/ns/org#"},
		{"owl", "http://www.w3.org/2002/07/owl#"},
		{"p", "http://www.wikidata.org/prop/"},
		{"pav", "http://purl.org/pav/"},
		{"pq", "http://www.wikidata.org/prop/qualifier/"},
		{"pqn", "http://www.wikidata.org/prop/qualifier/value-normalized/"},
		{"pqv", "http://www.wikidata.org/prop/qualifier/value/"},
		{"pr", "http://www.wikidata.org/prop/reference/"},
		{"prn", "http://www.wikidata.org/prop/reference/value-normalized/"},
		{"prov", "http://www.w3.org/ns/prov#"},
		{"prv", "http://www.wikidata.org/prop/reference/value/"},
		{"ps", "http://www.wikidata.org/prop/statement/"},
		{"psn", "http://www.wikidata.org/prop/statement/value-normalized/"},
		{"psv", "http://www.wikidata.org/prop/statement/value/"},
		{"qb", "http://purl.org/linked-data/cube#"},
		{"rdf", rdf.RDFNS},
		{"rdfa", "http://www.w3.org/ns/rdfa#"},
		{"rdfs", rdf.RDFSNS},
		{"rev", "http://purl.org/stuff/rev#"},
		{"rif", "http://www.w3.org/2007/rif#"},
		{"rr", "http://www.w3.org/ns/r2rml#"},
		{"schema", "http://schema.org/"},
		{"sd", "http://www.w3.org/ns/sparql-service-description#"},
		{"sdo", "https://schema.org/"},
		{"sf", "http://www.opengis.net/ont/sf#"},
		{"sh", "http://www.w3.org/ns/shacl#"},
		{"sioc", "http://rdfs.org/sioc/ns#"},
		{"skos", "http://www.w3.org/2004/02/skos/core#"},
		{"skosxl", "http://www.w3.org/2008/05/skos-xl#"},
		{"sosa", "http://www.w3.org/ns/sosa/"},
		{"ssn", "http://www.w3.org/ns/ssn/"},
		{"time", "http://www.w3.org/2006/time#"},
		{"vann", "http://purl.org/vocab/vann/"},
		{"vcard", "http://www.w3.org/2006/vcard/ns#"},
		{"viaf", "http://viaf.org/viaf/"},
		{"void", "http://rdfs.org/ns/void#"},
		{"vs", "http://www.w3.org/2003/06/sw-vocab-status/ns#"},
		{"wd", "http://www.wikidata.org/entity/"},
		{"wdata", "https://www.wikidata.org/wiki/Special:EntityData/"},
		{"wdno", "http://www.wikidata.org/prop/novalue/"},
		{"wdref", "http://www.wikidata.org/reference/"},
		{"wdrs", "http://www.w3.org/2007/05/powder-s#"},
		{"wds", "http://www.wikidata.org/entity/statement/"},
		{"wdt", "http://www.wikidata.org/prop/direct/"},
		{"wdtn", "http://www.wikidata.org/prop/direct-normalized/"},
		{"wdv", "http://www.wikidata.org/value/"},
		{"wgs", "http://www.w3.org/2003/01/geo/wgs84_pos#"},
		{"wikibase", "http://wikiba.se/ontology#"},
		{"xhv", "http://www.w3.org/1999/xhtml/vocab#"},
		{"xml", "http://www.w3.org/XML/1998/namespace"},
		{"xsd", rdf.XSD},
	}
}

// IsHex reports whether c is a hexadecimal digit.
func IsHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// isTermRune reports whether r may appear in a 0.4 bare term word.
func isTermRune(r rune) bool {
	return r == '_' || r == '-' || r == '.' || r == '%' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// ScanTerm04 returns the length of the 0.4 bare term at the start of s:
// words of term characters separated by single spaces (a space followed by
// a letter, a digit or '_'), not ending with '.'.
func ScanTerm04(s string) int {
	r, _ := utf8.DecodeRuneInString(s)
	if !(r == '_' || unicode.IsLetter(r)) {
		return 0
	}
	n := 0
	for n < len(s) {
		r, w := utf8.DecodeRuneInString(s[n:])
		if isTermRune(r) {
			n += w
			continue
		}
		if r == ' ' && n+1 < len(s) {
			r2, _ := utf8.DecodeRuneInString(s[n+1:])
			if r2 == '_' || unicode.IsLetter(r2) || unicode.IsDigit(r2) {
				n++
				continue
			}
		}
		break
	}
	for n > 0 && s[n-1] == '.' {
		n--
	}
	return n
}

// Datatype shortcuts written after ':' in a column header.
var dtShort = [][2]string{
	{"int", rdf.XSDInteger},
	{"decimal", rdf.XSDDecimal},
	{"double", rdf.XSDDouble},
	{"bool", rdf.XSDBoolean},
	{"date", rdf.XSD + "date"},
	{"dateTime", rdf.XSD + "dateTime"},
}

// ShortOf returns the shortcut of datatype IRI dt, or "" when it has none.
func ShortOf(dt string) string {
	for _, s := range dtShort {
		if s[1] == dt {
			return s[0]
		}
	}
	return ""
}

// ShortIRI returns the datatype IRI of a shortcut, or "" when name is none.
func ShortIRI(name string) string {
	for _, s := range dtShort {
		if s[0] == name {
			return s[1]
		}
	}
	return ""
}

// Value classes of a column (SPEC.md, "Columns and value classes").
const (
	ClsLink    = iota + 1 // an entity, written by its id
	ClsIRI                // an IRI that is not an entity
	ClsType               // an rdf:type class (the "a" column)
	ClsPlain              // xsd:string
	ClsLang               // language-tagged string
	ClsTyped              // any other datatype
	ClsLangAny            // 0.4: language-tagged strings, each value with its tag (p@)
)

// Versions of the notation.
const (
	V01 = "0.1"
	V02 = "0.2"
	V03 = "0.3"
	V04 = "0.4"
)
