package sparql

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// NormalizeURL returns the normal form of an http or https URL, for
// comparing URLs against an allow-list (RFC 3986 section 6.2.2, syntax-
// and scheme-based normalization): scheme and host in lower case, no
// trailing dot on the host, no default port (80 for http, 443 for https)
// and no leading zeros in a port, percent-encodings of unreserved
// characters decoded and the others in upper case, dot segments removed
// (section 5.2.4, after the decoding, so that %2e%2e is ..), an empty path
// as /, and no fragment.
//
// URLs a server might read otherwise than the normal form says are
// refused with an error: user information (http://allowed@other/),
// backslashes and encoded slashes or backslashes in the path (some servers
// take them for /), dot segments with parameters (..;x, which some servers
// take for ..), encoded control characters, and a path left above the
// root by its dot segments.
func NormalizeURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("not a URL: %w", err)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", errors.New("not an http or https URL")
	}
	if u.Opaque != "" || u.Host == "" {
		return "", errors.New("no host")
	}
	if u.User != nil {
		return "", errors.New("user information (user@host) is not allowed")
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if !validHost(host) {
		return "", fmt.Errorf("bad host %q", u.Hostname())
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port := u.Port(); port != "" {
		n, err := strconv.ParseUint(port, 10, 16)
		if err != nil {
			return "", fmt.Errorf("bad port %q", port)
		}
		if !(scheme == "http" && n == 80 || scheme == "https" && n == 443) {
			host += ":" + strconv.FormatUint(n, 10)
		}
	}
	path, err := normalizePath(u.EscapedPath())
	if err != nil {
		return "", err
	}
	out := scheme + "://" + host + path
	if u.RawQuery != "" || u.ForceQuery {
		q, err := normalizeEscapes(u.RawQuery, false)
		if err != nil {
			return "", err
		}
		out += "?" + q
	}
	return out, nil
}

// normalizePath normalizes an escaped path: unreserved characters
// decoded, other escapes in upper case, dot segments removed.
func normalizePath(p string) (string, error) {
	if strings.ContainsRune(p, '\\') {
		return "", errors.New("a backslash in the path")
	}
	p, err := normalizeEscapes(p, true)
	if err != nil {
		return "", err
	}
	if p == "" {
		return "/", nil
	}
	segs := strings.Split(p, "/")
	// segs[0] is empty: the path is absolute.
	out := make([]string, 0, len(segs))
	for i, s := range segs[1:] {
		last := i == len(segs)-2
		name, _, params := strings.Cut(s, ";")
		switch {
		case params && (name == "." || name == ".."):
			return "", errors.New("a dot segment with parameters in the path")
		case name == ".":
			if last {
				out = append(out, "")
			}
		case name == "..":
			if len(out) == 0 {
				return "", errors.New("the path goes above the root")
			}
			out = out[:len(out)-1]
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	return "/" + strings.Join(out, "/"), nil
}

// normalizeEscapes decodes the percent-encodings of unreserved characters
// (RFC 3986 section 2.3) and writes the others in upper case. Encoded
// control characters are refused, and in a path (inPath) encoded slashes
// and backslashes too.
func normalizeEscapes(s string, inPath bool) (string, error) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return "", errors.New("a bad percent-encoding")
		}
		c := unhex(s[i+1])<<4 | unhex(s[i+2])
		switch {
		case c < 0x20 || c == 0x7f:
			return "", errors.New("an encoded control character")
		case inPath && (c == '/' || c == '\\'):
			return "", errors.New("an encoded slash or backslash in the path")
		case unreserved(c):
			b.WriteByte(c)
		default:
			b.WriteString(strings.ToUpper(s[i : i+3]))
		}
		i += 2
	}
	return b.String(), nil
}

// validHost reports whether h is an IP address or a DNS name of
// non-empty labels of letters, digits, hyphens and underscores.
func validHost(h string) bool {
	if ip, err := netip.ParseAddr(h); err == nil {
		return ip.Zone() == "" // a zone is local to one machine's view
	}
	if h == "" {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// AllowedURL reports whether u is under one of the prefixes, comparing
// normal forms (NormalizeURL) at a path boundary: the prefix
// http://h/sparql allows http://h/sparql, http://h/sparql?x and
// http://h/sparql/x, not http://h/sparqlx, http://h/sparql/../private or
// http://h:8890/sparql; a prefix ending in / allows what is under it, and
// one with a query more parameters after "&". A URL
// or prefix that NormalizeURL refuses matches nothing.
func AllowedURL(prefixes []string, u string) bool {
	nu, err := NormalizeURL(u)
	if err != nil {
		return false
	}
	for _, p := range prefixes {
		np, err := NormalizeURL(p)
		if err != nil || !strings.HasPrefix(nu, np) {
			continue
		}
		rest := nu[len(np):]
		if rest == "" || strings.HasSuffix(np, "/") || rest[0] == '/' || rest[0] == '?' ||
			rest[0] == '&' && strings.Contains(np, "?") {
			return true
		}
	}
	return false
}
