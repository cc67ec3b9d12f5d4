"""Helpers shared by the test modules, each written once here and imported where it is used:
made-up variants written as YAML text (``variant_from`` and the small toys built on it), explicit
deals (``deal_order``), playing a state on (``play_random`` and friends), and the text a terminal
without colours shows (``plain``).  Shared fixtures live in ``tests/conftest.py``."""
from __future__ import annotations

import random

from rich.console import Console
from typer.testing import CliRunner

from rulekit.bots import RandomBot
from rulekit.engine import State
from rulekit.variant import compile_variant, load_variant, resolve_text

runner = CliRunner()


# ---------------------------------------------------------------------- variants from YAML text
def write_variant(tmp_path, name: str, text: str) -> str:
    """Write ``text`` as ``tmp_path / name`` (UTF-8); the path as a string, as ``load_variant``,
    ``check_file`` and the command line take it."""
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return str(f)


def variant_from(tmp_path, name: str, text: str):
    """The variant compiled from ``text`` written as ``tmp_path / name``; a broken text raises
    ``VariantError`` with that file's line and column."""
    return load_variant(write_variant(tmp_path, name, text))


def load_text(text: str, name: str = "toy.yaml"):
    """Compile a variant from YAML text without a file (errors as :class:`VariantError`, placed
    in ``name``)."""
    return compile_variant(resolve_text(name, text))


# ---------------------------------------------------------------------- small made-up variants
TRICK_TOY = """id: toy
name: Toy
players: 3
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", J, Q, K, A]
ranking:
  suit: "A K Q J 10 9"
dealer:
  first: {seat: 0}
phases:
  deal: {kind: deal, pattern: "4 4"}
  play: {kind: tricks%(play)s}
scoring:
%(scoring)s
match:
  deals: 1
"""


def trick_toy(tmp_path, play="", scoring='  each: "tricks"', text=TRICK_TOY, name="toy.yaml"):
    """A made-up three-handed 24-card variant; ``play`` adds keys to the tricks entry,
    ``scoring`` is the scoring block's text."""
    return variant_from(tmp_path, name, text % {"play": play, "scoring": scoring})


SMALL_DECK_TOY = """id: toy
name: Toy
players: 3
deck: {suits: [S, H, D], ranks: ["9", "10", J, Q, K, A]%(deck)s}
ranking: {suit: "A K Q J 10 9"}
phases:
  deal: {kind: deal, pattern: "%(pattern)s"%(sizes)s}
%(extra)s  play: {kind: tricks, lead: eldest}
scoring:
  each: "%(each)s"
match: {deals: %(deals)s}
"""


def small_deck_toy(tmp_path, deck="", pattern="6", sizes="", extra="", each="tricks", deals=3):
    """A made-up three-handed game with 18 cards (three suits 9 to A): ``deck`` adds deck keys,
    ``pattern`` / ``sizes`` the deal, ``extra`` phases before the tricks."""
    return variant_from(tmp_path, "toy.yaml", SMALL_DECK_TOY % dict(deck=deck, pattern=pattern, sizes=sizes,
                                                                    extra=extra, each=each, deals=deals))


STOCK_BIDS = "  trump: {kind: turn_up, card: stock}\n  bidding: {kind: trick_bids, hook: true}\n"

TABLE_TOY = """id: toy
name: Toy
players: %(players)s
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
dealer: {first: {seat: 0}, rotation: left}
phases:
  deal: {kind: deal, pattern: "1 x %(size)s"}
%(extra)s  play: {kind: tricks, lead: eldest%(play)s}
scoring:
%(scoring)s  each: "%(each)s"
match: {deals: %(deals)s}
"""


def table_toy(tmp_path, players=4, extra="", play="", scoring="", each="tricks", deals=4):
    """A made-up game of ``players`` with the 24 cards 9 to A dealt one at a time: ``extra``
    phases before the tricks, ``play`` keys of the tricks entry, ``scoring`` lines."""
    return variant_from(tmp_path, "toy.yaml", TABLE_TOY % dict(players=players, size=24 // players, extra=extra,
                                                               play=play, scoring=scoring, each=each, deals=deals))


#: A made-up two-hand game from a stock in Schnapsen's shape (20 cards A 10 K Q J, a turned trump
#: under the stock), its ``play:`` options given by ``%(play)s`` (lines of the tricks entry).
STOCK_TOY = """id: stocky
name: Stocky
players: 2
deck:
  suits: [S, H, D, C]
  ranks: [J, Q, K, "10", A]
  card_points: {A: 11, "10": 10, K: 4, Q: 3, J: 2}
ranking:
  suit: "A 10 K Q J"
dealer:
  first: {seat: 1}
  rotation: left
phases:
  deal: {kind: deal, pattern: "3, stock 1, 2, stock 9"}
  trumps: {kind: turn_up, card: stock}
  play:
    kind: tricks
    lead: eldest
%(play)s
scoring:
%(scoring)s
match:
  deals: 3
"""

