package kgllmbench

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzKG builds a KG whose labels are the '|'-separated parts of s.
func fuzzKG(s string) *KG {
	parts := strings.Split(s, "|")
	if len(parts) > 64 {
		parts = parts[:64]
	}
	kg := &KG{}
	for i, p := range parts {
		kg.Entities = append(kg.Entities, Entity{ID: strconv.Itoa(i), Label: p})
		kg.Relations = append(kg.Relations, Relation{ID: strconv.Itoa(i), Label: p})
	}
	n := len(parts)
	seen := map[[2]int]bool{}
	for i := range n {
		for k := range 3 {
			t := (i*7 + k*5 + 1) % n
			if seen[[2]int{i, t}] {
				continue
			}
			seen[[2]int{i, t}] = true
			kg.Edges = append(kg.Edges, Edge{Head: strconv.Itoa(i), Relation: strconv.Itoa((i + k) % n), Tail: strconv.Itoa(t)})
		}
	}
	return kg
}

// FuzzTextualize checks that no label makes any format fail or panic, that
// the JSON formats stay valid JSON, and that structured_json decodes to the
// benchmark's dict.
func FuzzTextualize(f *testing.F) {
	for _, s := range []string{"Belgium|France|euro", "yes|12|a: b|it's|\"q\"|\\", "é|거|😀|\x00|\u2028|\ufeff", "a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h i j k l m n o p", "|/|a/b|%|Co.|", "line\nbreak| lead|trail |\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // labels come from UTF-8 TSV files and JSON
		}
		kg := fuzzKG(s)
		for _, fi := range Formats() {
			var buf bytes.Buffer
			if err := Textualize(&buf, kg, fi.Name); err != nil {
				t.Fatalf("%s: %v", fi.Name, err)
			}
			if strings.HasPrefix(fi.Name, "json_ld") || fi.Name == "structured_json" {
				if !json.Valid(buf.Bytes()) {
					t.Fatalf("%s: invalid JSON:\n%s", fi.Name, buf.String())
				}
			}
			if fi.Name == "structured_json" {
				var got map[string]map[string][]string
				if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
					t.Fatal(err)
				}
				want := map[string]map[string][]string{}
				ts, _ := labelTriples(kg)
				for _, tr := range ts {
					if want[tr.head] == nil {
						want[tr.head] = map[string][]string{}
					}
					want[tr.head][tr.rel] = append(want[tr.head][tr.rel], tr.tail)
				}
				for h, rm := range want {
					for r, tails := range rm {
						if !slices.Equal(got[h][r], tails) {
							t.Fatalf("structured_json[%q][%q] = %q, want %q", h, r, got[h][r], tails)
						}
					}
				}
				if len(got) != len(want) {
					t.Fatalf("structured_json has %d heads, want %d", len(got), len(want))
				}
			}
		}
	})
}

// FuzzLoadInstances checks that no input makes the loader panic or hang.
func FuzzLoadInstances(f *testing.F) {
	f.Add([]byte(`{"task":"T","variant":"real","id":3,"edges":[[1,"a",2,"r",3,"b"]],"entities":[],"pseudonym_mapping":{"3":"Zed"}}`))
	f.Add([]byte("\x1f\x8b\x08\x00"))
	f.Add([]byte("{\n[\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		insts, _ := LoadInstances(bytes.NewReader(b))
		for i := range insts {
			_ = Textualize(&bytes.Buffer{}, &insts[i].KG, "list_of_edges")
		}
	})
}
