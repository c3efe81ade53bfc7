"""rdflib graphs to and from the packed form of capi/pack.go.

Terms cross the boundary as kinds, lengths in code points and one UTF-8
string, never in an RDF syntax: no escape is decoded twice, and rdflib's
N-Quads parser (which in rdflib 6.1 misreads \\n after \\" in a literal) is
never used.
"""

import struct
import sys
from array import array
from itertools import accumulate

from rdflib import BNode, ConjunctiveGraph, Dataset, Graph, Literal, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID, QuotedGraph

MAGIC = b"ISQ1"
XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
RDF_LANGSTRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"
_I, _B, _L, _T = 73, 66, 76, 84  # ord("I"), "B", "L", "T"


def _u32(name):
    a = array(name)
    if a.itemsize != 4:
        a = array("L" if name == "I" else name)
    return a


def _memory_spo(graph):
    """The subject index of rdflib's Memory store (its default store)
    when the store holds this plain Graph and nothing else, else None.

    The index maps each subject to its predicates and each predicate to
    its objects, in the order the triples were added (dictionaries keep
    it), which for a parsed file is the file's order. Read this way a
    subject is packed once for all its triples and a predicate once per
    subject, and the statements reach Go grouped by subject, their terms
    numbered in about the order of the file, as the CLI's reader numbers
    them: Graph.triples gives them in the hash order of a set, and the
    encoder took 1.7 times as long on terms numbered that way.
    """
    store = graph.store
    if not {"_datatype", "_language"} <= set(getattr(Literal, "__slots__", ())):
        return None  # pack reads these slots of the literals it finds here
    if type(graph) is not Graph or type(store).__module__ != "rdflib.plugins.stores.memory" or type(store).__name__ != "Memory":
        return None
    by_ctx = getattr(store, "_Memory__contextTriples", None)
    spo = getattr(store, "_Memory__spo", None)
    if not isinstance(by_ctx, dict) or not isinstance(spo, dict):
        return None
    ident = graph.identifier
    # the key of Memory.__ctx_to_str; None is the union of all contexts
    key = "%s:%s" % (ident.__class__.__name__, ident)
    if not set(by_ctx) <= {None, key}:
        return None  # the store holds other graphs too
    return spo


def _triples(graph):
    """The triples of a plain Graph whose store holds other graphs too:
    read from the set of them that rdflib's Memory store keeps for each
    graph when it is one, which saves Graph.triples' two generators a
    triple; else from Graph.triples."""
    store = graph.store
    if type(graph) is Graph and type(store).__module__ == "rdflib.plugins.stores.memory" and type(store).__name__ == "Memory":
        by_ctx = getattr(store, "_Memory__contextTriples", None)
        if isinstance(by_ctx, dict):
            ident = graph.identifier
            return set(by_ctx.get("%s:%s" % (ident.__class__.__name__, ident), ()))
    return graph.triples((None, None, None))


def _memory_dataset(graph):
    """The indexes of rdflib's Memory store under a ConjunctiveGraph or
    Dataset, as (subject index, the contexts of each triple whose contexts
    differ from the store's default, those default contexts, the context
    objects by key); None for another store, or for a store holding N3
    formulas (quoted graphs, which quads() leaves out), which quads() reads.

    A context set maps a context's key to whether the context is quoted, and
    holds the key None (the union) as well. Read in the subject index's
    order (the file's), the quads reach Go grouped by subject, their terms
    numbered in about the order of the file: from quads() or the store's
    per-context sets they came in hash order, and the encoder took 1.3
    times as long, the packing 2.7 times as long (Nomisma, 757k triples).
    """
    store = graph.store
    if type(store).__module__ != "rdflib.plugins.stores.memory" or type(store).__name__ != "Memory":
        return None
    spo = getattr(store, "_Memory__spo", None)
    by_triple = getattr(store, "_Memory__tripleContexts", None)
    default = getattr(store, "_Memory__defaultContexts", None)
    objs = getattr(store, "_Memory__context_obj_map", None)
    if not isinstance(spo, dict) or not isinstance(by_triple, dict) or not isinstance(objs, dict):
        return None
    if default is None:
        default = {}  # an empty store
    if not isinstance(default, dict) or any(isinstance(c, QuotedGraph) for c in objs.values()):
        return None
    return spo, by_triple, default, objs


