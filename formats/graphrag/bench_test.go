package graphrag

import (
	"fmt"
	"strings"
	"testing"
)

func BenchmarkGenerate(b *testing.B) {
	for _, s := range []int{40, 500, 10000} {
		b.Run(fmt.Sprint(s), func(b *testing.B) {
			for b.Loop() {
				if _, err := Generate(s, 2*s, 7); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkFormats(b *testing.B) {
	g, err := Generate(500, 1000, 7)
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range Formats() {
		text, err := EncodeString(f.Name, g)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("encode/"+f.Name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				var sb strings.Builder
				if err := f.Encode(&sb, g); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("decode/"+f.Name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := f.Decode(strings.NewReader(text), DecodeOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
