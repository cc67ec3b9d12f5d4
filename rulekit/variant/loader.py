"""Find, read, merge (``extends:``) and schema-check variant files.

The result of :func:`resolve` is a :class:`Resolved` document: the merged data,
the position (file, line, column) of every value through the whole
``extends:`` chain, and every problem found so far.  :mod:`rulekit.variant.compiler`
then checks meaning and compiles it.
"""
from __future__ import annotations

import copy
import difflib
import os
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator, FormatChecker, validators
from jsonschema.exceptions import best_match

from referencing import Registry, Resource

from rulekit.engine.phases import canonical
from rulekit.engine.phases import version as phase_kinds_version
from rulekit.errors import Diagnostic
from rulekit.schemas import PLACEMENT, composed_schema
from rulekit.text import MAX_ID, MAX_NAME, MAX_TEXT, unprintable
from rulekit.variant.yamlpos import Pos, Source, _Loader, load_yaml

MAX_EXTENDS_DEPTH = 16
#: Environment variable: more folders (``os.pathsep``-separated) that ``extends:`` may read from.
RULEKIT_PATH = "RULEKIT_PATH"
#: Largest variant file read (bytes); variant files are a few kilobytes.
MAX_FILE_SIZE = 1_000_000
#: Keys a complete (merged) variant must have.
REQUIRED_KEYS = ("deck", "ranking", "phases")


def schema() -> dict:
    """The variant JSON Schema (Draft 2020-12): the file shipped in ``rulekit/schemas`` with
    the registered phase kinds' blocks (:func:`rulekit.schemas.composed_schema`)."""
    return _schema(phase_kinds_version())


@lru_cache(maxsize=2)
def _schema(_version: int) -> dict:
    return composed_schema()


def validator() -> Draft202012Validator:
    """A validator for :func:`schema` with the bundled registry; ``integer`` refuses floats.
    Rebuilt when a phase kind is registered or removed."""
    return _validator(phase_kinds_version())


@lru_cache(maxsize=2)
def _validator(version: int) -> Draft202012Validator:
    s = _schema(version)
    registry = Registry().with_resource(s["$id"], Resource.from_contents(s))
    return _StrictIntegers(s, registry=registry, format_checker=FormatChecker())


def _is_whole_number(checker, value) -> bool:
    """JSON Schema's ``integer`` accepts ``4.0``; a YAML float is never a count of
    players, seats or deals here (the engine would fail on it deep in play)."""
    return isinstance(value, int) and not isinstance(value, bool)


_StrictIntegers = validators.extend(
    Draft202012Validator, type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_whole_number))


def builtin_dir():
    """The folder of installed variant files (``rulekit.variants`` package data)."""
    return files("rulekit.variants")


def builtin_ids() -> list[str]:
    """Ids of the installed variants, sorted."""
    return sorted(p.name[:-5] for p in builtin_dir().iterdir() if p.name.endswith(".yaml"))


def locate(name: str, near: Path | None = None) -> tuple[str, str] | None:
    """Find a variant by id or path.

    :param name: an id (``fivehundred``) or a path to a ``.yaml`` file.
    :param near: folder of the file that names it (``extends:`` looks there first).
    :returns: ``(display path, text)`` or ``None`` when nothing is found.
    :raises VariantFileError: when the file exists but cannot be read as text.
    """
    found = _locate(name, near)
    return None if found is None else found[:2]


class VariantFileError(Exception):
    """A variant file exists but cannot be read (not UTF-8, too large, unreadable).

    :ivar diagnostic: the problem, positioned where possible.
    """

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def read_text(path: str | Path, display: str | None = None) -> str:
    """The text of a variant file (UTF-8, an optional byte-order mark dropped).

    :raises VariantFileError: with a positioned diagnostic when it cannot be read.
    """
    display = str(path) if display is None else display
    try:
        size = os.path.getsize(path)
        if size > MAX_FILE_SIZE:
            raise VariantFileError(Diagnostic(display, 1, 1, "", f"the file has {size} bytes "
                                              f"(expected a variant file of at most {MAX_FILE_SIZE})"))
        data = Path(path).read_bytes()
    except IsADirectoryError:
        raise VariantFileError(Diagnostic(display, 1, 1, "", "is a directory (expected a variant .yaml file)")) from None
    except OSError as e:
        raise VariantFileError(Diagnostic(display, 1, 1, "", f"cannot read the file: {e.strerror or e}")) from None
    return decode(display, data)


