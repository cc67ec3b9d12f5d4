"""Every file that validates must play.  Random valid combinations of options on a
small made-up variant (deck by rule, deal schedule, trump source, bids with or without the hook,
partnerships or not, scoring by side, must_trump, a target or a number of deals) are each
played to their end by random legal moves."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import State
from rulekit.errors import VariantError
from rulekit.variant import load_variant


def combination(rng: random.Random) -> str:
    sides = rng.random() < 0.5
    players = 4 if sides else rng.choice([3, 4])
    minus = rng.choice(["", ", minus: [9S]", ", plus: [9H]"])
    deck_size = 24 - (1 if minus.startswith(", minus") else 3 if minus else 0)  # plus [9H]: no 9S 9D 9C
    size = deck_size // players
    sched = rng.choice(["", f", hand_sizes: [1, {size}]"])
    trump = rng.choice(["", "  trump: {kind: turn_up}\n", "  trump: {kind: turn_up, card: stock}\n"])
    if sched and trump == "  trump: {kind: turn_up}\n":
        trump = ""
    bids = rng.choice(["", "  bidding: {kind: trick_bids}\n", "  bidding: {kind: trick_bids, hook: true}\n"])
    each = "if tricks == bid then 10 + bid else 0" if bids and not sides else "tricks"
    if bids and sides:
        each = "(if bid_tricks >= bid then 10 * bid else -10 * bid) + 100 * nil_made - 100 * nil_failed"
    total = size * players
    rest = deck_size - total
    pattern = f"{size}" + (f", widow {rest}" if rest else "")
    end = rng.choice(["deals: 3", "target: 15"])
    return f"""id: combo
name: Combo
players: {players}
{"sides: {A: [0, 2], B: [1, 3]}" if sides else ""}
deck: {{suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]{minus}}}
ranking: {{suit: "A K Q J 10 9"}}
phases:
  deal: {{kind: deal, pattern: "{pattern}"{sched}}}
{trump}{bids}  play: {{kind: tricks, lead: eldest, must_trump: {str(rng.random() < 0.5).lower()}}}
scoring:
  {"by: side" if sides else ""}
  each: "{each}"
match: {{{end}}}
"""


@pytest.mark.parametrize("seed", range(24))
def test_random_option_combination_plays_to_its_end(tmp_path, seed):
    rng = random.Random(seed)
    text = combination(rng)
    f = tmp_path / "combo.yaml"
    f.write_text(text)
    try:
        v = load_variant(str(f))
    except VariantError as e:  # pragma: no cover - every combination built here is valid
        pytest.fail(f"{e}\n{text}")
    s = State(v, seed=seed)
    while not s.is_over:
        acts = s.legal_actions()
        s.apply_unchecked(acts[rng.randrange(len(acts))])
    assert s.winners, text


def auction_combination(rng: random.Random) -> str:
    """A made-up ladder-auction game with random trick-play options (must_trump, must_overtrump,
    partner_frees, may_trump, first_lead_trump), strains that win high or low, a once-round
    auction, a misère placed in the ladder, jokers that top the trumps or have no power."""
    sides = rng.random() < 0.6
    must = rng.random() < 0.5
    play = [f"must_trump: {str(must).lower()}"]
    if rng.random() < 0.4:
        play.append("must_overtrump: true")
    if sides and must and rng.random() < 0.5:
        play.append("partner_frees: true")
    if rng.random() < 0.3:
        play.append("may_trump: true")
    first_lead = rng.random() < 0.2
    if first_lead:
        play.append("first_lead_trump: true")
    low = rng.random() < 0.5
    strains = ["S", "H"] + (["{call: lo, strain: chosen, wins: low}"] if low else []) + ["NT"]
    joker = rng.choice(["", "top", "powerless"])
    ranking = 'suit: "A K Q J 10 9"'
    if joker == "top":
        ranking += ', trump: "JK A K Q J 10 9", top: "JK"'
    elif joker == "powerless":
        ranking += ', trump: "JK A K Q J 10 9", powerless: "JK"'
    if low:
        ranking += ', low: {suit: "9 10 J Q K A"' + (', trump: "JK 9 10 J Q K A"}' if joker else "}")
    players = 4 if sides else 3
    deck_size = 24 + (1 if joker else 0)
    size = min(6, deck_size // players)
    rest = deck_size - size * players
    pattern = f"{size}" + (f", widow {rest}" if rest else "")
    extra = ""
    if rng.random() < 0.4:
        extra = ("    extra_bids: [{call: MIS, level: 0, strain: NT, null: true, above: 3S, value: 30"
                 + (", alone: true" if sides and rng.random() < 0.5 else "") + "}]\n")
    once = "    once: true\n" if rng.random() < 0.3 else ""
    name_trump = ("  trump: {kind: name_trump, choices: [S, H, D, C]}\n" if low else "")
    return f"""id: combo-auction
