"""The API of the paper's Python package: edge cases of its section 3.7
under combinations of options, round trips checked with rdflib.compare,
hash seeds, threads, parse errors, the plugin, tokens, chunks, the CLI
module, memory and panics."""

import hashlib
import io
import itertools
import json
import os
import subprocess
import sys
import threading

import pytest
import rdflib
from rdflib import BNode, Dataset, Graph, Literal, Namespace, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import RDF, RDFS, XSD

import isolda
from conftest import ROOT, VERSIONS, option_variants, run_cli, to_nquads

EX = Namespace("http://example.org/")
SCHEMA = Namespace("https://schema.org/")
DEMO = os.path.join(ROOT, "examples", "demo.ttl")
# A real SPARQL string of a LinkedDataHub dataset that rdflib 6.1's N-Quads
# parser changes (\\n after \" decoded as backslash + newline).
SPARQL = '(concat("CONSTRUCT {\\n    ", G'


def edge_dataset():
    """The edge cases of the paper's section 3.7 in one dataset."""
    ds = Dataset()
    g = ds.default_context
    a, b, c = EX.a, EX.b, EX.c
    # typed and untyped strings, the same lexical form
    g.add((a, EX.name, Literal("Ada")))
    g.add((a, EX.name2, Literal("Ada", datatype=XSD.string)))
    g.add((a, EX["count"], Literal("01", datatype=XSD.integer, normalize=False)))
    g.add((a, EX.when, Literal("1815", datatype=XSD.gYear)))
    # language tags with regions
    g.add((a, RDFS.label, Literal("Ada", lang="en-GB")))
    g.add((a, RDFS.label, Literal("Ada", lang="pt-BR")))
    g.add((a, RDFS.label, Literal("Ада", lang="ru")))
    # separators and quotes in values
    for i, v in enumerate(['a | b', 'x, y; z', 'say "hi"', "it's", "{p: v}", "[1] (2)", "tab\there", "line\nbreak",
                           "back\\slash", SPARQL, " lead", "trail ", "", "#hash", "a: b", "<iri>", "p> q", "~extra:"]):
        g.add((b, EX["v%d" % i], Literal(v)))
    g.add((b, RDF.type, SCHEMA.Thing))
    # several types, and none
    g.add((a, RDF.type, SCHEMA.Person))
    g.add((a, RDF.type, EX.Mathematician))
    g.add((c, EX.knows, a))
    # label and slug collisions
    for x in (EX.d1, EX.d2):
        g.add((x, RDFS.label, Literal("Same")))
        g.add((x, RDF.type, SCHEMA.Person))
    g.add((URIRef("http://example.org/same"), RDF.type, SCHEMA.Person))
    g.add((URIRef("http://other.org/same"), RDF.type, SCHEMA.Person))
    # blank nodes: shared, cyclic, empty (only an object)
    shared, c1, c2, empty = BNode(), BNode(), BNode(), BNode()
    g.add((a, EX.address, shared))
    g.add((c, EX.address, shared))
    g.add((shared, EX.city, Literal("London")))
    g.add((c1, EX.next, c2))
    g.add((c2, EX.next, c1))
    g.add((a, EX.cycle, c1))
    g.add((a, EX.nothing, empty))
    g.add((a, EX.inline, BNode()))
    one = BNode()
    g.add((c, EX.only, one))
    g.add((one, EX.v, Literal(3)))
    # an RDF list
    lst = BNode()
    rest = BNode()
    g.add((a, EX.list, lst))
    g.add((lst, RDF.first, Literal(1)))
    g.add((lst, RDF.rest, rest))
    g.add((rest, RDF.first, EX.b))
    g.add((rest, RDF.rest, RDF.nil))
    # named graphs, an IRI and a blank node name
    ng = ds.graph(EX.g1)
    ng.add((a, EX.name, Literal("Ada in g1")))
    ng.add((b, EX.link, a))
    bg = ds.graph(BNode())
    bg.add((c, EX.name, Literal("C", lang="en-US")))
    return ds


