// Package shared locates the read-only ../shared folder (W3C suites, data,
// tokenizer files) that sits beside the repository on developer machines and
// in CI. Tests use it, and so does the load tester (cmd/isolda-load) for its
// default graphs; the isolda command and its packages never do.
package shared

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Dir returns the absolute path of the shared folder: $ISOLDA_SHARED if set,
// else the first folder named "shared" holding "conformance" found beside
// the current directory or one of its parents.
//
// Every path it looks at is also looked at as seen from the current
// directory (see tracked), so that Go's test cache reruns a test that
// skipped for want of the shared folder once the folder appears.
func Dir() (string, error) {
	if d := os.Getenv("ISOLDA_SHARED"); d != "" {
		abs, err := filepath.Abs(d)
		if err == nil {
			_, _ = os.Stat(tracked(abs)) // recorded by the test cache
		}
		return abs, err
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		cand := filepath.Join(d, "shared")
		_, _ = os.Stat(tracked(filepath.Join(cand, "conformance"))) // recorded by the test cache
		if st, err := os.Stat(filepath.Join(cand, "conformance")); err == nil && st.IsDir() {
			return cand, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("shared folder not found beside the repository; set ISOLDA_SHARED")
		}
	}
}

// tracked spells the absolute path as the current directory followed by
// a path relative to it (DIR/../../shared/...). Go's test cache rechecks
// the files a test stats or opens, but only inside the module's root, and
// it tells by the spelling of the path: ../shared beside the repository
// is outside, so a test that skipped for want of it would be replayed
// from the cache after the folder appears. Spelled from the current
// directory (the test's package folder), the path is inside the root for
// the cache, and the system still finds the same file (unless the
// current directory's path goes through a symbolic link; then the cache
// only rechecks less).
func tracked(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil {
		return path
	}
	return wd + string(filepath.Separator) + rel
}

// Path returns Dir joined with the given elements.
func Path(elem ...string) (string, error) {
	d, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(append([]string{d}, elem...)...), nil
}

// TB is the part of testing.TB that MustPath and ReadFile need.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
}

// Required reports whether tests must fail rather than skip when the shared
// folder or a file in it is missing: ISOLDA_REQUIRE_SHARED=1, which CI sets.
func Required() bool { return os.Getenv("ISOLDA_REQUIRE_SHARED") == "1" }

// ReadFile returns the contents of the shared file elem (as MustPath
// names it: skipped, or failed, when it is missing), failing the test when
// it cannot be read.
func ReadFile(t TB, elem ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(MustPath(t, elem...))
	if err != nil {
		t.Fatalf("%v", err)
	}
	return b
}

// Section returns the text of the shared file elem from the first start
// (included) to the next end after it (excluded; to the end of the file
// when end is ""), failing the test when either is not found.
func Section(t TB, start, end string, elem ...string) string {
	t.Helper()
	text := string(ReadFile(t, elem...))
	i := strings.Index(text, start)
	if i < 0 {
		t.Fatalf("%q not found in %s", start, filepath.Join(elem...))
	}
	if end == "" {
		return text[i:]
	}
	j := strings.Index(text[i:], end)
	if j < 0 {
		t.Fatalf("%q not found after %q in %s", end, start, filepath.Join(elem...))
	}
	return text[i : i+j]
}

// MustPath is Path for tests. When the shared folder (or the named file in
// it) is missing, as on a bare clone of the repository, the test is skipped
// with a message; with ISOLDA_REQUIRE_SHARED=1 it fails instead.
func MustPath(t TB, elem ...string) string {
	t.Helper()
	p, err := Path(elem...)
	if err == nil {
		_, _ = os.Stat(tracked(p)) // recorded by the test cache
		if _, serr := os.Stat(p); serr != nil {
			err = serr
		}
	}
	if err != nil {
		if Required() {
			t.Fatalf("%v (ISOLDA_REQUIRE_SHARED=1)", err)
		}
		t.Skipf("skipped: needs ../shared beside the repository (%v); set ISOLDA_SHARED or ISOLDA_REQUIRE_SHARED=1 to make this a failure", err)
	}
	return p
}
