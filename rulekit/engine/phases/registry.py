"""The registry of phase kinds: kind word -> :class:`~rulekit.engine.phases.base.PhaseKind`.

Kept apart from the package's ``__init__`` (which registers the built-in kinds) so that a kind
may read the registry (another kind's hooks) without importing every kind.
"""
from __future__ import annotations

from rulekit.engine.phases.base import PhaseKind

#: kind word -> its :class:`PhaseKind`, in the order the docs and the schema list them.
REGISTRY: dict[str, PhaseKind] = {}
#: a former kind word -> the name of the kind that reads it (:attr:`PhaseKind.aliases`)
ALIASES: dict[str, str] = {}
_version = [0]


def register(kind: PhaseKind) -> PhaseKind:
    """Add ``kind`` (a :class:`PhaseKind` instance) to the registry under ``kind.name``.

    Variant files may use it from then on (the schema validator is rebuilt), by its name or one
    of its :attr:`~PhaseKind.aliases`.

    :raises ValueError: the name is empty, or it or an alias is already taken by another kind.
    """
    if not kind.name or not isinstance(kind, PhaseKind):
        raise ValueError(f"{kind!r} is not a named PhaseKind")
    for word in (kind.name, *kind.aliases):
        owner = REGISTRY.get(word) or REGISTRY.get(ALIASES.get(word, ""))
        if owner is not None and owner is not kind:
            raise ValueError(f"phase kind {word!r} is already registered")
    REGISTRY[kind.name] = kind
    ALIASES.update(dict.fromkeys(kind.aliases, kind.name))
    _version[0] += 1
    return kind


def unregister(name: str) -> None:
    """Remove the kind ``name`` (a test's toy kind); no error when it is absent."""
    kind = REGISTRY.pop(name, None)
    if kind is not None:
        for word in kind.aliases:
            ALIASES.pop(word, None)
        _version[0] += 1


def version() -> int:
    """A number that changes whenever the registry does (caches key on it)."""
    return _version[0]


def canonical(word: str) -> str:
    """The kind name a ``kind:`` word stands for: ``word`` itself, or the kind whose former name
    it is (:attr:`PhaseKind.aliases`)."""
    return ALIASES.get(word, word)


def kind_of(name: str) -> PhaseKind:
    """The registered kind ``name``.

    :raises KeyError: no such kind.
    """
    return REGISTRY[name]


def kinds_with_role(role: str) -> tuple:
    """Names of the registered kinds whose :attr:`PhaseKind.role` is ``role``."""
    return tuple(k for k, v in REGISTRY.items() if v.role == role)


__all__ = ["ALIASES", "REGISTRY", "canonical", "kind_of", "kinds_with_role", "register", "unregister", "version"]
