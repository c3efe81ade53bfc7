// Package canon canonicalizes blank nodes in RDF datasets.
//
// It offers two independent algorithms:
//
//   - A fast canonical labelling (colour refinement, that is 1-dimensional
//     Weisfeiler-Leman, followed by individualization-refinement with
//     automorphism pruning), used by Isomorphic, BlankOrder and Labels. Its
//     labels are canonical (they depend only on the dataset up to blank node
//     renaming) but they are not those of any standard.
//   - RDFC-1.0, the W3C RDF Dataset Canonicalization algorithm, exactly as
//     the Recommendation specifies it (https://www.w3.org/TR/rdf-canon/),
//     used by Canonicalize and Hash.
//
// RDF 1.2 triple terms are supported by both: their blank nodes are the
// same blank nodes as outside them. The fast labelling treats each triple
// term holding blank nodes as an extra vertex tied to its parts (so it stays
// a complete isomorphism test). RDFC-1.0 predates triple terms and the W3C
// has not yet defined its extension; here, a blank node inside a triple term
// object is a component of its quad (so Hash First Degree Quads sees the
// quad with that blank node written _:a, others _:z, at any depth) and is
// related to the quad's other blank nodes in the object position ('o').
// This extension is not standard: other implementations may label such
// blank nodes differently.
//
// Both are bounded by a work limit (Options.MaxWork), and their memory by
// the size of the input: hostile inputs such as large blank node cliques,
// rings or long lists of equal items make them fail with an error wrapping
// rdf.ErrLimit instead of running for a very long time. The ...Context
// variants (HashContext, CanonicalizeContext, BlankOrderContext,
// IsomorphicContext) also stop with the context's error once it is
// cancelled.
package canon

import (
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"hash"
	"strings"
)

// Hash algorithm names accepted by Options.HashAlgorithm.
const (
	SHA256 = "SHA256"
	SHA384 = "SHA384"
)

// Default work limits, used when Options.MaxWork is zero.
const (
	// DefaultLabelWork bounds the fast canonical labelling (Isomorphic,
	// BlankOrder, Labels). One unit is about one quad visited while refining
	// colours or writing a certificate; the default is reached after about
	// 4 s of CPU time, while Nomisma's 46k blank nodes need under 2^20
	// units. Its memory is bounded separately, by a small multiple of the
	// size of each connected component of blank nodes.
	DefaultLabelWork int64 = 1 << 28

	// DefaultRDFCWork, plus RDFCWorkPerBlank for every blank node, bounds
	// RDFC-1.0 (Canonicalize, Hash). One unit is one Hash N-Degree Quads
	// invocation, one blank node related to it (hashed by Hash Related
	// Blank Node), one blank node of a permutation examined by it, or one
	// temporary identifier kept for a later step, over the whole run: time
	// and memory are proportional to it (about 1 µs per unit). The rdf-canon
	// test suite's computable "poison" graphs (test044 to test046) need 6894
	// units; its 10-blank-node clique (test074) needs many millions and
	// fails in under 0.1 s. Chains of alike blank nodes (long lists of
	// equal items, rings, tori), whose work grows with the square of their
	// length, are refused before any N-degree work from a lower bound of
	// the work that takes linear time to compute.
	DefaultRDFCWork int64 = 1 << 16

	// RDFCWorkPerBlank is added to DefaultRDFCWork per blank node of the
	// input when Options.MaxWork is zero, so that large datasets with many
	// blank nodes of equal first degree hash stay within the limit.
	RDFCWorkPerBlank int64 = 32
)

// Options configure the algorithms. The zero value selects the defaults.
type Options struct {
	// MaxWork bounds the work done; zero means DefaultLabelWork for the
	// fast labelling and DefaultRDFCWork (plus RDFCWorkPerBlank per blank
	// node) for RDFC-1.0; a negative value means no limit (not advisable
	// for untrusted input). Exceeding it returns an error wrapping
	// rdf.ErrLimit.
	MaxWork int64
	// HashAlgorithm is the hash function of RDFC-1.0: "SHA256" (the default
	// when empty) or "SHA384".
	HashAlgorithm string
}

// newHash returns a constructor for the named hash algorithm.
func newHash(name string) (func() hash.Hash, error) {
	switch strings.ToUpper(strings.ReplaceAll(name, "-", "")) {
	case "", SHA256:
		return sha256.New, nil
	case SHA384:
		return sha512.New384, nil
	}
	return nil, fmt.Errorf("canon: unsupported hash algorithm %q", name)
}