#: The stock block of :data:`STOCK_TOY` as Schnapsen has it (pagat.com/marriage/schnaps.html).
STOCK_PLAY = """    follow_suit: false
    stock:
      exchange: {rank: J}
      close: true
      after: {follow_suit: true, must_head: true, must_trump: true}
"""


def stock_toy(tmp_path, play=STOCK_PLAY, scoring='  each: "tricks"'):
    """:data:`STOCK_TOY` with these ``play:`` lines and ``scoring:`` lines."""
    return variant_from(tmp_path, "stocky.yaml", STOCK_TOY % {"play": play.rstrip("\n"), "scoring": scoring})


LEAD_TOY = """id: toy
name: Toy
players: 3
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
dealer: {first: {seat: 0}, rotation: left}
phases:
  deal: {kind: deal, pattern: "1 x 8"}
%(extra)s  play: {kind: tricks, lead: %(lead)s%(play)s}
scoring:
%(scoring)s
match: %(match)s
"""


def lead_toy(tmp_path, extra="", lead="eldest", play="", scoring='  each: "tricks"', match="{deals: 2}"):
    """A made-up three-handed game, eight cards each dealt one at a time from the 24 cards 9 to A:
    ``lead`` and ``play`` set the tricks entry, ``extra`` phases before it."""
    return variant_from(tmp_path, "toy.yaml", LEAD_TOY % dict(extra=extra, lead=lead, play=play,
                                                              scoring=scoring, match=match))


LEAD_TOY_HANDS = [["9S", "10S", "JS", "QS", "KS", "AS", "9H", "10H"],       # seat 0, the dealer
                  ["JH", "QH", "KH", "AH", "9D", "10D", "JD", "9C"],        # seat 1, eldest: leads
                  ["QD", "KD", "AD", "10C", "JC", "QC", "KC", "AC"]]


def lead_toy_order(hands: list) -> list:
    """The deck order that deals ``hands`` in ``lead_toy`` (dealer 0, one card at a time from seat 1)."""
    return deal_order(hands, first=1)


JACKNINE = """id: jacknine
name: Jack Nine (made up)
players: 4
seats: [N, E, S, W]
sides: {NS: [0, 2], EW: [1, 3]}
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", J, Q, K, A]
  card_points: {A: 11, "10": 10, K: 4, Q: 3, J: 2}
  trump_points: %(trump_points)s
ranking: {suit: "A 10 K Q J 9", trump: "J 9 A 10 K Q"}
phases:
  deal: {kind: deal, pattern: "3 3"}
  trumps: {kind: fixed_trump, suit: H}
  play: {kind: tricks, lead: eldest, must_trump: %(must_trump)s, must_overtrump: true, partner_frees: true}
scoring:
  by: side
  each: "points"
match: {deals: 1}
"""


def jacknine(tmp_path, trump_points='{J: 20, "9": 14}', must_trump="true"):
    """A made-up four-handed partnership game with its own trump order and trump points (the
    shape of Belote): hearts trumps, overtrumping, the partner's trick frees a player."""
    return variant_from(tmp_path, "jacknine.yaml", JACKNINE % dict(trump_points=trump_points,
                                                                   must_trump=must_trump))


LISTER = """id: lister
name: Lister
players: 3
deck:
  suits: [S, H, D, C]
  ranks: ["9", "10", J, Q, K, A]
  colours: {S: black, C: black, H: red, D: red}
ranking:
  suit: "A K Q J 10 9"
dealer:
  first: {seat: 0}
phases:
  deal: {kind: deal, pattern: "4 4"}
  turn: {kind: turn_card, by: dealer}
  bidding:
    kind: list_auction
    contracts:
      - {tricks: 3, trumps: each, value: "10 - suit_class", partner: true}
      - {call: MIS, name: misere, value: 8, null: true, aside: 1, open: before_lead}
      - {tricks: 5, trumps: each, value: "20 - suit_class"}
  partner: {kind: call_partner%(offers)s}
  aside: {kind: set_aside}
  play: {kind: tricks, lead: declarer, end_if: "null and declarer_tricks > 0"}
scoring:
  let:
    made: "if null then declarer_tricks == 0 else side_tricks >= level"
  declarer: "if made then value else -value"
  defender: "if is_defender then 0 else 99"
match:
  deals: 1
"""

