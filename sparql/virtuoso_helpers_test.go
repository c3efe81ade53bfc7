//go:build linux

package sparql_test

// Helpers of the Virtuoso integration test (virtuoso_test.go): a private
// virtuoso-t process on free loopback ports in a temporary directory, a
// loader that puts the example graphs into named graphs with isql, an HTTP
// transport that fixes the Accept header, and the comparison of a fetched
// graph with the local oracle under Virtuoso's known literal rewritings.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
)

// requireVirtuosoEnv makes a missing Virtuoso a failure instead of a skip
// (CI sets it after .ci/virtuoso.sh).
const requireVirtuosoEnv = "ISOLDA_REQUIRE_VIRTUOSO"

// Time limits of the Virtuoso process.
const (
	virtuosoStartTimeout = 45 * time.Second
	virtuosoStopTimeout  = 10 * time.Second
	isqlTimeout          = 30 * time.Second
)

// virtuosoBinaries finds virtuoso-t and its isql client (isql-vt in Debian,
// isql beside virtuoso-t in upstream builds). A missing server skips the
// test unless ISOLDA_REQUIRE_VIRTUOSO=1.
func virtuosoBinaries(t *testing.T) (server, isql string) {
	t.Helper()
	required := os.Getenv(requireVirtuosoEnv) == "1"
	server, err := exec.LookPath("virtuoso-t")
	if err != nil {
		const missing = "virtuoso-t is not installed (install Debian's virtuoso-opensource, e.g. with .ci/virtuoso.sh)"
		if required {
			t.Fatalf("%s=1 but %s", requireVirtuosoEnv, missing)
		}
		t.Skipf("%s; set %s=1 to make this a failure", missing, requireVirtuosoEnv)
	}
	if p, err := exec.LookPath("isql-vt"); err == nil {
		return server, p
	}
	p := filepath.Join(filepath.Dir(server), "isql")
	if st, err := os.Stat(p); err == nil && !st.IsDir() {
		return server, p
	}
	if required {
		t.Fatalf("virtuoso-t found at %s but not its isql client (isql-vt)", server)
	}
	t.Skipf("virtuoso-t found at %s but not its isql client (isql-vt)", server)
	return "", ""
}

// virtuoso is a running virtuoso-t of one test.
type virtuoso struct {
	dir      string
	isql     string
	sqlAddr  string
	httpAddr string
	// Endpoint is the SPARQL 1.1 Protocol endpoint.
	Endpoint string
	cmd      *exec.Cmd
	done     chan struct{} // closed when the process has exited
	waitErr  error
}

// freePorts returns n distinct free TCP ports on 127.0.0.1. They are free
// when asked; startVirtuoso retries when one is taken in between.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// virtuosoINI is the configuration of the test's server: loopback only,
// small buffers, one thread per query, files in dir, and SPARQL limits that
// refuse queries estimated to run for more than 20 s.
func virtuosoINI(dir string, sqlPort, httpPort int) string {
	return fmt.Sprintf(`[Database]
DatabaseFile       = %[1]s/virtuoso.db
ErrorLogFile       = %[1]s/virtuoso.log
LockFile           = %[1]s/virtuoso.lck
TransactionFile    = %[1]s/virtuoso.trx
xa_persistent_file = %[1]s/virtuoso.pxa
ErrorLogLevel      = 7
FileExtend         = 200
MaxCheckpointRemap = 2000
Striping           = 0
TempStorage        = TempDatabase

[TempDatabase]
DatabaseFile       = %[1]s/virtuoso-temp.db
TransactionFile    = %[1]s/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping           = 0

[Parameters]
ServerPort           = 127.0.0.1:%[2]d
DisableUnixSocket    = 1
DisableTcpSocket     = 0
MaxClientConnections = 8
CheckpointInterval   = 0
CaseMode             = 2
AllowOSCalls         = 0
DirsAllowed          = ., %[1]s
NumberOfBuffers      = 4000
MaxDirtyBuffers      = 3000
MaxQueryMem          = 256M
ThreadsPerQuery      = 1
AsyncQueueMaxThreads = 2
ServerThreads        = 8

[HTTPServer]
ServerPort           = 127.0.0.1:%[3]d
ServerRoot           = %[1]s
MaxClientConnections = 8
ServerThreads        = 8
MaxKeepAlives        = 8
KeepAliveTimeout     = 10
EnabledDavVSP        = 0
Charset              = UTF-8
EnabledGzipContent   = 0

[SPARQL]
ResultSetMaxRows           = 100000
MaxQueryCostEstimationTime = 20
MaxQueryExecutionTime      = 20
`, dir, sqlPort, httpPort)
}