def plain(graph):
    """The triples of a graph with ^^xsd:string dropped (the same RDF term;
    rdflib tells them apart)."""
    out = Graph()
    for s, p, o in graph.triples((None, None, None)):
        if isinstance(o, Literal) and o.datatype == XSD.string:
            o = Literal(str(o))
        out.add((s, p, o))
    return out


def assert_same_dataset(a, b):
    """Isomorphic per graph (rdflib.compare), graphs matched by IRI name;
    blank node named graphs compared as a multiset of their canonical forms."""
    def parts(ds):
        named, blanks = {}, []
        for ctx in ds.contexts():
            if len(ctx) == 0:
                continue
            ident = ctx.identifier
            if ident in (rdflib.graph.DATASET_DEFAULT_GRAPH_ID,) or ident == getattr(ds, "default_context", None).identifier:
                named[None] = plain(ctx)
            elif isinstance(ident, URIRef):
                named[ident] = plain(ctx)
            else:
                blanks.append(plain(ctx))
        return named, blanks

    na, ba = parts(a)
    nb, bb = parts(b)
    assert set(na) == set(nb)
    for k in na:
        assert isomorphic(na[k], nb[k]), k
    assert len(ba) == len(bb)
    left = list(bb)
    for g in ba:
        match = next(i for i, h in enumerate(left) if isomorphic(g, h))
        left.pop(match)


def combinations():
    """Every combination of the main options, then each other option alone
    on top of every version."""
    for v, ids, layout, gl, inline, nc, iri in itertools.product(
        VERSIONS, ("label", "slug"), ("table", "blocks", "hybrid"), ("full", "legend", "none"), (False, True), (False, True), (False, True)
    ):
        yield isolda.Options(version=v, ids=ids, layout=layout, theta=0.5 if layout == "hybrid" else 0.0,
                             glossary=gl, inline_bnodes=inline, no_constants=nc, iri_ids=iri)
    for v in VERSIONS:
        for _, kw in option_variants():
            yield isolda.Options(version=v, **kw)


def test_edge_cases_round_trip_under_every_combination():
    ds = edge_dataset()
    for opts in combinations():
        text = isolda.encode(ds, opts)
        assert isolda.check(ds, opts), opts
        assert_same_dataset(ds, isolda.decode(text))


def test_edge_cases_equal_cli(cli, tmp_path):
    ds = edge_dataset()
    nq = tmp_path / "edge.nq"
    nq.write_bytes(to_nquads(ds))
    for v in VERSIONS:
        for name, kw in option_variants():
            opts = isolda.Options(version=v, **kw)
            assert isolda.encode(ds, opts).encode("utf-8") == run_cli(cli, "encode", *opts.to_flags(), str(nq)).stdout, (v, name)


def test_rdflib_nquads_bug_does_not_touch_data():
    g = Graph()
    g.add((EX.q, EX.text, Literal(SPARQL)))
    back = isolda.decode(isolda.encode(g))
    assert [str(o) for o in back.objects(EX.q, EX.text)] == [SPARQL]


def test_graph_kinds():
    g = Graph().parse(DEMO)
    cg = rdflib.ConjunctiveGraph()
    for t in g:
        cg.add(t)
    ds = Dataset()
    for t in g:
        ds.add(t)
    assert isolda.encode(g) == isolda.encode(cg) == isolda.encode(ds)


def test_graph_sharing_a_store():
    # A plain Graph whose store holds other graphs too is sent as its own
    # triples (not read from the store's index of all of them), in any
    # order the store gives them.
    g = Graph().parse(DEMO)
    ds = Dataset()
    other = ds.graph(URIRef("http://example.org/other"))
    other.add((EX.x, EX.p, Literal("only in the other graph")))
    mine = ds.graph(URIRef("http://example.org/mine"))
    for t in g:
        mine.add(t)
    alone = Graph(store=ds.store, identifier=mine.identifier)
    assert len(alone) == len(g)
    assert isolda.encode(alone) == isolda.encode(g)
    shared = Graph()
    for t in g:
        shared.add(t)
    shared.add((EX.x, EX.p, Literal("in both")))
    rdflib.ConjunctiveGraph(store=shared.store).get_context(URIRef("http://example.org/g2")).add((EX.x, EX.p, Literal("in both")))
    assert isolda.encode(shared) == isolda.encode(g + Graph().add((EX.x, EX.p, Literal("in both"))))


