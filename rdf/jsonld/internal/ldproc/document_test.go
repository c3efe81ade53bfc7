package ldproc

import (
	"math"
	"testing"
)

// The canonical forms follow XML Schema 1.1's xsd:double canonical mapping
// as JSON-LD's Object to RDF Conversion applies it (mantissa with one
// non-zero digit before the point unless the value is zero, at least one
// digit after it, no trailing zeros, an exponent without "+" or leading
// zeros), e.g. the toRdf suite's 1.1E1 for 11.0 and 5.3E0 for 5.3.
func TestCanonicalDouble(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{0, "0.0E0"},
		{1, "1.0E0"},
		{11, "1.1E1"},
		{5.3, "5.3E0"},
		{-1.5e-7, "-1.5E-7"},
		{1e21, "1.0E21"},
		{123456789.125, "1.23456789125E8"},
		{0.1, "1.0E-1"},
		{1.0 / 3, "3.333333333333333E-1"},
		{math.MaxFloat64, "1.797693134862316E308"},
		{5e-324, "4.940656458412465E-324"},
	} {
		if got := CanonicalDouble(c.in); got != c.want {
			t.Errorf("CanonicalDouble(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestIdentifierIssuer(t *testing.T) {
	ii := NewIdentifierIssuer("_:b")
	got := []string{ii.ID("_:x"), ii.ID(""), ii.ID("_:y"), ii.ID("_:x"), ii.ID("")}
	want := []string{"_:b0", "_:b1", "_:b2", "_:b0", "_:b3"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("issued %v, want %v", got, want)
		}
	}
}
