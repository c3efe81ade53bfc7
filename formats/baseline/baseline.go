// Package baseline implements the three baseline formats of the ISOLDA paper
// (../shared/spec/000_5b794db7d2076244.txt, "Formats (arms)"), which ISOLDA is
// measured against:
//
//   - b-json: compact JSON-LD; a node referenced only once is nested inside
//     its referrer (a nested blank node loses its @id);
//   - b-ttl: Turtle (TriG when the dataset has named graphs);
//   - b-ttl-ids: b-ttl with the label of each linked entity in a "# label"
//     comment at the end of its line, the lossless form of "Turtle with
//     readable ids".
//
// All three use ISOLDA's @vocab and prefixes (see Namespaces): in Turtle the
// @vocab namespace is the empty prefix, in JSON-LD it is the context's
// @vocab. The output depends only on the set of quads (blank node labels are
// replaced by canonical ones, c14n0, c14n1, ...), every statement is sorted
// (subjects, then rdf:type, then predicates by IRI, then objects), and every
// format is lossless: Decode gives back a dataset isomorphic to the input.
//
// Known limit of b-ttl and b-ttl-ids: an IRI with "." or ".." path segments
// is written as is, but Turtle readers resolve such segments away (RFC 3986
// resolution applies to absolute IRIs), so it does not round-trip; this is
// true of any Turtle document; and an invalid IRI (with a space, '<', '{',
// ... kept by lenient readers from messy data) is written percent-encoded, so
// that the text stays valid Turtle, and reads back changed.
//
// Known limits of b-json: the base direction of an RDF 1.2 literal is written
// as @direction and read back through JSON-LD's i18n datatypes, so a literal
// whose datatype is in that namespace (https://www.w3.org/ns/i18n#) cannot be
// written (Encode fails); ill-formed UTF-8 becomes U+FFFD.
package baseline

import (
	"fmt"
	"io"
	"strings"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/jsonld"
	"github.com/isolda/isolda/rdf/turtle"
)

// Names of the baseline formats.
const (
	JSON   = "b-json"
	TTL    = "b-ttl"
	TTLIDs = "b-ttl-ids"
)

// Names returns the names of the baselines in the paper's order.
func Names() []string { return []string{JSON, TTL, TTLIDs} }

// Encode writes d in the named baseline format.
func Encode(w io.Writer, d *rdf.Dataset, name string) error {
	switch name {
	case JSON:
		return writeJSON(w, d)
	case TTL:
		return writeTurtle(w, d, false)
	case TTLIDs:
		return writeTurtle(w, d, true)
	}
	return fmt.Errorf("baseline: unknown format %q", name)
}

// Decode reads a document in the named baseline format. b-ttl and b-ttl-ids
// are read as TriG (comments are ignored); b-json is read as JSON-LD, offline.
// Malformed input gives an *rdf.ParseError with line and column.
func Decode(r io.Reader, name string, opts rdf.ReadOptions) (*rdf.Dataset, error) {
	d := rdf.NewDataset()
	var err error
	switch name {
	case JSON:
		return DecodeJSONLD(r, opts)
	case TTL, TTLIDs:
		err = turtle.Parse(r, turtle.TriG, d, opts)
	default:
		return nil, fmt.Errorf("baseline: unknown format %q", name)
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

// DecodeJSONLD reads a JSON-LD document offline (b-json is one) and maps the
// base direction of its values (@direction) to RDF 1.2 directional strings,
// through JSON-LD's i18n datatypes: a literal of datatype
// https://www.w3.org/ns/i18n#LANG_DIR becomes LANG with direction DIR.
func DecodeJSONLD(r io.Reader, opts rdf.ReadOptions) (*rdf.Dataset, error) {
	d := rdf.NewDataset()
	err := jsonld.Parse(r, directional(d), jsonld.Options{ReadOptions: opts, RDFDirection: jsonld.I18nDatatype})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// i18nNS is the namespace of JSON-LD's rdfDirection "i18n-datatype".
const i18nNS = "https://www.w3.org/ns/i18n#"

// directional returns a sink that adds quads to d, turning literals with an
// i18n datatype (https://www.w3.org/ns/i18n#LANG_DIR) back into directional
// language-tagged strings.
func directional(d *rdf.Dataset) rdf.Sink {
	return rdf.SinkFunc(func(q rdf.Quad) error {
		if q.O.IsLiteral() {
			if rest, ok := strings.CutPrefix(q.O.Datatype, i18nNS); ok {
				i := strings.LastIndexByte(rest, '_')
				if i > 0 && (rest[i+1:] == "ltr" || rest[i+1:] == "rtl") {
					q.O = rdf.Term{Kind: rdf.LiteralKind, Value: q.O.Value, Datatype: rdf.RDFDirLangString,
						Lang: rest[:i], Dir: rest[i+1:]}
				}
			}
		}
		return d.AddQuad(q)
	})
}
