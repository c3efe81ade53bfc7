package isolda

import (
	"bytes"

	"github.com/isolda/isolda/rdf"
)

// maxDiff is how many differing quads a CheckResult lists at most.
const maxDiff = 5

// Check encodes d with opts, decodes the document and compares the result
// with d (with Crop(d, opts) in anchor mode with hops). The error is non-nil
// only when encoding or decoding fails.
func Check(d *rdf.Dataset, opts Options) (CheckResult, error) {
	var buf bytes.Buffer
	if err := Encode(&buf, d, opts); err != nil {
		return CheckResult{}, err
	}
	res := CheckResult{Bytes: buf.Len()}
	got, err := Decode(&buf)
	if err != nil {
		return res, err
	}
	ref, err := Crop(d, opts)
	if err != nil {
		return res, err
	}
	iso, missing, extra, err := isomorphic(ref, got)
	if err != nil {
		return res, err
	}
	res.Isomorphic = iso
	res.Missing = missing[:min(len(missing), maxDiff)]
	res.Extra = extra[:min(len(extra), maxDiff)]
	return res, nil
}
