package server

// The memory a request needs is estimated from its size, in stages (see
// Config.MemoryBudget): its body while it arrives, the body and the
// graph's data decoded from it, memParsePerQuad for every quad parsed,
// then, once the graph's size is known, estimate's figure for the whole
// work. The constants are upper bounds of the peak live heap per quad
// measured by BenchmarkMemoryPerQuad (see BENCHMARKS.md), with a margin.
const (
	// memParsePerQuad is the parsed dataset, per quad.
	memParsePerQuad = 500
	// memFormatPerQuad is the working set of writing one format (its
	// model of the graph, such as the graph view or the ISOLDA tables,
	// and the text), per quad; memTextPerByte counts the text's share
	// that grows with the data's size (long literals) rather than with
	// the quads, per byte of data.
	memFormatPerQuad = 1200
	memTextPerByte   = 3
	// memComparePerFormat is what /v1/compare keeps of each format it
	// wrote (the views the formats share, built once, stay), per quad.
	memComparePerFormat = 8
	// memHashPerQuad is the graph hash of /v1/serialize (RDFC-1.0
	// canonical N-Quads), per quad.
	memHashPerQuad = 400
	// memCheckPerQuad is the decoded dataset and the isomorphism test of
	// /v1/check, per quad.
	memCheckPerQuad = 1000
)

// workKind is the kind of work an estimate is for.
type workKind int

const (
	workSerialize workKind = iota
	workCompare
	workCheck
)

// estimate returns the memory a request needs at its peak, in bytes: a
// body of bodyBytes holding dataBytes of graph data that parsed into quads
// quads, written in formats formats.
func estimate(kind workKind, bodyBytes, dataBytes, quads, formats int) int64 {
	q := int64(quads)
	n := int64(bodyBytes) + int64(dataBytes) + q*memParsePerQuad +
		q*memFormatPerQuad + int64(dataBytes)*memTextPerByte
	switch kind {
	case workSerialize:
		n += q * memHashPerQuad
	case workCompare:
		n += q * memComparePerFormat * int64(formats)
	case workCheck:
		n += q * memCheckPerQuad
	}
	return n
}