def decode(display: str, data: bytes) -> str:
    """Decode a file's bytes as UTF-8 text.

    :raises VariantFileError: at the line and column of the first bad byte.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        good = data[:e.start].decode("utf-8", "replace")
        src = Source(display, good)
        line, col = src.linecol(len(src.text))
        raise VariantFileError(Diagnostic(
            display, line, col, "", f"not a text file: byte 0x{data[e.start]:02x} is not UTF-8 "
            f"(expected a YAML text file in UTF-8)")) from None
    return text[1:] if text.startswith("\ufeff") else text


def is_file(p: Path) -> bool:
    """``p.is_file()`` that answers ``False`` for names the system refuses (too long, NUL bytes)."""
    try:
        return p.is_file()
    except (OSError, ValueError):
        return False


NOT_REGULAR = "not a regular file (expected a variant .yaml file)"
IS_FOLDER = "is a folder (expected a variant .yaml file)"


def not_regular_file(name: str) -> str | None:
    """Why ``name`` names no variant file although something exists at that path: it
    :data:`IS_FOLDER` (a folder) or :data:`NOT_REGULAR` (a FIFO, a device); ``None`` when the path
    is a regular file or does not exist. A bare word (no ``/``, no ``.yaml``) is the id of an
    installed variant first: a folder of that name in the current folder does not hide it."""
    try:
        if not os.path.exists(name) or os.path.isfile(name):
            return None
        folder = os.path.isdir(name)
    except (OSError, ValueError):
        return None
    if not (name.endswith((".yaml", ".yml")) or "/" in name) and _builtin(name) is not None:
        return None
    return IS_FOLDER if folder else NOT_REGULAR


def _locate(name: str, near: Path | None = None) -> tuple[str, str, str] | None:
    """``(display path, text, identity)`` of a variant; the identity detects ``extends:`` cycles."""
    candidates = []
    p = Path(name)
    if name.endswith((".yaml", ".yml")) or "/" in name:
        candidates.append(p if p.is_absolute() or near is None else near / p)
        candidates.append(p)
    elif near is not None:
        candidates.append(near / f"{name}.yaml")
    for c in candidates:
        if is_file(c):
            return str(c), read_text(c), str(c.resolve())
    return _builtin(name)


def _builtin(name: str) -> tuple[str, str, str] | None:
    """``(display path, text, identity)`` of the installed variant ``name`` (``fivehundred`` or
    ``fivehundred.yaml``), or ``None``."""
    if "/" not in name and "\\" not in name and "\0" not in name and len(name) < 200:
        res = builtin_dir().joinpath(name if name.endswith(".yaml") else f"{name}.yaml")
        if res.is_file():
            display = f"variants/{res.name}"
            return display, decode(display, res.read_bytes()), f"builtin:{res.name}"
    return None


def search_path() -> list[Path]:
    """The folders named by ``RULEKIT_PATH`` (separated by ``os.pathsep``), resolved, that exist.

    ``extends:`` may name variant files under these folders besides the top file's own folder.
    """
    out = []
    for part in os.environ.get(RULEKIT_PATH, "").split(os.pathsep):
        if part.strip():
            try:
                f = Path(part).expanduser().resolve()
            except (OSError, ValueError, RuntimeError):
                continue
            if f.is_dir():
                out.append(f)
    return out


class ExtendsRefused(Exception):
    """An ``extends:`` value names a file rulekit will not open (outside the allowed folders, or not
    a ``.yaml`` file); the message says why.  The file is never read."""


def _under(path: Path, roots) -> bool:
    return any(path == r or r in path.parents for r in roots)


def _locate_base(name: str, here: Path | None, roots: list) -> tuple[str, str, str] | None:
    """The base variant named by ``extends: name`` in a file of folder ``here``.

    A bare name (``mybase``) is ``here/mybase.yaml``, else ``mybase.yaml`` in a ``RULEKIT_PATH``
    folder, else an installed variant.  A path (``../base/five.yaml``, an absolute path) is taken
    relative to ``here`` and must be a ``.yaml``/``.yml`` file whose real location (symlinks
    followed) lies under one of ``roots``: the folder of the file the user named and the
    ``RULEKIT_PATH`` folders.  An installed file (``here`` is ``None``) extends installed ids only.

    :raises ExtendsRefused: a path outside ``roots`` or not a ``.yaml`` file (nothing is read).
    :raises VariantFileError: an allowed file that cannot be read.
    """
    is_path = name.endswith((".yaml", ".yml")) or "/" in name or "\\" in name
    if here is None:
        return None if "/" in name else _builtin(name)
    if is_path:
        candidates = [here / name]
    else:
        candidates = [here / f"{name}.yaml"] + [r / f"{name}.yaml" for r in search_path()]
    for c in candidates:
        try:
            real = c.resolve()
        except (OSError, ValueError, RuntimeError):
            continue
        if not _under(real, roots):
            raise ExtendsRefused(_outside(name, roots))
        if c.suffix not in (".yaml", ".yml") or real.suffix not in (".yaml", ".yml"):
            raise ExtendsRefused(f"base variant {_short(name)} is not a .yaml file; it is not opened "
                                 f"(expected an installed id or a variant .yaml file)")
        if is_file(real):
            return str(c), read_text(real, str(c)), str(real)
    return None if "/" in name else _builtin(name)


def _outside(name: str, roots) -> str:
    return (f"base variant {_short(name)} lies outside the folders a variant may extend from; it is not "
            f"opened (expected an installed id, or a .yaml file under {_or_folders(roots)}; add a folder "
            f"to {RULEKIT_PATH} to allow it)")


def _or_folders(roots) -> str:
    names = [str(r) for r in roots]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _suggest(name: str, near: Path | None) -> str:
    """A close match for a variant name that was not found (``"; did you mean X?"``)."""
    known = list(builtin_ids())
    if near is not None:
        try:
            known += [f.name for f in near.iterdir() if f.suffix in (".yaml", ".yml")]
        except (OSError, ValueError):
            pass
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


def order_diagnostics(diags, files=()) -> list[Diagnostic]:
    """Diagnostics without repeats, in file order: the files of ``files`` first
    (the most derived first), each by line and column."""
    rank = {f: i for i, f in enumerate(files)}
    out = list(dict.fromkeys(diags))
    out.sort(key=lambda d: (rank.get(d.file, len(rank)), d.file, d.line, d.column))
    return out


@dataclass
class Resolved:
    """A variant document after ``extends:`` merging.

    :ivar data: merged plain data (``extends`` removed).
    :ivar positions: document path tuple -> :class:`Pos` (the file that set it).
    :ivar files: the chain of files, the most derived first.
    :ivar diagnostics: problems found (YAML, duplicate keys, extends, schema).
    :ivar blocking: some problem keeps the meaning checks from running (a structure error: a
        duplicate key, a schema error).
    :ivar notes: warnings found while merging (a null that removes nothing), which the
        compiler reports as :class:`~rulekit.variant.compiler.VariantWarning`.
    :ivar absent: ``(path, Pos)`` of each null at a key the base did not have (see
        :func:`_absent_nulls`).
    :ivar bases: each file of the ``extends:`` chain after the first -> its own document, as
        read before this file's changes (to tell a base's own problems from those this file's
        settings cause: :meth:`own_problems`).
    :ivar own: for a base, the ``(line, column, message)`` of its own problems once
        :meth:`own_problems` has checked it (``None`` before).
    """

    data: dict | None
    positions: dict = field(default_factory=dict)
    files: list = field(default_factory=list)
    diagnostics: list = field(default_factory=list)
    top_file: str = ""
    blocking: bool = False
    notes: list = field(default_factory=list)
    absent: list = field(default_factory=list)
    bases: dict = field(default_factory=dict)
    own: list | None = None

    def own_problems(self, file: str) -> set:
        """``(line, column, message)`` of each problem the base ``file`` of the chain has when
        checked by itself, without this file's changes (computed once per base)."""
        base = self.bases.get(file)
        if base is None:
            return set()
        if base.own is None:
            from rulekit.variant.compiler import check
            base.own = [(d.line, d.column, d.message) for d in check(_finish(base)) if d.file == file]
        return set(base.own)

    def pos(self, path) -> Pos:
        """Position of the value at ``path`` (or its nearest ancestor)."""
        p = tuple(path)
        while p:
            if p in self.positions:
                return self.positions[p]
            p = p[:-1]
        return self.positions.get((), Pos(self.top_file, 1, 1))

    def diag(self, path, message: str, line: int = 0, column: int = 0, excerpt: str = "") -> Diagnostic:
        """Make a :class:`Diagnostic` at ``path`` (or at an explicit line/column).

        A path ending in ``"<key>"`` points at the key rather than its value.
        """
        pos = self.pos(path)
        return Diagnostic(pos.file, line or pos.line, column or pos.column,
                          ".".join(str(x) for x in path if x != "<key>"), message, excerpt)


