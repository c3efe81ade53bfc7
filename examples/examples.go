// Package examples embeds the small real graphs the CLI uses when it is run
// without input files (see NOTICE.md for sources and licences).
package examples

import (
	"embed"
	"io/fs"
	"slices"
)

//go:embed *.ttl
var files embed.FS

//go:embed paper/listing1.ttl
var listing1 string

// Names lists the embedded example files, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

// Read returns the bytes of an embedded example.
func Read(name string) ([]byte, error) { return files.ReadFile(name) }

// Default is the example used when a command needs one graph.
const Default = "demo.ttl"

// Listing1 returns the Turtle of the graph of the ISOLDA paper's Listing 1
// (paper/listing1.ttl, 23 triples: six typed entities with their names,
// links and values; the first example of docs/SPEC.md). It is not one of
// Names: the CLI's default data and the benchmark tables leave it out.
func Listing1() string { return listing1 }