def test_dataset_read_from_the_store_index_equals_quads(cli, monkeypatch):
    # A ConjunctiveGraph or Dataset on rdflib's Memory store is read from
    # the store's subject index and its per-triple contexts; the dataset
    # must be the one quads() gives: triples in several graphs, in the
    # default graph and a named one, blank-node graph names, a context
    # holding the store's default contexts, and one added after others.
    from isolda import _pack

    ds = Dataset()
    g1, g2 = ds.graph(URIRef("http://example.org/g1")), ds.graph(BNode("gb"))
    ds.add((EX.a, EX.p, Literal("default only")))
    g1.add((EX.a, EX.p, Literal("g1 only", lang="en")))
    for g in (ds.default_context, g1, g2):
        g.add((EX.b, EX.q, Literal("3", datatype=XSD.integer)))
    g2.add((EX.a, EX.r, BNode("x")))
    g1.add((BNode("x"), EX.p, EX.a))
    cg = rdflib.ConjunctiveGraph()
    cg.get_context(URIRef("http://example.org/g3")).add((EX.c, EX.p, EX.d))
    cg.add((EX.c, EX.p, EX.d))
    cg.add((EX.e, EX.p, Literal("in the default context")))
    edge = edge_dataset()
    for graph in (ds, cg, edge):
        assert _pack._memory_dataset(graph) is not None
        fast = isolda.encode(graph)
        with monkeypatch.context() as m:
            m.setattr(_pack, "_memory_dataset", lambda graph: None)
            slow = isolda.encode(graph)
        assert fast == slow
        assert fast.encode("utf-8") == run_cli(cli, "encode", "-f", "nq", "-", stdin=to_nquads(graph)).stdout


def test_n3_formulas_are_read_through_quads():
    cg = rdflib.ConjunctiveGraph()
    cg.parse(data="@prefix : <http://example.org/> . { :a :b :c } => { :d :e :f } . :x :y :z .", format="n3")
    from isolda import _pack

    assert _pack._memory_dataset(cg) is None
    with pytest.raises(ValueError, match="cannot encode the term"):
        isolda.encode(cg)


def test_syntaxes_are_the_go_table(cli):
    names = isolda.syntaxes()
    assert names[:3] == ["nt", "nq", "ttl"] and "jsonld" in names
    with pytest.raises(ValueError, match=", ".join(names)):
        isolda.encode(b"<a:b> <a:c> <a:d> .", format=None)
    # the CLI names the same ones in its help text
    assert ", ".join(names).encode() in run_cli(cli, "encode", "--help").stdout


def test_decode_is_isomorphic_on_examples():
    for f in sorted(os.listdir(os.path.join(ROOT, "examples"))):
        if not f.endswith(".ttl"):
            continue
        g = Graph().parse(os.path.join(ROOT, "examples", f))
        for v in VERSIONS:
            back = isolda.decode(isolda.encode(g, isolda.Options(version=v)))
            assert isomorphic(plain(g), plain(back.default_context)), (f, v)


