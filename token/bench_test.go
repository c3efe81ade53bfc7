package token

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/isolda/isolda/internal/cputime"
	"github.com/isolda/isolda/internal/testkit/shared"
)

// benchText returns the first 3 MB of shared/data/big/nomisma.ttl, cut at a
// line end: a prompt-like Turtle text.
func benchText(b *testing.B) string {
	b.Helper()
	f, err := os.Open(shared.MustPath(b, "data", "big", "nomisma.ttl"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 3<<20)
	n, _ := f.Read(buf)
	buf = buf[:n]
	for len(buf) > 0 && buf[len(buf)-1] != '\n' {
		buf = buf[:len(buf)-1]
	}
	return string(buf)
}

// cpuTimer reports CPU seconds per op beside the wall time, since the
// benchmark machine is shared.
type cpuTimer struct{ start time.Duration }

func startCPU(b *testing.B) cpuTimer {
	b.ResetTimer()
	return cpuTimer{cputime.Used()}
}

func (c cpuTimer) stop(b *testing.B) float64 {
	b.StopTimer()
	sec := (cputime.Used() - c.start).Seconds() / float64(b.N)
	b.ReportMetric(sec*1e3, "cpu-ms/op")
	return sec
}

// BenchmarkLoad measures loading a tokenizer (embedded ranks or
// tokenizer.json) into a fresh Registry.
func BenchmarkLoad(b *testing.B) {
	models := shared.MustPath(b, "tokenizers", "models")
	for _, name := range refTokenizers {
		b.Run(name, func(b *testing.B) {
			c := startCPU(b)
			for i := 0; i < b.N; i++ {
				r := NewRegistry(Options{ModelsDir: models})
				if _, err := r.Get(name); err != nil {
					b.Fatal(err)
				}
			}
			c.stop(b)
		})
	}
}

// BenchmarkCount measures tokens/s on 3 MB of Turtle, one goroutine.
func BenchmarkCount(b *testing.B) {
	text := benchText(b)
	for _, name := range refTokenizers {
		b.Run(name, func(b *testing.B) {
			tok := getTok(b, name)
			b.SetBytes(int64(len(text)))
			n := 0
			c := startCPU(b)
			for i := 0; i < b.N; i++ {
				n = tok.Count(text)
			}
			cpu := c.stop(b)
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
			if cpu > 0 {
				b.ReportMetric(float64(n)/cpu, "tokens/cpu-s")
			}
			b.ReportMetric(float64(n), "tokens")
		})
	}
}

// BenchmarkPathological times the inputs of TestPathological.
func BenchmarkPathological(b *testing.B) {
	inputs := map[string]string{
		"100k-spaces":      strings.Repeat(" ", 100000),
		"200k-letter-word": strings.Repeat("a", 200000),
	}
	for _, name := range refTokenizers {
		for _, k := range sortedKeys(inputs) {
			b.Run(name+"/"+k, func(b *testing.B) {
				tok := getTok(b, name)
				c := startCPU(b)
				for i := 0; i < b.N; i++ {
					tok.Count(inputs[k])
				}
				c.stop(b)
			})
		}
	}
}

// BenchmarkCountReader measures the streaming count of the same text.
func BenchmarkCountReader(b *testing.B) {
	text := benchText(b)
	for _, name := range []string{O200KBase, "gemma3"} {
		b.Run(name, func(b *testing.B) {
			tok := getTok(b, name)
			b.SetBytes(int64(len(text)))
			c := startCPU(b)
			for i := 0; i < b.N; i++ {
				if _, err := CountReader(tok, strings.NewReader(text)); err != nil {
					b.Fatal(err)
				}
			}
			c.stop(b)
		})
	}
}

// BenchmarkLongWords measures counting 1 MB words that go to the linear
// engine: a run of one letter, a two-letter alternation, random digits
// and a run of spaces (ns/op and B/op per tokenizer).
func BenchmarkLongWords(b *testing.B) {
	digits := make([]byte, 1<<20)
	for i := range digits {
		digits[i] = "0123456789"[(i*7+i/13)%10]
	}
	inputs := []struct{ name, text string }{
		{"run-a", strings.Repeat("a", 1<<20)},
		{"alt-ab", strings.Repeat("ab", 1<<19)},
		{"digits", string(digits)},
		{"spaces", strings.Repeat(" ", 1<<20)},
	}
	for _, name := range refTokenizers {
		tok := getTok(b, name)
		for _, in := range inputs {
			b.Run(name+"/"+in.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(in.text)))
				c := startCPU(b)
				for i := 0; i < b.N; i++ {
					tok.Count(in.text)
				}
				c.stop(b)
			})
		}
	}
}
