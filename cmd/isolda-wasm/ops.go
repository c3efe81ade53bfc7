// Command isolda-wasm is the WebAssembly core of the npm package isolda
// (npm/): built with GOOS=js GOARCH=wasm, it registers the functions
// encode, decode, countTokens and convert on globalThis.__isolda and
// waits for calls. Each calls the same library functions as the CLI
// command of the same name, so its output has the same bytes.
//
// This file holds the operations, portable so that go test runs them on
// any platform; main_js.go is the JavaScript glue.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/textbudget"
	"github.com/isolda/isolda/token"
)

// api holds what lives across calls: the tokenizer registry, whose
// encodings are parsed on first use.
type api struct {
	reg *token.Registry
}

func newAPI() *api {
	return &api{reg: token.NewRegistry(token.Options{})}
}

// result is the answer of one call: the text, or the error with its
// position when the input was at fault.
type result struct {
	Text   string
	Count  int
	Err    error
	File   string
	Line   int
	Column int
}

// call runs one operation: "encode", "decode", "countTokens" or "convert",
// on data with the options given as a JSON object (names as the CLI's
// flags, in kebab-case, camelCase or snake_case). A panic is reported as
// an error, never reaching the caller.
func (a *api) call(op string, data []byte, optsJSON string) (res result) {
	defer func() {
		if v := recover(); v != nil {
			res = result{Err: fmt.Errorf("isolda: internal error (please report it): %v", v)}
		}
	}()
	opts, err := parseOptions(optsJSON)
	if err == nil {
		switch op {
		case "encode":
			res.Text, err = a.encode(data, opts)
		case "decode":
			res.Text, err = decode(data, opts)
		case "countTokens":
			res.Count, err = a.countTokens(data, opts)
		case "convert":
			res.Text, err = convert(data, opts)
		default:
			err = fmt.Errorf("isolda: unknown operation %q", op)
		}
	}
	res.Err = err
	var pe *rdf.ParseError
	if errors.As(err, &pe) {
		res.File, res.Line, res.Column = pe.File, pe.Line, pe.Column
	}
	return res
}

// options are the options of a call, by folded name (see fold).
type options map[string]json.RawMessage

// fold folds an option name: lower case without '-' and '_', so that
// no-types, noTypes and no_types are one name.
func fold(name string) string {
	return strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(name))
}

func parseOptions(s string) (options, error) {
	raw := map[string]json.RawMessage{}
	if s != "" {
		if err := json.Unmarshal([]byte(s), &raw); err != nil {
			return nil, fmt.Errorf("isolda: options: want an object: %v", err)
		}
	}
	o := options{}
	for k, v := range raw {
		if string(v) == "null" {
			continue // undefined or null: the default
		}
		f := fold(k)
		if _, dup := o[f]; dup {
			return nil, fmt.Errorf("isolda: option %q given twice (under two spellings)", k)
		}
		o[f] = v
	}
	return o, nil
}