def _yaml_problem(file: str, e: yaml.YAMLError, source: Source | None = None) -> Diagnostic:
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    if isinstance(e, yaml.reader.ReaderError):  # a character YAML does not allow
        if source is not None:
            line, col = source.linecol(min(e.position, len(source.text)))
        what = (f"the character {chr(e.character)!r} (code {e.character:#x}) is not allowed "
                f"(expected printable text)") if isinstance(e.character, int) else str(e.reason)
        return Diagnostic(file, line, col, "", f"YAML syntax error: {what}")
    quote = _unclosed_quote(e, source)
    if quote is not None:
        return quote
    what = getattr(e, "problem", None) or str(e)
    ctx = getattr(e, "context", None)
    cmark = getattr(e, "context_mark", None)
    if ctx and cmark is not None and (cmark.line, cmark.column) != (line - 1, col - 1):
        ctx += f" that starts at line {cmark.line + 1}, column {cmark.column + 1}"
    hint = _YAML_HINTS.get(what, "")
    if "tag:yaml.org,2002:merge" in str(what):
        hint = "YAML merge keys (<<) are not supported: use extends: for a house rule, or write the keys out"
    at = source.text[source.index(line, col):][:1] if source is not None else ""
    if "tab" in what or at == "\t":
        hint = "indent with spaces; YAML does not allow tabs for indentation"
    msg = f"YAML syntax error: {what}" + (f" ({ctx})" if ctx else "") + (f"; {hint}" if hint else "")
    excerpt = source.excerpt(line, col) if source is not None else ""
    return Diagnostic(file, line, col, "", msg, excerpt)


