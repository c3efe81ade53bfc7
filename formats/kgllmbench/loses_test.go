package kgllmbench

import (
	"bytes"
	"slices"
	"testing"
)

// TestLoses shows what each format loses: for each kind of change to the
// KG, the formats whose Loses text names it write the same text, and the
// others write a different one.
func TestLoses(t *testing.T) {
	base := func() *KG {
		return &KG{
			Entities: []Entity{
				{ID: "1", WikidataID: "Q31", Label: "Belgium", Core: true},
				{ID: "2", WikidataID: "Q4366768", Label: "Belgium"},
				{ID: "3", WikidataID: "Q4916", Label: "euro"},
				{ID: "4", WikidataID: "Q1", Label: "unused"},
			},
			Relations: []Relation{{ID: "40", WikidataID: "P47", Label: "shares border with"}, {ID: "4", WikidataID: "P38", Label: "currency"}, {ID: "99", WikidataID: "P9", Label: "unused"}},
			Edges:     []Edge{{Head: "1", Relation: "40", Tail: "3"}, {Head: "2", Relation: "4", Tail: "3"}, {Head: "3", Relation: "40", Tail: "1"}},
		}
	}
	all := []string{"list_of_edges", "structured_yaml", "structured_json", "rdf_turtle1", "rdf_turtle2", "rdf_turtle3", "json_ld1", "json_ld2", "json_ld3", "nt"}
	cases := []struct {
		name   string
		change func(*KG)
		same   []string // formats whose text must not change
	}{
		{"wikidata ids and core flags", func(k *KG) {
			for i := range k.Entities {
				k.Entities[i].WikidataID += "0"
				k.Entities[i].Core = !k.Entities[i].Core
			}
			for i := range k.Relations {
				k.Relations[i].WikidataID += "0"
			}
		}, all},
		{"entity ids", func(k *KG) {
			k.Entities[0].ID = "7"
			for i := range k.Edges {
				if k.Edges[i].Head == "1" {
					k.Edges[i].Head = "7"
				}
				if k.Edges[i].Tail == "1" {
					k.Edges[i].Tail = "7"
				}
			}
		}, []string{"list_of_edges", "structured_yaml", "structured_json", "rdf_turtle1", "json_ld1", "nt"}},
		{"relation ids", func(k *KG) {
			k.Relations[0].ID = "41"
			for i := range k.Edges {
				if k.Edges[i].Relation == "40" {
					k.Edges[i].Relation = "41"
				}
			}
		}, []string{"list_of_edges", "structured_yaml", "structured_json", "rdf_turtle1", "rdf_turtle2", "json_ld1", "json_ld2", "nt"}},
		{"edge order", func(k *KG) {
			slices.Reverse(k.Edges)
		}, []string{"structured_yaml", "rdf_turtle1", "rdf_turtle2", "rdf_turtle3", "json_ld1", "json_ld2", "json_ld3", "nt"}},
		{"relations without edges", func(k *KG) {
			k.Relations = k.Relations[:2]
		}, []string{"list_of_edges", "structured_yaml", "structured_json", "rdf_turtle1", "rdf_turtle2", "json_ld1", "json_ld2", "nt"}},
		{"entities without edges", func(k *KG) {
			k.Entities = k.Entities[:3]
		}, []string{"list_of_edges", "structured_yaml", "structured_json", "rdf_turtle1", "json_ld1", "nt"}},
	}
	text := func(k *KG, f string) string {
		var buf bytes.Buffer
		if err := Textualize(&buf, k, f); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	for _, c := range cases {
		changed := base()
		c.change(changed)
		for _, f := range all {
			same, _ := sameText(f, text(changed, f), text(base(), f))
			if f == "nt" {
				same = sortLines(text(changed, f)) == sortLines(text(base(), f))
			}
			if want := slices.Contains(c.same, f); same != want {
				t.Errorf("%s: %s unchanged = %v, want %v", c.name, f, same, want)
			}
		}
	}
	// Every format but rdf_turtle3 and json_ld3 loses entity or relation
	// ids, and no format is lossless (none writes Wikidata ids).
	for _, fi := range Formats() {
		if fi.Lossless || fi.Loses == "" {
			t.Errorf("%s: Lossless=%v Loses=%q", fi.Name, fi.Lossless, fi.Loses)
		}
	}
}
