package grammar

// LangTag returns the length of the LANGTAG at the start of b (after the
// '@'): [a-zA-Z]+ ('-' [a-zA-Z0-9]+)*, stopping before a "--" that starts an
// RDF 1.2 base direction and before a '-' that no letter or digit follows.
// It returns 0 when b does not start with a letter. The grammar sets no
// limit on the length of subtags; WellFormedLang checks BCP 47.
func LangTag(b []byte) int {
	n := 0
	for n < len(b) && Is(b[n], Alpha) {
		n++
	}
	if n == 0 {
		return 0
	}
	for n+1 < len(b) && b[n] == '-' && Is(b[n+1], Alnum) {
		n += 2
		for n < len(b) && Is(b[n], Alnum) {
			n++
		}
	}
	return n
}

// IsLangTag reports whether s is exactly one LANGTAG (without the '@'):
// the language tags that Turtle, TriG, N-Triples and N-Quads can write.
func IsLangTag(s string) bool {
	n := 0
	for n < len(s) && Is(s[n], Alpha) {
		n++
	}
	if n == 0 {
		return false
	}
	for n < len(s) {
		if s[n] != '-' || n+1 == len(s) || !Is(s[n+1], Alnum) {
			return false
		}
		n += 2
		for n < len(s) && Is(s[n], Alnum) {
			n++
		}
	}
	return true
}

// WellFormedLang reports whether tag is well-formed by BCP 47 (RFC 5646
// §2.2.9): it matches the Language-Tag rule of §2.1, compared without
// regard to case, a private use tag or a grandfathered tag. It checks form
// only, not the subtag registry, and does not allocate.
func WellFormedLang(tag string) bool {
	// Fast path for the common two- and three-letter language subtags.
	if len(tag) <= 3 && len(tag) >= 2 && alpha(tag) {
		return true
	}
	var sub subtags
	sub.rest = tag
	if !sub.next() {
		return false
	}
	if len(sub.cur) == 1 && (sub.cur[0] == 'x' || sub.cur[0] == 'X') {
		return sub.privateUse()
	}
	// language: 2*3ALPHA ["-" extlang] / 4ALPHA / 5*8ALPHA
	if len(sub.cur) < 2 || !alpha(sub.cur) {
		return grandfathered(tag)
	}
	more := sub.next()
	if len(sub.lang()) <= 3 {
		// extlang: 3ALPHA *2("-" 3ALPHA)
		for k := 0; k < 3 && more && len(sub.cur) == 3 && alpha(sub.cur); k++ {
			more = sub.next()
		}
	}
	// script: 4ALPHA
	if more && len(sub.cur) == 4 && alpha(sub.cur) {
		more = sub.next()
	}
	// region: 2ALPHA / 3DIGIT
	if more && (len(sub.cur) == 2 && alpha(sub.cur) || len(sub.cur) == 3 && digits(sub.cur)) {
		more = sub.next()
	}
	// variant: 5*8alphanum / (DIGIT 3alphanum)
	for more && (len(sub.cur) >= 5 || len(sub.cur) == 4 && sub.cur[0] >= '0' && sub.cur[0] <= '9') {
		more = sub.next()
	}
	// extension: singleton 1*("-" (2*8alphanum)), the singleton not x
	for more && len(sub.cur) == 1 && sub.cur[0] != 'x' && sub.cur[0] != 'X' {
		k := 0
		for more = sub.next(); more && len(sub.cur) >= 2; more = sub.next() {
			k++
		}
		if k == 0 {
			return grandfathered(tag)
		}
	}
	// privateuse: "x" 1*("-" (1*8alphanum))
	if more && len(sub.cur) == 1 {
		if sub.privateUse() {
			return true
		}
		return grandfathered(tag)
	}
	if more || sub.bad {
		return grandfathered(tag)
	}
	return true
}

// subtags walks the subtags of a language tag.
type subtags struct {
	first, cur, rest string
	started, bad     bool
}

// next moves to the next subtag and reports whether there is one. A
// subtag that is empty, longer than 8 characters or not made of letters
// and digits sets bad and ends the walk.
func (s *subtags) next() bool {
	if s.bad || s.started && s.rest == "" && s.cur == "" {
		return false
	}
	if s.started && s.rest == "" {
		s.cur = ""
		return false
	}
	i := 0
	for i < len(s.rest) && s.rest[i] != '-' {
		i++
	}
	s.cur = s.rest[:i]
	if i < len(s.rest) {
		s.rest = s.rest[i+1:]
		if s.rest == "" {
			s.bad = true // a trailing '-'
		}
	} else {
		s.rest = ""
	}
	if !s.started {
		s.first = s.cur
		s.started = true
	}
	if len(s.cur) == 0 || len(s.cur) > 8 || !alnum(s.cur) {
		s.bad = true
		return false
	}
	return true
}

// lang returns the first subtag.
func (s *subtags) lang() string { return s.first }

// privateUse checks that at least one more subtag follows the current
// "x" and that all the rest are valid.
func (s *subtags) privateUse() bool {
	k := 0
	for s.next() {
		k++
	}
	return k > 0 && !s.bad
}

func alpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if !Is(s[i], Alpha) {
			return false
		}
	}
	return true
}

func alnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if !Is(s[i], Alnum) {
			return false
		}
	}
	return true
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// grandfathered reports whether tag, in any case, is one of the
// grandfathered tags of RFC 5646 §2.1 (irregular and regular).
func grandfathered(tag string) bool {
	if len(tag) > 11 {
		return false
	}
	var low [11]byte
	for i := 0; i < len(tag); i++ {
		c := tag[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	switch string(low[:len(tag)]) {
	case "en-gb-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon",
		"i-lux", "i-mingo", "i-navajo", "i-pwn", "i-tao", "i-tay", "i-tsu",
		"sgn-be-fr", "sgn-be-nl", "sgn-ch-de",
		"art-lojban", "cel-gaulish", "no-bok", "no-nyn", "zh-guoyu", "zh-hakka",
		"zh-min", "zh-min-nan", "zh-xiang":
		return true
	}
	return false
}
