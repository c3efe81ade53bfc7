package server

import (
	"net/http"
	"strings"
)

// endpoint is one row of the route table: everything the server knows of
// an endpoint. The table drives the mux (New), Routes, the 405 answers,
// the dispatch of worker processes (ServeWorker) and the paths of
// openapi.json, which TestOpenAPI checks against the rows (and rewrites
// from them with -update). Adding an endpoint is its handler and one row.
type endpoint struct {
	// Method and Path are the request's; a Path ending in "/" matches
	// only itself (the mux pattern gets {$}).
	Method, Path string
	// Name names the endpoint in the metrics (the endpoint label), in the
	// messages to worker processes and as the OpenAPI operationId.
	Name string
	// Work is the work of a POST endpoint taking a JSON body: it runs
	// under the server's limits (server.work) and, when large, in a worker
	// process. Nil for the endpoints Handler serves.
	Work func(*server, *request) (any, *apiError)
	// Handler returns the handler of an endpoint without Work.
	Handler func(*server) http.Handler
	// Hidden leaves the endpoint out of Routes and openapi.json (the site
	// icon browsers ask for on their own).
	Hidden bool

	// The OpenAPI operation. Summary is its summary. A Work endpoint's
	// request body and 200 answer are the JSON schemas named Request and
	// Response (components.schemas), and its errors are the API's; other
	// endpoints answer 200 with Answer (the description), MediaType and
	// Schema (a JSON schema).
	Summary                   string
	Request, Response         string
	Answer, MediaType, Schema string
}

// endpoints returns the route table, in the order of Routes.
func endpoints() []endpoint {
	return []endpoint{
		{Method: "POST", Path: "/v1/serialize", Name: "serialize", Work: (*server).serialize,
			Summary: "Write a graph in one format, count its tokens, fit it to a budget",
			Request: "SerializeRequest", Response: "SerializeResponse"},
		{Method: "POST", Path: "/v1/compare", Name: "compare", Work: (*server).compare,
			Summary: "Write a graph in many formats with bytes, tokens and losslessness",
			Request: "CompareRequest", Response: "CompareResponse"},
		{Method: "POST", Path: "/v1/check", Name: "check", Work: (*server).check,
			Summary: "Check the ISOLDA round trip of a graph",
			Request: "CheckRequest", Response: "CheckResponse"},
		{Method: "POST", Path: "/v1/decode", Name: "decode", Work: (*server).decode,
			Summary: "Rebuild the dataset of an ISOLDA document and write it in an RDF syntax (isolda decode -t)",
			Request: "DecodeRequest", Response: "DecodeResponse"},
		{Method: "POST", Path: "/v1/tokens", Name: "tokens", Work: (*server).tokens,
			Summary: "Count the tokens of a text with a named tokenizer (isolda tokens)",
			Request: "TokensRequest", Response: "TokensResponse"},
		{Method: "POST", Path: "/v1/chunk", Name: "chunk", Work: (*server).chunk,
			Summary: "Write one document per entity of a graph within a token budget, for retrieval indexes (isolda chunk)",
			Request: "ChunkRequest", Response: "ChunkResponse"},
		{Method: "GET", Path: "/v1/formats", Name: "formats",
			Handler: func(s *server) http.Handler { return http.HandlerFunc(s.formats) },
			Summary: "The format registry", Answer: "The formats", MediaType: "application/json",
			Schema: `{"type": "object", "required": ["formats"], "properties": {"formats": {"type": "array", "items": {"$ref": "#/components/schemas/FormatInfo"}}}}`},
		{Method: "GET", Path: "/healthz", Name: "healthz",
			Handler: func(*server) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
				})
			},
			Summary: "Liveness", Answer: "Alive", MediaType: "application/json",
			Schema: `{"type": "object", "properties": {"status": {"type": "string", "const": "ok"}}}`},
		{Method: "GET", Path: "/metrics", Name: "metrics",
			Handler: func(s *server) http.Handler { return http.HandlerFunc(s.metrics.serve) },
			Summary: "Prometheus text-format metrics: isolda_http_requests_total{endpoint,code}, " +
				"isolda_http_request_duration_seconds histogram, isolda_http_requests_in_flight gauge",
			Answer: "Metrics", MediaType: "text/plain", Schema: `{"type": "string"}`},
		{Method: "GET", Path: "/openapi.json", Name: "openapi",
			Handler: func(*server) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "application/json")
					w.Write(openAPI)
				})
			},
			Summary: "This document", Answer: "OpenAPI 3.1 document", MediaType: "application/json", Schema: `{"type": "object"}`},
		{Method: "GET", Path: "/", Name: "playground",
			Handler: func(s *server) http.Handler { return newPlayground(s.cfg) },
			Summary: "The web playground: one self-contained HTML page (inline style and script allowed by hash in its " +
				"Content-Security-Policy, no external sources) that calls /v1/formats, /v1/serialize and /v1/check",
			Answer: "The page", MediaType: "text/html", Schema: `{"type": "string"}`},
		// Browsers ask for a site icon on their own; an empty answer keeps
		// their consoles (and the playground's end-to-end test) free of 404
		// errors.
		{Method: "GET", Path: "/favicon.ico", Name: "favicon", Hidden: true,
			Handler: func(*server) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Cache-Control", "public, max-age=86400")
					w.WriteHeader(http.StatusNoContent)
				})
			}},
	}
}

// pattern is the endpoint's http.ServeMux pattern.
func (e endpoint) pattern() string {
	p := e.Method + " " + e.Path
	if strings.HasSuffix(e.Path, "/") {
		p += "{$}"
	}
	return p
}

// handler returns the endpoint's handler in s, before instrumentation.
func (e endpoint) handler(s *server) http.Handler {
	if e.Work != nil {
		return s.work(e.Name, func(req *request) (any, *apiError) { return e.Work(s, req) })
	}
	return e.Handler(s)
}

// workOf returns the work of the endpoint named name, for a worker
// process; nil when no endpoint of that name has work.
func workOf(name string) func(*server, *request) (any, *apiError) {
	for _, e := range endpoints() {
		if e.Name == name && e.Work != nil {
			return e.Work
		}
	}
	return nil
}

// Routes returns the method and path of every endpoint, in a fixed order.
func Routes() []string {
	var out []string
	for _, e := range endpoints() {
		if !e.Hidden {
			out = append(out, e.Method+" "+e.Path)
		}
	}
	return out
}
