"""Read YAML with the line and column of every value (safe loading only).

PyYAML's composer gives a node tree with marks; we build plain Python data
from it ourselves so that each value's position is kept in a side table keyed
by its document path (a tuple of keys and list indices).  Duplicate keys, which
PyYAML would silently merge, are reported.

A string value also remembers its exact place in the source, so that a
position inside the string (a DSL error at column 7 of ``"10 * (tricks"``) maps
back to the file's line and column through quotes, escapes, folded lines and
block scalars (:meth:`Pos.dsl_offset`).
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

import yaml

try:  # the C loader is faster; the pure one behaves the same
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

from rulekit.errors import Diagnostic

#: At most this many values in one document (YAML aliases can multiply a small file).
MAX_NODES = 100_000
#: At most this many levels of nested mappings and lists.
MAX_DEPTH = 64
#: Longest source line shown in an excerpt (longer lines show a window around the column).
EXCERPT_WIDTH = 100

# The line breaks libyaml counts (its marks are in characters, breaks normalised).
_BREAKS = re.compile("\r\n|[\r\x85\u2028\u2029]")


class Source:
    """The text of one file, for turning offsets into positions and drawing excerpts.

    :ivar file: the file's path as given.
    :ivar text: the text with every line break normalised to ``\\n``.
    """

    __slots__ = ("file", "text", "starts")

    def __init__(self, file: str, text: str):
        self.file = file
        self.text = _BREAKS.sub("\n", text)
        self.starts = [0] + [m.end() for m in re.finditer("\n", self.text)]

    def index(self, line: int, column: int) -> int:
        """Offset in :attr:`text` of a 1-based (line, column)."""
        line = min(max(line, 1), len(self.starts))
        return min(self.starts[line - 1] + max(column, 1) - 1, len(self.text))

    def linecol(self, index: int) -> tuple[int, int]:
        """1-based (line, column) of an offset in :attr:`text`."""
        i = bisect_right(self.starts, index) - 1
        return i + 1, index - self.starts[i] + 1

    def line(self, n: int) -> str:
        """Line ``n`` (1-based) without its line break; ``""`` when out of range."""
        if not 1 <= n <= len(self.starts):
            return ""
        end = self.starts[n] - 1 if n < len(self.starts) else len(self.text)
        return self.text[self.starts[n - 1]:end]

    def excerpt(self, line: int, column: int) -> str:
        """Line ``line`` of the file with a caret under ``column``, with a line-number gutter.

        Tabs before the column are kept so that the caret lines up; characters
        a terminal cannot show are replaced.
        """
        src = "".join(ch if ch.isprintable() or ch == "\t" else "\ufffd" for ch in self.line(line))
        if not src.strip():
            return ""
        if len(src) > EXCERPT_WIDTH:  # a window around the column
            start = max(0, min(column - 1 - EXCERPT_WIDTH // 2, len(src) - EXCERPT_WIDTH))
            head = "..." if start else ""
            tail = "..." if start + EXCERPT_WIDTH < len(src) else ""
            column = column - start + len(head)
            src = head + src[start:start + EXCERPT_WIDTH] + tail
        lead = "".join("\t" if ch == "\t" else " " for ch in src[:max(column - 1, 0)])
        lead += " " * max(column - 1 - len(src), 0)
        num = str(line)
        return f" {num} | {src}\n {' ' * len(num)} | {lead}^"


@dataclass(frozen=True)
class Pos:
    """Where a value starts in its file.

    :ivar file: path of the file.
    :ivar line: 1-based line.
    :ivar column: 1-based column.
    :ivar style: YAML scalar style (``None`` plain, ``'"'``, ``"'"``, ``"|"``, ``">"``).
    :ivar indent: for block scalars, the column of the text's first line.
    :ivar end_line, end_column: where the value ends (0 when unknown).
    :ivar value: for string values, the string (to map positions inside it).
    :ivar source: the file's :class:`Source` (``None`` when unknown).
    """

    file: str
    line: int
    column: int
    style: str | None = None
    indent: int = 0
    end_line: int = 0
    end_column: int = 0
    value: str | None = field(default=None, repr=False, compare=False)
    source: Source | None = field(default=None, repr=False, compare=False)

    def dsl_offset(self, line: int, column: int) -> tuple[int, int]:
        """Map a 1-based (line, column) inside a DSL string to file coordinates.

        Accounts for the opening quote, escapes (``\\"``, ``''``), lines folded
        into spaces, and the indentation of ``|`` / ``>`` block scalars.  A
        column just past the end of the text maps to just past its last
        character (the closing quote of a quoted string).
        """
        if self.source is None or self.value is None or not self.end_line:
            return self._simple_offset(line, column)
        lines = self.value.split("\n")
        line = min(max(line, 1), len(lines))
        off = sum(len(x) + 1 for x in lines[:line - 1]) + max(column, 1) - 1
        off = min(off, len(self.value))
        return self.source.linecol(self._offsets(self.source, self.value)[off])

    def excerpt(self, line: int, column: int) -> str:
        """The file's line ``line`` with a caret under ``column`` (``""`` when unknown)."""
        return self.source.excerpt(line, column) if self.source is not None else ""

    def _simple_offset(self, line: int, column: int) -> tuple[int, int]:
        if self.style in ("|", ">"):
            return self.line + line, self.indent + column - 1
        if line == 1:
            quote = 1 if self.style in ('"', "'") else 0
            return self.line, self.column + quote + column - 1
        return self.line + line - 1, column

    def _offsets(self, source: Source, value: str) -> list[int]:
        """Offset in ``source`` (this value's file) of each character of ``value`` (this
        value's text, :attr:`value`), plus one for its end."""
        t = source.text
        style = self.style
        block = style in ("|", ">")
        j = source.index(self.line, self.column)
        end = source.index(self.end_line, self.end_column)
        indent = max(self.indent - 1, 0)
        if style in ('"', "'"):
            j += 1
        elif block:  # the text starts on the line after the indicator
            nl = t.find("\n", j)
            j = end if nl < 0 else nl + 1

        def skip_indent(k):
            if block:
                n = 0
                while n < indent and k < end and t[k] == " ":
                    k += 1
                    n += 1
            else:
                while k < end and t[k] in " \t":
                    k += 1
            return k
        if block:
            j = skip_indent(j)
        out: list[int] = []
        for ch in value:
            while j < end:
                c = t[j]
                if style == '"' and c == "\\":
                    produced, n = _escape(t, j)
                    if produced is None:  # an escaped line break: skip it
                        j = skip_indent(j + n)
                        continue
                    j += n
                    if produced == ch:
                        out.append(j - n)
                        break
                    continue
                if style == "'" and c == "'" and t[j + 1:j + 2] == "'":
                    j += 2
                    if ch == "'":
                        out.append(j - 2)
                        break
                    continue
                if c == ch or (c == "\n" and ch in " \n"):
                    out.append(j)
                    j += 1
                    if c == "\n":
                        j = skip_indent(j)
                    break
                j += 1
                if c == "\n":
                    j = skip_indent(j)
            else:
                out.append(min(j, len(t)))
        out.append(out[-1] + 1 if out else j)
        return out


_SIMPLE_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v",
                   "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
                   "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029"}


