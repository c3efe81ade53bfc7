package loadgen

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A hostile mix runs beside a load test's normal traffic: requests a
// hostile or careless client sends to an `isolda serve`, each of which the
// server must answer (with an error, mostly) without dying, without
// exceeding its memory limit and without hurting the normal traffic's
// latency more than its CPU share explains.

// Attack is one kind of hostile request.
type Attack struct {
	// Name names the attack in the results.
	Name string
	// Want says what the server should answer: the statuses that count
	// as handled (any 4xx, 200, and 503 with Retry-After are handled for
	// most attacks; a transport error or a 500 never is).
	Want string
	// send makes one attack on the server at base (http://host:port)
	// and returns the status, StatusTransport when the request failed
	// below HTTP, and whether the answer is one of Want.
	send func(ctx context.Context, c *http.Client, base string, i int) (status int, handled bool)
}

// Poison and size parameters of the built-in attacks.
const (
	// poisonItems is the length of the lists, rings and value arrays of
	// the poison graphs: a 10,000-item list is the 20 KB request that ran
	// the server out of memory in 5.4 s.
	poisonItems = 10_000
	// largeQuads is the size of the large graph within the default
	// limits (200,000 quads, 8 MiB): the 190k-quad /v1/compare that peaked
	// at 3.2 GB with 8 at once.
	largeQuads = 190_000
	// slowBodyBytes is the Content-Length a slow body announces; it sends
	// one byte a second.
	slowBodyBytes = 10_000
)

// turtleList is `ex:a ex:p ( 1 1 … )` with n items.
func turtleList(n int) string {
	var b strings.Builder
	b.WriteString("@prefix ex: <http://example.org/> .\nex:a ex:p (")
	for range n {
		b.WriteString(" 1")
	}
	b.WriteString(" ) .\n")
	return b.String()
}

// blankRing is a ring of n blank nodes in N-Triples.
func blankRing(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "_:b%d <http://example.org/next> _:b%d .\n", i, (i+1)%n)
	}
	return b.String()
}

// blankClique is a k-clique of blank nodes in N-Triples.
func blankClique(k int) string {
	var b strings.Builder
	for i := range k {
		for j := range k {
			if i != j {
				fmt.Fprintf(&b, "_:c%d <http://example.org/p> _:c%d .\n", i, j)
			}
		}
	}
	return b.String()
}

// jsonldValues is one JSON-LD node with n values of one property.
func jsonldValues(n int) string {
	var b strings.Builder
	b.WriteString(`{"@id": "http://example.org/a", "http://example.org/v": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"value %d"`, i)
	}
	b.WriteString("]}")
	return b.String()
}

// nestedBlanks is Turtle with n nested blank node property lists.
func nestedBlanks(n int) string {
	return "@prefix ex: <http://example.org/> .\nex:a ex:p " + strings.Repeat("[ ex:p ", n) + "1" + strings.Repeat(" ]", n) + " .\n"
}

// LargeTurtle is a Turtle graph of about quads quads (four per entity: a
// type, a label, a number and a link), about 22 bytes a quad.
func LargeTurtle(quads int) string {
	var b strings.Builder
	b.WriteString("@prefix ex: <http://example.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n")
	n := quads / 4
	for i := range n {
		fmt.Fprintf(&b, "ex:e%d a ex:C%d ; rdfs:label \"e %d\" ; ex:n %d ; ex:x ex:e%d .\n", i, i%7, i, i, (i+1)%n)
	}
	return b.String()
}

// jsonString quotes s as a JSON string.
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// graphBody is a request body with the graph data in the syntax format and
// the rest of the fields (a JSON object's members, without braces).
func graphBody(data, format, rest string) []byte {
	s := `{"graph": {"data": ` + jsonString(data) + `, "format": "` + format + `"}`
	if rest != "" {
		s += ", " + rest
	}
	return []byte(s + "}")
}

// handled reports whether an answer of status to a hostile request is a
// handled one: an answer, not a transport error, and no 5xx but the 503 of
// a time limit or a taken memory budget.
func handled(status int) bool {
	return status >= 200 && status < 500 || status == http.StatusServiceUnavailable
}

