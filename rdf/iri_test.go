package rdf

import "testing"

// The normal and abnormal examples of RFC 3986 §5.4, an independent oracle.
func TestResolveIRIRFC3986(t *testing.T) {
	base := "http://a/b/c/d;p?q"
	cases := map[string]string{
		"g:h": "g:h", "g": "http://a/b/c/g", "./g": "http://a/b/c/g", "g/": "http://a/b/c/g/",
		"/g": "http://a/g", "//g": "http://g", "?y": "http://a/b/c/d;p?y", "g?y": "http://a/b/c/g?y",
		"#s": "http://a/b/c/d;p?q#s", "g#s": "http://a/b/c/g#s", "g?y#s": "http://a/b/c/g?y#s",
		";x": "http://a/b/c/;x", "g;x": "http://a/b/c/g;x", "g;x?y#s": "http://a/b/c/g;x?y#s",
		"": "http://a/b/c/d;p?q", ".": "http://a/b/c/", "./": "http://a/b/c/", "..": "http://a/b/",
		"../": "http://a/b/", "../g": "http://a/b/g", "../..": "http://a/", "../../": "http://a/",
		"../../g":    "http://a/g",
		"../../../g": "http://a/g", "../../../../g": "http://a/g", "/./g": "http://a/g",
		"/../g": "http://a/g", "g.": "http://a/b/c/g.", ".g": "http://a/b/c/.g", "g..": "http://a/b/c/g..",
		"..g": "http://a/b/c/..g", "./../g": "http://a/b/g", "./g/.": "http://a/b/c/g/",
		"g/./h": "http://a/b/c/g/h", "g/../h": "http://a/b/c/h", "g;x=1/./y": "http://a/b/c/g;x=1/y",
		"g;x=1/../y": "http://a/b/c/y", "g?y/./x": "http://a/b/c/g?y/./x", "g?y/../x": "http://a/b/c/g?y/../x",
		"g#s/./x": "http://a/b/c/g#s/./x", "g#s/../x": "http://a/b/c/g#s/../x", "http:g": "http:g",
	}
	for ref, want := range cases {
		if got := ResolveIRI(base, ref); got != want {
			t.Errorf("ResolveIRI(%q, %q) = %q, want %q", base, ref, got, want)
		}
	}
}

func TestCheckIRI(t *testing.T) {
	valid := []string{"http://example.org/a#b", "urn:x", "file:///tmp/a%20b", "http://é.example/ü"}
	invalid := []string{"relative/path", "http://x/{search_term_string}", "http://x/a b", "http://x/#a#b", "http://x/<", "http://x/\\"}
	for _, s := range valid {
		if msg := CheckIRI(s); msg != "" {
			t.Errorf("CheckIRI(%q) = %q, want valid", s, msg)
		}
	}
	for _, s := range invalid {
		if CheckIRI(s) == "" {
			t.Errorf("CheckIRI(%q) accepted an invalid IRI", s)
		}
	}
}