ROUNDS_BASE = """\
id: toy-rounds
name: Toy rounds
players: 3
deck: {suits: [S, H, D], ranks: ["7", "8", "9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9 8 7"}
dealer: {first: {seat: 0}, rotation: left}
phases:
  deal: {kind: deal, pattern: "4 4"}
  play: {kind: tricks, lead: eldest}
scoring:
  each: "tricks"
"""

STEP_TOY = """id: step-toy
name: Step toy
players: 3
deck: {suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]}
ranking: {suit: "A K Q J 10 9"}
dealer: {first: {seat: 0}}
phases:
  deal: {kind: deal, pattern: "4, widow 3 down, 3"}
  bidding:
    kind: step_auction
    contracts: [{call: low, level: 1, strain: S}, {call: high, level: 2, strain: H}]
    blind: {call: blind, skips: [widow]}
  widow: {kind: widow_exchange, discard: 3}
  say: {kind: announce}
  defend: {kind: defence, need: {each: 1, together: 2, alone: 1, invited: 2, kontra: 3},
           chain: [double, redouble], skips: [play]}
  play: {kind: tricks}
scoring:
  lower_is_better: true
  start: 10
  markers: {star: {max: 1, factor: 3}}
  declarer: "-(level + blind) * kontra * star"
  defender: "0"
  against_declarer: "soup_tricks * star"
match: {sum_at_most: 0, final: "against - written + total"}
sheet: {layout: bula}
"""


def preferans_start(tmp_path, start: int):
    """``preferans`` with every bula starting at ``start``."""
    return variant_from(tmp_path, "pref.yaml",
                        f"extends: preferans\nid: pref-start\nname: Preferans\nscoring: {{start: {start}}}\n")


# ---------------------------------------------------------------------- explicit deals
def deal_order(hands, packets=None, first: int = 1) -> list:
    """The pack order that deals ``hands`` (``hands[seat]``: that seat's card texts, every seat
    the same number) in ``packets`` (their sizes in dealing order, e.g. ``(3, 3)``; by default one
    card at a time), each packet going round the table in seat order from seat ``first``."""
    n = len(hands)
    packets = packets or [1] * len(hands[0])
    out, at = [], 0
    for size in packets:
        for k in range(n):
            out += list(hands[(first + k) % n][at:at + size])
        at += size
    return out


def explicit_order(v, dealer: int, hands, zones=None) -> list:
    """The pack order that deals ``hands`` (``hands[seat]``: that seat's card texts) and the
    ``zones`` (name -> card texts) by ``v``'s own deal pattern, in its direction of play, when
    ``dealer`` deals (any packets, any direction)."""
    from rulekit.engine.phases import deal as _deal
    spec = next(p for p in v.phases if p.kind == _deal.KIND.name)
    eldest = v.next_seat(dealer)
    left = {seat: list(cards) for seat, cards in enumerate(hands)}
    left.update({z: list(cards) for z, cards in (zones or {}).items()})
    out = []
    for t in _deal.deal_plan(spec, v.players):
        key = t if t.__class__ is str else (eldest + v.step * t) % v.players
        out.append(left[key].pop(0))
    assert not any(left.values()), left
    return out


def order_for(v, dealer: int, places: dict) -> list:
    """The pack order that deals the cards of ``places`` by the variant ``v``'s deal pattern with
    ``dealer`` dealing: ``places[seat]`` that seat's cards and ``places[zone]`` a zone's, each
    in the order they are dealt to it (a list of card texts, or one space-separated text)."""
    from rulekit.engine.phases.deal import deal_plan
    spec = next(p for p in v.phases if p.kind == "deal")
    todo = {k: list(x.split() if isinstance(x, str) else x) for k, x in places.items()}
    eldest = v.next_seat(dealer)
    out = []
    for target in deal_plan(spec, v.players):
        key = target if isinstance(target, str) else (eldest + v.step * target) % v.players
        out.append(todo[key].pop(0))
    assert not any(todo.values()), todo
    return out


def mask(v, text: str) -> int:
    """The card mask of the card texts in ``text`` (space separated) in ``v``'s deck."""
    m = 0
    for w in text.split():
        m |= 1 << v.deck.parse(w)
    return m


# ---------------------------------------------------------------------- playing on
def assert_plays_to_a_winner(vid: str, seed: int) -> State:
    """Play variant ``vid`` with uniformly random legal actions (seeded by ``seed``) to the end of the
    match, and check it has winners and was not stopped by the match's cap on deals."""
    rng = random.Random(seed)
    s = State(load_variant(vid), seed=seed)
    while not s.is_over:
        acts = s.legal_actions()
        s.apply_unchecked(acts[rng.randrange(len(acts))])
    assert s.winners and "stopped" not in s.result()["reason"]
    return s


