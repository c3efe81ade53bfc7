package server_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/isolda/isolda/server"
)

// A client posts a Turtle graph and asks for N-Triples.
func Example() {
	srv := httptest.NewServer(server.New(server.Config{}))
	defer srv.Close()
	body := `{"graph": {"data": "@prefix ex: <http://example.org/> . ex:a ex:name \"A\" .", "format": "ttl"},
	          "format": "ntriples"}`
	resp, err := srv.Client().Post(srv.URL+"/v1/serialize", "application/json", strings.NewReader(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var out server.SerializeResponse
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.StatusCode, out.Quads, out.Lossless)
	fmt.Print(out.Text)
	// Output:
	// 200 1 true
	// <http://example.org/a> <http://example.org/name> "A" .
}
