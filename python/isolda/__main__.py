"""python -m isolda encode|decode|check|tokens|chunk: the CLI's commands of
the same names, with the same flags, through the in-process Go core.

Not supported here (use the isolda binary): encode --glossary-file,
--context and --allow-remote; tokens --all; the embedded demo graph when no
FILE is given and nothing is piped.
"""

import argparse
import json
import sys

from . import TOKENIZERS, Error, ParseError, chunk, count_tokens, syntaxes, token_ids
from ._lib import OP_CHECK, OP_DECODE, OP_ENCODE, lib
from .options import _ROWS, Options

EXAMPLES = {
    "encode": "  python -m isolda encode examples/demo.ttl\n"
    "  python -m isolda encode --spec 0.3 --glossary none examples/wikidata-L691820-lexeme.ttl\n"
    "  cat examples/demo.ttl | python -m isolda encode --layout blocks --no-types",
    "decode": "  python -m isolda encode examples/demo.ttl > demo.isolda\n"
    "  python -m isolda decode demo.isolda -t turtle\n"
    "  python -m isolda encode examples/demo.ttl | python -m isolda decode",
    "check": "  python -m isolda check examples/lod-datagovuk-reference-intervals.ttl\n"
    "  python -m isolda check --spec 0.3 --inline-bnodes examples/lod-datagovuk-reference-intervals.ttl",
    "tokens": "  python -m isolda encode examples/demo.ttl | python -m isolda tokens\n"
    "  python -m isolda tokens --tokenizer cl100k_base --ids README.md",
    "chunk": "  python -m isolda chunk examples/demo.ttl\n"
    "  python -m isolda chunk --budget 256 --glossary none -t b-ttl-ids examples/demo.ttl > chunks.jsonl",
}


class _Usage(Exception):
    pass


def _input_flags(p):
    p.add_argument("file", nargs="?", metavar="FILE|-")
    p.add_argument("-f", "--from", dest="from_", default="", help="input syntax: %s (default: by extension, else sniffed)" % ", ".join(syntaxes()))
    p.add_argument("--base", default="", help="base IRI for relative IRIs (default: the file's file: URL)")
    p.add_argument("--strict", action="store_true", help="treat warnings such as invalid IRIs as errors")


def _option_flags(p):
    for name, flag, _, default, kind in _ROWS:
        if kind is bool:
            p.add_argument(flag, dest=name, action="store_true")
        elif isinstance(kind, tuple):
            p.add_argument(flag, dest=name, default=default, help="one of " + ", ".join(kind))
        else:
            p.add_argument(flag, dest=name, type=kind, default=default)


def _options(a):
    try:
        return Options(**{name: getattr(a, name) for name, *_ in _ROWS})
    except ValueError as e:
        raise _Usage(str(e))


def _read_source(a):
    """The source of a request: FILE, or standard input for - or when piped."""
    src = {"kind": "path", "path": "", "file": "", "format": a.from_, "base": a.base, "strict": a.strict}
    if a.file and a.file != "-":
        src["path"] = a.file
        return src, b""
    if not a.file and sys.stdin.isatty():
        raise _Usage("no input: give a FILE, pipe it into standard input, or give - to type it")
    src["kind"], src["file"] = "text", "<stdin>"
    return src, sys.stdin.buffer.read()


def _document(a):
    if a.file and a.file != "-":
        with open(a.file, "rb") as f:
            return a.file, f.read()
    if not a.file and sys.stdin.isatty():
        raise _Usage("no input: give a FILE, pipe it into standard input, or give - to type it")
    return "<stdin>", sys.stdin.buffer.read()


