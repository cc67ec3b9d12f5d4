"""The variant JSON Schema (Draft 2020-12).

``variant.schema.json`` holds everything but the phase kinds; :func:`composed_schema`
adds one ``$defs/phase_KIND`` block per registered phase kind (each kind's own
``schema``, :mod:`rulekit.engine.phases`) and the ``kind`` enum, so a kind registered
at run time is accepted by the validator.  That is the schema of a merged variant (after
``extends:``); :func:`editor_schema` (:mod:`rulekit.schemas.editor`) derives from it the
schema of a file as written, for editors (``rulekit schema``).
"""
from __future__ import annotations

import copy
import json
from functools import lru_cache
from importlib.resources import files


@lru_cache(maxsize=1)
def base_schema() -> dict:
    """The shipped schema file without phase blocks (do not change the dict returned)."""
    return json.loads(files("rulekit.schemas").joinpath("variant.schema.json").read_text("utf-8"))


def composed_schema() -> dict:
    """The full variant schema: the shipped file plus each registered phase kind's block.

    A new dict on every call (the caller may change it).  ``$defs/phase`` gets the
    ``kind`` enum (registry order) and one ``if kind == K then $ref phase_K`` per kind (the
    ``if`` requires ``kind``, so a phase without it is refused once, for the missing kind).
    """
    from rulekit.engine.phases import REGISTRY
    s = copy.deepcopy(base_schema())
    defs = s["$defs"]
    phase = defs["phase"]
    phase.pop("$comment", None)
    phase["properties"]["kind"]["enum"] = list(REGISTRY)
    # ``required`` in each ``if``: a phase written without ``kind`` matches no kind's block (an
    # ``if`` on an absent property holds), so it gets the one message "missing kind", not every kind's
    phase["allOf"] = [{"if": {"required": ["kind"], "properties": {"kind": {"const": k}}},
                       "then": {"$ref": f"#/$defs/phase_{k}"}} for k in REGISTRY]
    for k, kind in REGISTRY.items():
        defs[f"phase_{k}"] = block = copy.deepcopy(kind.schema)
        for key in PLACEMENT:   # a house rule's placement of a new phase (described in $defs/phase)
            block.setdefault("properties", {}).setdefault(key, True)
    return s


#: The keys that place a phase a house rule adds (:func:`rulekit.variant.loader.place_phases`).
PLACEMENT = ("before", "after")


from rulekit.schemas.editor import editor_schema  # noqa: E402 (it builds on composed_schema)

__all__ = ["base_schema", "composed_schema", "editor_schema"]