// only refuses the options not in names (folded names).
func (o options) only(op string, names ...string) error {
	var bad []string
	for k := range o {
		if !slices.Contains(names, k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	slices.Sort(bad)
	return fmt.Errorf("isolda: %s: unknown option %s (known: %s)", op, strings.Join(bad, ", "), strings.Join(names, ", "))
}

func (o options) str(name string, dst *string) error     { return option(o, name, "a string", dst) }
func (o options) boolean(name string, dst *bool) error   { return option(o, name, "true or false", dst) }
func (o options) integer(name string, dst *int) error    { return option(o, name, "an integer", dst) }
func (o options) number(name string, dst *float64) error { return option(o, name, "a number", dst) }

// option sets dst to the JSON value of the option name when it is given;
// a value of another type is an error saying what was wanted.
func option[T any](o options, name, want string, dst *T) error {
	if v, ok := o[name]; ok {
		if err := json.Unmarshal(v, dst); err != nil {
			return fmt.Errorf("isolda: option %s: want %s, got %s", name, want, v)
		}
	}
	return nil
}

// inputNames are the options of every call that reads RDF: the CLI's
// input flags that make sense without files (-f, --base, --strict), and
// the name of the input in error messages.
func inputNames() []string {
	return []string{"format", "from", "base", "strict", "file"}
}

// isoldaNames are the encoder's options, the CLI's flags folded.
func isoldaNames() []string {
	return []string{"spec", "ids", "noconstants", "notypes", "glossary", "inverseindex", "layout", "theta",
		"continuation", "inlinebnodes", "anchor", "hops", "nopreferredlanguage", "norowlabelids", "notermaliases",
		"novocabprefix", "iriids", "datatypeprefixes"}
}

// isoldaOptions reads the encoder's options with the CLI's defaults.
func (o options) isoldaOptions() (isolda.Options, error) {
	opts := isolda.Options{Version: "0.4", IDs: "label", Glossary: "full", Layout: "table"}
	errs := []error{
		o.str("spec", &opts.Version), o.str("ids", &opts.IDs), o.boolean("noconstants", &opts.NoConstants),
		o.boolean("notypes", &opts.NoTypes), o.str("glossary", &opts.Glossary), o.boolean("inverseindex", &opts.InverseIndex),
		o.str("layout", &opts.Layout), o.number("theta", &opts.Theta), o.boolean("continuation", &opts.Continuation),
		o.boolean("inlinebnodes", &opts.InlineBlanks), o.str("anchor", &opts.Anchor), o.integer("hops", &opts.Hops),
		o.boolean("nopreferredlanguage", &opts.NoPreferredLanguage), o.boolean("norowlabelids", &opts.NoRowLabelIDs),
		o.boolean("notermaliases", &opts.NoTermAliases), o.boolean("novocabprefix", &opts.NoVocabPrefix),
		o.boolean("iriids", &opts.IRIIDs), o.boolean("datatypeprefixes", &opts.DatatypePrefixes),
	}
	return opts, errors.Join(errs...)
}

// readInput reads an RDF input as the CLI reads standard input with
// -f (format, or its alias from), --base and --strict: an RDF syntax, or
// a lossless format of the lab registry that decodes to RDF.
func (o options) readInput(data []byte) (*rdf.Dataset, error) {
	var from, base, file string
	var strict bool
	if err := errors.Join(o.str("format", &from), o.str("from", &from), o.str("base", &base),
		o.str("file", &file), o.boolean("strict", &strict)); err != nil {
		return nil, err
	}
	if file == "" {
		file = "<input>"
	}
	ro := rdfio.Options{}
	ro.Base, ro.Strict, ro.File = base, strict, file
	if from != "" {
		syn, err := rdfio.ParseFormat(from)
		if err != nil {
			lab, ok := formats.Lookup(from)
			if !ok || lab.Decode == nil {
				return nil, fmt.Errorf("isolda: format %q: not an RDF syntax (nt, nq, ttl, trig, rdfxml, jsonld, html) nor a lossless format that decodes to RDF", from)
			}
			d, err := lab.Decode(bytes.NewReader(data))
			return d, nameParseError(err, file)
		}
		ro.Format = syn
	}
	return rdfio.Read(bytes.NewReader(data), ro)
}

func (a *api) encode(data []byte, o options) (string, error) {
	if err := o.only("encode", slices.Concat(inputNames(), isoldaNames(), []string{"budget", "tokenizer"})...); err != nil {
		return "", err
	}
	opts, err := o.isoldaOptions()
	if err != nil {
		return "", err
	}
	budget, tokName := 0, token.O200KBase
	if err := errors.Join(o.integer("budget", &budget), o.str("tokenizer", &tokName)); err != nil {
		return "", err
	}
	if budget < 0 {
		return "", fmt.Errorf("isolda: budget %d: give 0 (no budget) or more", budget)
	}
	var tok token.Tokenizer
	if budget > 0 {
		if tok, err = a.reg.Get(tokName); err != nil {
			return "", err
		}
	}
	d, err := o.readInput(data)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := isolda.Encode(&buf, d, opts); err != nil {
		return "", err
	}
	text := buf.String()
	if budget > 0 && tok.Count(text) > budget {
		text = fit(text, tok, budget)
	}
	return text, nil
}

// fit cuts an ISOLDA document to a token budget as isolda serve's
// /v1/serialize does (truncation "record"): the head and the first
// records in document order, each table's row count rewritten, so that
// the cut document still decodes; when the head alone is over budget,
// the longest prefix of it that fits.
func fit(text string, tok token.Tokenizer, budget int) string {
	d := textbudget.Split(text, textbudget.ISOLDA)
	c, err := d.Fit(tok.Count, budget)
	if err != nil {
		return textbudget.Raw(d.Prefix(0), tok.Count, budget).Text
	}
	return c.Text
}

func decode(data []byte, o options) (string, error) {
	if err := o.only("decode", "to", "file"); err != nil {
		return "", err
	}
	to, file := "nquads", "<input>"
	if err := errors.Join(o.str("to", &to), o.str("file", &file)); err != nil {
		return "", err
	}
	f, ok := formats.Lookup(to)
	if !ok {
		return "", unknownFormat(to)
	}
	d, err := isolda.DecodeWith(bytes.NewReader(data), isolda.DecodeOptions{File: file})
	if err != nil {
		return "", err
	}
	return write(f, formats.NewInput(d))
}

func (a *api) countTokens(data []byte, o options) (int, error) {
	if err := o.only("countTokens", "tokenizer"); err != nil {
		return 0, err
	}
	name := token.O200KBase
	if err := o.str("tokenizer", &name); err != nil {
		return 0, err
	}
	tok, err := a.reg.Get(name)
	if err != nil {
		return 0, err
	}
	return token.CountReader(tok, bytes.NewReader(data))
}

func convert(data []byte, o options) (string, error) {
	if err := o.only("convert", append(inputNames(), "to")...); err != nil {
		return "", err
	}
	var to string
	if err := o.str("to", &to); err != nil {
		return "", err
	}
	if to == "" {
		return "", errors.New("isolda: convert: the option to is required (an RDF syntax or a format of the lab registry)")
	}
	f, ok := formats.Lookup(to)
	if !ok {
		return "", unknownFormat(to)
	}
	in, err := o.convertInput(data)
	if err != nil {
		return "", err
	}
	return write(f, in)
}

// convertInput reads the input of convert as the CLI does: with from
// naming a format of labelled graphs, through its graph decoder; else as
// an RDF dataset.
func (o options) convertInput(data []byte) (*formats.Input, error) {
	var from, file string
	if err := errors.Join(o.str("format", &from), o.str("from", &from), o.str("file", &file)); err != nil {
		return nil, err
	}
	if _, err := rdfio.ParseFormat(from); from != "" && err != nil {
		if f, ok := formats.Lookup(from); ok && f.Decode == nil && f.DecodeGraph != nil {
			g, err := f.DecodeGraph(bytes.NewReader(data))
			if err != nil {
				return nil, nameParseError(err, file)
			}
			return formats.NewGraphInput(g), nil
		}
	}
	d, err := o.readInput(data)
	if err != nil {
		return nil, err
	}
	return formats.NewInput(d), nil
}

// write writes the input in a format, as the CLI's writeFormat.
func write(f formats.Format, in *formats.Input) (string, error) {
	var buf bytes.Buffer
	if err := f.Encode(&buf, in); err != nil {
		if errors.Is(err, formats.ErrNoDataset) {
			return "", fmt.Errorf("isolda: %s writes RDF datasets, and the input is a labelled graph", f.Name)
		}
		return "", fmt.Errorf("isolda: %s: %w", f.Name, err)
	}
	return buf.String(), nil
}

func unknownFormat(name string) error {
	return fmt.Errorf("isolda: unknown format %q (one of: %s)", name, strings.Join(formats.Names(), ", "))
}

// nameParseError puts the input's name into a parse error that has none.
func nameParseError(err error, file string) error {
	var pe *rdf.ParseError
	if errors.As(err, &pe) && (pe.File == "" || pe.File == "<input>") {
		pe.File = file
	}
	return err
}