def _escape(t: str, j: int) -> tuple[str | None, int]:
    """The character a double-quoted escape at ``t[j]`` produces and its length (``None``: a line break)."""
    nxt = t[j + 1:j + 2]
    if nxt == "\n":
        return None, 2
    if nxt in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[nxt], 2
    width = {"x": 2, "u": 4, "U": 8}.get(nxt)
    if width:
        try:
            return chr(int(t[j + 2:j + 2 + width], 16)), 2 + width
        except ValueError:
            pass
    return nxt, 2


class YamlDocument:
    """A YAML document's data plus positions.

    :ivar data: the plain data (dicts, lists, str, int, float, bool, None).
    :ivar positions: path tuple -> :class:`Pos` of the value (and of keys, under
        ``path + ("<key>",)``).
    :ivar diagnostics: problems found while reading (duplicate keys).
    :ivar source: the file's :class:`Source`.
    :raises yaml.YAMLError: on a syntax error, or a document nested deeper than
        :data:`MAX_DEPTH` or larger than :data:`MAX_NODES` values.
    """

    def __init__(self, file: str, text: str):
        self.file = file
        self.text = text
        self.source = Source(file, text)
        self.positions: dict[tuple, Pos] = {}
        self.diagnostics: list[Diagnostic] = []
        self._count = 0
        loader = _Loader(text)
        try:
            try:
                node = loader.get_single_node()
            except RecursionError:
                raise yaml.YAMLError(f"the document is nested too deeply (expected at most "
                                     f"{MAX_DEPTH} levels)") from None
        finally:
            loader.dispose()
        self._constructor = yaml.constructor.SafeConstructor()
        self.data = self._build(node, (), 0) if node is not None else None

    def pos(self, path: tuple) -> Pos:
        """Position of the value at ``path`` or of its nearest ancestor."""
        p = tuple(path)
        while p:
            if p in self.positions:
                return self.positions[p]
            p = p[:-1]
        return self.positions.get((), Pos(self.file, 1, 1, source=self.source))

    def _mark(self, node, path):
        m = node.start_mark
        e = node.end_mark
        style = getattr(node, "style", None)
        indent = 0
        if style in ("|", ">"):
            # the block text starts on the next line; its first non-blank line sets the indentation
            for n in range(m.line + 2, e.line + 2):
                text = self.source.line(n)
                if text.strip():
                    indent = len(text) - len(text.lstrip(" ")) + 1
                    break
        value = node.value if isinstance(node, yaml.ScalarNode) and node.tag.endswith(":str") else None
        self.positions[path] = Pos(self.file, m.line + 1, m.column + 1, style, indent,
                                   e.line + 1, e.column + 1, value, self.source)

    def _build(self, node, path, depth):
        self._count += 1
        if self._count > MAX_NODES:
            raise yaml.MarkedYAMLError(problem=f"the document has more than {MAX_NODES} values "
                                       f"(aliases expanding too much?)", problem_mark=node.start_mark)
        if depth > MAX_DEPTH:
            raise yaml.MarkedYAMLError(problem=f"the document is nested too deeply (expected at most "
                                       f"{MAX_DEPTH} levels)", problem_mark=node.start_mark)
        self._mark(node, path)
        if isinstance(node, yaml.MappingNode):
            out = {}
            first: dict = {}
            for knode, vnode in node.value:
                key = self._key(knode)
                km = knode.start_mark
                if key in out:
                    fl, fc = first[key]
                    self.diagnostics.append(Diagnostic(
                        self.file, km.line + 1, km.column + 1, ".".join(map(str, path + (key,))),
                        f"duplicate key {key!r} (first defined at line {fl}, column {fc}; "
                        f"expected each key once in a mapping)", self.source.excerpt(km.line + 1, km.column + 1)))
                else:
                    first[key] = (km.line + 1, km.column + 1)
                kp = path + (key,)
                self.positions[kp + ("<key>",)] = Pos(self.file, km.line + 1, km.column + 1,
                                                      source=self.source)
                out[key] = self._build(vnode, kp, depth + 1)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self._build(v, path + (i,), depth + 1) for i, v in enumerate(node.value)]
        return self._scalar(node)

    def _scalar(self, node):
        """Construct a scalar; a value Python refuses (a 5000-digit number) is a marked error."""
        try:
            return self._constructor.construct_object(node, deep=True)
        except (ValueError, OverflowError) as e:
            what = "number" if "digits" in str(e) or "int" in str(e) else "value"
            raise yaml.MarkedYAMLError(problem=f"this {what} cannot be read ({e}; expected a shorter value)",
                                       problem_mark=node.start_mark) from None

    def _key(self, knode) -> str:
        """A mapping key as text: ``3`` and ``"3"`` are the same key; ``no`` stays ``"no"``."""
        if isinstance(knode, yaml.ScalarNode):
            key = self._scalar(knode)
            if isinstance(key, str):
                return key
            if isinstance(key, int) and not isinstance(key, bool):
                return str(key)
            return str(knode.value)  # YAML 1.1: a key `no` would become False
        return yaml.safe_dump(self._constructor.construct_object(knode, deep=True),
                              default_flow_style=True).strip()


def load_yaml(file: str, text: str) -> YamlDocument:
    """Parse ``text`` (the content of ``file``).

    :raises yaml.YAMLError: on a syntax error (it carries ``problem_mark``).
    """
    return YamlDocument(file, text)