def pack(graph):
    """The packed dataset of an rdflib Graph, ConjunctiveGraph or Dataset.

    The default graph of a ConjunctiveGraph (its default context) and of a
    Dataset is the default graph; every other context is a named graph.
    A plain Graph is one default graph. Namespace bindings are not sent:
    the result is the dataset as N-Quads would carry it.
    """
    kinds = bytearray()
    strs = []
    quads = _u32("I")
    # The dictionaries are keyed by plain str: rdflib's URIRef and BNode
    # hash in Python code, str in C (this loop is most of the time of
    # encode(graph) on large graphs).
    iris, blanks = {}, {}
    iget, bget = iris.get, blanks.get
    kadd, sadd = kinds.append, strs.append

    def term(t):
        tt = type(t)
        if tt is URIRef:
            k = str(t)
            i = iget(k)
            if i is None:
                kadd(_I)
                sadd(k)
                i = iris[k] = len(kinds)
            return i
        if tt is BNode:
            k = str(t)
            i = bget(k)
            if i is None:
                kadd(_B)
                sadd(k)
                i = blanks[k] = len(kinds)
            return i
        if tt is Literal:
            kadd(_L)
            strs.extend((t, t.datatype or "", t.language or "", ""))
            return len(kinds)
        if isinstance(t, URIRef):
            return term(URIRef(str(t)))
        if isinstance(t, BNode):
            return term(BNode(str(t)))
        if isinstance(t, Literal):
            return term(Literal(str(t), lang=t.language, datatype=t.datatype, normalize=False))
        raise ValueError("isolda: cannot encode the term %r (%s): want URIRef, BNode or Literal" % (t, type(t).__name__))

    append = quads.extend
    if isinstance(graph, ConjunctiveGraph):
        default = {DATASET_DEFAULT_GRAPH_ID, graph.default_context.identifier}
        mem = _memory_dataset(graph)
        if mem is None:
            gids = {}
            for s, p, o, c in graph.quads((None, None, None, None)):
                if c is None:
                    g = 0
                else:
                    ident = c.identifier if isinstance(c, Graph) else c
                    g = gids.get(ident)
                    if g is None:
                        g = gids[ident] = 0 if ident in default else term(ident)
                append((term(s), term(p), term(o), g))
        else:
            spo, by_triple, default_contexts, objs = mem
            graph_ids = {}  # a context's key (a str) -> its graph's term, 0 the default graph

            def graph_ids_of(contexts):
                out = []
                for key in contexts:
                    if key is None:
                        continue  # the union of the contexts, not one of them
                    g = graph_ids.get(key)
                    if g is None:
                        c = objs.get(key, key)
                        ident = c.identifier if isinstance(c, Graph) else c
                        g = graph_ids[key] = 0 if ident in default else term(ident)
                    out.append(g)
                return out

            default_ids = graph_ids_of(default_contexts)
            ids_of_set = {}  # the keys of a context set, as a tuple -> their graphs' terms
            for s, po in spo.items():
                a = term(s)
                for p, objs_ in po.items():
                    b = term(p)
                    for o in objs_:
                        gs = default_ids
                        if by_triple:
                            cs = by_triple.get((s, p, o))
                            if cs is not None:
                                k = tuple(cs)
                                gs = ids_of_set.get(k)
                                if gs is None:
                                    gs = ids_of_set[k] = graph_ids_of(k)
                        c = term(o)
                        for g in gs:
                            append((a, b, c, g))
    elif isinstance(graph, Graph):
        spo = _memory_spo(graph)
        if spo is not None:
            for s, po in spo.items():
                a = term(s)
                for p, objs in po.items():
                    b = term(p)
                    for o in objs:
                        # term() inlined for the usual objects: a literal
                        # (its slots read directly, not through the
                        # properties) or an IRI already seen.
                        if type(o) is Literal:
                            kadd(_L)
                            strs.extend((o, o._datatype or "", o._language or "", ""))
                            c = len(kinds)
                        elif type(o) is URIRef:
                            c = iget(str(o))
                            if c is None:
                                c = term(o)
                        else:
                            c = term(o)
                        append((a, b, c, 0))
        else:
            for s, p, o in _triples(graph):
                append((term(s), term(p), term(o), 0))
    else:
        raise TypeError("isolda: want an rdflib Graph, ConjunctiveGraph or Dataset, not %s" % type(graph).__name__)
    lens = _u32("I")
    lens.extend(map(len, strs))
    try:
        blob = "".join(strs).encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError("isolda: a term is not valid Unicode (%s)" % e) from None
    if sys.byteorder == "big":
        lens.byteswap()
        quads.byteswap()
    head = MAGIC + struct.pack("<II", len(kinds), len(quads) // 4)
    return b"".join((head, bytes(kinds), lens.tobytes(), quads.tobytes(), blob))


def unpack_terms(b):
    """The terms (a list, index 0 the default graph) and the quads (a flat
    array of term indexes, four per quad) of a packed dataset."""
    if b[:4] != MAGIC:
        raise ValueError("isolda: not a packed dataset")
    nt, nq = struct.unpack_from("<II", b, 4)
    pos = 12
    kinds = b[pos : pos + nt]
    pos += nt
    nstr = nt + 3 * kinds.count(_L)
    lens = _u32("I")
    lens.frombytes(b[pos : pos + 4 * nstr])
    pos += 4 * nstr
    quads = _u32("I")
    quads.frombytes(b[pos : pos + 16 * nq])
    pos += 16 * nq
    if sys.byteorder == "big":
        lens.byteswap()
        quads.byteswap()
    blob = b[pos:].decode("utf-8", "surrogateescape")
    offs = list(accumulate(lens, initial=0))
    terms = [None]
    si = 0
    for k in kinds:
        v = blob[offs[si] : offs[si + 1]]
        if k == _I:
            terms.append(URIRef(v))
            si += 1
        elif k == _B:
            terms.append(BNode(v))
            si += 1
        elif k == _L:
            dt = blob[offs[si + 1] : offs[si + 2]]
            lang = blob[offs[si + 2] : offs[si + 3]]
            if offs[si + 4] != offs[si + 3]:
                raise Error_("a directional language string (RDF 1.2), which rdflib cannot hold")
            si += 4
            if lang:
                terms.append(Literal(v, lang=lang))
            elif dt == XSD_STRING or not dt:
                terms.append(Literal(v))
            else:
                # normalize=False: the lexical form as written ("01", not
                # "1"), as the dataset holds it.
                terms.append(Literal(v, datatype=URIRef(dt), normalize=False))
        else:
            raise Error_("a triple term (RDF 1.2), which rdflib cannot hold")
    return terms, quads


def Error_(what):
    from ._lib import Error

    return Error("isolda: the dataset has %s" % what)


def unpack_into(b, default, named):
    """Adds the quads of a packed dataset to rdflib graphs: the default
    graph's to the graph default, each named graph's to named(name)."""
    terms, quads = unpack_terms(b)
    ctxs = {0: default}
    by_ctx = {}
    for i in range(0, len(quads), 4):
        g = quads[i + 3]
        lst = by_ctx.get(g)
        if lst is None:
            lst = by_ctx[g] = []
            if g not in ctxs:
                ctxs[g] = named(terms[g])
        lst.append((terms[quads[i]], terms[quads[i + 1]], terms[quads[i + 2]]))
    for g, triples in by_ctx.items():
        ctx = ctxs[g]
        ctx.addN((s, p, o, ctx) for s, p, o in triples)
    return len(quads) // 4


def unpack(b):
    """An rdflib Dataset of a packed dataset."""
    ds = Dataset()
    unpack_into(b, ds.default_context, ds.graph)
    return ds