// startVirtuoso starts virtuoso-t on free loopback ports with its database
// in a temporary directory and waits until its SPARQL endpoint answers. The
// process is stopped by t.Cleanup (SIGTERM, then SIGKILL to its process
// group), and gets SIGKILL from the kernel if the test binary dies first.
func startVirtuoso(t *testing.T) *virtuoso {
	t.Helper()
	bin, isql := virtuosoBinaries(t)
	var errs []error
	for attempt := range 3 {
		v, err := tryStartVirtuoso(t, bin, isql)
		if err == nil {
			return v
		}
		errs = append(errs, fmt.Errorf("attempt %d: %w", attempt+1, err))
	}
	t.Fatalf("virtuoso-t did not start: %v", errors.Join(errs...))
	return nil
}

func tryStartVirtuoso(t *testing.T, bin, isql string) (*virtuoso, error) {
	dir := t.TempDir()
	ports, err := freePorts(2)
	if err != nil {
		return nil, err
	}
	ini := filepath.Join(dir, "virtuoso.ini")
	if err := os.WriteFile(ini, []byte(virtuosoINI(dir, ports[0], ports[1])), 0o644); err != nil {
		return nil, err
	}
	out, err := os.Create(filepath.Join(dir, "virtuoso-t.out"))
	if err != nil {
		return nil, err
	}
	v := &virtuoso{
		dir:      dir,
		isql:     isql,
		sqlAddr:  fmt.Sprintf("127.0.0.1:%d", ports[0]),
		httpAddr: fmt.Sprintf("127.0.0.1:%d", ports[1]),
		done:     make(chan struct{}),
	}
	v.Endpoint = "http://" + v.httpAddr + "/sparql"
	// +foreground keeps virtuoso-t our child, so that it can be stopped.
	v.cmd = exec.Command(bin, "+foreground", "+configfile", ini)
	v.cmd.Dir = dir
	v.cmd.Stdout, v.cmd.Stderr = out, out
	v.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := v.cmd.Start(); err != nil {
		out.Close()
		return nil, err
	}
	go func() {
		v.waitErr = v.cmd.Wait()
		out.Close()
		close(v.done)
	}()
	t.Cleanup(func() { v.stop(t) })
	start := time.Now()
	if err := v.waitReady(virtuosoStartTimeout); err != nil {
		v.stop(t)
		return nil, fmt.Errorf("%w\n%s", err, v.logTail())
	}
	t.Logf("virtuoso-t pid %d: SPARQL endpoint %s, SQL %s, up in %s", v.cmd.Process.Pid, v.Endpoint, v.sqlAddr,
		time.Since(start).Round(time.Millisecond))
	return v, nil
}

