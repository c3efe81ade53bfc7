package main

import (
	"encoding/json"
	"fmt"
	"runtime/cgo"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/token"
)

func TestPackRoundTrip(t *testing.T) {
	d := rdf.NewDataset()
	d.Add(rdf.Quad{S: rdf.NewIRI("http://e/a"), P: rdf.NewIRI("http://e/p"), O: rdf.NewString("é \"q\"\\n\n\x00 ✓")})
	d.Add(rdf.Quad{S: rdf.NewBlank("b0"), P: rdf.NewIRI("http://e/p"), O: rdf.NewLangString("x", "en-US"), G: rdf.NewIRI("http://e/g")})
	d.Add(rdf.Quad{S: rdf.NewBlank("b0"), P: rdf.NewIRI("http://e/q"), O: rdf.NewLiteral("01", rdf.XSDInteger), G: rdf.NewBlank("g")})
	b, err := pack(d)
	if err != nil {
		t.Fatal(err)
	}
	got, err := unpack(b)
	if err != nil {
		t.Fatal(err)
	}
	if iso, err := canon.Isomorphic(d, got); err != nil || !iso || got.Len() != d.Len() {
		t.Errorf("round trip changed the dataset: %v\n%v\nwant\n%v", err, got.Sorted(), d.Sorted())
	}
	for n := range len(b) - 1 {
		if _, err := unpack(b[:n]); err == nil {
			t.Errorf("a packet cut to %d of %d bytes was accepted", n, len(b))
		}
	}
}

func TestCallStatuses(t *testing.T) {
	st, out := call(opDecode, []byte(`{"file":"doc"}`), []byte("@isolda 0.4\n%%%"))
	if st != statusParseError {
		t.Fatalf("status %d (%s), want a parse error", st, out)
	}
	var pe parseErrorResult
	if err := json.Unmarshal(out, &pe); err != nil || pe.Line != 2 || pe.File != "doc" || pe.Offset != int64(len("@isolda 0.4\n"))+int64(pe.Column-1) {
		t.Errorf("parse error %+v (%v)", pe, err)
	}
	req := `{"source":{"kind":"text","format":"nt"},"options":{"Layout":"rows"}}`
	if st, out := call(opEncode, []byte(req), []byte("<a:b> <a:c> <a:d> .\n")); st != statusValueError {
		t.Errorf("a bad layout: status %d (%s), want a value error", st, out)
	}
	if st, out := call(opTokens, []byte(`{"registry":0,"tokenizer":"o200k_base"}`), nil); st != statusValueError {
		t.Errorf("no registry: status %d (%s)", st, out)
	}
	if st, out := call(opEncode, []byte(`{"source":{"kind":"packed"},"options":{}}`), []byte("ISQ1\xff\xff\xff\xff\x00\x00\x00\x00")); st != statusValueError {
		t.Errorf("a bad packet: status %d (%s)", st, out)
	}
}

// A panic inside an operation comes back as a status, not a crash.
func TestCallRecoversPanics(t *testing.T) {
	// A registry handle that was never made: cgo.Handle.Value panics.
	st, out := call(opTokens, []byte(`{"registry":12345,"tokenizer":"o200k_base"}`), []byte("x"))
	if st != statusPanic || !strings.Contains(string(out), "internal error") {
		t.Errorf("status %d (%.200s), want a recovered panic", st, out)
	}
}

// codeUnits gives the code points of the text in the narrowest width, as
// Python's str holds them; invalid UTF-8 is an error.
func TestCodeUnits(t *testing.T) {
	for _, tc := range []struct {
		text string
		kind int
	}{{"", 1}, {"plain ASCII, longer than eight bytes", 1}, {"café é", 1}, {"ĉu 12345678 ✓", 2}, {"x 😀 é ✓", 4}} {
		buf, n, kind, err := codeUnits([]byte(tc.text))
		if err != nil || kind != tc.kind {
			t.Errorf("%q: kind %d (%v), want %d", tc.text, kind, err, tc.kind)
			continue
		}
		want := []rune(tc.text)
		var got []rune
		for i := range n {
			switch kind {
			case 1:
				got = append(got, rune(unsafe.Slice((*byte)(buf), n)[i]))
			case 2:
				got = append(got, rune(unsafe.Slice((*uint16)(buf), n)[i]))
			case 4:
				got = append(got, rune(unsafe.Slice((*uint32)(buf), n)[i]))
			}
		}
		freeC(buf)
		if string(got) != string(want) {
			t.Errorf("%q: got %q", tc.text, string(got))
		}
	}
	if _, _, _, err := codeUnits([]byte("ab\xffcd")); err == nil {
		t.Error("invalid UTF-8 was accepted")
	}
}

