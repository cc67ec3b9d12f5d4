"""The editor schema: a variant file *as written*, for a YAML language server.

:func:`rulekit.schemas.composed_schema` describes the document that ``rulekit validate``
checks: a variant after its ``extends:`` chain is merged.  An editor applies a schema to
the file as written, so :func:`editor_schema` derives from the composed schema:

* a file without ``extends:`` is a complete variant (the merged-document schema, with
  the keys every variant needs, ``deck``, ``ranking`` and ``phases``, required);
* a file with ``extends:`` is an override: the loader merges mappings key by key, lets
  other values replace, and removes a key whose value is null
  (:func:`rulekit.variant.loader.resolve`).  So every key of a mapping is optional at
  every depth, null is allowed wherever the merged document may lack the key (it is
  not required there, or a key of a free-form mapping such as ``phases`` or
  ``scoring.let``), and lists and scalars keep their complete schema, since an override
  replaces them whole;
* a phase entry's keys are narrowed by its ``kind`` (one ``if kind == K then phase_K``
  per registered kind, the ``if`` requiring ``kind`` so that an entry without it is not
  matched by every kind); an override phase without ``kind`` must be a partial entry of
  some kind.  A kind's former words (:attr:`~rulekit.engine.phases.base.PhaseKind.aliases`,
  ``layout`` for ``domino``) are accepted as the kind, as the loader reads them.

Built from the registry on every call, so a kind registered later is covered.  What
the file alone cannot decide is accepted: whether a partial mapping replaces a
non-mapping of the base, or a phase override changes the base phase's kind.
"""
from __future__ import annotations

import copy
from typing import Any

from rulekit.schemas import composed_schema

#: ``$defs`` prefix of the override forms (``override_deck``, ``override_phase_tricks``).
OVERRIDE = "override_"
#: The schema of a value allowed only as null (an override removing a key).
NULL: dict[str, Any] = {"type": "null"}


def editor_schema() -> dict:
    """The JSON Schema (Draft 2020-12) of a variant file as written, for editors.

    A complete variant when the file has no ``extends:`` key, an override of its base when
    it has one; a phase entry's keys are those of its ``kind``.  A new dict on every call.
    """
    from rulekit.engine.phases import REGISTRY
    from rulekit.variant.loader import REQUIRED_KEYS

    s = composed_schema()
    defs: dict[str, Any] = s["$defs"]
    kinds = {k: (k, *REGISTRY[k].aliases) for k in REGISTRY}
    defs["phase"]["properties"]["kind"]["enum"] = [w for words in kinds.values() for w in words]
    defs["phase"] = _phase(defs["phase"], kinds, "phase_")
    for k, words in kinds.items():
        defs[f"phase_{k}"]["properties"]["kind"] = _word(words)
    variant = {key: s.pop(key) for key in ("type", "additionalProperties", "properties")}
    variant["required"] = list(REQUIRED_KEYS)
    variant["title"] = "complete variant"
    variant["description"] = "A complete variant (a file without extends:)."
    defs["variant"] = variant

    pending = ["variant"]
    done: set[str] = set()
    while pending:
        name = pending.pop()
        if name in done:
            continue
        done.add(name)
        if name == "phase":
            over = _phase(defs["phase"], kinds, OVERRIDE + "phase_")
            pending += [f"phase_{k}" for k in kinds]
        else:
            over = _overlay(defs[name], pending)
        defs[OVERRIDE + name] = over
    defs[OVERRIDE + "variant"]["title"] = "house rule (extends:)"
    defs[OVERRIDE + "variant"]["description"] = (
        "A house rule (a file with extends:): only what differs from the base; mappings merge key by key, "
        "other values replace, null removes a key.")
    defs[OVERRIDE + "variant"]["properties"]["extends"] = copy.deepcopy(variant["properties"]["extends"])
    s["description"] = ("A variant file as written: a complete variant, or with extends: a house rule that "
                        "overrides its base (rulekit schema; rulekit validate checks the merged variant).")
    s["if"] = {"required": ["extends"]}
    s["then"] = {"$ref": f"#/$defs/{OVERRIDE}variant"}
    s["else"] = {"$ref": "#/$defs/variant"}
    return s


def _word(words: tuple[str, ...]) -> dict:
    """The schema of a ``kind:`` word standing for one kind: its name, or one of its words."""
    return {"const": words[0]} if len(words) == 1 else {"enum": list(words)}


def _phase(phase: dict, kinds: dict[str, tuple[str, ...]], prefix: str) -> dict:
    """A phase entry: ``kind`` one of the words of ``kinds`` (kind -> its name and former
    words); with ``kind``, the keys of that kind's block (``#/$defs/{prefix}K``).  In an
    override (``prefix`` starting with :data:`OVERRIDE`) an entry without ``kind`` is a
    partial entry of some kind."""
    out: dict[str, Any] = {
        "type": "object",
        "properties": {"kind": copy.deepcopy(phase["properties"]["kind"])},
        "allOf": [{"if": {"required": ["kind"], "properties": {"kind": _word(words)}},
                   "then": {"$ref": f"#/$defs/{prefix}{k}"}} for k, words in kinds.items()],
    }
    if prefix.startswith(OVERRIDE):
        out["allOf"].append({"if": {"not": {"required": ["kind"]}},
                             "then": {"anyOf": [{"$ref": f"#/$defs/{prefix}{k}"} for k in kinds]}})
    else:
        out["required"] = ["kind"]
    return out


def _overlay(s: Any, pending: list[str]) -> Any:
    """The override form of the mapping schema ``s``: what a value at its place may be in a file
    with ``extends:`` (see the module docstring).  ``$defs`` it refers to in override form are
    appended to ``pending``."""
    if not isinstance(s, dict):
        return s
    out = dict(s)
    ref = out.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        name = ref[len("#/$defs/"):]
        pending.append(name)
        out["$ref"] = f"#/$defs/{OVERRIDE}{name}"
    for key in ("oneOf", "anyOf", "allOf"):
        if key in out:
            out[key] = [_overlay(b, pending) for b in out[key]]
    for key in ("then", "else"):
        if key in out:
            out[key] = _overlay(out[key], pending)
    required = set(out.pop("required", ()))
    out.pop("minProperties", None)
    if "properties" in out:
        out["properties"] = {k: v if k in required else _nullable(v)
                             for k, v in ((k, _overlay(v, pending)) for k, v in out["properties"].items())}
    extra = out.get("additionalProperties")
    if isinstance(extra, dict):
        out["additionalProperties"] = _nullable(_overlay(extra, pending))
    return out


def _nullable(s: Any) -> Any:
    """``s`` or null (a key an override may remove)."""
    if s is True:
        return True
    return {"anyOf": [s, NULL]}


__all__ = ["editor_schema"]
