package textbudget_test

import (
	"testing"

	"github.com/isolda/isolda/internal/testkit/isoldatest"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/textbudget"
)

// BenchmarkFitISOLDA1000 cuts the ISOLDA text of 1,000 Nomisma triples
// to half its o200k_base tokens by records: split, search, count.
func BenchmarkFitISOLDA1000(b *testing.B) {
	tok := testgraph.O200k(b)
	text := isoldatest.Encode(b, nomisma(b, 1000), isolda.Options{})
	full := tok.Count(text)
	budget := full / 2
	b.SetBytes(int64(len(text)))
	var c textbudget.Cut
	var err error
	for b.Loop() {
		c, err = textbudget.Split(text, textbudget.ISOLDA).Fit(tok.Count, budget)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(c.Kept), "kept")
	b.ReportMetric(float64(c.Records), "records")
	b.ReportMetric(float64(full), "fulltokens")
}

// BenchmarkRawISOLDA1000 cuts the same text raw to half its tokens.
func BenchmarkRawISOLDA1000(b *testing.B) {
	tok := testgraph.O200k(b)
	text := isoldatest.Encode(b, nomisma(b, 1000), isolda.Options{})
	budget := tok.Count(text) / 2
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		textbudget.Raw(text, tok.Count, budget)
	}
}
