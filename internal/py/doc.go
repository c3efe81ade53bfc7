// Package py reproduces the parts of Python (CPython 3.11) and numpy whose
// exact behaviour the benchmarks this module re-implements depend on, so
// that their published data, prompts and scores come out byte for byte:
//
//   - random.Random bit for bit for integer seeds (Rand): MT19937 seeded
//     with init_by_array over the seed's 32-bit words, random(),
//     getrandbits(k), and the CPython 3.11+ algorithms of randrange,
//     randint, choice, shuffle and sample, which all draw through
//     _randbelow's getrandbits rejection sampling;
//   - numpy's legacy RandomState uniform draws (NumpyRandomState);
//   - str semantics: isspace, the \w and \d of a str pattern, strip(),
//     split(), lower() with its special cases, repr() (str.go);
//   - json.dumps's quoting of a str, with and without ensure_ascii
//     (WriteJSONString), and the variants of it that other formats define
//     (JSONQuoting: b-json's), so that the module has one JSON string
//     writer; and json.dumps's layout with indent=n or compact separators,
//     written value by value (Dumper);
//   - ast.literal_eval of the literals a benchmark answer can hold
//     (LiteralEval);
//   - the iteration order of a set of small non-negative ints (IntSet).
//
// Nothing here is a general Python runtime: each piece does what a
// benchmark needs, with Python's results as its tests' oracle.
package py
