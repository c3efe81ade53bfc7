package jsonld

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/isolda/isolda/rdf"
	"golang.org/x/net/html"
)

// script is a JSON-LD script element found in an HTML page.
type script struct {
	text []byte
	at   loc // position of the first byte of text
}

// ParseHTML reads the JSON-LD script elements of an HTML page (<script
// type="application/ld+json">, the type compared case-insensitively and
// parameters such as "; charset=utf-8" allowed) and sends their quads to
// sink, script by script in page order (each script's quads sorted as by
// Parse). Each script is its own JSON-LD document;
// blank nodes are kept distinct across scripts (b0, b1, ... in the first,
// s1_b0, ... in the second, and so on). The base IRI is the page's first
// <base href>, resolved against opts.Base, or opts.Base.
//
// opts.HTMLScriptID selects the one script with that id, opts.HTMLFirstOnly
// the first script only. A script that is not valid JSON is an *Error with
// code "invalid script element" and the position in the page, or, with
// opts.HTMLSkipInvalid (and not Strict), skipped with a warning. Warnings
// about a script's content carry the position of the script.
func ParseHTML(r io.Reader, sink rdf.Sink, opts Options) error {
	data, err := readAll(r, opts)
	if err != nil {
		return err
	}
	scripts, base, err := extractScripts(data, opts)
	if err != nil {
		return err
	}
	if base == "" {
		base = opts.Base
	}
	if opts.HTMLFirstOnly && len(scripts) > 1 {
		scripts = scripts[:1]
	}
	st := newState(sink, opts)
	for i, s := range scripts {
		doc, start, err := decodeInput(s.text, opts, s.at)
		if err != nil {
			var pe *rdf.ParseError
			if !errors.As(err, &pe) || errors.Is(err, rdf.ErrLimit) {
				return err
			}
			if opts.HTMLSkipInvalid && !opts.Strict {
				if opts.Warn != nil {
					opts.Warn(&rdf.ParseError{File: opts.File, Line: pe.Line, Column: pe.Column, Offset: pe.Offset,
						Msg: "JSON-LD script skipped: " + pe.Msg})
				}
				continue
			}
			return &Error{File: opts.File, Line: pe.Line, Column: pe.Column, Offset: pe.Offset,
				Code: "invalid script element", Msg: pe.Msg, Err: err}
		}
		st.setDocument(s.text, start)
		prefix := "_:b"
		if i > 0 {
			prefix = fmt.Sprintf("_:s%d_b", i)
		}
		if err := st.document(doc, base, prefix); err != nil {
			return err
		}
	}
	return nil
}

// isJSONLDType reports whether a script type attribute names JSON-LD.
func isJSONLDType(t string) bool {
	mt, _, _ := strings.Cut(t, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/ld+json")
}

// extractScripts tokenizes the page and returns its JSON-LD scripts (or
// the one selected by opts.HTMLScriptID) and the resolved <base href>.
func extractScripts(data []byte, opts Options) ([]script, string, error) {
	z := html.NewTokenizer(strings.NewReader(string(data)))
	z.SetMaxBuf(0)
	pos := &positioner{data: data, line: 1}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		pos.off = 3 // a byte order mark is no character
	}
	var (
		scripts  []script
		base     string
		haveBase bool
		offset   int
		found    bool
	)
	for {
		tt := z.Next()
		raw := len(z.Raw())
		if tt == html.ErrorToken {
			if z.Err() == io.EOF {
				break
			}
			return nil, "", pos.at(offset).parseError(opts.File, "HTML: "+z.Err().Error())
		}
		offset += raw
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		var typ, id, href string
		var hasType, hasHref bool
		for hasAttr {
			var k, v []byte
			k, v, hasAttr = z.TagAttr()
			switch string(k) {
			case "type":
				typ, hasType = string(v), true
			case "id":
				id = string(v)
			case "href":
				href, hasHref = string(v), true
			}
		}
		tag := string(name)
		if tag == "base" && hasHref && !haveBase {
			haveBase = true
			base = rdf.ResolveIRI(opts.Base, strings.TrimSpace(href))
		}
		selected := opts.HTMLScriptID != "" && id == opts.HTMLScriptID
		if selected {
			if found {
				continue // ids should be unique: the first element wins
			}
			found = true
			at := pos.at(offset - raw)
			if tag != "script" {
				return nil, "", &Error{File: opts.File, Line: at.line, Column: at.col, Offset: at.off,
					Code: "loading document failed",
					Msg:  fmt.Sprintf("the element with id %q is a <%s>, not a script element", id, tag)}
			}
			if !hasType || !isJSONLDType(typ) {
				return nil, "", &Error{File: opts.File, Line: at.line, Column: at.col, Offset: at.off,
					Code: "loading document failed",
					Msg:  fmt.Sprintf("the script element with id %q is not of type application/ld+json", id)}
			}
		}
		if tag != "script" || tt != html.StartTagToken || !hasType || !isJSONLDType(typ) {
			continue
		}
		// The script's raw text is the next token (empty if none).
		textStart := offset
		var text []byte
		if z.Next() == html.TextToken {
			text = append([]byte(nil), z.Raw()...)
			offset += len(z.Raw())
		} else {
			if z.Err() == io.EOF {
				break
			}
			offset += len(z.Raw())
		}
		if opts.HTMLScriptID == "" || selected {
			scripts = append(scripts, script{text: text, at: pos.at(textStart)})
		}
	}
	if opts.HTMLScriptID != "" && !found {
		return nil, "", &Error{File: opts.File, Code: "loading document failed",
			Msg: fmt.Sprintf("no element with id %q", opts.HTMLScriptID)}
	}
	return scripts, base, nil
}

// positioner computes line and column (in code points) of increasing
// offsets in one pass over the data.
type positioner struct {
	data []byte
	off  int // offsets before off have been scanned
	line int
	col  int // code points between the start of the line and off
}

func (p *positioner) at(off int) loc {
	for ; p.off < off && p.off < len(p.data); p.off++ {
		switch c := p.data[p.off]; {
		case c == '\n':
			p.line++
			p.col = 0
		case c&0xC0 != 0x80: // not a UTF-8 continuation byte
			p.col++
		}
	}
	return loc{line: p.line, col: p.col + 1, off: int64(off)}
}
