package server

import "github.com/isolda/isolda/formats"

// The memory a request needs is estimated from its size, in stages (see
// Config.MemoryBudget): its body while it arrives, the body and the
// graph's data decoded from it, memParsePerQuad for every quad parsed,
// then, once the graph's size is known, estimate's figure for the whole
// work. The constants are upper bounds of the peak live heap per quad
// measured by BenchmarkMemoryPerQuad (see BENCHMARKS.md), with a margin.
const (
	// memPerRequest is what any request holds besides its graph (the
	// views and tables a format builds whatever the graph's size).
	memPerRequest = 8 << 20
	// memParsePerQuad is the parsed dataset, per quad.
	memParsePerQuad = 500
	// memFormatPerQuad is the working set of writing one format (its
	// model of the graph, such as the graph view or the JSON-LD tree, and
	// the text), per quad; memLightPerQuad that of the formats that write
	// from the dataset as it is (formats.CostLight: ISOLDA and the RDF
	// syntaxes that stream).
	// memTextPerByte counts the text's share that grows with the data's
	// size (long literals) rather than with the quads, per byte of data.
	memFormatPerQuad = 1200
	memLightPerQuad  = 400
	memTextPerByte   = 3
	// memComparePerFormat is what /v1/compare keeps of each format it
	// wrote (the views the formats share, built once, stay), per quad.
	memComparePerFormat = 8
	// memHashPerQuad is the graph hash of /v1/serialize (RDFC-1.0
	// canonical N-Quads), per quad.
	memHashPerQuad = 400
	// memCheckPerQuad is the decoded dataset and the isomorphism test of
	// /v1/check, per quad.
	memCheckPerQuad = 400
)

// formatCost returns the working set per quad of the most costly of the
// formats named: memLightPerQuad when all are of formats.CostLight.
func formatCost(names []string) int64 {
	for _, n := range names {
		if f, ok := formats.Get(n); !ok || f.Cost != formats.CostLight {
			return memFormatPerQuad
		}
	}
	return memLightPerQuad
}

// estimate returns the memory a request needs at its peak, in bytes: a
// body of bodyBytes holding dataBytes of graph data that parsed into quads
// quads, written in the formats named, with perQuad bytes a quad of the
// endpoint's own work (the graph hash of /v1/serialize, memHashPerQuad;
// the isomorphism test of /v1/check, memCheckPerQuad; ...).
func estimate(bodyBytes, dataBytes, quads int, formats []string, perQuad int64) int64 {
	q := int64(quads)
	return memPerRequest + int64(bodyBytes) + int64(dataBytes) + q*memParsePerQuad +
		q*formatCost(formats) + int64(dataBytes)*memTextPerByte + q*perQuad
}

// Token counting (token.Tokenizer.Count) works piece by piece (the
// pre-tokenizer's words, number groups, runs of punctuation or of
// whitespace), with a working set that grows with the longest piece:
// about memCountPerByte bytes allocated per byte of a long run of one
// character ("AAAA…", "....": 194 and 190 bytes per byte for o200k_base
// on 1 MiB, where ordinary text of any length allocates nothing that
// grows). A request reserves countCost of a text before counting it, and
// a request whose counting would reserve countLarge or more is large.
const (
	memCountPerByte = 200
	memCountBase    = 64 << 10
	countLarge      = 32 << 20
)

// countCost returns the memory counting the tokens of text may take: an
// upper bound of its longest piece, the longest run of bytes that are
// all ASCII whitespace or all not, plus one, times memCountPerByte.
func countCost(text string) int64 {
	longest, run := 0, 0
	space := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		s := c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
		if s != space || i == 0 {
			run, space = 0, s
		}
		run++
		longest = max(longest, run)
	}
	return memCountBase + memCountPerByte*int64(longest+1)
}

// Decoding an ISOLDA document (/v1/decode) holds the decoder's tables of
// nodes and rows besides the dataset, all at once before the text is
// written: decodeCost reserves memDecodePerByte per byte of the document
// before decoding; once the quads are known, estimate's figure for
// writing the dataset. BenchmarkMemoryDecode measured the peak live heap
// of the whole request at 22 to 25 bytes per byte of ISOLDA for 200,000
// quads of nomisma (5.9 MB of ISOLDA), 30 to 159 for the shapes of
// BenchmarkMemoryPerQuad, and 600 to 760 for an RDF list of 8,000 items
// (two bytes of ISOLDA a quad), whose peak the estimate with the quads
// covers (peak/reserved 0.79) but the reservation before decoding does
// not: the decoder reports no progress to raise it by.
// decodeDensity is how many bytes of N-Triples a byte of ISOLDA stands
// for, about (LargeBytes is set for those): a document of more than
// LargeBytes/decodeDensity bytes is large.
const (
	memDecodePerByte = 200
	decodeDensity    = 4
)

// decodeCost returns the memory decoding a document of textBytes bytes,
// in a body of bodyBytes, may take at its peak.
func decodeCost(bodyBytes, textBytes int) int64 {
	return memPerRequest + int64(bodyBytes) + int64(textBytes) + memDecodePerByte*int64(textBytes)
}

// Chunking a graph (/v1/chunk) holds the parsed dataset, then the sorted
// records of the statements and of each hop's messages, and the
// documents. The records grow with the quads and, faster, with the hops
// (a node sends its description to each neighbour), but chunk's runner
// holds at most its sort memory of them (chunkSortMemory; beyond it they
// spill to disk). chunkCost reserves, once the quads are known, the
// dataset's figure of estimate plus memChunkPerQuad + hops ×
// memChunkPerHop a quad for the records and the documents, at most
// memChunkSortCap. BenchmarkMemoryChunk measured the peak live heap of
// the whole request at 1,300 to 3,300 bytes a quad with 1 hop for the
// shapes of BenchmarkMemoryPerQuad and 200,000 quads of nomisma, and at
// up to 10,000 with 2 or 3 hops for 20,000 quads of nomisma (the
// messages of its hubs); 200,000 quads of nomisma with 2 hops peaked at
// 275 MB, the sorts at their bound.
const (
	memChunkPerQuad = 1000
	memChunkPerHop  = 4500
	memChunkSortCap = chunkSortMemory * 5 / 4
)

// chunkCost returns the memory chunking a graph of quads quads, from
// dataBytes of data in a body of bodyBytes, with hops hops, may take at
// its peak.
func chunkCost(bodyBytes, dataBytes, quads, hops int) int64 {
	q := int64(quads)
	sorts := min(q*(memChunkPerQuad+int64(hops)*memChunkPerHop), memChunkSortCap)
	return memPerRequest + int64(bodyBytes) + int64(dataBytes) + q*memParsePerQuad +
		int64(dataBytes)*memTextPerByte + sorts
}