// waitReady polls the endpoint with ASK {} until it answers 200 and the SQL
// port accepts connections.
func (v *virtuoso) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	hc := &http.Client{Timeout: 2 * time.Second}
	probe := v.Endpoint + "?" + url.Values{"query": {"ASK {}"}}.Encode()
	for {
		select {
		case <-v.done:
			return fmt.Errorf("virtuoso-t exited during start: %v", v.waitErr)
		default:
		}
		if resp, err := hc.Get(probe); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				if c, err := net.DialTimeout("tcp", v.sqlAddr, time.Second); err == nil {
					c.Close()
					return nil
				}
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer from %s within %s", v.Endpoint, limit)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// stop ends the process: SIGTERM (Virtuoso's quick shutdown), and SIGKILL
// to the process group if it has not exited within virtuosoStopTimeout.
func (v *virtuoso) stop(t *testing.T) {
	select {
	case <-v.done:
		return
	default:
	}
	pid := v.cmd.Process.Pid
	_ = syscall.Kill(pid, syscall.SIGTERM)
	select {
	case <-v.done:
		return
	case <-time.After(virtuosoStopTimeout):
	}
	t.Logf("virtuoso-t pid %d did not stop within %s after SIGTERM; killing its process group", pid, virtuosoStopTimeout)
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	select {
	case <-v.done:
	case <-time.After(virtuosoStopTimeout):
		t.Errorf("virtuoso-t pid %d still running after SIGKILL", pid)
	}
}

// logTail returns the end of the server's log and output, for errors.
func (v *virtuoso) logTail() string {
	var b strings.Builder
	for _, name := range []string{"virtuoso.log", "virtuoso-t.out"} {
		data, err := os.ReadFile(filepath.Join(v.dir, name))
		if err != nil {
			continue
		}
		if len(data) > 2000 {
			data = data[len(data)-2000:]
		}
		fmt.Fprintf(&b, "--- %s:\n%s\n", name, data)
	}
	return b.String()
}

// sqlString quotes s as an SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// runISQL runs SQL statements (each ending with ;) as dba through isql and
// fails on any error it reports.
func (v *virtuoso) runISQL(sql string) (string, error) {
	script := filepath.Join(v.dir, fmt.Sprintf("script-%d.sql", time.Now().UnixNano()))
	if err := os.WriteFile(script, []byte(sql), 0o644); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), isqlTimeout)
	defer cancel()
	// The default dba password of a fresh database; the server listens on
	// loopback only and lives as long as the test.
	cmd := exec.CommandContext(ctx, v.isql, v.sqlAddr, "dba", "dba", script)
	cmd.Dir = v.dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	text := out.String()
	if err != nil {
		return text, fmt.Errorf("isql: %w: %s", err, text)
	}
	if strings.Contains(text, "*** Error") {
		return text, fmt.Errorf("isql reported an error: %s", text)
	}
	return text, nil
}

// loadTurtle loads a Turtle or N-Triples file with Virtuoso's own parser
// (DB.DBA.TTLP) into a named graph; base resolves relative IRIs. The file
// must be inside the server's directory (DirsAllowed).
func (v *virtuoso) loadTurtle(path, base, graph string) error {
	sql := fmt.Sprintf("DB.DBA.TTLP(file_to_string_output(%s), %s, %s, 0);\ncheckpoint;\n",
		sqlString(path), sqlString(base), sqlString(graph))
	_, err := v.runISQL(sql)
	return err
}

// acceptTransport sends every request with a fixed Accept header and
// remembers the Content-Type of the last answer.
type acceptTransport struct {
	accept string
	base   http.RoundTripper

	mu    sync.Mutex
	ctype string
}

// RoundTrip replaces the Accept header.
func (a *acceptTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.Header.Set("Accept", a.accept)
	resp, err := a.base.RoundTrip(r)
	if err == nil {
		a.mu.Lock()
		a.ctype = resp.Header.Get("Content-Type")
		a.mu.Unlock()
	}
	return resp, err
}

// lastContentType is the Content-Type of the last answer.
func (a *acceptTransport) lastContentType() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ctype
}

// A rewrite is a known way Virtuoso 7.2 changes literals between loading
// and answering; normalize applies it to a literal so that a graph and its
// rewritten copy become equal.
type rewrite struct {
	name   string
	reason string
	apply  func(rdf.Term) rdf.Term
}

// numberDatatype is the datatype of numbers after the number rewrite.
const numberDatatype = "urn:isolda:virtuoso-test:number"

// typedDatatype is the datatype of numbers and durations after the JSON-LD
// rewrite.
const typedDatatype = "urn:isolda:virtuoso-test:typed"

