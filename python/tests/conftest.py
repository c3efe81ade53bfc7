"""Shared fixtures: the isolda CLI built from the same checkout (the oracle
of byte equality), the example and corpus files, and an N-Quads writer of
our own (rdflib's N-Quads parser is never used: rdflib 6.1 misreads \\n
after \\" in a literal)."""

import os
import re
import shutil
import subprocess
import tempfile

import pytest
from rdflib import BNode, ConjunctiveGraph, Graph, Literal, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID

ROOT = os.environ.get("ISOLDA_GO_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


def example_files():
    d = os.path.join(ROOT, "examples")
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".ttl"))


def corpus_files():
    d = os.path.join(ROOT, "testdata", "corpus")
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f != "SOURCES")


@pytest.fixture(scope="session")
def cli():
    """The isolda binary, built with go build into a temporary folder (or
    $ISOLDA_CLI when set)."""
    if os.environ.get("ISOLDA_CLI"):
        yield os.environ["ISOLDA_CLI"]
        return
    if shutil.which("go") is None:
        pytest.fail("go is not on the PATH: the tests build the isolda CLI as their oracle")
    d = tempfile.mkdtemp(prefix="isolda-cli-")
    exe = os.path.join(d, "isolda")
    subprocess.run(["go", "build", "-o", exe, "./cmd/isolda"], cwd=ROOT, check=True)
    yield exe
    shutil.rmtree(d, ignore_errors=True)


def run_cli(cli, *args, stdin=None, ok=True):
    """Runs the CLI; returns its standard output as bytes."""
    p = subprocess.run([cli, *args], input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    if ok and p.returncode != 0:
        raise AssertionError("isolda %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.decode("utf-8", "replace")))
    return p


_ECHAR = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_ESC = re.compile(r'[\\"\n\r\t\b\f\x00-\x1f\x7f]')


def _esc(s):
    return _ESC.sub(lambda m: _ECHAR.get(m.group(), "\\u%04X" % ord(m.group())), s)


def nt_term(t):
    """A term in N-Triples, written here (not by rdflib)."""
    if isinstance(t, URIRef):
        return "<%s>" % "".join(c if c > " " and c not in '<>"{}|^`\\' else "\\u%04X" % ord(c) for c in t)
    if isinstance(t, BNode):
        return "_:" + re.sub(r"[^A-Za-z0-9_]", "_", str(t))
    if isinstance(t, Literal):
        s = '"%s"' % _esc(str(t))
        if t.language:
            return s + "@" + t.language
        if t.datatype and str(t.datatype) != XSD_STRING:
            return s + "^^<%s>" % t.datatype
        return s
    raise TypeError(t)


def to_nquads(g):
    """The dataset of an rdflib graph as N-Quads (bytes), as isolda's packer
    sees it: the default context of a ConjunctiveGraph or Dataset is the
    default graph."""
    lines = []
    if isinstance(g, ConjunctiveGraph):
        default = {DATASET_DEFAULT_GRAPH_ID, g.default_context.identifier}
        for s, p, o, c in g.quads((None, None, None, None)):
            ident = c.identifier if isinstance(c, Graph) else c
            gname = "" if ident is None or ident in default else " " + nt_term(ident)
            lines.append("%s %s %s%s .\n" % (nt_term(s), nt_term(p), nt_term(o), gname))
    else:
        for s, p, o in g.triples((None, None, None)):
            lines.append("%s %s %s .\n" % (nt_term(s), nt_term(p), nt_term(o)))
    return "".join(lines).encode("utf-8")


def option_variants():
    """Every option of isolda encode alone (each boolean on, each value of
    each choice), plus the defaults: (id, Options kwargs)."""
    from isolda.options import _ROWS

    out = [("default", {})]
    for name, _, _, default, kind in _ROWS:
        if name in ("version", "anchor", "hops"):
            continue
        if kind is bool:
            out.append((name, {name: True}))
        elif isinstance(kind, tuple):
            out += [("%s=%s" % (name, v), {name: v}) for v in kind if v != default]
    out.append(("hybrid-theta", {"layout": "hybrid", "theta": 0.5}))
    return out


VERSIONS = ("0.1", "0.2", "0.3", "0.4")
