package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// FuzzServe sends arbitrary bodies to the POST endpoints: the answer must be
// a documented status with a JSON body, never a panic or another 5xx.
func FuzzServe(f *testing.F) {
	seeds := []string{
		`{"graph": {"data": "<http://a> <http://b> <http://c> ."}}`,
		`{"graph": {"data": "@prefix ex: <http://e/> . ex:a ex:b [ ex:c (1 2 3) ] .", "format": "ttl"}, "budget": 5}`,
		`{"graph": {"data": "@prefix ex: <http://e/> . ex:a a ex:T ; ex:n \"x\" .", "format": "ttl"}, "budget": 20, "truncation": "raw"}`,
		`{"graph": {"data": "{\"@id\": \"http://a\", \"http://b\": \"c\"}", "format": "jsonld"}, "formats": ["isolda", "csv"]}`,
		`{"graph": {"data": "<http://a> <http://b> \"x\" <http://g> .", "format": "nq"}, "options": {"version": "0.3", "layout": "blocks"}}`,
		`{"graph": {"data": "<r:RDF xmlns:r=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"/>"}}`,
		`{"graph": {"data": "_:a <http://p> _:b . _:b <http://p> _:a ."}, "anchor": "http://a", "options": {"hops": 2}}`,
		`{"graph": {"data": ""}, "tokenizer": "cl100k_base"}`,
		`{`, `[]`, `null`, ``,
	}
	for i, s := range seeds {
		f.Add([]byte(s), uint8(i))
	}
	h := New(Config{MaxRequestBytes: 1 << 16, MaxQuads: 2000, Timeout: 5 * time.Second, MaxConcurrent: 4})
	paths := []string{"/v1/serialize", "/v1/compare", "/v1/check"}
	for i, s := range []string{
		"@prefix ex: <http://e/> .\nex:a a ex:T ; ex:name \"A\" ; ex:knows ex:b .\nex:b a ex:T ; ex:name \"B\" .\n",
		"<http://a> <http://b> \"x\"@en .\n<http://a> <http://c> _:b .\n_:b <http://d> \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n",
	} {
		f.Add([]byte(s), uint8(0x80|i*7))
	}
	f.Fuzz(func(t *testing.T, body []byte, which uint8) {
		if which&0x80 != 0 {
			// The bytes are a graph in a well-formed request, serialized
			// in ISOLDA or N-Triples within a budget.
			req := SerializeRequest{Graph: &Graph{Data: string(body)}, Budget: int(which&0x3f) * 5}
			if which&0x40 != 0 {
				req.Format = "ntriples"
				req.Truncation = "raw"
			}
			b, err := json.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			body, which = b, 0
		}
		path := paths[int(which)%len(paths)]
		if path == "/v1/compare" && !strings.Contains(string(body), `"formats"`) {
			// Every format of the registry on each input is slow for a
			// fuzzer; compare with a few formats is what it exercises.
			path = "/v1/serialize"
		}
		req := httptest.NewRequest("POST", path, strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK, http.StatusBadRequest, http.StatusRequestEntityTooLarge,
			http.StatusUnprocessableEntity, http.StatusTooManyRequests:
		case http.StatusServiceUnavailable:
			// A documented timeout; the body says so.
			if !strings.Contains(rec.Body.String(), "time limit") {
				t.Fatalf("%s %q: 503 %s", path, body, rec.Body)
			}
		default:
			t.Fatalf("%s %q: status %d %s", path, body, rec.Code, rec.Body)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
			t.Fatalf("%s: content type %q", path, ct)
		}
	})
}
