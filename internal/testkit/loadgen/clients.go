package loadgen

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"
)

// Many clients on one machine: a server that shares its capacity by
// client (IP address), such as `isolda serve`, sees every connection of a
// load test from 127.0.0.1 as one client. On Linux every address of
// 127.0.0.0/8 is the loopback interface's, so a load test can send from
// many: client k of a group binds its connections to 127.G.x.y.

// ClientAddr returns the loopback source address of client k (from 0) of
// group g (1 to 254): 127.g.(k/250).(k%250+1), for up to 64,000 clients.
func ClientAddr(g, k int) net.IP {
	return net.IPv4(127, byte(g), byte(k/250), byte(k%250+1))
}

// loopbackTarget reports whether rawURL's host is a loopback IP literal
// or localhost (only then can the source address be any of 127.0.0.0/8).
func loopbackTarget(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.To4() != nil && ip.IsLoopback()
}

// ClientsFrom returns n HTTP clients, client k sending from ClientAddr(g,
// k), each with at most perClient connections, keep-alive and no
// compression. It fails unless target (a URL) is on a loopback address.
func ClientsFrom(target string, g, n, perClient int, timeout time.Duration) ([]*http.Client, error) {
	if !loopbackTarget(target) {
		return nil, fmt.Errorf("loadgen: clients from many addresses need a loopback target (127.0.0.1 or localhost), not %s", target)
	}
	if g < 1 || g > 254 || n < 1 || n > 64_000 {
		return nil, fmt.Errorf("loadgen: client group %d or count %d out of range", g, n)
	}
	out := make([]*http.Client, n)
	for k := range out {
		d := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second, LocalAddr: &net.TCPAddr{IP: ClientAddr(g, k)}}
		out[k] = &http.Client{Transport: &http.Transport{
			Proxy:               nil,
			DialContext:         d.DialContext,
			MaxIdleConns:        perClient,
			MaxIdleConnsPerHost: perClient,
			MaxConnsPerHost:     perClient,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
		}}
	}
	return out, nil
}
