"""The shared library of the Go core (capi/), loaded with ctypes.

ctypes.CDLL releases the GIL for the length of every call, so calls from
many threads run at once in Go. Every buffer the library returns is copied
into a Python bytes object and freed at once with isolda_free.
"""

import ctypes
import json
import os
import sys
import threading

# The operations and statuses of isolda_call (capi/ops.go).
OP_ENCODE, OP_DECODE, OP_CHECK, OP_TOKENS, OP_CHUNK, OP_SYNTAXES = 1, 2, 3, 4, 5, 6
ST_OK, ST_PARSE, ST_VALUE, ST_ERROR, ST_PANIC = 0, 1, 2, 3, 4


class Error(Exception):
    """An error of the Go core that is neither a parse error nor a bad
    argument; also raised, with "internal error" in its message, when the Go
    core panics (the interpreter keeps running)."""


class ParseError(Error, ValueError):
    """A syntax error in an input document, with its position.

    Attributes: ``line`` and ``column`` (from 1; the column counts code
    points), ``offset`` (bytes of input before the error), ``file`` (the
    input's name) and ``msg`` (what was wrong). ``line`` is 0 when the
    error has no position.
    """

    def __init__(self, message, msg="", file="", line=0, column=0, offset=0):
        super().__init__(message)
        self.msg, self.file, self.line, self.column, self.offset = msg, file, line, column, offset


def _error(status, res):
    """The exception of a failed call's status and result."""
    if status == ST_PARSE:
        e = json.loads(res)
        return ParseError(e["message"], e["msg"], e["file"], e["line"], e["column"], e["offset"])
    text = res.decode("utf-8", "replace")
    if status == ST_VALUE:
        return ValueError(text)
    return Error(text)


# PyUnicode_FromKindAndData (CPython's C API, through ctypes.pythonapi,
# which holds the GIL) makes a str from its code units with one copy.
# Elsewhere (no pythonapi) the units are decoded with the codec of their
# width.
_pythonapi = getattr(ctypes, "pythonapi", None) if sys.implementation.name == "cpython" else None
_from_kind = getattr(_pythonapi, "PyUnicode_FromKindAndData", None)
if _from_kind is not None:
    _from_kind.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_ssize_t]
    _from_kind.restype = ctypes.py_object
_CODECS = {1: "latin-1", 2: "utf-16-" + sys.byteorder[0] + "e", 4: "utf-32-" + sys.byteorder[0] + "e"}

# PyUnicode_New makes an empty str of n code points (all of them at most
# maxchar) in CPython's compact layout, whose code units end the object:
# the library writes them there (isolda_text_fill), with no buffer of its
# own and no copy.
_unicode_new = getattr(_pythonapi, "PyUnicode_New", None)
if _unicode_new is not None:
    _unicode_new.argtypes = [ctypes.c_ssize_t, ctypes.c_uint32]
    _unicode_new.restype = ctypes.py_object


def _kind(maxchar):
    """The width of the code units of a str whose largest code point is
    maxchar (PEP 393)."""
    return 1 if maxchar < 0x100 else 2 if maxchar < 0x10000 else 4


def _new_str(n, maxchar):
    """A new str of n code points, not yet written, and the address of its
    code units; None when this interpreter cannot make one."""
    if _unicode_new is None or n == 0:
        return None
    s = _unicode_new(n, maxchar)
    # A compact str's code units and their terminating NUL end the
    # object, whose size sys.getsizeof gives (a new str has no UTF-8
    # copy of its own).
    return s, id(s) + sys.getsizeof(s) - (n + 1) * _kind(maxchar)


def _new_str_works():
    """Whether _new_str gives the right address in this interpreter:
    each width written as the library writes it, and read back."""
    try:
        for want in ("ab", "a\xe9", "a\u0100", "a\U00010000"):
            maxchar = max(map(ord, want))
            made = _new_str(len(want), maxchar)
            if made is None:
                return False
            s, addr = made
            units = want.encode(_CODECS[_kind(maxchar)])
            if addr < id(s) or addr + len(units) + _kind(maxchar) != id(s) + sys.getsizeof(s):
                return False
            ctypes.memmove(addr, units, len(units))
            if s != want or hash(s) != hash(want):
                return False
        return True
    except Exception:
        return False


