package shared

import (
	"compress/gzip"
	"io"
	"os"
)

// OpenGzip opens the gzipped file at path (as MustPath returns it) and
// returns its decompressed content; Close closes the file. It fails the
// test (Fatalf) when the file cannot be opened or is not gzip: the one
// helper for the tests that read the shared folder's .gz files.
func OpenGzip(t TB, path string) io.ReadCloser {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v", err)
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		t.Fatalf("%s: %v", path, err)
	}
	return gzipFile{zr, f}
}

// gzipFile reads through the gzip reader and closes the file under it.
type gzipFile struct {
	*gzip.Reader
	f *os.File
}

// Close closes the gzip reader and the file.
func (g gzipFile) Close() error {
	err := g.Reader.Close()
	if ferr := g.f.Close(); err == nil {
		err = ferr
	}
	return err
}