def play_random(s: State, seed: int = 0, limit: int = 100000) -> State:
    """Random legal play (one ``RandomBot(seed)`` for every seat) until the match is over or
    ``limit`` actions were played."""
    bot = RandomBot(seed)
    while not s.is_over and limit:
        s.apply(bot.act(s.observation(s.to_move)))
        limit -= 1
    return s


def play_with_bots(state: State, bots=None, seed: int = 0) -> State:
    """Play ``state`` to its end with one bot a seat (``RandomBot(seed + seat)`` by default);
    fails after 10,000 actions."""
    bots = bots or [RandomBot(seed + i) for i in range(state.variant.players)]
    steps = 0
    while not state.is_over:
        seat = state.to_move
        state.apply(bots[seat].act(state.observation(seat)))
        steps += 1
        assert steps < 10000
    return state


def random_hand(v, seed: int, scores=None, hands: int = 1):
    """A new match of ``v`` played by random bots (``RandomBot(seed * 7 + seat)``) for ``hands``
    hands or to its end."""
    s = State(v, seed=seed, scores=scores)
    bots = [RandomBot(seed * 7 + i) for i in range(v.players)]
    while not s.is_over and len(s.sheet.rows) < hands:
        seat = s.to_move
        s.apply(bots[seat].act(s.observation(seat)))
    return s


def outcome(st: State) -> tuple:
    """What two runs of the same match must agree on: the action history, the sheet, the result,
    the hands played and each finished hand's tricks won, entries and tricks."""
    return (list(st.history), [r.as_dict() for r in st.sheet.rows], st.result(), st.hands_played,
            [(h.number, list(h.won), h.entries, list(h.tricks)) for h in st.hand_log])


def assert_choices_play_as_actions(v, seeds=range(3), hands: int = 4, **state_args) -> None:
    """Seeded deals of ``v`` played at random twice, through the checked API (``legal_actions()``,
    ``apply()``) and through the choices as numbers (``legal_choices()``, ``apply_choice()``):
    at every decision the choices said as actions (``choice_action``) are the legal actions in
    their order and ``choice_of`` gives them back; both runs end with the same :func:`outcome`
    (history, sheet, result, hands) (``state_args``: more ``State`` arguments, such as ``scores``)."""
    for seed in seeds:
        checked, numbers = State(v, seed=seed, **state_args), State(v, seed=seed, **state_args)
        rng = random.Random(seed)
        while checked.hands_played < hands and not checked.is_over:
            legal = list(checked.legal_actions())
            choices = list(numbers.legal_choices())
            assert [numbers.choice_action(c).text for c in choices] == [a.text for a in legal], \
                (v.id, seed, checked.hand.number, checked.phase_kind)
            k = int(rng.random() * len(legal))
            assert numbers.choice_of(legal[k]) == choices[k]
            checked.apply(legal[k])
            numbers.apply_choice(choices[k])
        assert outcome(numbers) == outcome(checked), (v.id, seed)
        assert checked.hands_played >= 1
        assert not numbers.is_over or numbers.legal_choices() == ()


def play_first_legal(s: State, hand_number: int = 0) -> None:
    """Play the first legal action until hand ``hand_number`` is over."""
    while not s.is_over and s.hand.number == hand_number:
        s.apply(s.legal_actions()[0])


def make_trumps(s, call: str, maker: int) -> None:
    """In an ``order_up`` phase: pass up to ``maker``, who says ``call``; the dealer discards when
    he picks the card up."""
    while s.to_move != maker:
        s.apply("pass")
    s.apply(call)
    if s.phase_kind == "order_up":        # the dealer's discard
        s.apply(s.legal_actions()[0])


def legal_texts(s: State) -> list:
    """The texts of the legal actions, sorted."""
    return sorted(a.text for a in s.legal_actions())


def run(s: State, *actions) -> State:
    """``s`` after applying ``actions`` (texts or actions) in order."""
    for a in actions:
        s.apply(a)
    return s


# ---------------------------------------------------------------------- the terminal and the scorepad
def plain(renderable, width: int = 120, strip: bool = False) -> str:
    """The text a terminal without colours shows (its final newlines removed with ``strip``)."""
    con = Console(width=width, record=True, color_system=None, force_terminal=False)
    con.print(renderable)
    text = con.export_text()
    return text.rstrip("\n") if strip else text


def typed_pad(variant, answers):
    """A scorepad of ``variant`` with ``answers`` typed to its questions, hand after hand."""
    from rulekit.sheets.scorepad import ScorePad
    pad = ScorePad(variant)
    todo, facts = list(answers), {}
    while todo or facts:
        q = pad.next_question(facts)
        if q is None:
            pad.add(facts)
            facts = {}
            continue
        pad.answer(q, todo.pop(0), facts)
    return pad
