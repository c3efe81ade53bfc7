package rdf

import "github.com/isolda/isolda/rdf/rdferr"

// ParseError is a syntax or limit error in an input document, with its
// position (file, line, column and byte offset); see rdferr.ParseError.
type ParseError = rdferr.ParseError

// ErrLimit is wrapped by errors caused by a configured limit (size, depth,
// work); callers can test for it with errors.Is.
var ErrLimit = rdferr.ErrLimit

// Limits protect readers from hostile input; see rdferr.Limits.
type Limits = rdferr.Limits

// DefaultLimits are the limits a zero Limits field stands for. Treat it as
// a constant.
var DefaultLimits = rdferr.DefaultLimits

// ReadOptions are the options every reader accepts.
type ReadOptions struct {
	// File names the input in error messages.
	File string
	// Base is the base IRI for resolving relative IRIs.
	Base string
	// Strict turns warnings (such as invalid IRIs kept from messy web data)
	// into errors.
	Strict bool
	// Warn receives non-fatal problems; nil discards them.
	Warn func(*ParseError)
	// Limits bound the work a reader does; zero fields take DefaultLimits.
	Limits Limits
	// Transient lets a reader give the sink strings that stay valid only
	// until AddQuad returns (views of its buffers) instead of a string per
	// term: for a sink that copies what it keeps, such as a writer, it
	// saves the allocations. Readers that do not support it ignore it.
	Transient bool
}
