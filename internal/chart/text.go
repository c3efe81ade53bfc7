package chart

import (
	"strings"
	"unicode/utf8"
)

// Text is measured, never rendered, here: the browser lays it out with its
// own sans-serif font. The estimate uses the advance widths of DejaVu Sans
// (and DejaVu Sans Bold), the default sans-serif font of most Linux systems
// and, with Verdana, the widest common one: text measured with these widths
// fits as well with Helvetica, Arial or Liberation Sans, which are
// narrower.

// advance are the advance widths of DejaVu Sans for U+0020 to U+007E, in
// thousandths of an em (the font's hmtx table scaled from 2048 units).
var advance = [95]uint16{
	318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
	636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,
	1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
	603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,
	500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
	635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
}

// advanceBold are the advance widths of DejaVu Sans Bold, as advance.
var advanceBold = [95]uint16{
	348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365,
	696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580,
	1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850,
	733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500,
	500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687,
	716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
}

// TextWidth estimates the width in pixels of s set in the sans-serif font
// at size pixels. Characters outside ASCII count as 0.75 em, and East
// Asian wide characters as 1 em.
func TextWidth(s string, size float64, bold bool) float64 {
	table := &advance
	if bold {
		table = &advanceBold
	}
	var w int
	for _, r := range s {
		switch {
		case r >= 0x20 && r <= 0x7e:
			w += int(table[r-0x20])
		case r >= 0x1100 && isWide(r):
			w += 1000
		default:
			w += 750
		}
	}
	return float64(w) * size / 1000
}

// isWide reports whether r is in a block of East Asian wide characters
// (Hangul Jamo, CJK, Hiragana, Katakana, Hangul syllables, full-width
// forms).
func isWide(r rune) bool {
	return r <= 0x115f || r >= 0x2e80 && r <= 0xa4cf || r >= 0xac00 && r <= 0xd7a3 ||
		r >= 0xf900 && r <= 0xfaff || r >= 0xfe30 && r <= 0xfe4f || r >= 0xff00 && r <= 0xff60 ||
		r >= 0xffe0 && r <= 0xffe6 || r >= 0x20000 && r <= 0x3fffd
}

// Wrap breaks s into lines no wider than width at the given size, at
// spaces; a word wider than width is cut where it no longer fits.
func Wrap(s string, width, size float64, bold bool) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if TextWidth(try, size, bold) <= width {
			line = try
			continue
		}
		if line != "" {
			lines = append(lines, line)
			line = ""
		}
		for TextWidth(word, size, bold) > width {
			cut := fitPrefix(word, width, size, bold)
			lines = append(lines, word[:cut])
			word = word[cut:]
		}
		line = word
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// fitPrefix returns the byte length of the longest prefix of s (at least
// one character) no wider than width.
func fitPrefix(s string, width, size float64, bold bool) int {
	_, first := utf8.DecodeRuneInString(s)
	n := first
	for i, r := range s {
		if i == 0 {
			continue
		}
		if TextWidth(s[:i+utf8.RuneLen(r)], size, bold) > width {
			break
		}
		n = i + utf8.RuneLen(r)
	}
	return n
}
