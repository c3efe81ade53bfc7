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
