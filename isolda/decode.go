package isolda

import (
	"io"

	"github.com/isolda/isolda/isolda/internal/decode"
	"github.com/isolda/isolda/rdf"
)

// Decode reads an ISOLDA document (either version) and returns its dataset.
// Malformed input gives an *rdf.ParseError with the line and column.
func Decode(r io.Reader) (*rdf.Dataset, error) {
	return DecodeWith(r, DecodeOptions{})
}

// DecodeWith is Decode with a file name for errors and limits.
func DecodeWith(r io.Reader, opts DecodeOptions) (*rdf.Dataset, error) {
	return decode.Decode(r, opts.File, opts.Limits)
}
