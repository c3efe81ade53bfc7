package turtle

import "github.com/isolda/isolda/rdf/internal/grammar"

// The writer's names for the character classes of the shared grammar
// toolkit (rdf/internal/grammar), which the reader uses directly.

func isHex(c byte) bool   { return grammar.Is(c, grammar.Hex) }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return grammar.Is(c, grammar.Alpha) }

// iriByteOK reports whether an IRIREF may contain the byte c unescaped.
func iriByteOK(c byte) bool { return grammar.Is(c, grammar.IRI) }

func isPNCharsBase(r rune) bool { return grammar.IsPNCharsBase(r) }
func isPNCharsU(r rune) bool    { return grammar.IsPNCharsU(r) }
func isPNChars(r rune) bool     { return grammar.IsPNChars(r) }
func isLocalEsc(c byte) bool    { return grammar.IsLocalEsc(c) }