def _unclosed_quote(e: yaml.YAMLError, source: Source | None) -> Diagnostic | None:
    """The problem of a quote left open, at the quote, or None if ``e`` is not one.

    A quote never closed ends the file inside a quoted value; a quote closed only by the next
    value's opening quote (a quoted YAML value may span lines) makes the parser fail just after
    that quote, a line or more below, at the wrong place and for the wrong reason (``did not
    find expected key``): both are reported where the quote opened.
    """
    mark = getattr(e, "problem_mark", None)
    if source is None or mark is None:
        return None
    if getattr(e, "context", None) == "while scanning a quoted scalar" and e.context_mark is not None:
        line, col = e.context_mark.line + 1, e.context_mark.column + 1
        char = source.text[source.index(line, col):][:1]
        return Diagnostic(source.file, line, col, "", f"YAML syntax error: unclosed quote: this {char} "
                          f"is never closed", source.excerpt(line, col))
    last = None
    try:
        for token in yaml.scan(source.text, Loader=_Loader):
            if (token.end_mark.line, token.end_mark.column) > (mark.line, mark.column):
                break
            last = token
    except yaml.YAMLError:
        pass
    if (not isinstance(last, yaml.ScalarToken) or last.style not in ('"', "'")
            or last.start_mark.line == last.end_mark.line or last.end_mark.line != mark.line):
        return None
    line, col = last.start_mark.line + 1, last.start_mark.column + 1
    return Diagnostic(source.file, line, col, "", f"YAML syntax error: unclosed quote: this {last.style} is "
                      f"not closed on its line, so the value runs on to the {last.style} at line "
                      f"{last.end_mark.line + 1}, column {last.end_mark.column}", source.excerpt(line, col))


# Hints for the commonest YAML mistakes, keyed by the parser's problem text.
_YAML_HINTS = {
    "mapping values are not allowed here": "a value containing \": \" needs quotes, or a key is missing its indentation",
    "mapping values are not allowed in this context": "a value containing \": \" needs quotes, "
                                                      "or a key is missing its indentation",
    "did not find expected ',' or ']'": "a [ is not closed, or list items lack commas",
    "did not find expected ',' or '}'": "a { is not closed, or entries lack commas",
    "did not find expected <document start>": "check the indentation: top-level keys start in column 1",
    "did not find expected node content": "a value is missing",
    "could not find expected ':'": "each key needs a colon and a space after it (key: value)",
    "found character that cannot start any token": "quote the value (\"...\") if it starts with a special character",
    "found unexpected end of stream": "a quote or bracket is not closed",
    "did not find expected key": "check the indentation of this line against the one above",
    "found undefined alias": "an alias (*name) needs an anchor (&name) earlier in the file",
}


def _merge(base, over, bpos: dict, opos: dict, path: tuple, absent: list | None = None):
    """Deep-merge ``over`` onto ``base``: mappings merge, null removes, else replace.

    Linear in the size of both documents: each key of ``over`` is visited once, and the
    positions under a path are found through an index of subtrees (:func:`_subtrees`), never by
    scanning every position.

    :param absent: collects ``(path, Pos)`` of each null at a key ``base`` does not have (it
        removes nothing: :func:`_absent_nulls` says whether the key is unknown or just unset).
    """
    return _merge_at(base, over, bpos, _subtrees(bpos), opos, _subtrees(opos), path, absent)


def _subtrees(positions: dict) -> dict:
    """``path -> [child paths]`` over the paths of ``positions`` and their ancestors, so the
    paths at or under one path are found in time proportional to their number (:func:`_under_path`)."""
    children: dict = {(): []}
    linked = {()}
    for p in positions:
        while p not in linked:   # link p to its parent, then the ancestors not linked yet
            linked.add(p)
            children.setdefault(p[:-1], []).append(p)
            p = p[:-1]
    return children


def _under_path(children: dict, path: tuple) -> list:
    """The paths at or under ``path`` in an index of :func:`_subtrees`."""
    if path not in children:
        return []
    out, todo = [], [path]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, ()))
    return out


