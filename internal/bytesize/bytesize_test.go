package bytesize

import "testing"

// TestParse checks the units.
func TestParse(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "10B": 10, "2KiB": 2048, "3MiB": 3 << 20, "1GiB": 1 << 30,
		"1TiB": 1 << 40, "5KB": 5000, "7MB": 7e6, "1GB": 1e9, "2TB": 2e12} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MiB", "0", "-3MiB", "1.5GiB", "1 PiB", "x", "9000000TiB"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q): no error", in)
		}
	}
}
