"""Byte equality with the CLI: isolda.encode(path) and isolda.encode(graph)
against `isolda encode` of the same file, and of the same graph written
as N-Quads, for every version and option."""

import os

import pytest
import rdflib

import isolda
from conftest import VERSIONS, corpus_files, example_files, option_variants, run_cli, to_nquads

VARIANTS = option_variants()
FILES = example_files() + corpus_files()


def _ids(paths):
    return [os.path.basename(p) for p in paths]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("path", FILES, ids=_ids(FILES))
def test_encode_path_equals_cli(cli, path, version):
    # One CLI run per option (each process reads the file again); the
    # library call reads it once per option too.
    for name, kw in VARIANTS:
        opts = isolda.Options(version=version, **kw)
        want = run_cli(cli, "encode", *opts.to_flags(), path).stdout
        got = isolda.encode(path, opts).encode("utf-8")
        assert got == want, "%s %s %s" % (os.path.basename(path), version, name)


RDFLIB_FILES = [p for p in FILES if not p.endswith(".html")]


def _rdflib_graph(path):
    if path.endswith((".nq", ".trig")):
        g = rdflib.Dataset()
        g.parse(path, format="nquads" if path.endswith(".nq") else "trig")
        return g
    fmt = "xml" if path.endswith(".owl") else "turtle"
    return rdflib.Graph().parse(path, format=fmt)


@pytest.mark.parametrize("path", RDFLIB_FILES, ids=_ids(RDFLIB_FILES))
def test_encode_graph_equals_cli_on_nquads(cli, path, tmp_path):
    try:
        g = _rdflib_graph(path)
    except Exception as e:  # rdflib 6.1 cannot read some of the corpus
        pytest.skip("rdflib cannot parse %s: %s" % (os.path.basename(path), str(e)[:200]))
    nq = tmp_path / "g.nq"
    nq.write_bytes(to_nquads(g))
    for version in VERSIONS:
        for name, kw in VARIANTS:
            opts = isolda.Options(version=version, **kw)
            want = run_cli(cli, "encode", *opts.to_flags(), str(nq)).stdout
            got = isolda.encode(g, opts).encode("utf-8")
            assert got == want, "%s %s %s" % (os.path.basename(path), version, name)


def test_anchor_and_hops_equal_cli(cli):
    path = os.path.join(os.path.dirname(FILES[0]), "demo.ttl")
    for version in VERSIONS:
        for hops in (0, 1, 2):
            opts = isolda.Options(version=version, anchor="https://example.org/ada", hops=hops)
            want = run_cli(cli, "encode", *opts.to_flags(), path).stdout
            assert isolda.encode(path, opts).encode("utf-8") == want
            assert isolda.encode(rdflib.Graph().parse(path), opts).encode("utf-8") == run_cli(
                cli, "encode", *opts.to_flags(), "-f", "nq", stdin=to_nquads(rdflib.Graph().parse(path))
            ).stdout


def test_text_source_equals_cli(cli):
    path = os.path.join(os.path.dirname(FILES[0]), "demo.ttl")
    data = open(path, "rb").read()
    want = run_cli(cli, "encode", "-f", "ttl", stdin=data).stdout
    assert isolda.encode(data.decode("utf-8"), format="ttl").encode("utf-8") == want
    assert isolda.encode(data, format="ttl").encode("utf-8") == want