def _merge_at(base, over, bpos: dict, bsub: dict, opos: dict, osub: dict, path: tuple, absent):
    """:func:`_merge` at ``path``; ``bsub`` and ``osub`` index the subtrees of ``bpos`` (as it was
    before the merge) and ``opos``.  A base path is deleted at most once and an override's path
    copied at most once, since each path of ``over`` is merged once."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            kp = path + (k,)
            if v is None:
                if k not in out and absent is not None:
                    absent.append((kp, opos.get(kp + ("<key>",)) or opos.get(kp) or opos.get(path)))
                out.pop(k, None)
                for p in _under_path(bsub, kp):
                    bpos.pop(p, None)
                continue
            if k in out:
                out[k] = _merge_at(out[k], v, bpos, bsub, opos, osub, kp, absent)
            else:
                out[k] = v
                _copy_positions(bpos, opos, osub, kp)
        if path in opos:  # a mapping the override touches is reported there (the most derived file)
            bpos[path] = opos[path]
            if path + ("<key>",) in opos:
                bpos[path + ("<key>",)] = opos[path + ("<key>",)]
        return out
    for p in _under_path(bsub, path):
        bpos.pop(p, None)
    _copy_positions(bpos, opos, osub, path)
    return over


def _copy_positions(dst: dict, src: dict, sub: dict, prefix: tuple):
    for p in _under_path(sub, prefix):
        if p in src:
            dst[p] = src[p]


def resolve(name: str, near: Path | None = None) -> Resolved:
    """Read ``name`` (id or path), follow ``extends:`` and validate the merged document.

    Never raises for bad input: every problem is a :class:`Diagnostic` in
    ``Resolved.diagnostics``.
    """
    try:
        found = _locate(name, near)
    except VariantFileError as e:
        r = Resolved(None, top_file=e.diagnostic.file, files=[e.diagnostic.file])
        r.diagnostics.append(e.diagnostic)
        return r
    problem = not_regular_file(name) if found is None else None
    if problem is not None:
        r = Resolved(None, top_file=name, files=[name])
        r.diagnostics.append(Diagnostic(name, 1, 1, "", problem))
        return r
    if found is None:
        r = Resolved(None, top_file=name, files=[name])
        r.diagnostics.append(Diagnostic(name, 1, 1, "", f"no such variant or file {_short(name)}{_suggest(name, near)} "
                                        f"(expected a path or one of: {', '.join(builtin_ids())})"))
        return r
    file, text, key = found
    return _finish(_resolve_text(file, text, ((key, file, None),)))


def resolve_text(file: str, text: str, embedded: bool = False) -> Resolved:
    """Like :func:`resolve` for text already read (``file`` names it in messages).

    :param embedded: the text is not a file of its own (a variant stored in a game record): its
        ``extends:`` may name installed variants only, never a file.
    """
    identity = f"builtin:{file}" if embedded else str(Path(file).resolve())
    return _finish(_resolve_text(file, text, ((identity, file, None),)))


def _finish(r: Resolved) -> Resolved:
    """Check the merged document against the schema (when it could be read), a kind's former
    word read as its name (:func:`current_kinds`)."""
    if r.data is not None:
        current_kinds(r.data)
        # an ``extends:`` still in the merged data was not followed (a wrong type, said by the
        # schema at its value): the keys its base would give are not missing
        missing = [] if "extends" in r.data else [k for k in REQUIRED_KEYS if k not in r.data]
        for k in missing:
            r.diagnostics.append(r.diag((), f"missing required key {k!r} (a variant needs "
                                        f"{', '.join(REQUIRED_KEYS)}; a house rule gets them from extends:)"))
        problems = schema_problems(r, nulls=False)
        null_errors, r.notes = _absent_nulls(r)
        problems = order_diagnostics(problems + null_errors + text_problems(r), r.files)
        r.diagnostics.extend(problems)
        r.blocking = r.blocking or bool(problems or missing)
    r.diagnostics = order_diagnostics(r.diagnostics, r.files)
    return r


def text_problems(r: Resolved) -> list[Diagnostic]:
    """Every text of the merged document past its bound, at its position: a key longer than
    :data:`~rulekit.text.MAX_NAME` or holding a control or format character, the id longer than
    :data:`~rulekit.text.MAX_ID`, a seat name longer than ``MAX_NAME`` or holding a control or
    format character, any other string longer
    than :data:`~rulekit.text.MAX_TEXT`.  Records and pads are read with the same bounds, so a
    game of a valid variant always writes a record that loads."""
    out = []
    stack: list = [((), r.data)]
    while stack:
        path, x = stack.pop()
        if isinstance(x, dict):
            for k, v in x.items():
                if isinstance(k, str) and len(k) > MAX_NAME:
                    out.append(r.diag(path + (k, "<key>"), f"the key {_short(k)} is {len(k)} characters long "
                                      f"(expected a name of at most {MAX_NAME})"))
                elif isinstance(k, str) and unprintable(k):
                    out.append(r.diag(path + (k, "<key>"), f"the key {_short(k)} holds a control or format "
                                      f"character (expected printable text: a name)"))
                stack.append((path + (k,), v))
        elif isinstance(x, list):
            stack.extend((path + (i,), v) for i, v in enumerate(x))
        elif isinstance(x, str):
            limit, what = (MAX_ID, "an id") if path == ("id",) else \
                (MAX_NAME, "a seat name") if path[:1] == ("seats",) else (MAX_TEXT, "a text")
            if len(x) > limit:
                out.append(r.diag(path, f"{_short(x)} is {len(x)} characters long "
                                  f"(expected {what} of at most {limit})"))
            elif path[:1] == ("seats",) and unprintable(x):
                out.append(r.diag(path, f"the seat name {_short(x)} holds a control or format character "
                                  f"(expected printable text: a name is typed at prompts)"))
    return out


def current_kinds(data: dict) -> None:
    """Write each phase entry's ``kind:`` (of the document and of its ``rounds:``) as the name of
    the kind it stands for: a kind's former word (``layout``) is read as its name (``domino``),
    so files written before a kind was renamed keep loading, with the same hash
    (:attr:`~rulekit.engine.phases.base.PhaseKind.aliases`)."""
    rounds = data.get("rounds")
    blocks = [data] + (list(rounds) if isinstance(rounds, list) else [])
    for block in blocks:
        phases = block.get("phases") if isinstance(block, dict) else None
        for entry in phases.values() if isinstance(phases, dict) else ():
            if isinstance(entry, dict) and isinstance(entry.get("kind"), str):
                entry["kind"] = canonical(entry["kind"])


def _resolve_text(file: str, text: str, chain: tuple) -> Resolved:
    """Read one file and its bases; ``chain`` is ``((identity, display, extends Pos), ...)``."""
    r = Resolved(None, top_file=file, files=[file])
    source = Source(file, text)
    try:
        doc = load_yaml(file, text)
    except yaml.YAMLError as e:
        r.diagnostics.append(_yaml_problem(file, e, source))
        return r
    except RecursionError:
        r.diagnostics.append(Diagnostic(file, 1, 1, "", "YAML syntax error: the document is nested too deeply"))
        return r
    r.diagnostics.extend(doc.diagnostics)
    r.blocking = bool(doc.diagnostics)      # a duplicate key: structure first, meaning checks after
    r.positions = dict(doc.positions)
    if not isinstance(doc.data, dict):
        what = "an empty file" if doc.data is None else f"a {_kind(doc.data)}"
        where = doc.positions.get((), Pos(file, 1, 1))
        r.diagnostics.append(Diagnostic(file, where.line, where.column, "", f"a variant file must be a YAML "
                                        f"mapping, not {what} (expected keys such as id, deck, phases)"))
        return r
    data = doc.data
    base_name = data.get("extends")
    if base_name is None:
        r.data = data
        r.diagnostics += [r_diag(doc, ("phases", name, key), f"{key} places a phase that a house rule adds to its "
                                 f"base's phases; in a file without extends: the phases run in the order written "
                                 f"(expected no {key}: write the phase where it runs)")
                          for name, key in _placed(data)]
        return r
    if not isinstance(base_name, str) or not base_name.strip():
        r.data = data  # the schema reports the wrong type
        return r
    here = None if chain[-1][0].startswith("builtin:") else Path(file).parent
    epos = doc.pos(("extends",))
    top_pos = chain[0][2] or epos
    top = chain[0][0]
    roots = [] if top.startswith("builtin:") else [Path(top).parent] + search_path()
    try:
        found = _locate_base(base_name, here, roots)
    except ExtendsRefused as e:
        r.diagnostics.append(r_diag(doc, ("extends",), str(e)))
        return r
    except VariantFileError as e:
        r.diagnostics.append(Diagnostic(epos.file, epos.line, epos.column, "extends",
                                        f"base variant {_short(base_name)} cannot be read: {e.diagnostic.message}"))
        r.diagnostics.append(e.diagnostic)
        return r
    if found is None:
        r.diagnostics.append(r_diag(doc, ("extends",), f"base variant {_short(base_name)} does not exist"
                                    f"{_suggest(base_name, here)} (expected a path relative to this file "
                                    f"or one of: {', '.join(builtin_ids())})"))
        return r
    bfile, btext, bkey = found
    keys = [c[0] for c in chain]
    if bkey in keys:
        names = [c[1] for c in chain[keys.index(bkey):]] + [bfile]
        r.diagnostics.append(Diagnostic(top_pos.file, top_pos.line, top_pos.column, "extends",
                                        f"the extends: chain forms a cycle ({' -> '.join(names)}; expected a "
                                        f"chain that ends at a variant without extends:)"))
        return r
    if len(chain) > MAX_EXTENDS_DEPTH:
        r.diagnostics.append(Diagnostic(top_pos.file, top_pos.line, top_pos.column, "extends",
                                        f"extends: chain deeper than {MAX_EXTENDS_DEPTH} files"))
        return r
    chain = chain[:-1] + ((chain[-1][0], chain[-1][1], epos),) if chain[-1][2] is None else chain
    base = _resolve_text(bfile, btext, chain + ((bkey, bfile, None),))
    r.files += base.files
    r.bases = {bfile: base, **base.bases}
    r.diagnostics.extend(base.diagnostics)
    r.blocking = r.blocking or base.blocking
    own = [d for d in base.diagnostics if d.file == bfile]
    if own:  # say, at this file's extends:, why problems of another file are listed
        r.diagnostics.append(r_diag(doc, ("extends",), f"the base variant {_short(base_name)} has "
                                    f"{len(own)} problem{'s' if len(own) != 1 else ''} (listed for {bfile}); "
                                    f"expected a valid base"))
    if base.data is None:
        return r
    bpos = dict(base.positions)
    over = {k: v for k, v in data.items() if k != "extends"}
    r.absent = list(base.absent)
    merged = _merge(base.data, over, bpos, doc.positions, (), r.absent)
    r.diagnostics += place_phases(merged, base.data, data, doc)
    bpos[()] = doc.positions.get((), Pos(file, 1, 1))
    if ("extends",) in doc.positions:
        bpos[("extends",)] = doc.positions[("extends",)]
    r.data = merged
    r.positions = bpos
    return r


def _placed(data: dict) -> list[tuple[str, str]]:
    """``(phase name, placement key)`` for each ``before`` / ``after`` of ``data``'s phases."""
    phases = data.get("phases")
    if not isinstance(phases, dict):
        return []
    return [(name, key) for name, p in phases.items() if isinstance(p, dict) for key in PLACEMENT if key in p]


