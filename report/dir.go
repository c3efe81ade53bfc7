package report

import (
	"io"
	"os"
	"path/filepath"

	"github.com/isolda/isolda/internal/atomicfile"
)

// WriteDir writes every output of a report into dir, creating it:
// report.md and report.html as people read them, report.json, and one CSV
// file per table (the full tables of Report.Tables). Each file is
// replaced atomically.
func WriteDir(dir string, p Page) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	write := func(name string, fn func(io.Writer) error) error {
		return atomicfile.Write(filepath.Join(dir, name), 0o644, fn)
	}
	if err := write("report.md", p.Report.WriteMarkdown); err != nil {
		return err
	}
	if err := write("report.json", p.Report.WriteJSON); err != nil {
		return err
	}
	if err := write("report.html", p.WriteHTML); err != nil {
		return err
	}
	for _, t := range p.Report.Tables() {
		if err := write(t.Name+".csv", t.WriteCSV); err != nil {
			return err
		}
	}
	return nil
}
