package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/token"
)

// Format names: the registry's names are the canonical ones (what isolda
// formats prints, and every message); the commands also accept them in
// any case with '-' and '_' interchanged (pretty-json, ISOLDA_0.3), and the
// RDF syntaxes by their usual short names (nt, ttl, n-quads, json-ld).

// canonicalNames replaces each name that lookupFormat knows by its
// registry name, and keeps the others (to be refused with their spelling).
func canonicalNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if f, ok := formats.Lookup(n); ok {
			out[i] = f.Name
		}
	}
	return out
}

// rdfSyntaxNames are the registry names of the writable RDF syntaxes.
func rdfSyntaxNames() []string {
	var out []string
	for _, f := range rdfio.Writable() {
		out = append(out, string(f))
	}
	return out
}

// labFormatNames are the registry names of the formats that are not RDF
// syntaxes, sorted; with lossless, only those that decode (to a dataset
// with rdfOnly, else to a dataset or a labelled graph).
func labFormatNames(lossless, rdfOnly bool) []string {
	syntaxes := rdfSyntaxNames()
	var out []string
	for _, f := range formats.All() {
		if slices.Contains(syntaxes, f.Name) {
			continue
		}
		if lossless && f.Decode == nil && (rdfOnly || f.DecodeGraph == nil) {
			continue
		}
		out = append(out, f.Name)
	}
	slices.Sort(out)
	return out
}

// unknownOutputFormat is the error for an output format name that is
// neither an RDF syntax nor a registry format: it lists both, and the
// closest names.
func unknownOutputFormat(cmd, name string) error {
	why := suggest(name, formats.Names())
	if syn, err := rdfio.ParseFormat(name); err == nil && syn == rdfio.HTML {
		why = " (JSON-LD in HTML pages is read, not written)"
	}
	return usageError("%s: unknown output format %q%s\nRDF syntaxes:\n%s\nlab formats (isolda formats describes them):\n%s",
		cmd, name, why, wrapText(strings.Join(rdfSyntaxNames(), ", "), helpWidth, "    "),
		wrapText(strings.Join(labFormatNames(false, false), ", "), helpWidth, "    "))
}

// suggest returns "; did you mean A or B?" for the names within edit
// distance 2 of name (after folding), or "".
func suggest(name string, names []string) string {
	var close []string
	for _, n := range names {
		if levenshtein(formats.FoldName(name), formats.FoldName(n)) <= 2 {
			close = append(close, n)
		}
	}
	if len(close) == 0 {
		return ""
	}
	return "; did you mean " + strings.Join(close, " or ") + "?"
}

// levenshtein is the edit distance of two strings, in bytes.
func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// writeFormat writes the input in the named output format.
func writeFormat(w io.Writer, cmd, to string, in *formats.Input) error {
	f, ok := formats.Lookup(to)
	if !ok {
		return unknownOutputFormat(cmd, to)
	}
	if err := f.Encode(w, in); err != nil {
		if errors.Is(err, formats.ErrNoDataset) {
			return usageError("%s -t %s: the input is a labelled graph, and %s writes RDF datasets (write it in a format of labelled graphs: %s)",
				cmd, f.Name, f.Name, strings.Join(labelledGraphFormats(), ", "))
		}
		return badInput(fmt.Errorf("%s -t %s: %w", cmd, f.Name, err))
	}
	return nil
}

// labelledGraphFormats are the registry names of the formats that read a
// labelled graph.
func labelledGraphFormats() []string {
	var out []string
	for _, f := range formats.All() {
		if f.Input == formats.InputGraph {
			out = append(out, f.Name)
		}
	}
	slices.Sort(out)
	return out
}

// nameParseError puts the input's name into a parse error that has none.
func nameParseError(err error, file string) error {
	var pe *rdf.ParseError
	if errors.As(err, &pe) && (pe.File == "" || pe.File == "<input>") {
		pe.File = file
	}
	return err
}

// tokenizerAliases are names people type for the embedded encodings.
var tokenizerAliases = map[string]string{
	"o200k": "o200k_base", "gpt-4o": "o200k_base", "gpt-4o-mini": "o200k_base", "gpt-4.1": "o200k_base", "gpt-5": "o200k_base",
	"o1": "o200k_base", "o3": "o200k_base", "cl100k": "cl100k_base", "gpt-4": "cl100k_base", "gpt-3.5-turbo": "cl100k_base",
}

// unknownTokenizer adds to the error of a tokenizer the registry does not
// have the names it likely meant and the names available.
func unknownTokenizer(reg *token.Registry, name string, err error) error {
	hint := ""
	if a, ok := tokenizerAliases[strings.ToLower(name)]; ok {
		hint = "; did you mean " + a + "?"
	} else {
		hint = suggest(name, reg.Available())
	}
	return badInput(fmt.Errorf("%w%s\navailable: %s (more with --models-dir DIR or $ISOLDA_TOKENIZERS: one folder per tokenizer holding its tokenizer.json; "+
		"a tokenizer.json path or a Hugging Face model id in its cache also works)", err, hint, strings.Join(reg.Available(), ", ")))
}
