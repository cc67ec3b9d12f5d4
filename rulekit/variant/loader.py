"""Find, read, merge (``extends:``) and schema-check variant files.

The result of :func:`resolve` is a :class:`Resolved` document: the merged data,
the position (file, line, column) of every value through the whole
``extends:`` chain, and every problem found so far.  :mod:`rulekit.variant.model`
then checks meaning and compiles it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

from rulekit.errors import Diagnostic
from rulekit.variant.yamlpos import Pos, load_yaml

MAX_EXTENDS_DEPTH = 16


@lru_cache(maxsize=1)
def schema() -> dict:
    """The variant JSON Schema (Draft 2020-12) shipped in ``rulekit/schemas``."""
    return json.loads(files("rulekit.schemas").joinpath("variant.schema.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def validator() -> Draft202012Validator:
    """A validator for :func:`schema` with the bundled registry."""
    s = schema()
    registry = Registry().with_resource(s["$id"], Resource.from_contents(s))
    return Draft202012Validator(s, registry=registry, format_checker=FormatChecker())


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
    """
    candidates = []
    p = Path(name)
    if name.endswith((".yaml", ".yml")) or "/" in name:
        candidates.append(p if p.is_absolute() or near is None else near / p)
        candidates.append(p)
    else:
        if near is not None:
            candidates.append(near / f"{name}.yaml")
    for c in candidates:
        if c.is_file():
            return str(c), c.read_text(encoding="utf-8")
    if "/" not in name:
        res = builtin_dir().joinpath(name if name.endswith(".yaml") else f"{name}.yaml")
        if res.is_file():
            return f"variants/{res.name}", res.read_text(encoding="utf-8")
    return None


@dataclass
class Resolved:
    """A variant document after ``extends:`` merging.

    :ivar data: merged plain data (``extends`` removed).
    :ivar positions: document path tuple -> :class:`Pos` (the file that set it).
    :ivar files: the chain of files, the most derived first.
    :ivar diagnostics: problems found (YAML, duplicate keys, extends, schema).
    """

    data: dict | None
    positions: dict = field(default_factory=dict)
    files: list = field(default_factory=list)
    diagnostics: list = field(default_factory=list)
    top_file: str = ""

    def pos(self, path) -> Pos:
        """Position of the value at ``path`` (or its nearest ancestor)."""
        p = tuple(path)
        while p:
            if p in self.positions:
                return self.positions[p]
            p = p[:-1]
        return self.positions.get((), Pos(self.top_file, 1, 1))

    def diag(self, path, message: str, line: int = 0, column: int = 0, excerpt: str = "") -> Diagnostic:
        """Make a :class:`Diagnostic` at ``path`` (or at an explicit line/column)."""
        pos = self.pos(path)
        return Diagnostic(pos.file, line or pos.line, column or pos.column,
                          ".".join(str(x) for x in path), message, excerpt)


def _yaml_problem(file: str, e: yaml.YAMLError) -> Diagnostic:
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    what = getattr(e, "problem", None) or str(e)
    ctx = getattr(e, "context", None)
    msg = f"YAML syntax error: {what}" + (f" ({ctx})" if ctx else "")
    return Diagnostic(file, line, col, "", msg)


