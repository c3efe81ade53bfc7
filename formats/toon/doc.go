// Package toon encodes and decodes TOON (Token-Oriented Object Notation),
// the line-oriented, indentation-based rendering of the JSON data model
// used to feed structured data to language models.
//
// It implements two versions of the specification (github.com/toon-format/spec):
//
//   - toon-spec 4.0 (V4, the default): keyed tabular objects
//     (users[2:]{age,city}:), nested field groups (orders[2]{id,customer{name}}:),
//     full-line # comments (decoder only); no key folding.
//   - toon-spec 3.3 (V33): safe key folding (EncodeOptions.KeyFolding,
//     FlattenDepth) and path expansion (DecodeOptions.ExpandPaths).
//
// Both pass every encode and decode fixture of their spec release.
//
// # Data model
//
// Values are nil, bool, string, numbers, []any and *Object, whose Keys keep
// insertion order. FromJSON and ToJSON convert from and to JSON text without
// losing key order or number digits.
//
// # Numbers
//
// The encoder writes numbers in the canonical form of spec §2: plain
// decimal for 0 and 1e-6 <= |n| < 1e21 (no exponent, leading or trailing
// zeros, -0 as 0), otherwise the shortest exponent form such as 1e-7 or
// 1.5e+21. float64 and float32 use the shortest digits that round-trip;
// json.Number is converted exactly, whatever its length; NaN and
// infinities become null. The decoder returns numbers as json.Number in
// that canonical form, so no precision is lost; a token whose exponent has
// more than 15 digits is kept as a string.
//
// # Strict and non-strict decoding
//
// Strict mode (the default) enforces every check of spec §14 and reports
// the first problem as an *rdferr.ParseError with line and column (columns
// count Unicode code points). With DecodeOptions.NonStrict: duplicate keys
// resolve last-write-wins; counts, row widths, indentation multiples and
// blank lines inside arrays are not checked (depth is floor(spaces /
// IndentSize)); malformed headers are read as key-value lines with a
// literal key; lines indented under a primitive are skipped; a short row
// leaves its missing fields out (a nested group only appears when one of
// its cells is present); ill-formed UTF-8 becomes U+FFFD; and a tab in
// indentation counts as IndentSize spaces.
//
// # Limits
//
// Decoding reads at most Limits.MaxBytes bytes and rejects indentation or
// field-group nesting deeper than Limits.MaxDepth, with errors that wrap
// rdferr.ErrLimit. Declared lengths never drive allocation. Encoding stops at
// EncodeOptions.MaxDepth levels, so cyclic values fail instead of looping.
package toon
