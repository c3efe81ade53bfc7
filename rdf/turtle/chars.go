package turtle

// Character classes of the Turtle 1.1 grammar (§6.5).

// isPNCharsBase reports whether r matches PN_CHARS_BASE.
func isPNCharsBase(r rune) bool {
	switch {
	case r < 0x80:
		return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z'
	case r >= 0xC0 && r <= 0xD6, r >= 0xD8 && r <= 0xF6, r >= 0xF8 && r <= 0x2FF,
		r >= 0x370 && r <= 0x37D, r >= 0x37F && r <= 0x1FFF, r >= 0x200C && r <= 0x200D,
		r >= 0x2070 && r <= 0x218F, r >= 0x2C00 && r <= 0x2FEF, r >= 0x3001 && r <= 0xD7FF,
		r >= 0xF900 && r <= 0xFDCF, r >= 0xFDF0 && r <= 0xFFFD, r >= 0x10000 && r <= 0xEFFFF:
		return true
	}
	return false
}

// isPNCharsU reports whether r matches PN_CHARS_U.
func isPNCharsU(r rune) bool { return r == '_' || isPNCharsBase(r) }

// isPNChars reports whether r matches PN_CHARS.
func isPNChars(r rune) bool {
	if r < 0x80 {
		return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-'
	}
	return r == 0xB7 || r >= 0x300 && r <= 0x36F || r == 0x203F || r == 0x2040 || isPNCharsBase(r)
}

// isLocalEsc reports whether c may follow a backslash in PN_LOCAL_ESC.
func isLocalEsc(c byte) bool {
	switch c {
	case '_', '~', '.', '-', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', '/', '?', '#', '@', '%':
		return true
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10
	default:
		return rune(c-'A') + 10
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// iriByteOK reports whether an IRIREF may contain the ASCII byte c unescaped.
func iriByteOK(c byte) bool {
	return c > 0x20 && c != '<' && c != '>' && c != '"' && c != '{' && c != '}' &&
		c != '|' && c != '^' && c != '`' && c != '\\'
}
