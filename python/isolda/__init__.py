"""ISOLDA (Indexed Subject-Ordered Linked Data for AI) for Python.

RDF graphs as text for language models, with isolda's Go core running in
this process (a shared library loaded with ctypes): the bytes are those of
the ``isolda`` command line, for every version and option.

    >>> import rdflib, isolda
    >>> g = rdflib.Graph().parse("examples/demo.ttl")
    >>> text = isolda.encode(g)                      # ISOLDA 0.4, the CLI's default
    >>> isolda.count_tokens(text)                    # o200k_base tokens
    >>> ds = isolda.decode(text)                     # an rdflib.Dataset

Calls release the GIL and are safe from many threads.
"""

import codecs
import io
import json
import os

from ._lib import OP_CHECK, OP_CHUNK, OP_DECODE, OP_ENCODE, OP_TOKENS, Error, ParseError, lib
from .options import Options, coerce

__all__ = [
    "CheckResult",
    "Chunks",
    "Error",
    "Options",
    "ParseError",
    "check",
    "chunk",
    "count_tokens",
    "decode",
    "dump",
    "encode",
    "syntaxes",
    "token_ids",
]

__version__ = "0.4.0"

TOKENIZERS = ("o200k_base", "cl100k_base", "qwen3", "llama3", "gemma3")