def _merge(base, over, bpos: dict, opos: dict, path: tuple):
    """Deep-merge ``over`` onto ``base``: mappings merge, null removes, else replace."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            kp = path + (k,)
            if v is None:
                out.pop(k, None)
                for p in [p for p in bpos if p[:len(kp)] == kp]:
                    del bpos[p]
                continue
            if k in out:
                out[k] = _merge(out[k], v, bpos, opos, kp)
            else:
                out[k] = v
                _copy_positions(bpos, opos, kp)
        if path in opos:
            bpos.setdefault(path, opos[path])
        return out
    for p in [p for p in bpos if p[:len(path)] == path]:
        del bpos[p]
    _copy_positions(bpos, opos, path)
    return over


def _copy_positions(dst: dict, src: dict, prefix: tuple):
    for p, v in src.items():
        if p[:len(prefix)] == prefix:
            dst[p] = v


def resolve(name: str, near: Path | None = None, _seen: tuple = ()) -> Resolved:
    """Read ``name`` (id or path), follow ``extends:`` and validate the merged document.

    Never raises for bad input: every problem is a :class:`Diagnostic` in
    ``Resolved.diagnostics``.
    """
    found = locate(name, near)
    if found is None:
        r = Resolved(None, top_file=name)
        r.diagnostics.append(Diagnostic(name, 0, 0, "", f"no such variant or file {name!r} "
                                        f"(expected a path or one of: {', '.join(builtin_ids())})"))
        return r
    file, text = found
    r = _resolve_text(file, text, _seen)
    if not _seen and r.data is not None and not r.diagnostics:
        r.diagnostics.extend(schema_problems(r))
    return r


def resolve_text(file: str, text: str) -> Resolved:
    """Like :func:`resolve` for text already read (``file`` names it in messages)."""
    r = _resolve_text(file, text, ())
    if r.data is not None and not r.diagnostics:
        r.diagnostics.extend(schema_problems(r))
    return r


def _resolve_text(file: str, text: str, seen: tuple) -> Resolved:
    r = Resolved(None, top_file=file, files=[file])
    try:
        doc = load_yaml(file, text)
    except yaml.YAMLError as e:
        r.diagnostics.append(_yaml_problem(file, e))
        return r
    r.diagnostics.extend(doc.diagnostics)
    r.positions = dict(doc.positions)
    if not isinstance(doc.data, dict):
        r.diagnostics.append(Diagnostic(file, 1, 1, "", "a variant file must be a YAML mapping "
                                        "(expected keys such as id, deck, phases)"))
        return r
    data = doc.data
    base_name = data.get("extends")
    if base_name is None:
        r.data = data
        return r
    if not isinstance(base_name, str):
        r.data = data  # the schema reports the wrong type
        return r
    here = Path(file).parent if not file.startswith("variants/") else None
    key = base_name if "/" not in base_name else str((here or Path()) / base_name)
    if key in seen or base_name == data.get("id"):
        chain = " -> ".join(seen + (key,))
        r.diagnostics.append(r_diag(doc, ("extends",), f"extends: forms a cycle ({chain})"))
        return r
    if len(seen) >= MAX_EXTENDS_DEPTH:
        r.diagnostics.append(r_diag(doc, ("extends",), f"extends: chain deeper than {MAX_EXTENDS_DEPTH}"))
        return r
    found = locate(base_name, here)
    if found is None:
        r.diagnostics.append(r_diag(doc, ("extends",), f"base variant {base_name!r} does not exist "
                                    f"(expected a path or one of: {', '.join(builtin_ids())})"))
        return r
    bfile, btext = found
    base = _resolve_text(bfile, btext, seen + (key,))
    r.files += base.files
    if base.diagnostics or base.data is None:
        r.diagnostics.extend(base.diagnostics)
        if base.data is None:
            return r
    bpos = dict(base.positions)
    over = {k: v for k, v in data.items() if k != "extends"}
    merged = _merge(base.data, over, bpos, doc.positions, ())
    bpos[()] = doc.positions.get((), Pos(file, 1, 1))
    r.data = merged
    r.positions = bpos
    return r


def r_diag(doc, path, message) -> Diagnostic:
    """A diagnostic at ``path`` of a single :class:`YamlDocument`."""
    pos = doc.pos(path)
    return Diagnostic(pos.file, pos.line, pos.column, ".".join(map(str, path)), message)


def schema_problems(r: Resolved) -> list[Diagnostic]:
    """Validate ``r.data`` against the schema; one diagnostic per error, in file order."""
    out = []
    for err in validator().iter_errors(r.data):
        e = best_match([err])
        path = tuple(e.absolute_path)
        msg = _schema_message(e)
        d = r.diag(path, msg)
        # an unexpected key is reported at the key itself
        if e.validator == "additionalProperties" and isinstance(e.instance, dict):
            extra = [k for k in e.instance if k not in e.schema.get("properties", {})]
            if extra and (path + (extra[0], "<key>")) in r.positions:
                d = r.diag(path + (extra[0], "<key>"), msg)
                d = type(d)(d.file, d.line, d.column, ".".join(map(str, path + (extra[0],))), msg)
        out.append(d)
    out.sort(key=lambda d: (d.file, d.line, d.column))
    return out


def _schema_message(e) -> str:
    v = e.validator
    s = e.schema
    desc = s.get("description", "") if isinstance(s, dict) else ""
    if v == "additionalProperties":
        allowed = ", ".join(sorted(s.get("properties", {})))
        extra = [k for k in e.instance if k not in s.get("properties", {})]
        return f"unknown key {extra[0]!r}" + (f" (expected one of: {allowed})" if allowed else "")
    if v == "required":
        return f"{e.message} (expected key {e.validator_value[0]!r})" if len(e.validator_value) == 1 \
            else e.message
    if v == "enum":
        return f"{e.instance!r} is not allowed (expected one of: {', '.join(map(str, e.validator_value))})"
    if v == "type":
        return f"{e.instance!r} has the wrong type (expected {e.validator_value})" + (f": {desc}" if desc else "")
    if v == "pattern":
        return f"{e.instance!r} is not well formed (expected text matching {e.validator_value})"
    if v in ("oneOf", "anyOf"):
        return f"{e.instance!r} is not valid here" + (f" (expected {desc[0].lower() + desc[1:]})" if desc else "")
    return e.message + (f" ({desc})" if desc and v not in ("minimum", "maximum") else "")