// postAttack is an attack that posts body to path with content type ct
// and extra headers.
func postAttack(name, path, ct string, body []byte, header http.Header) Attack {
	return Attack{Name: name, Want: "an answer: 2xx, 4xx or 503",
		send: func(ctx context.Context, c *http.Client, base string, _ int) (int, bool) {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+path, bytes.NewReader(body))
			if err != nil {
				return StatusTransport, false
			}
			if ct != "" {
				req.Header.Set("Content-Type", ct)
			}
			for k, v := range header {
				req.Header[k] = slices.Clone(v)
			}
			resp, err := c.Do(req)
			if err != nil {
				return StatusTransport, false
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return resp.StatusCode, handled(resp.StatusCode)
		}}
}

// Attacks returns the built-in hostile mix, in the order a run cycles
// through it: poison graphs (long lists of identical items, a blank node
// ring, a clique, one subject with many JSON-LD values, deep nesting),
// large graphs within the default limits, slow bodies, and malformed
// requests (bad JSON, wrong content type, foreign Host, null, type errors,
// huge terms, a gzip bomb).
func Attacks() []Attack {
	list := turtleList(poisonItems)
	large := LargeTurtle(largeQuads)
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	zero := make([]byte, 1<<20)
	for range 256 {
		zw.Write(zero)
	}
	zw.Close()
	malformed := []struct {
		ct, host string
		body     []byte
	}{
		{"application/json", "", []byte(`{"graph": {"data": "<a> <b> `)},
		{"text/plain", "", graphBody("<http://a> <http://b> <http://c> .", "nt", "")},
		{"application/json", "rebind.attacker.example", graphBody("<http://a> <http://b> <http://c> .", "nt", "")},
		{"application/json", "", []byte("null")},
		{"application/json", "", []byte("{}")},
		{"application/json", "", []byte(`{"graph": {"data": ""}, "budget": "lots"}`)},
		{"application/json", "", []byte(`{"graph": {"data": ""}, "` + strings.Repeat("k", 1<<20) + `": 1}`)},
		{"application/json", "", graphBody("<http://a/"+strings.Repeat("x", 4<<20)+" > <http://b> <http://c> .", "nt", "")},
		{"application/json", "", []byte(strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000))},
		{"application/json", "", append([]byte(`{"graph": {"data": "`), 0xff, 0xfe, '"', '}', '}')},
		{"application/json", "", graphBody(`{"@context": "http://169.254.169.254/latest/meta-data/", "@id": "http://a", "x": 1}`, "jsonld", "")},
		{"application/json", "", graphBody(`{"@context": "file:///etc/passwd", "@id": "http://a", "x": 1}`, "jsonld", "")},
		{"application/json", "", graphBody("<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><!DOCTYPE x [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">]></rdf:RDF>", "rdfxml", "")},
	}
	return []Attack{
		postAttack("list-isolda", "/v1/serialize", "application/json", graphBody(list, "ttl", ""), nil),
		postAttack("list-turtle", "/v1/serialize", "application/json", graphBody(list, "ttl", `"format": "turtle"`), nil),
		postAttack("ring", "/v1/serialize", "application/json", graphBody(blankRing(poisonItems/2), "nt", ""), nil),
		postAttack("clique", "/v1/serialize", "application/json", graphBody(blankClique(12), "nt", `"format": "ntriples"`), nil),
		postAttack("jsonld-values", "/v1/serialize", "application/json", graphBody(jsonldValues(2*poisonItems), "jsonld", `"format": "jsonld"`), nil),
		postAttack("deep", "/v1/serialize", "application/json", graphBody(nestedBlanks(5000), "ttl", ""), nil),
		postAttack("large-compare", "/v1/compare", "application/json", graphBody(large, "ttl", `"formats": ["isolda", "turtle", "jsonld", "csv"]`), nil),
		postAttack("large-serialize", "/v1/serialize", "application/json", graphBody(large, "ttl", `"budget": 5000`), nil),
		slowBodyAttack(),
		postAttack("gzip-bomb", "/v1/serialize", "application/json", bomb.Bytes(), http.Header{"Content-Encoding": {"gzip"}}),
		{Name: "malformed", Want: "4xx (503 for a large one when the large slots are taken)", send: func(ctx context.Context, c *http.Client, base string, i int) (int, bool) {
			m := malformed[i%len(malformed)]
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/serialize", bytes.NewReader(m.body))
			if err != nil {
				return StatusTransport, false
			}
			req.Header.Set("Content-Type", m.ct)
			if m.host != "" {
				req.Host = m.host
			}
			resp, err := c.Do(req)
			if err != nil {
				return StatusTransport, false
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return resp.StatusCode, resp.StatusCode >= 400 && resp.StatusCode < 500 ||
				resp.StatusCode == http.StatusServiceUnavailable && len(m.body) > 1<<20
		}},
	}
}

// Sizes of the expensive attacks: valid requests within the default
// limits, each costing seconds of CPU and hundreds of MB.
const (
	// expensiveListItems is the length of the 0.5 MB Turtle list (two quads
	// an item: 180,001 quads, under the 200,000 of the limit).
	expensiveListItems = 90_000
	// expensiveQuads is the size of the 2 MB Turtle graph.
	expensiveQuads = 110_000
)

// ExpensiveAttacks returns valid but expensive requests, as a client that
// wants to take a server's capacity sends them: "list-0.5mb" posts a
// 0.5 MB Turtle list of 90,000 items (180,001 quads; its body is under
// `isolda serve`'s --isolate-bytes, so only its parse tells it is large)
// to /v1/serialize, and "large-2mb" a 2 MB Turtle graph of 110,000 quads
// (a body a server sends to a child process). They are not in Attacks'
// default mix; name them with AttacksNamed.
func ExpensiveAttacks() []Attack {
	var list strings.Builder
	list.WriteString("@prefix ex: <http://example.org/> .\nex:a ex:p (")
	for range expensiveListItems {
		list.WriteString(" ex:i")
	}
	list.WriteString(" ) .\n")
	return []Attack{
		postAttack("list-0.5mb", "/v1/serialize", "application/json", graphBody(list.String(), "ttl", ""), nil),
		postAttack("large-2mb", "/v1/serialize", "application/json", graphBody(LargeTurtle(expensiveQuads), "ttl", ""), nil),
	}
}

// AllAttacks returns Attacks and ExpensiveAttacks.
func AllAttacks() []Attack { return append(Attacks(), ExpensiveAttacks()...) }

// slowBodyAttack announces a body of slowBodyBytes and sends it one byte a
// second, as the clients that once held every concurrency slot did; the
// server should answer 408 once the rate is too low.
func slowBodyAttack() Attack {
	return Attack{Name: "slow-body", Want: "408", send: func(ctx context.Context, _ *http.Client, base string, _ int) (int, bool) {
		u, err := url.Parse(base)
		if err != nil {
			return StatusTransport, false
		}
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", u.Host)
		if err != nil {
			return StatusTransport, false
		}
		defer c.Close()
		stop := context.AfterFunc(ctx, func() { c.SetDeadline(time.Now()) })
		defer stop()
		fmt.Fprintf(c, "POST /v1/serialize HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", u.Host, slowBodyBytes)
		answered := make(chan int, 1)
		go func() {
			line, err := bufio.NewReader(c).ReadString('\n')
			f := strings.Fields(line)
			code := StatusTransport
			if err == nil && len(f) >= 2 {
				if n, err := strconv.Atoi(f[1]); err == nil {
					code = n
				}
			}
			answered <- code
		}()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for range slowBodyBytes {
			select {
			case code := <-answered:
				return code, code == http.StatusRequestTimeout
			case <-tick.C:
				if _, err := c.Write([]byte(" ")); err != nil {
					code := <-answered
					return code, code == http.StatusRequestTimeout
				}
			case <-ctx.Done():
				return StatusTransport, false
			}
		}
		code := <-answered
		return code, code == http.StatusRequestTimeout
	}}
}

// HostileConfig describes a hostile mix.
type HostileConfig struct {
	// Base is the server's URL, scheme and host (http://127.0.0.1:8080).
	Base string
	// Rate is the attacks started per second, cycling through Mix.
	Rate float64
	// Duration is how long attacks are started.
	Duration time.Duration
	// MaxInFlight bounds the attacks in progress (default 16); an attack
	// due while all are busy is skipped and counted.
	MaxInFlight int
	// Timeout bounds one attack (default 60 s).
	Timeout time.Duration
	// Mix are the attacks (default Attacks()).
	Mix []Attack
	// Clients, when positive, replaces Rate: that many clients, each from
	// a loopback address of its own (ClientsFrom, group 2), send the
	// attacks of Mix one after the other in a closed loop (client k
	// starting at attack k), without waiting for any Retry-After, until
	// Duration is over. Base must be on loopback. Pause is what a client
	// waits after each answer (0: none, a tight loop).
	Clients int
	Pause   time.Duration
}

// AttackResult counts the answers to one kind of attack.
type AttackResult struct {
	Name string `json:"name"`
	Want string `json:"want"`
	// Sent attacks, those Handled as Want says, the answers by status
	// (0: transport error), and the time to the answer.
	Sent    int         `json:"sent"`
	Handled int         `json:"handled"`
	Status  map[int]int `json:"status"`
	Latency Quantiles   `json:"latency"`
}

// HostileResult is the outcome of a hostile mix.
type HostileResult struct {
	Rate     float64       `json:"rate"`
	Duration time.Duration `json:"duration_ns"`
	// Clients is HostileConfig.Clients (closed-loop clients; Rate unused).
	Clients int `json:"clients,omitempty"`
	// Skipped counts the attacks due while MaxInFlight were in progress.
	Skipped int            `json:"skipped"`
	Attacks []AttackResult `json:"attacks"`
}

// Unhandled returns the attacks not answered as their Want says.
func (r *HostileResult) Unhandled() int {
	n := 0
	for _, a := range r.Attacks {
		n += a.Sent - a.Handled
	}
	return n
}

// RunHostile sends the attacks of cfg until its Duration is over and they
// have all ended (or ctx is done).
func RunHostile(ctx context.Context, cfg HostileConfig) (*HostileResult, error) {
	switch {
	case cfg.Base == "":
		return nil, errors.New("loadgen: no base URL for the hostile mix")
	case !(cfg.Rate > 0) && cfg.Clients <= 0 || cfg.Duration <= 0:
		return nil, errors.New("loadgen: the hostile mix needs a positive rate or clients, and a duration")
	}
	if cfg.MaxInFlight <= 0 {
		cfg.MaxInFlight = 16
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = time.Minute
	}
	if cfg.Mix == nil {
		cfg.Mix = Attacks()
	}
	client := &http.Client{Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: cfg.MaxInFlight, DisableCompression: true}}
	defer client.CloseIdleConnections()
	type outcome struct {
		kind    int
		status  int
		handled bool
		took    time.Duration
	}
	var mu sync.Mutex
	var outcomes []outcome
	slots := make(chan struct{}, cfg.MaxInFlight)
	res := &HostileResult{Rate: cfg.Rate, Duration: cfg.Duration, Clients: cfg.Clients}
	var wg sync.WaitGroup
	if cfg.Clients > 0 {
		clients, err := ClientsFrom(cfg.Base, 2, cfg.Clients, 1, cfg.Timeout)
		if err != nil {
			return nil, err
		}
		endAt := time.Now().Add(cfg.Duration)
		for k, c := range clients {
			wg.Go(func() {
				defer c.CloseIdleConnections()
				for i := k; time.Now().Before(endAt) && ctx.Err() == nil; i++ {
					kind := i % len(cfg.Mix)
					actx, cancel := context.WithTimeout(ctx, cfg.Timeout)
					t0 := time.Now()
					status, ok := cfg.Mix[kind].send(actx, c, cfg.Base, i/len(cfg.Mix))
					cancel()
					mu.Lock()
					outcomes = append(outcomes, outcome{kind, status, ok, time.Since(t0)})
					mu.Unlock()
					if cfg.Pause > 0 {
						select {
						case <-time.After(cfg.Pause):
						case <-ctx.Done():
						}
					}
				}
			})
		}
		wg.Wait()
		return res.summarize(cfg.Mix, func(add func(kind, status int, handled bool, took time.Duration)) {
			for _, o := range outcomes {
				add(o.kind, o.status, o.handled, o.took)
			}
		}), nil
	}
	tick := time.NewTicker(time.Duration(float64(time.Second) / cfg.Rate))
	defer tick.Stop()
	end := time.After(cfg.Duration)
loop:
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			break loop
		case <-end:
			break loop
		case slots <- struct{}{}:
			kind := i % len(cfg.Mix)
			wg.Go(func() {
				defer func() { <-slots }()
				actx, cancel := context.WithTimeout(ctx, cfg.Timeout)
				defer cancel()
				t0 := time.Now()
				status, ok := cfg.Mix[kind].send(actx, client, cfg.Base, i/len(cfg.Mix))
				mu.Lock()
				outcomes = append(outcomes, outcome{kind, status, ok, time.Since(t0)})
				mu.Unlock()
			})
		default:
			res.Skipped++
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			break loop
		case <-end:
			break loop
		}
	}
	wg.Wait()
	return res.summarize(cfg.Mix, func(add func(kind, status int, handled bool, took time.Duration)) {
		for _, o := range outcomes {
			add(o.kind, o.status, o.handled, o.took)
		}
	}), nil
}