// numberValue maps an xsd:integer or xsd:decimal literal to its exact value.
func numberValue(t rdf.Term) rdf.Term {
	if t.Datatype != rdf.XSDInteger && t.Datatype != rdf.XSDDecimal {
		return t
	}
	r, ok := new(big.Rat).SetString(strings.TrimPrefix(t.Value, "+"))
	if !ok {
		return t
	}
	return rdf.Term{Kind: rdf.LiteralKind, Value: r.RatString(), Datatype: numberDatatype}
}

// floatValue reads a literal's value as a float64 and writes it back with
// prec significant digits (-1: as few as read back the same float); ok is
// false when the value is not a number.
func floatValue(t rdf.Term, prec int) (string, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(t.Value), 64)
	if err != nil {
		return "", false
	}
	return strconv.FormatFloat(f, 'g', prec, 64), true
}

// The rewrites observed with Debian's virtuoso-opensource 7.2.5.1 (server
// version 07.20.3229), each with what the store does.
var (
	rewriteNumber = rewrite{
		name: "number",
		reason: "stores xsd:integer and xsd:decimal as SQL numbers: its N-Triples writer gives an integer " +
			"beyond 32 bits as xsd:decimal (\"2224372531\")",
		apply: numberValue,
	}
	rewriteTurtleNumbers = rewrite{
		name: "turtle-numbers",
		reason: "its Turtle writer prints numbers bare: an integral xsd:decimal as an integer (1), an " +
			"xsd:double as a decimal with the digits of its binary value (48.878335599999999772), so " +
			"integer, decimal and double are compared as float64 values",
		apply: func(t rdf.Term) rdf.Term {
			switch t.Datatype {
			case rdf.XSDInteger, rdf.XSDDecimal, rdf.XSDDouble:
				if v, ok := floatValue(t, -1); ok {
					return rdf.Term{Kind: rdf.LiteralKind, Value: v, Datatype: numberDatatype}
				}
			}
			return t
		},
	}
	rewriteDuration = rewrite{
		name: "duration",
		reason: "its N-Triples writer prints an xsd:duration as its internal number of seconds or months " +
			"(P1D as \"86400.0\", P6M as \"6\", PT1S as \"1.1\"); the datatype is kept",
		apply: func(t rdf.Term) rdf.Term {
			if t.Datatype == rdf.XSD+"duration" {
				t.Value = ""
			}
			return t
		},
	}
	rewriteDouble = rewrite{
		name: "double",
		reason: "its N-Triples writer prints an xsd:double with 6 significant digits " +
			"(\"5.1535879E1\" as \"51.5359\")",
		apply: func(t rdf.Term) rdf.Term {
			if t.Datatype != rdf.XSDDouble {
				return t
			}
			if v, ok := floatValue(t, 6); ok {
				t.Value = v
			}
			return t
		},
	}
	rewriteJSONValues = rewrite{
		name: "jsonld-values",
		reason: "its JSON-LD writer drops language tags and datatypes in some answers (here the whole graphs " +
			"and the DESCRIBE, not the one-hop CONSTRUCTs): numbers and durations become JSON numbers " +
			"(durations in seconds or months), every other literal a plain string",
		apply: func(t rdf.Term) rdf.Term {
			switch t.Datatype {
			case rdf.XSDInteger, rdf.XSDDecimal, rdf.XSDDouble, rdf.XSD + "float", rdf.XSD + "duration", typedDatatype:
				return rdf.Term{Kind: rdf.LiteralKind, Datatype: typedDatatype}
			}
			return rdf.NewString(t.Value)
		},
	}
)

// normalize returns a copy of d with the rewrites applied to its literals.
func normalize(d *rdf.Dataset, rws []rewrite) *rdf.Dataset {
	out := rdf.NewDataset()
	for _, q := range d.Quads() {
		if q.O.IsLiteral() {
			for _, rw := range rws {
				q.O = rw.apply(q.O)
			}
		}
		out.Add(q)
	}
	return out
}

// comparison is how a fetched graph relates to the oracle.
type comparison struct {
	// exact is true when the graphs are isomorphic as they are.
	exact bool
	// needed are the rewrites without which they are not isomorphic.
	needed []string
	// missing and extra count the triples of the oracle absent from the
	// fetched graph and the reverse, blank nodes unlabelled.
	missing, extra int
}

