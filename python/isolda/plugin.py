"""The rdflib plugin of ISOLDA, registered through entry points:
``graph.serialize(format="isolda", version="0.2", ...)`` (keyword
arguments are Options fields) and ``rdflib.Dataset().parse(data=text,
format="isolda")``."""

from rdflib.graph import ConjunctiveGraph
from rdflib.parser import Parser
from rdflib.serializer import Serializer

from . import dump
from ._lib import OP_DECODE, lib
from ._pack import unpack_into
from .options import Options


class ISOLDASerializer(Serializer):
    """Writes a Graph, ConjunctiveGraph or Dataset as ISOLDA; the keyword
    arguments of serialize other than format, base and encoding are
    Options fields (version="0.2", layout="blocks", ...)."""

    def serialize(self, stream, base=None, encoding=None, **args):
        # stream is binary (rdflib encodes a str result itself): dump
        # writes the Go core's UTF-8 bytes with no str in between.
        dump(self.store, stream, Options(**args), encoding=encoding or "utf-8")


class ISOLDAParser(Parser):
    """Reads an ISOLDA document into the graph parse was called on.

    As rdflib's own N-Quads and TriG parsers do, the statements of the
    default graph go to the graph being parsed into (for Dataset.parse and
    ConjunctiveGraph.parse: the graph rdflib makes for the source, named
    by publicID when given) and those of each named graph to that graph of
    the same store; a store that is not context-aware takes the default
    graph only, and a document with named graphs is then an error.
    isolda.decode gives the dataset itself, default graph and all.
    """

    def parse(self, source, sink, **args):
        stream = source.getByteStream()
        if stream is None:
            data = source.getCharacterStream().read().encode("utf-8")
        else:
            data = stream.read()
            if isinstance(data, str):
                data = data.encode("utf-8")
        packed = lib().call(OP_DECODE, {"file": str(source.getSystemId() or "")}, data)
        if sink.store.context_aware:
            cg = ConjunctiveGraph(store=sink.store, identifier=sink.identifier)
            named = cg.get_context
        else:

            def named(name):
                raise ValueError("isolda: the document has the named graph %s: parse it into an rdflib.Dataset" % name.n3())

        unpack_into(packed, sink, named)
