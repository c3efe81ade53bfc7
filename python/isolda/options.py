"""Options: the encoder options of `isolda encode --help`, with Python names."""

import math

# One row per option: Python name, the CLI's flag, the Go field of
# isolda.Options, the default, and the allowed values (a tuple), or the
# type of a free value.
_ROWS = (
    ("version", "--spec", "Version", "0.4", ("0.1", "0.2", "0.3", "0.4")),
    ("ids", "--ids", "IDs", "label", ("label", "slug")),
    ("no_constants", "--no-constants", "NoConstants", False, bool),
    ("no_types", "--no-types", "NoTypes", False, bool),
    ("glossary", "--glossary", "Glossary", "full", ("full", "legend", "none")),
    ("inverse_index", "--inverse-index", "InverseIndex", False, bool),
    ("layout", "--layout", "Layout", "table", ("table", "blocks", "hybrid")),
    ("theta", "--theta", "Theta", 0.0, float),
    ("continuation", "--continuation", "Continuation", False, bool),
    ("inline_bnodes", "--inline-bnodes", "InlineBlanks", False, bool),
    ("anchor", "--anchor", "Anchor", "", str),
    ("hops", "--hops", "Hops", 0, int),
    ("no_preferred_language", "--no-preferred-language", "NoPreferredLanguage", False, bool),
    ("no_row_label_ids", "--no-row-label-ids", "NoRowLabelIDs", False, bool),
    ("no_term_aliases", "--no-term-aliases", "NoTermAliases", False, bool),
    ("no_vocab_prefix", "--no-vocab-prefix", "NoVocabPrefix", False, bool),
    ("iri_ids", "--iri-ids", "IRIIDs", False, bool),
    ("datatype_prefixes", "--datatype-prefixes", "DatatypePrefixes", False, bool),
)
_BY_NAME = {r[0]: r for r in _ROWS}
NAMES = tuple(r[0] for r in _ROWS)


class Options:
    """The options of the ISOLDA encoder, one for each flag of
    ``isolda encode --help`` (``--spec`` is ``version``; dashes are
    underscores: ``inline_bnodes=True``, ``layout="blocks"``, ``theta=0.5``,
    ``glossary="legend"``). ``Options()`` is the CLI's default: ISOLDA 0.4.

    An unknown option or value raises ValueError naming the allowed ones.
    Options are immutable; ``replace(**changes)`` returns a modified copy.
    """

    __slots__ = NAMES

    def __init__(self, **options):
        for name, _, _, default, _ in _ROWS:
            object.__setattr__(self, name, default)
        for name, value in options.items():
            row = _BY_NAME.get(name)
            if row is None:
                raise ValueError("isolda: unknown option %r (options: %s)" % (name, ", ".join(NAMES)))
            object.__setattr__(self, name, _check(row, value))

    def __setattr__(self, name, value):
        raise AttributeError("isolda.Options are immutable: use options.replace(%s=...)" % name)

    def replace(self, **changes):
        """A copy with some options changed."""
        d = self.as_dict()
        d.update(changes)
        return Options(**d)

    def as_dict(self):
        """Every option, by Python name."""
        return {n: getattr(self, n) for n in NAMES}

    def to_go(self):
        """The options as the Go isolda.Options fields (JSON)."""
        return {go: getattr(self, name) for name, _, go, _, _ in _ROWS}

    def to_flags(self):
        """The flags of `isolda encode` that give these options (defaults
        left out)."""
        out = []
        for name, flag, _, default, kind in _ROWS:
            v = getattr(self, name)
            if v == default:
                continue
            if kind is bool:
                out.append(flag)
            else:
                out.append("%s=%s" % (flag, v))
        return out

    def __eq__(self, other):
        return isinstance(other, Options) and self.as_dict() == other.as_dict()

    def __hash__(self):
        return hash(tuple(getattr(self, n) for n in NAMES))

    def __repr__(self):
        changed = ["%s=%r" % (n, getattr(self, n)) for n, _, _, d, _ in _ROWS if getattr(self, n) != d]
        return "Options(%s)" % ", ".join(changed)


def _check(row, value):
    name, _, _, _, kind = row
    if isinstance(kind, tuple):
        if isinstance(value, float) and name == "version":
            value = "%.1f" % value
        if value not in kind:
            raise ValueError("isolda: %s=%r: want one of %s" % (name, value, ", ".join(repr(k) for k in kind)))
        return value
    if kind is bool:
        if not isinstance(value, bool):
            raise ValueError("isolda: %s=%r: want True or False" % (name, value))
        return value
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) or not 0 <= value <= 1:
            raise ValueError("isolda: %s=%r: want a number from 0 to 1" % (name, value))
        return float(value)
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError("isolda: %s=%r: want a whole number, 0 or more" % (name, value))
        return value
    if not isinstance(value, str):
        raise ValueError("isolda: %s=%r: want a string" % (name, value))
    return value


def coerce(options):
    """Options from None (the defaults), an Options or a dict."""
    if options is None:
        return Options()
    if isinstance(options, Options):
        return options
    if isinstance(options, dict):
        return Options(**options)
    raise ValueError("isolda: options: want an isolda.Options or a dict, not %s" % type(options).__name__)