name: Combo auction
players: {players}
{"sides: {A: [0, 2], B: [1, 3]}" if sides else ""}
deck: {{suits: [S, H, D, C], ranks: ["9", "10", J, Q, K, A]{", jokers: 1" if joker else ""}}}
ranking: {{{ranking}}}
phases:
  deal: {{kind: deal, pattern: "{pattern}"}}
  bidding:
    kind: ladder_auction
    levels: [2, 3, 4]
    strains: [{", ".join(strains)}]
    all_pass: {rng.choice(["play", "redeal"])}
{extra}{once}{name_trump}  play: {{kind: tricks, lead: declarer, {", ".join(play)}}}
scoring:
  {"by: side" if sides else ""}
  let: {{ok: "declarer_tricks >= level"}}
  declarer: "if ok then 10 * level else -10 * level"
  defender: "tricks"
  no_contract: "tricks"
match: {{{rng.choice(["deals: 3", "target: 40"])}}}
"""


@pytest.mark.parametrize("seed", range(24))
def test_random_auction_combination_plays_to_its_end(tmp_path, seed):
    """Every file that validates must play: the trick-play and auction primitives of
    the shipped games (overtrumping, partner frees, follow or trump, first lead makes trumps, low-wins
    strains, powerless or top jokers, misère in the ladder, once-round bidding) in random valid
    combinations, each played to its end by random legal moves; a combination the compiler
    refuses is a failure of this generator or of the compiler, shown with the file."""
    rng = random.Random(1000 + seed)
    text = auction_combination(rng)
    f = tmp_path / "combo.yaml"
    f.write_text(text)
    try:
        v = load_variant(str(f))
    except VariantError as e:
        pytest.fail(f"{e}\n{text}")
    s = State(v, seed=seed, max_hands=60)
    while not s.is_over:
        acts = s.legal_actions()
        s.apply_unchecked(acts[rng.randrange(len(acts))])
    assert s.winners, text


def pack_combination(rng: random.Random) -> str:
    """A made-up game using the pack and card options at random: copies, a fifth suit of its own
    ranks, suitless cards with rules (always or never winning, following any lead, kept by their
    owner, the slam lead), equal cards first or last, rankings by colour, a card that is a trump in
    every trump suit, a turned card from a zone with meanings, robbing it, reneging, a list
    auction whose contracts name a contract group, skip the exchange, and send the cards out of
    play to a side; a deal thrown in by what was dealt."""
    players = rng.choice([3, 4])
    sides = players == 4 and rng.random() < 0.5
    copies = rng.choice([1, 1, 2])
    fifth = rng.random() < 0.4
    tk = rng.randint(3, 8)
    specials = {k: v for k, v in (("W", "{name: Wizard, copies: 2}"), ("N", "{name: Jester, copies: 2}"),
                                  ("EX", "the Excuse")) if rng.random() < 0.4}
    rules = []
    if "W" in specials:
        rules.append("W: {wins: always, follows: any" + rng.choice(["", ", equal: last"]) + "}")
    if "N" in specials:
        rules.append("N: {wins: never, follows: any}")
    if "EX" in specials:
        rules.append("EX: {follows: any, wins: never, kept: " + rng.choice(["always", "not_last"])
                     + rng.choice(["", ", exchange: 1"]) + rng.choice(["", ", slam: true"]) + "}")
    suits = ["S", "H", "D", "C"] + (["{letter: T, ranks: [" + ", ".join(str(i) for i in range(1, tk + 1)) + "]}"]
                                    if fifth else [])
    size = 24 * copies + (tk * copies if fifth else 0) + sum(2 if k in ("W", "N") else 1 for k in specials)
    each = min(8, size // players)
    rest = size - each * players
    auction = rng.random() < 0.5
    zone = rng.choice(["widow", "talon", "dog"]) if rest else ""
    if auction and zone == "widow" and rest > each:
        zone = "talon"
    pattern = f"1 x {each}" + (f", {zone} {rest}" if rest else "")
    tnum = " ".join(str(i) for i in range(tk, 0, -1))
    plain = "A K Q J 10 9"
    if rng.random() < 0.4:
        suit = '{red: "A K Q J 10 9", black: "K Q J A 10 9"' + (f', T: "{tnum}"' if fifth else "") + "}"
    else:
        suit = f'{{others: "{plain}"' + (f', T: "{tnum}"' if fifth else "") + "}" if fifth else f'"{plain}"'
    perpetual = rng.random() < 0.4
    trump = '"J AH A K Q 10 9"' if perpetual else f'"{plain}"'
    if fifth:
        trump = f'{{T: "{tnum}", others: {trump}}}'
    ranking = [f"suit: {suit}", f"trump: {trump}"]
    if rng.random() < 0.3:
        ranking.append("equal: last")
    if rules:
        ranking.append("special: {" + ", ".join(rules) + "}")
    trump_src = rng.choice(["", "fixed", "turn"] + (["turn"] if rest and not auction else []))
    if trump_src == "turn" and (not rest or auction):
        trump_src = "fixed"
    phases = [f'deal: {{kind: deal, pattern: "{pattern}"' +
              (', throw_in_if: "aces == 4 * %d"' % copies if rng.random() < 0.3 else "") + "}"]
    if trump_src == "fixed":
        phases.append("trumps: {kind: fixed_trump, suit: " + rng.choice(["S", "H"] + (["T"] if fifth else [])) + "}")
    elif trump_src == "turn":
        meaning = ", ".join(f"{k}: {m}" for k, m in (("W", "dealer_names"), ("N", "no_trump")) if k in specials)
        phases.append(f"trumps: {{kind: turn_up, from: {zone}" + (f", meaning: {{{meaning}}}" if meaning else "") + "}")
        if rng.random() < 0.6:
            phases.append("rob: {kind: rob, dealer: A, holder: A}")
    groups = ""
    if auction:
        strain = "S" if not fifth else "T"
        exchange = bool(zone and zone != "talon")
        contracts = [f"{{call: low, trumps: {strain}, value: 1}}",
                     f"{{call: high, trumps: {strain}, value: 2, group: alt}}",
                     f"{{call: plain, value: 3{', skips: [exchange]' if exchange else ''}, group: alt}}"]
        groups = ('contract_groups:\n  alt: {ranking: {suit: ' + suit.replace("A K Q J 10 9", "A 10 K Q J 9")
                  + '}, card_points: {A: 1}' + rng.choice(["", ", widow_to: defenders"]) + '}\n')
        phases.append("bidding: {kind: list_auction, once: true, all_pass: " + rng.choice(["redeal", "play"])
                      + ", contracts: [" + ", ".join(contracts) + "]}")
        if exchange:
            phases.append(f"exchange: {{kind: widow_exchange, keep: \"A\"{', last: T' if fifth else ''}"
                          f"{', shown: K' if rng.random() < 0.5 else ''}}}")
    play = [f"must_trump: {str(rng.random() < 0.5).lower()}"]
    if rng.random() < 0.3:
        play.append("may_trump: true")
    if rng.random() < 0.3:
        play.append("must_overtrump: true")
    if rng.random() < 0.4 and trump_src:
        play.append('renege: "A K"')
    if rest and rng.random() < 0.5:
        play.append("widow_to: " + rng.choice(["last_trick"] + (["declarer", "defenders"] if auction else [])))
    if auction and rng.random() < 0.5:
        play.append("discards_to: declarer")
    phases.append("play: {kind: tricks, " + ", ".join(play) + "}")
    scoring = ('declarer: "points + tricks"\n  defender: "tricks"\n  no_contract: "tricks"' if auction
               else 'each: "points + tricks"')
    deck_specials = ", specials: {" + ", ".join(f"{k}: {v}" for k, v in specials.items()) + "}" if specials else ""
    return f"""id: combo-pack
