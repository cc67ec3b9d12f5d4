"""rulekit: describe, check, play, score and compare trick-taking card games.

The code is in layers, lowest first (:data:`LAYERS`); a module imports only from its own layer
or a lower one, never from a higher one (``tests/test_layers.py`` checks every import of every
module, those inside functions and under ``TYPE_CHECKING`` too):

base -> cards -> dsl -> data -> kinds -> variant -> engine -> sheets -> bots -> sim -> cli -> rl.

``rulekit.env(variant, **options)`` (the ``rl`` extra) is the one name the package gives from a
higher layer: :data:`ENTRY_POINTS` loads it when first asked for, so importing rulekit loads
none of it.
"""
__version__ = "0.1.0"

#: ``(layer, module prefixes)``, lowest first.  A module belongs to the layer of the longest
#: prefix it matches (``rulekit.engine.phases.tricks`` to ``kinds``, ``rulekit.engine.state`` to
#: ``engine``).  What each layer holds (docs/architecture.md, "Layers"):
#:
#: * ``base``: errors, the bounds and the escaping of file text (:mod:`rulekit.text`), and the type
#:   aliases of the typed API (``Card``, ``Mask``, ``Seat``).
#: * ``cards``: the deck, cards as ints and card sets as bitmasks.
#: * ``dsl``: the rulekit DSL: parsing, compiling formulas, their bounds and their words.
#: * ``data``: plain values everyone above shares: contract values, actions, the hand in
#:   progress, the markers of a match, the score sheet and hand results.
#: * ``kinds``: the phase kinds, each with its spec, its rules and its data; they know the match
#:   only through the facade :class:`rulekit.engine.phases.table.Table`.
#: * ``variant``: reading, checking and compiling a variant file (the compiler asks the kinds),
#:   the compiled :class:`~rulekit.variant.model.Variant`, the schema, the rulebook in words.
#: * ``engine``: the rules interpreter: the match state, scoring, observations, playouts.
#: * ``sheets``: what a played match leaves and how it is shown: sheet books and drawings, the
#:   scorepad, records and PBN files.
#: * ``bots``: players that see only an observation, and their per-kind policies.
#: * ``sim``: simulations and comparisons of variants, environments and servers over the engine.
#: * ``cli``: the ``rulekit`` command, and the web table of ``rulekit serve`` (``rulekit.web``: it draws
#:   with the CLI's words, and the CLI starts it).
#: * ``rl``: reinforcement-learning environments (PettingZoo, Gymnasium; the ``rl`` extra), on top
#:   so that no other layer, and no layer's import test, needs them.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("rulekit", "rulekit.errors", "rulekit.engine.types")),
    ("cards", ("rulekit.cards",)),
    ("dsl", ("rulekit.dsl",)),
    ("data", ("rulekit.contracts", "rulekit.engine.actions", "rulekit.engine.hand", "rulekit.engine.markers",
              "rulekit.sheets.sheet", "rulekit.sheets.result")),
    ("kinds", ("rulekit.engine.phases",)),
    ("variant", ("rulekit.variant", "rulekit.schemas")),
    ("engine", ("rulekit.engine",)),
    ("sheets", ("rulekit.sheets", "rulekit.records", "rulekit.sealing", "rulekit.pbn")),
    ("bots", ("rulekit.bots",)),
    ("sim", ("rulekit.sim", "rulekit.env")),
    ("cli", ("rulekit.cli", "cli", "rulekit.web")),
    ("rl", ("rulekit.rl",)),
)

#: Names of the package given by a module of a higher layer, loaded when first asked for
#: (PEP 562): name -> the module holding it.  ``rulekit.env`` is
#: :func:`rulekit.rl.env` (needs ``pip install 'rulekit[rl]'``).
ENTRY_POINTS: dict[str, str] = {"env": "rulekit.rl"}


def __getattr__(name: str):
    """``rulekit.env``: loaded from :data:`ENTRY_POINTS` on first use.

    :raises AttributeError: no such name.
    :raises ModuleNotFoundError: the extra it needs is not installed (the message says which).
    """
    if name not in ENTRY_POINTS:
        raise AttributeError(f"module 'rulekit' has no attribute {name!r}")
    import importlib
    try:
        module = importlib.import_module(ENTRY_POINTS[name])
    except ModuleNotFoundError as e:
        raise ModuleNotFoundError(f"rulekit.{name} needs {e.name}: pip install 'rulekit[rl]'", name=e.name) from None
    return getattr(module, name)

#: Imports allowed against the order, for annotations only (under ``TYPE_CHECKING``):
#: ``(importing layer, imported module)``.  The compiled ``Variant`` (and its ``Context``
#: tables) is built by the variant layer from the kinds' specs, so its type sits above the kinds
#: and the data they change, which receive the value at run time and never import it.
TYPE_ONLY: frozenset[tuple[str, str]] = frozenset({("data", "rulekit.variant.model"),
                                                   ("kinds", "rulekit.variant.model")})


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of the layer holding ``module`` (a dotted name such as
    ``rulekit.engine.state``): that of the longest prefix it matches.

    :raises KeyError: ``module`` is in no layer (not a rulekit module).
    """
    best, at = -1, -1
    for i, (_name, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best:
                best, at = len(p), i
    if at < 0:
        raise KeyError(module)
    return at