def test_hash_seeds_give_the_same_bytes():
    code = (
        "import sys, hashlib, isolda, rdflib\n"
        "sys.path.insert(0, %r)\n"
        "from test_api import edge_dataset\n"
        "g = rdflib.Graph().parse(%r)\n"
        "h = hashlib.sha256()\n"
        "for v in ('0.1','0.2','0.3','0.4'):\n"
        "    h.update(isolda.encode(g, isolda.Options(version=v)).encode())\n"
        "    h.update(isolda.encode(edge_dataset(), isolda.Options(version=v, inline_bnodes=True)).encode())\n"
        "print(h.hexdigest())\n"
    ) % (os.path.dirname(__file__), DEMO)
    out = set()
    for seed in ("0", "1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out.add(subprocess.run([sys.executable, "-c", code], env=env, check=True, stdout=subprocess.PIPE).stdout)
    assert len(out) == 1, out


def test_eight_threads():
    g = Graph().parse(DEMO)
    ds = edge_dataset()
    jobs = [(g, isolda.Options(version=v)) for v in VERSIONS] + [(ds, isolda.Options(version=v, layout="blocks")) for v in VERSIONS]
    want = [isolda.encode(src, o) for src, o in jobs]
    results = {}
    errors = []
    barrier = threading.Barrier(8)

    def work(i):
        try:
            barrier.wait()
            for _ in range(20):
                src, o = jobs[i]
                results.setdefault(i, set()).add(isolda.encode(src, o))
                assert isolda.count_tokens(want[i]) > 0
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for i in range(8):
        assert results[i] == {want[i]}


def test_parse_error_positions(cli):
    doc = "@isolda 0.4\nPerson[1]{name}:\n  ada, \"unterminated\n"
    with pytest.raises(isolda.ParseError) as e:
        isolda.decode(doc, file="doc.isolda")
    err = e.value
    cli_msg = run_cli(cli, "decode", "-", stdin=doc.encode(), ok=False).stderr.decode()
    assert "%d:%d:" % (err.line, err.column) in cli_msg
    # the offset is the byte position of that line and column
    lines = doc.encode().split(b"\n")
    start = sum(len(l) + 1 for l in lines[: err.line - 1])
    col_bytes = len(lines[err.line - 1].decode()[: err.column - 1].encode())
    assert err.offset == start + col_bytes
    assert isinstance(err, ValueError)

    ttl = "@prefix ex: <http://example.org/> .\nex:a ex:p \"é\" ;\n  ex:q ex:b ex:c .\n"
    with pytest.raises(isolda.ParseError) as e:
        isolda.encode(ttl, format="ttl")
    err = e.value
    assert (err.line, err.column) == (3, 13), err
    assert err.offset == len(ttl.encode().split(b"\n")[0]) + 1 + len(ttl.encode().split(b"\n")[1]) + 1 + 12
    cli_msg = run_cli(cli, "encode", "-f", "ttl", stdin=ttl.encode(), ok=False).stderr.decode()
    assert ":3:13:" in cli_msg


def test_bad_options():
    with pytest.raises(ValueError, match="layout"):
        isolda.Options(layout="rows")
    with pytest.raises(ValueError, match="inline_bnodes"):
        isolda.Options(inline_blanks=True)
    with pytest.raises(ValueError, match="0.4"):
        isolda.Options(version="0.5")
    with pytest.raises(ValueError):
        isolda.Options(theta=2)
    with pytest.raises(ValueError):
        isolda.encode(DEMO, {"glossary": "short"})
    with pytest.raises(ValueError):
        isolda.count_tokens("x", "no-such-tokenizer")
    with pytest.raises(FileNotFoundError):
        isolda.encode("/no/such/file.ttl")


def test_options_mirror_encode_help(cli):
    """Every flag of `isolda encode --help` but the input flags is an option."""
    import re

    help_text = run_cli(cli, "encode", "--help").stdout.decode()
    flags = set(re.findall(r"^\s+(?:-\w, )?--([a-z][a-z-]*)", help_text, re.M))
    input_flags = {"from", "base", "strict", "context", "allow-remote", "glossary-file", "help"}
    want = {f.replace("-", "_") for f in flags - input_flags}
    want = {"version" if f == "spec" else f for f in want}
    assert want == set(isolda.Options().as_dict())


def test_tokens_equal_cli(cli):
    text = isolda.encode(DEMO)
    for tok in ("o200k_base", "cl100k_base"):
        want = int(run_cli(cli, "tokens", "--tokenizer", tok, stdin=text.encode()).stdout.split()[0])
        assert isolda.count_tokens(text, tok) == want
        out = run_cli(cli, "tokens", "--tokenizer", tok, "--ids", stdin=text.encode()).stdout.split(b"\n")
        assert isolda.token_ids(text, tok) == [int(x) for x in out[1].split()]


def test_chunk_equals_cli(cli):
    want = [json.loads(l) for l in run_cli(cli, "chunk", "--budget", "100", DEMO).stdout.splitlines()]
    got = list(isolda.chunk(DEMO, budget=100))
    assert got == want and len(got) > 1
    assert set(got[0]) == {"entity", "format", "text", "tokens", "sha256", "statements_kept", "statements_total"}
    want = [json.loads(l) for l in run_cli(cli, "chunk", "--class", "schema:Person", "--hops", "2", DEMO).stdout.splitlines()]
    assert list(isolda.chunk(DEMO, hops=2, cls="schema:Person")) == want
    assert list(isolda.chunk(Graph().parse(DEMO), budget=100)) == list(isolda.chunk(DEMO, budget=100))


def test_chunk_streams(cli, tmp_path):
    # 4,000 entities give about 2 MB of documents, several blocks of the
    # chunker's 256 KiB writer: after the first document, the core has
    # written two blocks at most (it waits for the reader), about 1,000,
    # not all (a C-side counter, not a timing).
    lines = []
    for i in range(4000):
        s = "<http://example.org/e%04d>" % i
        lines.append('%s <http://schema.org/name> "Entity number %d, with a name long enough \\u2028 and \u0085 inside" .' % (s, i))
        lines.append("%s <http://schema.org/knows> <http://example.org/e%04d> ." % (s, (i + 1) % 4000))
        lines.append("%s <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://schema.org/Person> ." % s)
    nt = tmp_path / "people.nt"
    nt.write_text("\n".join(lines) + "\n", encoding="utf-8")
    want = [json.loads(l) for l in run_cli(cli, "chunk", "--budget", "64", str(nt)).stdout.split(b"\n") if l]
    assert len(want) == 4000
    docs = isolda.chunk(str(nt), budget=64)
    first = next(docs)
    assert first == want[0]
    assert 0 < docs.written() < 2000, docs.written()
    rest = list(docs)
    assert [first] + rest == want
    assert docs.written() == 4000 and docs.encoded() == 4000
    # closed early: the iterator ends, the core stops writing, and its
    # chunker is cancelled: it encoded the documents ahead of the reader
    # (two blocks and a few batches), not all 4,000
    with isolda.chunk(str(nt), budget=64) as docs:
        assert docs.encoded() is None
        assert next(docs) == want[0]
    assert docs.written() < 2000 and list(docs) == []
    assert 0 < docs.encoded() < 3000, docs.encoded()
    docs = isolda.chunk(str(nt), budget=64)
    for d in docs:
        assert d == want[0]
        break
    docs.close()
    assert 0 < docs.encoded() < 3000, docs.encoded()
    docs.close()  # a second close does nothing
    # python -m isolda chunk streams the same lines
    out = subprocess.run([sys.executable, "-m", "isolda", "chunk", "--budget", "64", str(nt)], capture_output=True, check=True).stdout
    assert out == run_cli(cli, "chunk", "--budget", "64", str(nt)).stdout


def test_plugin():
    g = Graph().parse(DEMO)
    text = g.serialize(format="isolda")
    assert text == isolda.encode(g)
    assert g.serialize(format="isolda", version="0.2", layout="blocks") == isolda.encode(g, isolda.Options(version="0.2", layout="blocks"))
    ds = edge_dataset()
    doc = isolda.encode(ds)
    parsed = Dataset()
    ctx = parsed.parse(data=doc, format="isolda")
    want = isolda.decode(doc)
    # named graphs land in graphs of the same name; the default graph in
    # the graph rdflib made for the source (as with N-Quads and TriG)
    assert isomorphic(plain(parsed.graph(EX.g1)), plain(want.graph(EX.g1)))
    assert isomorphic(plain(ctx), plain(want.default_context))
    g2 = Graph()
    g2.parse(data=isolda.encode(g), format="isolda")
    assert isomorphic(g2, g)


def test_cli_module_equals_cli(cli):
    env = dict(os.environ)
    for args in (["encode", DEMO], ["encode", "--spec", "0.2", "--layout", "blocks", DEMO], ["check", DEMO], ["chunk", "--budget", "64", DEMO]):
        want = run_cli(cli, *args).stdout
        got = subprocess.run([sys.executable, "-m", "isolda", *args], stdout=subprocess.PIPE, env=env, check=True).stdout
        assert got == want, args
    doc = run_cli(cli, "encode", DEMO).stdout
    for args in (["decode"], ["decode", "-t", "turtle"], ["tokens"], ["tokens", "--ids"]):
        want = run_cli(cli, *args, stdin=doc).stdout
        got = subprocess.run([sys.executable, "-m", "isolda", *args], input=doc, stdout=subprocess.PIPE, check=True).stdout
        assert got == want, args
    bad = subprocess.run([sys.executable, "-m", "isolda", "decode"], input=b"@isolda 0.4\n%%%\n", stderr=subprocess.PIPE)
    assert bad.returncode == 2 and b":2:" in bad.stderr


def test_panic_is_an_error_not_a_crash():
    from isolda._lib import OP_TOKENS, lib

    with pytest.raises(isolda.Error, match="internal error"):
        lib().call(OP_TOKENS, {"registry": 12345, "tokenizer": "o200k_base", "ids": False}, b"x")
    assert isolda.count_tokens("still alive") > 0


def _rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc")
def test_memory_is_freed():
    g = Graph().parse(DEMO)
    text = isolda.encode(g)
    for _ in range(1000):
        isolda.decode(text)
        isolda.encode(DEMO)
    before = _rss_kib()
    for _ in range(10000):
        isolda.encode(DEMO)
    for _ in range(2000):
        isolda.decode(text)
    after = _rss_kib()
    assert after - before < 32 * 1024, "RSS grew by %d KiB over 12,000 calls" % (after - before)


def test_terms_that_cannot_stand_there_are_value_errors():
    g = Graph()
    g.add((Literal("s"), EX.p, EX.o))
    with pytest.raises(ValueError, match="subject"):
        isolda.encode(g)
    with pytest.raises(ValueError, match="format"):
        isolda.encode(b"<a:b> <a:c> <a:d> .")
    assert isolda.encode(b"<a:b> <a:c> <a:d> .", format="nt")


def test_dump_writes_the_clis_bytes(cli, tmp_path):
    g = Graph().parse(DEMO)
    want = run_cli(cli, "encode", DEMO).stdout
    # a path: Go reads it as the CLI does
    buf = io.BytesIO()
    isolda.dump(DEMO, buf)
    assert buf.getvalue() == want
    # an rdflib graph: the CLI on its N-Quads
    nq = tmp_path / "demo.nq"
    nq.write_bytes(to_nquads(g))
    want_graph = run_cli(cli, "encode", str(nq)).stdout
    buf = io.BytesIO()
    isolda.dump(g, buf, isolda.Options(version="0.2"))
    assert buf.getvalue() == run_cli(cli, "encode", "--spec", "0.2", str(nq)).stdout
    # a text file gets the str; another encoding its bytes
    text = io.StringIO()
    isolda.dump(g, text)
    assert text.getvalue().encode("utf-8") == want_graph
    buf = io.BytesIO()
    isolda.dump(g, buf, encoding="utf-16")
    assert buf.getvalue() == want_graph.decode("utf-8").encode("utf-16")
    # serialize goes through dump: to a file, and to a str
    out = tmp_path / "demo.isolda"
    g.serialize(destination=str(out), format="isolda")
    assert out.read_bytes() == want_graph
    assert g.serialize(format="isolda", encoding="utf-8") == want_graph
    # an error writes nothing
    buf = io.BytesIO()
    with pytest.raises(isolda.ParseError):
        isolda.dump(b"<a> <b> .", buf, format="nt")
    assert buf.getvalue() == b""
