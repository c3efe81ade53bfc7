package sparql

import (
	"strings"
	"testing"
)

// TestNormalizeURL checks normal forms against RFC 3986's examples
// (section 6.2.2) and the refusals.
func TestNormalizeURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"HTTP://Example.COM/a", "http://example.com/a"},
		{"http://example.com", "http://example.com/"},
		{"http://example.com:80/a", "http://example.com/a"},
		{"https://example.com:443/a", "https://example.com/a"},
		{"http://example.com:443/a", "http://example.com:443/a"},
		{"http://example.com:0080/a", "http://example.com/a"},
		{"http://example.com:08890/a", "http://example.com:8890/a"},
		{"http://example.com./a", "http://example.com/a"},
		{"http://example.com/%7Euser/%61%62c", "http://example.com/~user/abc"},
		{"http://example.com/a%2fb%3a", ""}, // an encoded slash
		{"http://example.com/a%3ab%c3%a9", "http://example.com/a%3Ab%C3%A9"},
		{"http://example.com/a/b/c/./../../g", "http://example.com/a/g"}, // RFC 3986 5.2.4
		{"http://example.com/mid/content=5/../6", "http://example.com/mid/6"},
		{"http://example.com/a/.", "http://example.com/a/"},
		{"http://example.com/a/b/..", "http://example.com/a/"},
		{"http://example.com/sparql/%2e%2e/admin", "http://example.com/admin"},
		{"http://example.com/sparql/%2E./admin", "http://example.com/admin"},
		{"http://example.com/sparql?query=%61&x=%2f", "http://example.com/sparql?query=a&x=%2F"},
		{"http://example.com/a#frag", "http://example.com/a"},
		{"http://[::1]:8890/sparql", "http://[::1]:8890/sparql"},
		{"http://h%6Fst/a", ""}, // Go refuses escapes in host names
		{"http://user@example.com/", ""},
		{"http://example.com:80@evil.example/", ""},
		{"http://example.com/a\\..\\b", ""},
		{"http://example.com/a/%5c../b", ""},
		{"http://example.com/a/..;/b", ""},
		{"http://example.com/../a", ""},
		{"http://example.com/%00", ""},
		{"http://example.com/%zz", ""},
		{"ftp://example.com/", ""},
		{"file:///etc/passwd", ""},
		{"/sparql", ""},
		{"http://", ""},
		{"http://example.com:99999/", ""},
		{"mailto:a@example.com", ""},
	}
	for _, c := range cases {
		got, err := NormalizeURL(c.in)
		if c.want == "" {
			if err == nil {
				t.Errorf("NormalizeURL(%q) = %q, want an error", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("NormalizeURL(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
		// Idempotent.
		if again, err := NormalizeURL(got); err != nil || again != got {
			t.Errorf("NormalizeURL(%q) = %q, %v; not idempotent", got, again, err)
		}
	}
}

// TestAllowedURLBypass checks the allow-list against the forms that
// reach another path or host than the one allowed: path traversal, plain
// or encoded, and the forms a prefix comparison of strings already
// refused, which must stay refused.
func TestAllowedURLBypass(t *testing.T) {
	list := []string{"http://host.example:8890/sparql", "https://q.example/"}
	allowed := []string{
		"http://host.example:8890/sparql",
		"http://host.example:8890/sparql?default-graph-uri=x",
		"http://host.example:8890/sparql/",
		"http://host.example:8890/sparql/x",
		"http://HOST.example:8890/sparql",
		"http://host.example.:8890/sparql",
		"http://host.example:08890/sparql",
		"http://host.example:8890/%73parql",
		"http://host.example:8890/other/../sparql",
		"http://host.example:8890/sparql/./x",
		"https://q.example/anything",
		"https://q.example:443/a/b",
	}
	for _, u := range allowed {
		if !AllowedURL(list, u) {
			t.Errorf("%q refused, want allowed", u)
		}
	}
	refused := []string{
		// Path traversal out of the allowed path (the bypasses).
		"http://host.example:8890/sparql/../private/graph",
		"http://host.example:8890/sparql/%2e%2e/admin",
		"http://host.example:8890/sparql/%2E%2E/admin",
		"http://host.example:8890/sparql/.%2e/admin",
		"http://host.example:8890/sparql/..%2fadmin",
		"http://host.example:8890/sparql/%2e%2e%2fadmin",
		"http://host.example:8890/sparql/..;/admin",
		"http://host.example:8890/sparql/..\\admin",
		"http://host.example:8890/sparql/%5c..%5cadmin",
		"http://host.example:8890/sparql/x/../../admin",
		// The forms the string prefix already refused.
		"http://host.example:8890/sparqlx",
		"http://host.example:8890/sparql2",
		"http://host.example:8890/",
		"http://host.example:88901/sparql",
		"http://host.example/sparql",
		"https://host.example:8890/sparql",
		"http://host.example.evil:8890/sparql",
		"http://evil.example:8890/sparql",
		"http://host.example:8890@evil.example/sparql",
		"http://host.example:8890/sparql@evil.example",
		"http://user@host.example:8890/sparql",
		"http://169.254.169.254/sparql",
		"http://127.0.0.1:8890/sparql",
		"http://[::1]:8890/sparql",
		"http://2130706433:8890/sparql",
		"https://q.example.evil/",
		"http://q.example/",
		"file:///etc/passwd",
		"gopher://host.example:8890/sparql",
		"",
	}
	for _, u := range refused {
		if AllowedURL(list, u) {
			t.Errorf("%q allowed, want refused", u)
		}
	}
	if AllowedURL([]string{""}, "http://x/") {
		t.Error("an empty prefix allows everything")
	}
	if AllowedURL([]string{"http://h/sparql/../admin"}, "http://h/admin") == false {
		t.Error("a prefix is normalized too")
	}
}

// FuzzNormalizeURL checks normal forms are fixed points, hold no dot
// segment, and that a URL allowed under a prefix is, in normal form,
// under the prefix's normal form at a path boundary.
func FuzzNormalizeURL(f *testing.F) {
	for _, s := range []string{"http://h/sparql", "http://h/sparql/../x", "http://h/sparql/%2e%2e/a", "HTTP://H:80/a/./b",
		"http://h/a%41%2F", "https://[::1]:443/x?y#z", "http://h/sparql/..;/a"} {
		f.Add(s)
	}
	prefix := "http://h/sparql"
	f.Fuzz(func(t *testing.T, u string) {
		n, err := NormalizeURL(u)
		if err != nil {
			return
		}
		again, err := NormalizeURL(n)
		if err != nil || again != n {
			t.Fatalf("NormalizeURL(%q) = %q, then %q, %v", u, n, again, err)
		}
		path := n[len("http://"):]
		if i := strings.IndexAny(path, "?"); i >= 0 {
			path = path[:i]
		}
		for _, seg := range strings.Split(path, "/") {
			if seg == "." || seg == ".." {
				t.Fatalf("NormalizeURL(%q) = %q holds a dot segment", u, n)
			}
		}
		if AllowedURL([]string{prefix}, u) {
			rest, ok := strings.CutPrefix(n, prefix)
			if !ok || rest != "" && rest[0] != '/' && rest[0] != '?' {
				t.Fatalf("%q allowed under %s, normal form %q", u, prefix, n)
			}
		}
	})
}