name: Combo pack
players: {players}
{"sides: {A: [0, 2], B: [1, 3]}" if sides else ""}
deck: {{suits: [{", ".join(suits)}], ranks: ["9", "10", J, Q, K, A], copies: {copies}{deck_specials},
        card_points: {{A: 11, "10": 10, K: 4}}}}
ranking: {{{", ".join(ranking)}}}
{groups}dealer: {{first: {{seat: 0}}}}
phases:
  {chr(10).join("  " + p for p in phases).lstrip()}
scoring:
  {"by: side" if sides else ""}
  tallies: {{aces: {{ranks: A, in: hand}}}}
  {scoring}
match: {{deals: 3}}
"""


@pytest.mark.parametrize("seed", range(40))
def test_random_pack_combination_plays_to_its_end(tmp_path, seed):
    """Every file that validates must play: the options of packs and of cards with rules of their
    own in random valid combinations (see :func:`pack_combination`), each played to its end by random
    legal moves through the checked API; a combination the compiler refuses is a failure of this
    generator or of the compiler, shown with the file."""
    rng = random.Random(5000 + seed)
    text = pack_combination(rng)
    f = tmp_path / "combo.yaml"
    f.write_text(text)
    try:
        v = load_variant(str(f))
    except VariantError as e:
        pytest.fail(f"{e}\n{text}")
    s = State(v, seed=seed, max_hands=40)
    while not s.is_over:
        acts = s.legal_actions()
        s.apply(acts[rng.randrange(len(acts))])
    assert s.winners, text
