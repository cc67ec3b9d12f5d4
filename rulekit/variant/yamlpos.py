"""Read YAML with the line and column of every value (safe loading only).

PyYAML's composer gives a node tree with marks; we build plain Python data
from it ourselves so that each value's position is kept in a side table keyed
by its document path (a tuple of keys and list indices).  Duplicate keys, which
PyYAML would silently merge, are reported.
"""
from __future__ import annotations

from dataclasses import dataclass

import yaml

try:  # the C loader is faster; the pure one behaves the same
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

from rulekit.errors import Diagnostic


@dataclass(frozen=True)
class Pos:
    """Where a value starts in its file.

    :ivar file: path of the file.
    :ivar line: 1-based line.
    :ivar column: 1-based column.
    :ivar style: YAML scalar style (``None`` plain, ``'"'``, ``"'"``, ``"|"``, ``">"``).
    :ivar indent: for block scalars, the column of the text's first line.
    """

    file: str
    line: int
    column: int
    style: str | None = None
    indent: int = 0

    def dsl_offset(self, line: int, column: int) -> tuple[int, int]:
        """Map a 1-based (line, column) inside a DSL string to file coordinates."""
        if self.style in ("|", ">"):
            return self.line + line, self.indent + column - 1
        if line == 1:
            quote = 1 if self.style in ('"', "'") else 0
            return self.line, self.column + quote + column - 1
        return self.line + line - 1, column


class YamlDocument:
    """A YAML document's data plus positions.

    :ivar data: the plain data (dicts, lists, str, int, float, bool, None).
    :ivar positions: path tuple -> :class:`Pos` of the value (and of keys, under
        ``path + ("<key>",)``).
    :ivar diagnostics: problems found while reading (duplicate keys).
    """

    def __init__(self, file: str, text: str):
        self.file = file
        self.text = text
        self.positions: dict[tuple, Pos] = {}
        self.diagnostics: list[Diagnostic] = []
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
        self._constructor = yaml.constructor.SafeConstructor()
        self.data = self._build(node, ()) if node is not None else None

    def pos(self, path: tuple) -> Pos:
        """Position of the value at ``path`` or of its nearest ancestor."""
        p = tuple(path)
        while p:
            if p in self.positions:
                return self.positions[p]
            p = p[:-1]
        return self.positions.get((), Pos(self.file, 1, 1))

    def _mark(self, node, path):
        m = node.start_mark
        style = getattr(node, "style", None)
        indent = 0
        if style in ("|", ">"):
            # the block text starts on the next line; find its indentation
            lines = self.text.splitlines()
            nxt = lines[m.line + 1] if m.line + 1 < len(lines) else ""
            indent = len(nxt) - len(nxt.lstrip(" ")) + 1
        self.positions[path] = Pos(self.file, m.line + 1, m.column + 1, style, indent)

    def _build(self, node, path):
        self._mark(node, path)
        if isinstance(node, yaml.MappingNode):
            out = {}
            for knode, vnode in node.value:
                key = self._constructor.construct_object(knode, deep=True)
                if not isinstance(key, (str, int, bool)) or key is None:
                    key = str(key)
                if isinstance(key, bool):  # YAML 1.1: a key `no` would become False
                    key = knode.value
                if isinstance(key, int):
                    key = str(key)
                if key in out:
                    m = knode.start_mark
                    self.diagnostics.append(Diagnostic(
                        self.file, m.line + 1, m.column + 1, ".".join(map(str, path + (key,))),
                        f"duplicate key {key!r} (each key may appear once in a mapping)"))
                kp = path + (key,)
                self.positions[kp + ("<key>",)] = Pos(self.file, knode.start_mark.line + 1,
                                                      knode.start_mark.column + 1)
                out[key] = self._build(vnode, kp)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self._build(v, path + (i,)) for i, v in enumerate(node.value)]
        return self._constructor.construct_object(node, deep=True)


def load_yaml(file: str, text: str) -> YamlDocument:
    """Parse ``text`` (the content of ``file``).

    :raises yaml.YAMLError: on a syntax error (it carries ``problem_mark``).
    """
    return YamlDocument(file, text)
