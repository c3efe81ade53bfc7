package main

import (
	"strings"
	"testing"
)

// TestGCSettings checks how --gogc, --memory-limit and GOGC combine.
func TestGCSettings(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	cases := []struct {
		gogc      int
		given     bool
		limit     string
		getenv    func(string) string
		total     int64
		want      gcConfig
		wantStr   string
		wantError string
	}{
		// Without --memory-limit nor GOMEMLIMIT: half the memory, at most 2 GiB.
		{gogc: 200, getenv: env(), want: gcConfig{percent: 200, limit: 2 << 30, defaulted: true},
			wantStr: "gogc 200, memory limit 2147483648 bytes (default)"},
		{gogc: 200, getenv: env(), total: 1 << 30, want: gcConfig{percent: 200, limit: 512 << 20, defaulted: true},
			wantStr: "gogc 200, memory limit 536870912 bytes (default)"},
		{gogc: 200, getenv: env(), total: 64 << 30, want: gcConfig{percent: 200, limit: 2 << 30, defaulted: true},
			wantStr: "gogc 200, memory limit 2147483648 bytes (default)"},
		{gogc: 200, getenv: env("GOMEMLIMIT", "3GiB"), want: gcConfig{percent: 200}, wantStr: "gogc 200"},
		{gogc: 200, limit: "off", getenv: env(), want: gcConfig{percent: 200, limit: -1}, wantStr: "gogc 200, no memory limit"},
		{gogc: 200, getenv: env("GOGC", "50"), want: gcConfig{fromEnv: true, envValue: "50", limit: 2 << 30, defaulted: true},
			wantStr: "GOGC=50, memory limit 2147483648 bytes (default)"},
		{gogc: 300, given: true, limit: "1GiB", getenv: env("GOGC", "50"), want: gcConfig{percent: 300, limit: 1 << 30},
			wantStr: "gogc 300, memory limit 1073741824 bytes"},
		{gogc: 100, limit: "512MiB", getenv: env(), want: gcConfig{percent: 100, limit: 512 << 20},
			wantStr: "gogc 100, memory limit 536870912 bytes"},
		{gogc: -1, given: true, limit: "1GB", getenv: env(), want: gcConfig{percent: -1, limit: 1e9},
			wantStr: "gogc off, memory limit 1000000000 bytes"},
		{gogc: -1, given: true, getenv: env("GOMEMLIMIT", "1GiB"), want: gcConfig{percent: -1}, wantStr: "gogc off"},
		{gogc: -1, given: true, limit: "off", getenv: env(), wantError: "give --memory-limit"},
		{gogc: 0, given: true, getenv: env(), wantError: "positive percentage"},
		{gogc: -5, given: true, getenv: env(), wantError: "positive percentage"},
		{gogc: 200, limit: "lots", getenv: env(), wantError: "not a positive size"},
		{gogc: 200, limit: "-3MiB", getenv: env(), wantError: "not a positive size"},
		{gogc: 200, limit: "9000000TiB", getenv: env(), wantError: "too large"},
	}
	for i, c := range cases {
		got, err := gcSettings(c.gogc, c.given, c.limit, c.getenv, c.total)
		if c.wantError != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantError) {
				t.Errorf("case %d: error %v, want one containing %q", i, err, c.wantError)
			}
			continue
		}
		if err != nil {
			t.Errorf("case %d: %v", i, err)
			continue
		}
		if got != c.want {
			t.Errorf("case %d: %+v, want %+v", i, got, c.want)
		}
		if got.String() != c.wantStr {
			t.Errorf("case %d: %q, want %q", i, got.String(), c.wantStr)
		}
	}
}

// TestMemoryBudgetOf checks the default memory budget is half the limit.
func TestMemoryBudgetOf(t *testing.T) {
	cases := []struct {
		flag  string
		limit int64
		want  int64
		err   string
	}{
		{"", 2 << 30, 1 << 30, ""},
		{"", 512 << 20, 256 << 20, ""},
		{"", -1, 1 << 30, ""},
		{"300MiB", 2 << 30, 300 << 20, ""},
		{"300MiB", -1, 300 << 20, ""},
		{"3GiB", 2 << 30, 0, "more than the memory limit"},
		{"lots", -1, 0, "not a positive size"},
	}
	for _, c := range cases {
		got, err := memoryBudgetOf(c.flag, c.limit)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q, limit %d: %v, want an error with %q", c.flag, c.limit, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q, limit %d: %d, %v; want %d", c.flag, c.limit, got, err, c.want)
		}
	}
}