// summarize fills r's attack results from the outcomes each calls add
// with.
func (r *HostileResult) summarize(mix []Attack, each func(add func(kind, status int, handled bool, took time.Duration))) *HostileResult {
	lat := make([][]time.Duration, len(mix))
	r.Attacks = make([]AttackResult, len(mix))
	for k, a := range mix {
		r.Attacks[k] = AttackResult{Name: a.Name, Want: a.Want, Status: map[int]int{}}
	}
	each(func(kind, status int, handled bool, took time.Duration) {
		a := &r.Attacks[kind]
		a.Sent++
		if handled {
			a.Handled++
		}
		a.Status[status]++
		lat[kind] = append(lat[kind], took)
	})
	for k := range r.Attacks {
		r.Attacks[k].Latency = Summarize(lat[k])
	}
	return r
}

// WriteText writes one line per attack: sent, handled, statuses and the
// time to the answer.
func (r *HostileResult) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%-16s %5s %8s  %-34s %9s %9s  %s\n", "attack", "sent", "handled", "status", "p50_ms", "max_ms", "want")
	for _, a := range r.Attacks {
		var parts []string
		for _, c := range slices.Sorted(maps.Keys(a.Status)) {
			name := strconv.Itoa(c)
			if c == StatusTransport {
				name = "transport"
			}
			parts = append(parts, fmt.Sprintf("%s: %d", name, a.Status[c]))
		}
		fmt.Fprintf(bw, "%-16s %5d %8d  %-34s %9s %9s  %s\n", a.Name, a.Sent, a.Handled, strings.Join(parts, ", "),
			ms(a.Latency.P50), ms(a.Latency.Max), a.Want)
	}
	if r.Clients > 0 {
		fmt.Fprintf(bw, "hostile     %d clients in a closed loop for %s: %d unhandled\n", r.Clients, r.Duration, r.Unhandled())
	} else {
		fmt.Fprintf(bw, "hostile     %g attacks/s for %s: %d unhandled, %d skipped (all slots busy)\n", r.Rate, r.Duration, r.Unhandled(), r.Skipped)
	}
	return bw.Flush()
}

// AttacksNamed returns the attacks of AllAttacks whose names are given,
// in the order of AllAttacks; no names gives nil (RunHostile's default
// mix).
func AttacksNamed(names []string) []Attack {
	if len(names) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var mix []Attack
	for _, a := range AllAttacks() {
		if want[a.Name] {
			mix = append(mix, a)
		}
	}
	return mix
}
