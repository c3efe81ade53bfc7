package server

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// hostPolicy decides the Host headers a server answers, so that a web
// page on another site cannot reach a local server through a name that
// resolves to it (DNS rebinding: the browser sends the attacker's name as
// Host). See Config.AllowedHosts.
type hostPolicy struct {
	any bool
	// port is the port a Host must name ("" when the listen address's
	// port is not known); a Host without a port stands for port 80.
	port string
	// names are the allowed host names, lower case, IPv6 without
	// brackets; a name with a port in ports must come with that port.
	names map[string]bool
	ports map[string]string
	// ipLiterals accepts any IP address as Host (never a rebinding).
	ipLiterals bool
}

// CheckHosts reports whether a listen address and an allowed host list
// are well formed (New panics on those that are not).
func CheckHosts(listenAddr string, allowed []string) error {
	_, err := newHostPolicy(listenAddr, allowed)
	return err
}

func newHostPolicy(listen string, allowed []string) (hostPolicy, error) {
	p := hostPolicy{names: map[string]bool{}, ports: map[string]string{}}
	if len(allowed) > 0 {
		for _, a := range allowed {
			if a == "*" {
				p.any = true
				continue
			}
			host, port, err := splitHost(a)
			if err != nil || !validHost(host) {
				return p, fmt.Errorf("allowed host %q: want a name, name:port or *", a)
			}
			p.names[host] = true
			if port != "" {
				p.ports[host] = port
			}
		}
		return p, nil
	}
	if listen == "" {
		p.any = true
		return p, nil
	}
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return p, fmt.Errorf("listen address %q: %v", listen, err)
	}
	p.port = port
	host = strings.ToLower(host)
	ip, ipErr := netip.ParseAddr(host)
	switch {
	case host == "localhost" || ipErr == nil && ip.IsLoopback():
		for _, n := range []string{"localhost", "127.0.0.1", "::1"} {
			p.names[n] = true
		}
	case host == "" || ipErr == nil && ip.IsUnspecified():
		p.ipLiterals = true
		p.names["localhost"] = true
	default:
		p.names[host] = true
	}
	return p, nil
}

// splitHost splits a Host header value into a lower-case host (IPv6
// without brackets, no trailing dot) and a port ("" when none).
func splitHost(h string) (host, port string, err error) {
	rest := ""
	switch {
	case strings.HasPrefix(h, "["):
		end := strings.IndexByte(h, ']')
		if end < 0 {
			return "", "", fmt.Errorf("%q: no closing bracket", h)
		}
		host, rest = h[1:end], h[end+1:]
	case strings.Count(h, ":") == 1:
		i := strings.IndexByte(h, ':')
		host, rest = h[:i], h[i:]
	default: // a name, or an IPv6 address without brackets
		host = h
	}
	if rest != "" {
		port = strings.TrimPrefix(rest, ":")
		if port == rest || port == "" || strings.Trim(port, "0123456789") != "" {
			return "", "", fmt.Errorf("%q: bad port", h)
		}
	}
	return strings.TrimSuffix(strings.ToLower(host), "."), port, nil
}

// allowed reports whether a request's Host may be answered.
func (p hostPolicy) allowed(h string) bool {
	if p.any {
		return true
	}
	host, port, err := splitHost(h)
	if err != nil || host == "" {
		return false
	}
	if want, ok := p.ports[host]; ok {
		return port == want
	}
	if p.port != "" && port != p.port && !(port == "" && p.port == "80") {
		return false
	}
	if p.names[host] {
		return true
	}
	if p.ipLiterals {
		_, err := netip.ParseAddr(host)
		return err == nil
	}
	return false
}

// validHost reports whether h is an IP address or a DNS name (letters,
// digits, hyphens and dots).
func validHost(h string) bool {
	if _, err := netip.ParseAddr(h); err == nil {
		return true
	}
	if h == "" || strings.Contains(h, "..") {
		return false
	}
	for _, c := range h {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}
