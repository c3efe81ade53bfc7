package rdf

import "strings"

// iriParts is an IRI split into the five components of RFC 3986 §3. The
// has* flags distinguish an empty component from an absent one.
type iriParts struct {
	scheme, authority, path, query, fragment       string
	hasScheme, hasAuthority, hasQuery, hasFragment bool
}

func splitIRI(s string) iriParts {
	var p iriParts
	// scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ':' {
			if i > 0 {
				p.scheme, p.hasScheme, s = s[:i], true, s[i+1:]
			}
			break
		}
		isAlpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !(isAlpha || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			break
		}
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		p.fragment, p.hasFragment, s = s[i+1:], true, s[:i]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		p.query, p.hasQuery, s = s[i+1:], true, s[:i]
	}
	if strings.HasPrefix(s, "//") {
		s = s[2:]
		i := strings.IndexByte(s, '/')
		if i < 0 {
			i = len(s)
		}
		p.authority, p.hasAuthority, s = s[:i], true, s[i:]
	}
	p.path = s
	return p
}

func (p iriParts) String() string {
	var b strings.Builder
	if p.hasScheme {
		b.WriteString(p.scheme)
		b.WriteByte(':')
	}
	if p.hasAuthority {
		b.WriteString("//")
		b.WriteString(p.authority)
	}
	b.WriteString(p.path)
	if p.hasQuery {
		b.WriteByte('?')
		b.WriteString(p.query)
	}
	if p.hasFragment {
		b.WriteByte('#')
		b.WriteString(p.fragment)
	}
	return b.String()
}

// IsAbsoluteIRI reports whether s starts with a scheme.
func IsAbsoluteIRI(s string) bool { return splitIRI(s).hasScheme }

// ResolveIRI resolves ref against base by the algorithm of RFC 3986 §5.2
// (strict: a scheme in ref always wins). A ref with a scheme is an IRI, not
// a relative reference, and is returned as it is: RFC 3986 would remove its
// dot segments ("http://a/./b" → "http://a/b"), but RDF terms are compared
// as strings and N-Triples and JSON-LD keep them, so every reader keeps
// them. An empty base leaves ref as it is.
func ResolveIRI(base, ref string) string {
	r := splitIRI(ref)
	if r.hasScheme {
		return ref
	}
	if base == "" {
		return ref
	}
	b := splitIRI(base)
	var t iriParts
	switch {
	case r.hasAuthority:
		t.authority, t.hasAuthority = r.authority, true
		t.path = removeDotSegments(r.path)
		t.query, t.hasQuery = r.query, r.hasQuery
	case r.path == "":
		t.path = b.path
		if r.hasQuery {
			t.query, t.hasQuery = r.query, true
		} else {
			t.query, t.hasQuery = b.query, b.hasQuery
		}
		t.authority, t.hasAuthority = b.authority, b.hasAuthority
	default:
		if strings.HasPrefix(r.path, "/") {
			t.path = removeDotSegments(r.path)
		} else {
			t.path = removeDotSegments(mergePaths(b, r.path))
		}
		t.query, t.hasQuery = r.query, r.hasQuery
		t.authority, t.hasAuthority = b.authority, b.hasAuthority
	}
	t.scheme, t.hasScheme = b.scheme, b.hasScheme
	t.fragment, t.hasFragment = r.fragment, r.hasFragment
	return t.String()
}

// mergePaths implements RFC 3986 §5.2.3.
func mergePaths(base iriParts, ref string) string {
	if base.hasAuthority && base.path == "" {
		return "/" + ref
	}
	if i := strings.LastIndexByte(base.path, '/'); i >= 0 {
		return base.path[:i+1] + ref
	}
	return ref
}

// removeDotSegments implements RFC 3986 §5.2.4.
func removeDotSegments(in string) string {
	if !strings.Contains(in, ".") {
		return in
	}
	var out []string // output segments, each starting with "/" except maybe the first
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		case in == "/..":
			in = "/"
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		case in == "." || in == "..":
			in = ""
		default:
			start := 0
			if in[0] == '/' {
				start = 1
			}
			i := strings.IndexByte(in[start:], '/')
			if i < 0 {
				i = len(in)
			} else {
				i += start
			}
			out = append(out, in[:i])
			in = in[i:]
		}
	}
	return strings.Join(out, "")
}

// CheckIRI returns a description of why s is not a valid absolute IRI
// reference for RDF (no scheme, or a character that IRIs may not contain
// such as a space, <, >, ", {, }, |, ^, ` or \), or "" when it is valid.
// Readers keep such IRIs from messy web data and report this as a warning.
func CheckIRI(s string) string {
	if !IsAbsoluteIRI(s) {
		return "IRI " + QuoteLiteral(s) + " is not absolute (it has no scheme such as http:)"
	}
	if strings.Count(s, "#") > 1 {
		return "IRI " + QuoteLiteral(s) + " has a second \"#\" in its fragment, which IRIs may not contain"
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c <= 0x20, c == '<', c == '>', c == '"', c == '{', c == '}', c == '|', c == '^', c == '`', c == '\\':
			return "IRI " + QuoteLiteral(s) + " contains the character " + QuoteLiteral(string(c)) + ", which IRIs may not contain"
		}
	}
	return ""
}
