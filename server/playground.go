package server

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/isolda/isolda/examples"
)

// webAssets are the playground's sources: an HTML skeleton, its style
// sheet and its script, put together into one page by newPlayground.
//
//go:embed web/index.html web/style.css web/app.js
var webAssets embed.FS

// playground is the page served at GET /: self-contained (inline style and
// script, no other request than the API's) with a Content-Security-Policy
// that allows exactly that inline style and script, by hash.
type playground struct {
	page []byte
	csp  string
}

// playgroundConfig is what the page needs to know of the server.
type playgroundConfig struct {
	Tokenizers       []string `json:"tokenizers"`
	DefaultTokenizer string   `json:"defaultTokenizer"`
	MaxRequestBytes  int64    `json:"maxRequestBytes"`
	// SPARQL says whether graphs may come from the endpoints of
	// SPARQLEndpoints (URL prefixes, offered as suggestions).
	SPARQL          bool     `json:"sparql"`
	SPARQLEndpoints []string `json:"sparqlEndpoints"`
	// Examples are the embedded example graphs, offered by "Load the
	// example".
	Examples []playgroundExample `json:"examples"`
}

// playgroundExample is one example graph of the page.
type playgroundExample struct {
	Name   string `json:"name"`
	Syntax string `json:"syntax"`
	Text   string `json:"text"`
}

// playgroundExamples returns the embedded examples, the default first.
func playgroundExamples() []playgroundExample {
	var out []playgroundExample
	for _, name := range examples.Names() {
		b, err := examples.Read(name)
		if err != nil {
			panic("server: embedded example missing: " + err.Error()) // the build embeds it
		}
		ex := playgroundExample{Name: name, Syntax: "ttl", Text: string(b)}
		if name == examples.Default {
			out = append([]playgroundExample{ex}, out...)
		} else {
			out = append(out, ex)
		}
	}
	return out
}

// cspHash is the CSP source expression of an inline element's content.
func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

func mustAsset(name string) string {
	b, err := webAssets.ReadFile("web/" + name)
	if err != nil {
		panic("server: embedded asset missing: " + err.Error()) // the build embeds it
	}
	return string(b)
}

// newPlayground assembles the page for cfg.
func newPlayground(cfg Config) *playground {
	tokenizers := cfg.AllowedTokenizers
	if !slices.Contains(tokenizers, cfg.DefaultTokenizer) {
		tokenizers = append([]string{cfg.DefaultTokenizer}, tokenizers...)
	}
	endpoints := cfg.SPARQLEndpoints
	if endpoints == nil {
		endpoints = []string{}
	}
	conf, err := json.Marshal(playgroundConfig{Tokenizers: tokenizers, DefaultTokenizer: cfg.DefaultTokenizer,
		MaxRequestBytes: cfg.MaxRequestBytes, SPARQL: cfg.AllowSPARQL && len(cfg.SPARQLEndpoints) > 0,
		SPARQLEndpoints: endpoints, Examples: playgroundExamples()})
	if err != nil {
		panic("server: playground config: " + err.Error()) // plain strings and numbers
	}
	style, script := mustAsset("style.css"), mustAsset("app.js")
	// json.Marshal escapes <, > and &, so the config cannot end its
	// script element.
	page := strings.NewReplacer("{{STYLE}}", style, "{{SCRIPT}}", script, "{{CONFIG}}", string(conf)).
		Replace(mustAsset("index.html"))
	csp := strings.Join([]string{
		"default-src 'none'",
		"script-src " + cspHash(script),
		"style-src " + cspHash(style),
		"connect-src 'self'",
		"img-src 'self' data: blob:",
		"base-uri 'none'",
		"form-action 'none'",
		"frame-ancestors 'none'",
	}, "; ")
	return &playground{page: []byte(page), csp: csp}
}

// ServeHTTP serves the page.
func (p *playground) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", p.csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	w.Write(p.page)
}