def main(argv=None):
    """Runs a command; returns the exit code (0 ok, 1 a check failed, 2 bad
    usage or bad input), as the isolda binary does."""
    parser = argparse.ArgumentParser(prog="python -m isolda", description="ISOLDA through the in-process Go core.")
    sub = parser.add_subparsers(dest="cmd", required=True)
    fmt = argparse.RawDescriptionHelpFormatter

    def command(name, help):
        return sub.add_parser(name, help=help, formatter_class=fmt, epilog="Examples:\n" + EXAMPLES[name])

    p = command("encode", "Write an RDF graph as an ISOLDA document")
    _input_flags(p)
    _option_flags(p)
    p = command("check", "Encode, decode and compare: exit 0 if the round trip is isomorphic, 1 if not")
    _input_flags(p)
    _option_flags(p)
    p = command("decode", "Rebuild the RDF graph of an ISOLDA document")
    p.add_argument("file", nargs="?", metavar="FILE|-")
    p.add_argument("-t", "--to", default="nquads", help="output format: an RDF syntax or a format name")
    p = command("tokens", "Count the tokens of a text")
    p.add_argument("file", nargs="?", metavar="FILE|-")
    p.add_argument("--tokenizer", default="o200k_base", help="tokenizer: " + ", ".join(TOKENIZERS) + ", a tokenizer.json path or a Hugging Face model id")
    p.add_argument("--models-dir", default="", help="folder with one sub-folder per tokenizer (default $ISOLDA_TOKENIZERS)")
    p.add_argument("--ids", action="store_true", help="also print the token ids (second line, space-separated)")
    p.add_argument("--special", action="store_true", help="count special tokens")
    p = command("chunk", "Write one document per entity of a graph (for retrieval indexes)")
    _input_flags(p)
    p.add_argument("-t", "--to", default="isolda", help="format of the documents")
    p.add_argument("--tokenizer", default="o200k_base")
    p.add_argument("--models-dir", default="")
    p.add_argument("--budget", type=int, default=512)
    p.add_argument("--hops", type=int, default=1)
    p.add_argument("--class", dest="classes", action="append", default=[])
    p.add_argument("--glossary", default="full")
    p.add_argument("--lang", default="en,")
    p.add_argument("--max-statements", type=int, default=0)
    p.add_argument("--tmp-dir", default="")
    a = parser.parse_args(argv)
    out = sys.stdout.buffer
    try:
        if a.cmd in ("encode", "check"):
            opts = _options(a)
            src, data = _read_source(a)
            req = {"source": src, "options": opts.to_go()}
            if a.cmd == "encode":
                out.write(lib().call(OP_ENCODE, req, data))
                return 0
            r = json.loads(lib().call(OP_CHECK, req, data))
            what = "%d quads" % r["quads"]
            if opts.anchor and opts.hops > 0:
                what = "%d quads (cropped to %d hops)" % (r["quads"], opts.hops)
            if r["isomorphic"]:
                out.write(("ok: %s, %d bytes of ISOLDA, round trip isomorphic\n" % (what, r["bytes"])).encode())
                return 0
            lines = ["FAIL: %s, round trip not isomorphic" % what]
            lines += ["- " + q for q in r["missing"]] + ["+ " + q for q in r["extra"]]
            out.write(("\n".join(lines) + "\n").encode("utf-8"))
            return 1
        if a.cmd == "decode":
            name, data = _document(a)
            out.write(lib().call(OP_DECODE, {"file": name, "to": a.to}, data))
            return 0
        if a.cmd == "tokens":
            _, data = _document(a)
            if a.ids:
                ids = token_ids(data, a.tokenizer, models_dir=a.models_dir, special=a.special)
                out.write(("%d\n%s\n" % (len(ids), " ".join(map(str, ids)))).encode())
            else:
                out.write(b"%d\n" % count_tokens(data, a.tokenizer, models_dir=a.models_dir, special=a.special))
            return 0
        if a.cmd == "chunk":
            src, data = _read_source(a)
            source = data if src["kind"] == "text" else src["path"]
            docs = chunk(
                source, a.budget, a.tokenizer, a.hops, a.classes, to=a.to, glossary=a.glossary,
                lang=a.lang.split(","), max_statements=a.max_statements,
                format=(a.from_ or "ttl") if src["kind"] == "text" else (a.from_ or None),
                base=a.base or None, models_dir=a.models_dir, tmp_dir=a.tmp_dir, _raw=True,
            )
            with docs:
                for block in docs:
                    out.write(block)
            return 0
    except (_Usage, ParseError, ValueError, Error, OSError) as e:
        sys.stderr.write("isolda: %s\n" % e)
        return 2
    return 2


if __name__ == "__main__":
    sys.exit(main())