def _str_of_units(kind, ptr, n):
    """The str of n code units of kind bytes each at ptr."""
    if _from_kind is not None:
        return _from_kind(kind, ptr, n)
    return ctypes.string_at(ptr, n * kind).decode(_CODECS[kind]) if n else ""


def _library_name():
    if sys.platform == "darwin":
        return "_isolda.dylib"
    if sys.platform == "win32":
        return "_isolda.dll"
    return "_isolda.so"


_SIZE_P = ctypes.POINTER(ctypes.c_size_t)
_VOID_PP = ctypes.POINTER(ctypes.c_void_p)
# The C API (capi/), as ctypes declares it: name -> (argument types, result
# type). A call's first five arguments are the operation, the JSON request
# and the data; then where the result goes.
_CALL_ARGS = [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
_SIGNATURES = {
    "isolda_call": (_CALL_ARGS + [_VOID_PP, _SIZE_P], ctypes.c_int),
    "isolda_call_str": (_CALL_ARGS + [_VOID_PP, _SIZE_P, ctypes.POINTER(ctypes.c_int)], ctypes.c_int),
    "isolda_call_text": (
        _CALL_ARGS + [_SIZE_P, _SIZE_P, ctypes.POINTER(ctypes.c_uint32), _VOID_PP, _SIZE_P],
        ctypes.c_int,
    ),
    "isolda_text_fill": ([ctypes.c_size_t, ctypes.c_void_p, ctypes.c_int], None),
    "isolda_free": ([ctypes.c_void_p], None),
    "isolda_registry": ([ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int], ctypes.c_size_t),
    "isolda_registry_free": ([ctypes.c_size_t], None),
    "isolda_chunk_open": (
        [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, _SIZE_P, _VOID_PP, _SIZE_P],
        ctypes.c_int,
    ),
    "isolda_chunk_next": ([ctypes.c_size_t, _VOID_PP, _SIZE_P], ctypes.c_int),
    "isolda_chunk_written": ([ctypes.c_size_t], ctypes.c_int64),
    "isolda_chunk_close": ([ctypes.c_size_t], ctypes.c_int64),
}
# Declared only where the library has them and writing into a str works.
_TEXT_FUNCTIONS = ("isolda_call_text", "isolda_text_fill")


class _Library:
    """The loaded library and its tokenizer registries (one per models
    folder and special-tokens setting, each loading a tokenizer once)."""

    def __init__(self, path):
        lib = ctypes.CDLL(path)
        self._direct = hasattr(lib, "isolda_call_text") and _new_str_works()
        for name, (args, res) in _SIGNATURES.items():
            if name in _TEXT_FUNCTIONS and not self._direct:
                continue
            fn = getattr(lib, name)
            fn.argtypes = args
            fn.restype = res
        self._lib = lib
        self._lock = threading.Lock()
        self._registries = {}
        self._syntaxes = None

    def call(self, op, request, data=b""):
        """Runs one operation; returns the result bytes or raises."""
        req = json.dumps(request, ensure_ascii=False).encode("utf-8")
        out = ctypes.c_void_p()
        n = ctypes.c_size_t()
        status = self._lib.isolda_call(op, req, len(req), data, len(data), ctypes.byref(out), ctypes.byref(n))
        try:
            res = ctypes.string_at(out, n.value) if n.value else b""
        finally:
            self._lib.isolda_free(out)
        if status == ST_OK:
            return res
        raise _error(status, res)

    def call_str(self, op, request, data=b""):
        """Runs one operation whose result is text; returns it as a str
        or raises. The library writes the str's code units (capi/str.go)
        into a str made for them, or gives them to be copied once into
        one; the text is never decoded from UTF-8."""
        req = json.dumps(request, ensure_ascii=False).encode("utf-8")
        if self._direct:
            return self._call_text(op, req, data)
        out = ctypes.c_void_p()
        n = ctypes.c_size_t()
        kind = ctypes.c_int()
        status = self._lib.isolda_call_str(
            op, req, len(req), data, len(data), ctypes.byref(out), ctypes.byref(n), ctypes.byref(kind)
        )
        try:
            if status == ST_OK and kind.value:
                return _str_of_units(kind.value, out, n.value)
            res = ctypes.string_at(out, n.value) if n.value else b""
        finally:
            self._lib.isolda_free(out)
        raise _error(status, res)

    def _call_text(self, op, req, data):
        """call_str through isolda_call_text and isolda_text_fill."""
        h = ctypes.c_size_t()
        n = ctypes.c_size_t()
        maxchar = ctypes.c_uint32()
        out = ctypes.c_void_p()
        nout = ctypes.c_size_t()
        status = self._lib.isolda_call_text(
            op, req, len(req), data, len(data), ctypes.byref(h), ctypes.byref(n), ctypes.byref(maxchar), ctypes.byref(out), ctypes.byref(nout)
        )
        if status != ST_OK or not h.value:
            raise _error(status, self._take(out, nout))
        made = None
        try:
            made = _new_str(n.value, maxchar.value)
        finally:
            # Writes the code units (the GIL released), or only frees the
            # text when there is no str to write them into.
            self._lib.isolda_text_fill(h.value, made[1] if made else None, _kind(maxchar.value))
        return made[0] if made else ""

    def _take(self, out, n):
        """The bytes of a result buffer, which is freed."""
        try:
            return ctypes.string_at(out, n.value) if n.value else b""
        finally:
            self._lib.isolda_free(out)

    def chunk_open(self, request, data=b""):
        """Starts a chunk operation; returns the handle of its stream."""
        req = json.dumps(request, ensure_ascii=False).encode("utf-8")
        h = ctypes.c_size_t()
        out = ctypes.c_void_p()
        n = ctypes.c_size_t()
        status = self._lib.isolda_chunk_open(req, len(req), data, len(data), ctypes.byref(h), ctypes.byref(out), ctypes.byref(n))
        res = self._take(out, n)
        if status != ST_OK:
            raise _error(status, res)
        return h.value

    def chunk_next(self, h):
        """The next block of documents (whole JSON lines) of a stream as
        they are written, b"" at the end; raises the operation's error."""
        out = ctypes.c_void_p()
        n = ctypes.c_size_t()
        status = self._lib.isolda_chunk_next(h, ctypes.byref(out), ctypes.byref(n))
        res = self._take(out, n)
        if status != ST_OK:
            raise _error(status, res)
        return res

    def chunk_written(self, h):
        """The number of documents the stream has handed over so far."""
        return self._lib.isolda_chunk_written(h)

    def chunk_close(self, h):
        """Stops a chunk operation (the Go chunker is cancelled), waits
        for it to end and frees its stream; returns the number of
        documents the chunker encoded."""
        return self._lib.isolda_chunk_close(h)

    def syntaxes(self):
        """The readable RDF syntaxes of the Go core's table (rdf/rdfio):
        a list of dicts with name, short, aliases and extensions."""
        with self._lock:
            if self._syntaxes is None:
                self._syntaxes = json.loads(self.call(OP_SYNTAXES, {}))
            return self._syntaxes

    def registry(self, models_dir="", special=False):
        """The handle of the tokenizer registry for these settings."""
        key = (models_dir or "", bool(special))
        with self._lock:
            h = self._registries.get(key)
            if h is None:
                d = key[0].encode("utf-8")
                h = self._registries[key] = self._lib.isolda_registry(d, len(d), int(key[1]))
            return h


_loaded = None
_load_lock = threading.Lock()


def lib():
    """The library, loaded on first use."""
    global _loaded
    if _loaded is None:
        with _load_lock:
            if _loaded is None:
                path = os.environ.get("ISOLDA_LIBRARY") or os.path.join(os.path.dirname(__file__), _library_name())
                _loaded = _Library(path)
    return _loaded
