package bench

// The fixtures in ../formats/graphrag/testdata were produced by the GraphRAG
// article's reference program (benchmark_graph_formats.py, CPython 3.11.7;
// see gen_fixtures.py there): they are the oracle for the synthetic graph.
const fixtures = "../formats/graphrag/testdata"