// The chunk stream hands over the documents of chunk, in blocks of whole
// lines; closed early, its job ends.
func TestChunkStream(t *testing.T) {
	h := cgo.NewHandle(token.NewRegistry(token.Options{}))
	defer h.Delete()
	var nt strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&nt, "<http://e/x%d> <http://schema.org/name> \"entity %d with a name\" .\n", i, i)
	}
	req := fmt.Sprintf(`{"source":{"kind":"text","format":"nt"},"registry":%d,"options":{"format":"isolda","tokenizer":"o200k_base","budget":64,"hops":1,"glossary":"full","languages":["en",""]},"classes":[]}`, uintptr(h))
	st, want := call(opChunk, []byte(req), []byte(nt.String()))
	if st != statusOK {
		t.Fatalf("chunk: status %d: %s", st, want)
	}
	st, out, s := chunkOpen([]byte(req), []byte(nt.String()))
	if st != statusOK || s == nil {
		t.Fatalf("open: status %d: %s", st, out)
	}
	var got []byte
	blocks := 0
	for b := range s.blocks {
		if b[len(b)-1] != '\n' {
			t.Errorf("block %d does not end a line", blocks)
		}
		got = append(got, b...)
		blocks++
	}
	if s.status != statusOK || string(got) != string(want) || blocks < 2 || s.written.Load() != 3000 {
		t.Errorf("stream: status %d, %d blocks, %d documents written, same bytes as chunk: %v", s.status, blocks, s.written.Load(), string(got) == string(want))
	}
	_, _, s = chunkOpen([]byte(req), []byte(nt.String()))
	<-s.blocks
	s.close()
	for range s.blocks { // the job ends: blocks is closed
	}
	if s.status != statusOK || s.written.Load() >= 3000 {
		t.Errorf("closed early: status %d (%s), %d documents written", s.status, s.result, s.written.Load())
	}
	if st, out, _ := chunkOpen([]byte(strings.Replace(req, `"hops":1`, `"hops":0`, 1)), nil); st != statusValueError {
		t.Errorf("hops 0: status %d (%s), want a value error", st, out)
	}
}

// Closing a chunk stream early cancels the chunker: close returns once the
// job has ended, having encoded only the documents ahead of the reader.
func TestChunkStreamCancel(t *testing.T) {
	h := cgo.NewHandle(token.NewRegistry(token.Options{}))
	defer h.Delete()
	const n = 30000
	var nt strings.Builder
	for i := range n {
		fmt.Fprintf(&nt, "<http://e/x%05d> <http://schema.org/name> \"entity %d with a name\" .\n", i, i)
	}
	req := fmt.Sprintf(`{"source":{"kind":"text","format":"nt"},"registry":%d,"options":{"format":"isolda","tokenizer":"o200k_base","budget":64,"hops":1,"glossary":"full","languages":["en",""]},"classes":[]}`, uintptr(h))
	st, out, s := chunkOpen([]byte(req), []byte(nt.String()))
	if st != statusOK || s == nil {
		t.Fatalf("open: status %d: %s", st, out)
	}
	first := <-s.blocks
	encoded := s.close()
	select {
	case _, ok := <-s.blocks:
		if ok {
			// at most the block the writer had ready
			if _, ok := <-s.blocks; ok {
				t.Errorf("blocks still sent after close")
			}
		}
	default:
		t.Errorf("close returned before the job ended")
	}
	if s.status != statusOK || encoded <= 0 || encoded >= n || len(first) == 0 {
		t.Errorf("closed early: status %d (%s), %d of %d documents encoded, first block %d bytes", s.status, s.result, encoded, n, len(first))
	}
	if again := s.close(); again != encoded {
		t.Errorf("close again: %d documents, want %d", again, encoded)
	}
}

func TestGroupBySubject(t *testing.T) {
	q := func(s, o rdf.TermID) rdf.IDQuad { return rdf.IDQuad{s, 9, o, 0} }
	grouped := []rdf.IDQuad{q(3, 1), q(3, 2), q(1, 1), q(2, 5), q(2, 6)}
	if got := groupBySubject(grouped, 9); &got[0] != &grouped[0] {
		t.Errorf("grouped quads were copied")
	}
	in := []rdf.IDQuad{q(3, 1), q(1, 1), q(3, 2), q(2, 5), q(1, 7), q(2, 6)}
	want := []rdf.IDQuad{q(3, 1), q(3, 2), q(1, 1), q(1, 7), q(2, 5), q(2, 6)}
	if got := groupBySubject(in, 9); !slices.Equal(got, want) {
		t.Errorf("groupBySubject = %v, want %v", got, want)
	}
}

// The readable syntaxes come from rdfio's table, in its order.
func TestSyntaxes(t *testing.T) {
	st, out := call(opSyntaxes, []byte(`{}`), nil)
	if st != statusOK {
		t.Fatalf("status %d (%s)", st, out)
	}
	var rows []syntaxRow
	if err := json.Unmarshal(out, &rows); err != nil {
		t.Fatal(err)
	}
	var shorts []string
	for _, r := range rows {
		shorts = append(shorts, r.Short)
	}
	if want := rdfio.ReadableNames(); !slices.Equal(shorts, want) || !slices.Contains(shorts, "ttl") {
		t.Errorf("short names %v, want %v", shorts, want)
	}
}