def place_phases(merged: dict, base: dict, over: dict, doc) -> list[Diagnostic]:
    """Move each phase that the house rule ``over`` adds with ``before: NAME`` / ``after: NAME``
    to its place among ``merged``'s phases (else a new phase runs after the base's last one),
    and drop the placement keys.  Returns the problems: a placement of a phase the base has
    already, both keys, a phase that does not exist, the phase itself."""
    out: list[Diagnostic] = []
    phases = merged.get("phases")
    if not isinstance(phases, dict):
        return out
    base_phases = base.get("phases")
    if not isinstance(base_phases, dict):
        base_phases = {}
    for name, key in _placed(over):
        entry = phases.get(name)
        if not isinstance(entry, dict) or key not in entry:
            continue   # (already refused: both keys)
        phases[name] = {k: v for k, v in entry.items() if k not in PLACEMENT}
        where = over["phases"][name][key]
        path = ("phases", name, key)
        if name in base_phases:
            out.append(r_diag(doc, path, f"{key} places a phase this house rule adds, but {name} is a phase of "
                              f"the base: it keeps its place (expected a new phase name, or no {key})"))
        elif all(k in over["phases"][name] for k in PLACEMENT):
            out.append(r_diag(doc, path, "a phase is placed before a phase or after one, not both "
                              "(expected before or after)"))
        elif not isinstance(where, str) or where == name or where not in phases:
            others = ", ".join(n for n in phases if n != name)
            out.append(r_diag(doc, path, f"{key}: {where!r} is not another phase of this variant "
                              f"(expected one of: {others})"))
        else:
            names = [n for n in phases if n != name]
            at = names.index(where) + (key == "after")
            names.insert(at, name)
            reordered = {n: phases[n] for n in names}
            phases.clear()
            phases.update(reordered)
    return out


