package excerpt

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuote(t *testing.T) {
	if got := Quote("a\"b"); got != `"a\"b"` {
		t.Errorf("short: %s", got)
	}
	long := strings.Repeat("é", 30<<20) // 60 MiB
	got := Quote(long)
	if len(got) > Max+40 {
		t.Errorf("long input quoted in %d bytes", len(got))
	}
	if !strings.HasSuffix(got, "… (62914560 bytes)") || !strings.HasPrefix(got, `"éé`) {
		t.Errorf("long: %s", got)
	}
	if c := Cut(long); !utf8.ValidString(c) || len(c) > Max || len(c) < Max-utf8.UTFMax {
		t.Errorf("Cut: %d bytes, valid %v", len(c), utf8.ValidString(c))
	}
}

func TestShorten(t *testing.T) {
	if got := Shorten("short"); got != "short" {
		t.Errorf("short: %q", got)
	}
	msg := `IRI "http://x/ ` + strings.Repeat("é", 1<<20) + `" contains the character " ", which IRIs may not contain`
	got := Shorten(msg)
	if len(got) > MaxMessage || !utf8.ValidString(got) {
		t.Errorf("%d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
	}
	if !strings.HasPrefix(got, `IRI "http://x/ éé`) || !strings.HasSuffix(got, `which IRIs may not contain`) || !strings.Contains(got, " bytes]…") {
		t.Errorf("got %q", got)
	}
}