def _source(source, format, base):
    """The source part of a request and its data."""
    src = {"kind": "", "path": "", "format": format or "", "base": base or "", "strict": False}
    if hasattr(source, "triples"):  # an rdflib Graph, ConjunctiveGraph or Dataset
        if format is not None:
            raise ValueError("isolda: format= is for text and paths, not for an rdflib graph")
        from ._pack import pack  # rdflib is imported only when graphs are used

        src["kind"] = "packed"
        return src, pack(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        if format is None:
            raise ValueError("isolda: give the format= of the text (one of %s)" % ", ".join(syntaxes()))
        src["kind"] = "text"
        return src, bytes(source)
    if isinstance(source, str) and format is not None:
        src["kind"] = "text"
        return src, source.encode("utf-8")
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if not os.path.isfile(path):
            raise FileNotFoundError("isolda: no such file: %r (for text, give its format=)" % path)
        src["kind"], src["path"] = "path", path
        return src, b""
    raise TypeError("isolda: want an rdflib graph, a path, or text with its format=, not %s" % type(source).__name__)


def syntaxes():
    """The names of the RDF syntaxes that format= (and the command line's
    -f) takes, in the Go core's order (nt, nq, ttl, ...): the short names
    of its syntax table, where aliases and file extensions are declared
    too."""
    return [row["short"] for row in lib().syntaxes()]


def encode(source, options=None, *, format=None, base=None):
    """The ISOLDA document of an RDF dataset, as ``isolda encode`` writes it.

    source is an rdflib Graph, ConjunctiveGraph or Dataset (sent to Go as
    its quads: the result equals ``isolda encode`` of the same dataset
    written as N-Quads; namespace bindings are not used), a path (read by
    Go as the CLI reads FILE, syntax by extension, else sniffed; gzip too),
    or text (str or bytes) with its format (one of syntaxes(): nt, ttl,
    ...). options is an Options (or a dict of its fields); None is
    the CLI's default, ISOLDA 0.4. base is the CLI's --base.

    Raises ParseError for bad input, ValueError for bad options.
    """
    opts = coerce(options)
    src, data = _source(source, format, base)
    return lib().call_str(OP_ENCODE, {"source": src, "options": opts.to_go()}, data)


def dump(source, fp, options=None, *, format=None, base=None, encoding="utf-8"):
    """Writes the ISOLDA document of source (taken as encode takes it) to
    fp, as json.dump writes to a file: the str to a text file
    (io.TextIOBase), else the document in encoding to a binary one.

    In UTF-8, the default, the bytes are the Go core's own, copied once,
    and no str of the document is made: a large document is held once in
    Go and once in Python, not also as a str (up to four bytes a
    character). Raises as encode does; fp is not written on an error."""
    opts = coerce(options)
    if isinstance(fp, io.TextIOBase):
        fp.write(encode(source, opts, format=format, base=base))
        return
    if codecs.lookup(encoding).name != "utf-8":
        fp.write(encode(source, opts, format=format, base=base).encode(encoding))
        return
    src, data = _source(source, format, base)
    fp.write(lib().call(OP_ENCODE, {"source": src, "options": opts.to_go()}, data))


def decode(text, *, file=""):
    """The rdflib.Dataset an ISOLDA document encodes (any version and
    options: the document says what it uses). Raises ParseError with the
    line, column and byte offset of a syntax error."""
    if isinstance(text, str):
        text = text.encode("utf-8")
    from ._pack import unpack

    return unpack(lib().call(OP_DECODE, {"file": file}, bytes(text)))


class CheckResult:
    """The outcome of check: true when the round trip is isomorphic.

    Attributes: isomorphic, bytes (of the document), quads (of the input),
    missing and extra (a few differing quads in N-Quads, blank nodes
    relabelled canonically)."""

    __slots__ = ("isomorphic", "bytes", "quads", "missing", "extra")

    def __init__(self, isomorphic, bytes, quads, missing, extra):
        self.isomorphic, self.bytes, self.quads, self.missing, self.extra = isomorphic, bytes, quads, missing, extra

    def __bool__(self):
        return self.isomorphic

    def __repr__(self):
        return "CheckResult(isomorphic=%r, bytes=%d, quads=%d)" % (self.isomorphic, self.bytes, self.quads)


def check(source, options=None, *, format=None, base=None):
    """Encodes, decodes and compares, as ``isolda check``: true (a
    CheckResult whose truth is the outcome) when the round trip gives back
    a dataset isomorphic to the input (with anchor and hops: to its
    crop). source and options are those of encode."""
    opts = coerce(options)
    src, data = _source(source, format, base)
    r = json.loads(lib().call(OP_CHECK, {"source": src, "options": opts.to_go()}, data))
    return CheckResult(r["isomorphic"], r["bytes"], r["quads"], r["missing"], r["extra"])


def _tokens(text, tokenizer, models_dir, special, ids):
    if isinstance(text, str):
        text = text.encode("utf-8")
    if not isinstance(tokenizer, str) or not tokenizer:
        raise ValueError("isolda: tokenizer: want a name (%s), a tokenizer.json path or a Hugging Face model id" % ", ".join(TOKENIZERS))
    req = {"registry": lib().registry(models_dir or "", special), "tokenizer": tokenizer, "ids": ids}
    return json.loads(lib().call(OP_TOKENS, req, bytes(text)))


def count_tokens(text, tokenizer="o200k_base", *, models_dir=None, special=False):
    """The number of tokens of text, as ``isolda tokens`` counts them.

    tokenizer is o200k_base or cl100k_base (embedded), a short name with a
    folder in the models directory (qwen3, llama3, gemma3; models_dir or
    $ISOLDA_TOKENIZERS), a tokenizer.json path or a Hugging Face model id
    in the Hugging Face cache. special counts special tokens (--special).
    An unknown tokenizer is a ValueError."""
    return _tokens(text, tokenizer, models_dir, special, False)["count"]


def token_ids(text, tokenizer="o200k_base", *, models_dir=None, special=False):
    """The token ids of text (``isolda tokens --ids``)."""
    return _tokens(text, tokenizer, models_dir, special, True).get("ids", [])


def chunk(
    source,
    budget=512,
    tokenizer="o200k_base",
    hops=1,
    cls=None,
    *,
    to="isolda",
    glossary="full",
    lang=("en", ""),
    max_statements=0,
    format=None,
    base=None,
    models_dir=None,
    memory=0,
    tmp_dir=None,
    _raw=False,
):
    """The entity documents of a graph, as ``isolda chunk`` writes them: an
    iterator (a Chunks) of dicts with the keys entity, format, text, tokens,
    sha256, statements_kept and statements_total, sorted by entity IRI,
    yielded as the Go core writes them (see Chunks; close it, or use it in
    a with block, to stop early).

    source is that of encode. budget is the most tokens of a document (0:
    no cut), tokenizer the tokenizer of the budget and of the counts, hops
    the radius of the neighbourhood, cls a class (IRI or prefixed name
    such as "schema:Person") or a list of them whose instances alone get a
    document. to is the documents' format (-t), glossary the ISOLDA
    glossary, lang the label languages kept for neighbours, max_statements
    the bound of each part of a neighbourhood (0: the CLI's default),
    memory the sort memory in bytes (0: 1 GiB) beyond which sorted runs
    spill to tmp_dir.
    """
    if cls is None:
        classes = []
    elif isinstance(cls, str):
        classes = [cls]
    else:
        classes = [str(c) for c in cls]
    for name, v in (("budget", budget), ("hops", hops), ("max_statements", max_statements), ("memory", memory)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError("isolda: %s=%r: want a whole number, 0 or more" % (name, v))
    if glossary not in ("full", "legend", "none"):
        raise ValueError("isolda: glossary=%r: want one of 'full', 'legend', 'none'" % (glossary,))
    if isinstance(lang, str):
        lang = [lang]
    src, data = _source(source, format, base)
    req = {
        "source": src,
        "registry": lib().registry(models_dir or "", False),
        "options": {
            "format": to,
            "tokenizer": tokenizer,
            "budget": budget,
            "hops": hops,
            "glossary": glossary,
            "languages": list(lang),
            "max_statements": max_statements,
        },
        "classes": classes,
        "memory": memory,
        "tmp_dir": tmp_dir or "",
    }
    return Chunks(lib().chunk_open(req, data), raw=_raw)


class Chunks:
    """The iterator of chunk's documents. The Go core writes them on a
    thread of its own while this iterator reads them, a block of whole
    documents at a time: a document is yielded as soon as its block is
    written, and the documents not yet read take a bounded memory (the
    core waits for the reader). close() (or the end of a with block, or
    the iterator's collection) stops the work; the documents not read are
    not made.

    The first block is read when the iterator is made, so that an error
    of the input (a ParseError) is raised by chunk() itself. Breaking out
    of a for loop does not close the iterator: close it (or use a with
    block) to stop the core at once; otherwise it stops when the iterator
    is collected."""

    def __init__(self, handle, raw=False):
        self._h = handle
        self._raw = raw
        self._written = 0
        self._encoded = None
        self._docs = []
        self._pos = 0
        self._next_block()

    def _next_block(self):
        block = b""
        if self._h:
            try:
                block = lib().chunk_next(self._h)
            except BaseException:
                self.close()
                raise
            if not block:
                self.close()
        if self._raw:
            self._docs = [block] if block else []
        else:
            # Split at "\n" alone: str.splitlines would also split at
            # U+0085 or U+2028 inside a document.
            self._docs = block.split(b"\n")[:-1]
        self._pos = 0

    def __iter__(self):
        return self

    def __next__(self):
        while self._pos >= len(self._docs):
            if not self._h:
                raise StopIteration
            self._next_block()
        d = self._docs[self._pos]
        self._docs[self._pos] = None
        self._pos += 1
        return d if self._raw else json.loads(d)

    def written(self):
        """The number of documents the core has written so far (all of
        them once the iterator is exhausted; at most one block ahead of
        the reader before that)."""
        return lib().chunk_written(self._h) if self._h else self._written

    def encoded(self):
        """The number of documents the core encoded, once the iterator is
        closed or exhausted (None before): all of them at the end; fewer
        when it was closed early, since closing cancels the core's work."""
        return self._encoded

    def close(self):
        """Stops the work (the core's chunker is cancelled and this waits
        for it to end) and frees its memory; the iterator ends."""
        h, self._h = self._h, 0
        self._docs, self._pos = [], 0
        if h:
            self._written = lib().chunk_written(h)
            self._encoded = lib().chunk_close(h)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # at interpreter exit, the module may be gone
            pass