// compareGraphs checks got against the oracle: isomorphic as is, or after
// the rewrites allowed for the answer's syntax. It fails when neither.
func compareGraphs(oracle, got *rdf.Dataset, allowed []rewrite) (comparison, error) {
	var c comparison
	c.missing, c.extra = shapeDiff(oracle, got)
	iso, err := canon.Isomorphic(oracle, got)
	if err != nil {
		return c, err
	}
	if iso {
		c.exact = true
		return c, nil
	}
	iso, err = canon.Isomorphic(normalize(oracle, allowed), normalize(got, allowed))
	if err != nil {
		return c, err
	}
	if !iso {
		return c, fmt.Errorf("not isomorphic even after the known rewrites %s: %s", rewriteNames(allowed),
			diffSample(oracle, got, 6))
	}
	for i, rw := range allowed {
		others := slices.Concat(allowed[:i], allowed[i+1:])
		iso, err := canon.Isomorphic(normalize(oracle, others), normalize(got, others))
		if err != nil {
			return c, err
		}
		if !iso {
			c.needed = append(c.needed, rw.name)
		}
	}
	return c, nil
}

func rewriteNames(rws []rewrite) string {
	var names []string
	for _, rw := range rws {
		names = append(names, rw.name)
	}
	return "[" + strings.Join(names, " ") + "]"
}

// shapeLines returns the sorted N-Quads lines of d with every blank node
// written _:b: a multiset that isomorphic graphs share, for counting and
// showing differences.
func shapeLines(d *rdf.Dataset) []string {
	lines := make([]string, 0, d.Len())
	anon := func(t rdf.Term) rdf.Term {
		if t.IsBlank() {
			return rdf.NewBlank("b")
		}
		return t
	}
	for _, q := range d.Quads() {
		var b strings.Builder
		rdf.AppendQuad(&b, rdf.Quad{S: anon(q.S), P: q.P, O: anon(q.O), G: anon(q.G)})
		lines = append(lines, b.String())
	}
	slices.Sort(lines)
	return lines
}

// multisetDiff returns the lines of a not matched in b and those of b not
// matched in a (both sorted).
func multisetDiff(a, b []string) (onlyA, onlyB []string) {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			i++
			j++
		case a[i] < b[j]:
			onlyA = append(onlyA, a[i])
			i++
		default:
			onlyB = append(onlyB, b[j])
			j++
		}
	}
	return append(onlyA, a[i:]...), append(onlyB, b[j:]...)
}

// shapeDiff counts the triples of a absent from b and the reverse, blank
// nodes unlabelled.
func shapeDiff(a, b *rdf.Dataset) (missing, extra int) {
	onlyA, onlyB := multisetDiff(shapeLines(a), shapeLines(b))
	return len(onlyA), len(onlyB)
}

// diffSample lists up to n triples of each side missing from the other
// (blank nodes unlabelled), for failure messages.
func diffSample(oracle, got *rdf.Dataset, n int) string {
	onlyO, onlyG := multisetDiff(shapeLines(oracle), shapeLines(got))
	var b strings.Builder
	fmt.Fprintf(&b, "oracle %d triples, fetched %d; %d only in the oracle, %d only fetched", oracle.Len(), got.Len(),
		len(onlyO), len(onlyG))
	for _, l := range onlyO[:min(n, len(onlyO))] {
		fmt.Fprintf(&b, "\n  only in oracle:  %s", l)
	}
	for _, l := range onlyG[:min(n, len(onlyG))] {
		fmt.Fprintf(&b, "\n  only in fetched: %s", l)
	}
	return b.String()
}

// neighbourhood returns the triples of d with node as subject or object:
// the one-hop subgraph, and what Virtuoso's default DESCRIBE returns.
func neighbourhood(d *rdf.Dataset, node rdf.Term) *rdf.Dataset {
	out := rdf.NewDataset()
	for _, q := range d.Quads() {
		if q.S.Equal(node) || q.O.Equal(node) {
			out.Add(q)
		}
	}
	return out
}
