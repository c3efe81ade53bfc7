package runner

import (
	"testing"
)

// The endpoint logged with each call keeps no secret a URL may carry.
func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://localhost:8000/v1":                     "http://localhost:8000/v1",
		"https://user:secret@api.example.org/v1?key=k": "https://api.example.org/v1",
		"https://api.example.org/v1#frag":              "https://api.example.org/v1",
		"http://[::1]:8000/v1?":                        "http://[::1]:8000/v1",
		"%zz":                                          "",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