def _absent_nulls(r: Resolved) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """The problems of nulls that removed nothing (``key: null`` in an ``extends:`` file, where the
    base has no such key), as ``(errors, warnings)``: a key the schema does not know there is an
    error at the key, as any unknown key is (``typo: null`` is a typo, not a removal); a known
    key the base simply does not set is a warning (it has no effect: :attr:`Resolved.notes`).

    Every such key is put back at once into one copy of the document, checked by the schema
    once: linear in the file's size however many nulls it has."""
    out: list[Diagnostic] = []
    notes: list[Diagnostic] = []
    back = []
    for path, pos in r.absent:
        parent: object = r.data
        for k in path[:-1]:
            parent = parent.get(k) if isinstance(parent, dict) else None
        if not isinstance(parent, dict) or path[-1] in parent or pos is None:
            continue   # set again by a more derived file, or its mapping replaced
        back.append((path, pos))
    if not back:
        return out, notes
    probe = copy.deepcopy(r.data)
    where = dict(r.positions)
    for path, pos in back:
        target: dict = probe if probe is not None else {}
        for k in path[:-1]:
            target = target[k]
        target[path[-1]] = None    # put the key back: does the schema know it there?
        where[path] = where[path + ("<key>",)] = pos
    unknown: dict = {}
    for d in schema_problems(Resolved(probe, where, r.files, top_file=r.top_file)):
        if d.message.startswith("unknown key"):
            unknown.setdefault(d.path, d)
    for path, pos in back:
        dotted = ".".join(map(str, path))
        if dotted in unknown:
            out.append(Diagnostic(pos.file, pos.line, pos.column, dotted,
                                  "a null at an unknown key removes nothing: " + unknown[dotted].message))
        else:
            notes.append(Diagnostic(pos.file, pos.line, pos.column, dotted, "null removes nothing here: the "
                                    "base variant does not set this key (expected a key the base sets, or "
                                    "drop the line)"))
    return out, notes


def _short(name: str, width: int = 60) -> str:
    """``repr(name)``, shortened in the middle when long."""
    r = repr(name)
    return r if len(r) <= width else r[:width // 2 - 2] + "..." + r[-(width // 2 - 2):]


def _kind(v) -> str:
    """A YAML word for a value's type (for messages)."""
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "list"
    if isinstance(v, dict):
        return "mapping"
    if v is None:
        return "null"
    return type(v).__name__


def r_diag(doc, path, message) -> Diagnostic:
    """A diagnostic at ``path`` of a single :class:`YamlDocument`."""
    pos = doc.pos(path)
    return Diagnostic(pos.file, pos.line, pos.column, ".".join(map(str, path)), message)


def schema_problems(r: Resolved, nulls: bool = True) -> list[Diagnostic]:
    """Validate ``r.data`` against the schema; one diagnostic per problem, in file order.

    An unknown or malformed key is reported at the key (each one, with a close
    match); other problems at the value. A null in an ``extends:`` file at a key unknown
    there (``typo: null``) is an unknown key too, though merging removed it.

    :param nulls: also check those nulls (:func:`_absent_nulls`); ``False`` when the caller
        checks them itself.
    """
    out = []
    for err in validator().iter_errors(r.data):
        out += _schema_diags(r, _best(err))
    if nulls and r.absent:   # a null at a key unknown there (typo: null) is refused as any unknown key
        out += _absent_nulls(r)[0]
    return order_diagnostics(out, r.files)


def _schema_diags(r: Resolved, e) -> list[Diagnostic]:
    path = tuple(e.absolute_path)
    if e.validator == "additionalProperties" and isinstance(e.instance, dict) \
            and e.schema.get("additionalProperties") is False:
        props = e.schema.get("properties", {})
        out = []
        for k in e.instance:
            if k not in props:
                kp = path + (k, "<key>")
                out.append(r.diag(kp if kp in r.positions else path + (k,), _unknown_key(k, props)))
        return out
    if "propertyNames" in e.relative_schema_path and isinstance(e.instance, str):
        kp = path + (e.instance, "<key>")
        msg = _schema_message(e, key=True)
        return [r.diag(kp if kp in r.positions else path,
                       "key " + msg if msg.startswith(repr(e.instance)) else f"key {e.instance!r}: {msg}")]
    return [r.diag(path, _schema_message(e))]


def _best(err):
    """The most useful error for one schema failure.

    For a ``oneOf``/``anyOf`` whose instance has the type of exactly one branch
    (a mapping where a number or a mapping is allowed), that branch's own error;
    otherwise jsonschema's :func:`best_match`.
    """
    e = best_match([err])
    if err.validator in ("oneOf", "anyOf") and isinstance(err.validator_value, list):
        v = validator()
        fits = [i for i, b in enumerate(err.validator_value)
                if isinstance(b, dict) and "type" in b and v.is_type(err.instance, b["type"])
                and not (isinstance(err.instance, bool) and b["type"] in ("integer", "number"))]
        if len(fits) == 1:
            sub = [c for c in err.context if c.relative_schema_path and c.relative_schema_path[0] == fits[0]]
            if sub:
                return _best(best_match(sub))
    return e


def _unknown_key(key: str, props) -> str:
    allowed = sorted(k for k in props)
    close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]}?" if close else ""
    if key == "<<":
        hint = "; YAML merge keys are not supported (expected extends: for a house rule)"
    return f"unknown key {key!r}{hint}" + (f" (expected one of: {', '.join(allowed)})" if allowed else "")


_TYPE_WORDS = {"integer": "a whole number", "number": "a number", "string": "text", "array": "a list",
               "object": "a mapping (key: value lines)", "boolean": "true or false", "null": "nothing"}


def _found(v) -> str:
    """``found text 'x'`` / ``found a list`` for messages."""
    if isinstance(v, (dict, list)):
        return f"found a {_kind(v)}"
    if v is None:
        return "found nothing (an empty value)"
    shown = repr(v)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return f"found {_kind(v)} {shown}"


def _yaml11(v) -> str:
    """A hint when YAML 1.1 turned a word into a boolean or a number."""
    if isinstance(v, bool):
        return "; YAML reads yes/no/on/off/true/false as booleans: put the word in quotes"
    return ""


def _schema_message(e, key: bool = False) -> str:
    v = e.validator
    s = e.schema if isinstance(e.schema, dict) else {}
    desc = s.get("description", "")
    inst = e.instance
    if v == "required":
        missing = [k for k in e.validator_value if isinstance(e.instance, dict) and k not in e.instance]
        k = missing[0] if missing else e.validator_value[0]
        kschema = s.get("properties", {}).get(k)
        kschema = kschema if isinstance(kschema, dict) else {}
        kdesc = kschema.get("description", "")
        kwords = kdesc[0].lower() + kdesc[1:].rstrip(".") if kdesc else ""
        if isinstance(kschema.get("enum"), list) and kschema["enum"]:   # a phase's kind: say the choices
            return f"missing required key {k!r}" + (f", {kwords}" if kwords else "") + \
                f" (expected one of: {', '.join(map(str, kschema['enum']))})"
        return f"missing required key {k!r}" + (f" (expected {kwords})" if kwords else "")
    if v == "enum" or v == "const":
        allowed = e.validator_value if v == "enum" else [e.validator_value]
        close = difflib.get_close_matches(str(inst), [str(a) for a in allowed], n=1, cutoff=0.6) \
            if isinstance(inst, str) else []
        hint = f"; did you mean {close[0]}?" if close else _yaml11(inst)
        return f"{inst!r} is not allowed{hint} (expected {'one of: ' if len(allowed) > 1 else ''}" \
               f"{', '.join(map(str, allowed))})"
    if v == "type":
        want = e.validator_value if isinstance(e.validator_value, list) else [e.validator_value]
        words = " or ".join(_TYPE_WORDS.get(str(w), str(w)) for w in want)
        return f"wrong type: {_found(inst)}{_yaml11(inst) if 'string' in want else ''} (expected {words}" \
               + (f": {desc[0].lower() + desc[1:].rstrip('.')})" if desc else ")")
    if v == "pattern":
        what = desc[0].lower() + desc[1:].rstrip(".") if desc and not key else \
            f"text matching the pattern {e.validator_value}"
        return f"{inst!r} is not well formed (expected {what})"
    if v in ("oneOf", "anyOf"):
        return f"{_found(inst)}, which is not valid here" + (
            f" (expected {desc[0].lower() + desc[1:].rstrip('.')})" if desc else "")
    if v == "minimum":
        return f"{_found(inst)} (expected at least {e.validator_value})"
    if v == "maximum":
        return f"{_found(inst)} (expected at most {e.validator_value})"
    if v in ("minItems", "minProperties", "minLength"):
        unit = {"minItems": "item", "minProperties": "entry", "minLength": "character"}[v]
        return f"too short (expected at least {e.validator_value} {unit}{'s' if e.validator_value != 1 else ''})"
    if v in ("maxItems", "maxLength"):
        unit = {"maxItems": "item", "maxLength": "character"}[v]
        return f"too long (expected at most {e.validator_value} {unit}s)"
    if v == "uniqueItems":
        seen, dup = [], None
        for x in inst:
            if x in seen:
                dup = x
                break
            seen.append(x)
        return f"{dup!r} is listed twice (expected each item once)"
    if v == "format":
        return f"{inst!r} is not a valid {e.validator_value}" + (f" (expected {desc})" if desc else "")
    if v == "additionalProperties" and s.get("additionalProperties") is False:
        return _unknown_key(next(iter(inst)), s.get("properties", {}))
    return e.message + (f" (expected {desc[0].lower() + desc[1:].rstrip('.')})" if desc else "")
