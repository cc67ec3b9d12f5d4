"""``hint`` at the prompt: what the Monte Carlo bot would do in the player's place, from his own
observation only, and why in one line (its mean outcome per candidate over the deals it
sampled); asking for it never changes a bot's decisions."""
from __future__ import annotations

import io
import random

from rich.console import Console

from rulekit.bots import SensibleBot
from rulekit.cli.game import Game
from rulekit.cli.render import call_text
from rulekit.engine import State
from rulekit.variant import load_variant
from tests.helpers import plain


def test_hint_names_the_bots_choice_and_its_mean_per_candidate():
    """Five Hundred, seed 3, the first call: the hint is one line naming the bot's call, each
    bid it valued with its mean outcome, its deals and how often it was made, the chosen one
    first, and the rule it bids by; asked twice, the same."""
    s = State(load_variant("fivehundred"), seed=3)
    g = Game(s, ["human", "bot", "bot"], Console(file=io.StringIO()))
    text = plain(g.hint(0), width=400, strip=True)
    assert text == plain(g.hint(0), width=400, strip=True)
    assert "\n" not in text
    bot = SensibleBot(seed=0)
    bot.rng.seed(f"rulekit-hint:{g.bot_seed}:0:0")
    choice, notes = bot.explain(s.observation(0))
    said = call_text(choice.text).plain
    assert text.startswith(f"hint: {said} — mean outcome over sampled deals (your score less the others' mean): "
                           f"{said} ")             # the chosen call, then first in the list
    valued = [n for n in notes if len(n) == 4]
    assert valued and all(0 <= n[3] <= 1 and n[2] > 0 for n in valued)
    assert text.endswith("a bid is made when worth more than 0 and made in at least 60% of the deals")
    assert f"({valued[0][2]} deals, made in" in text


def test_explain_chooses_what_act_chooses():
    """The bot's choice with notes is its choice without (the same draws), in the auction and in
    the card play of several deals."""
    v = load_variant("fivehundred")
    for seed in range(4):
        s = State(v, seed=seed)
        rng = random.Random(seed)
        for _ in range(14):
            if s.is_over:
                break
            obs = s.observation(s.controller(s.to_move))
            a, b = SensibleBot(seed=seed), SensibleBot(seed=seed)
            chosen, notes = b.explain(obs)
            assert a.act(obs) == chosen and notes
            legal = s.legal_actions()
            s.apply(legal[int(rng.random() * len(legal))])


def test_a_hint_depends_only_on_what_the_seat_may_know():
    """The bot's explanation from a seat's observation is the same in every world sampled from
    that observation (a hint shows nothing of the cards the seat cannot see)."""
    v = load_variant("fivehundred")
    s = State(v, seed=5)
    for call in ("6S", "pass", "pass"):
        s.apply(call)
    while s.kind.role != "play":
        s.apply(s.legal_actions()[0])
    seat = s.to_move
    told = SensibleBot(seed=1).explain(s.observation(seat))
    for k in range(3):
        world = s.observation(seat).sample_world(random.Random(k))
        assert SensibleBot(seed=1).explain(world.observation(seat)) == told


def test_hint_in_play_lists_cards_with_their_means():
    """In trick play the hint lists the candidate cards as cards (``Q♠ +12.0 (10 deals)``)."""
    v = load_variant("fivehundred")
    s = State(v, seed=5)
    for call in ("6S", "pass", "pass"):
        s.apply(call)
    while s.kind.role != "play":
        s.apply(s.legal_actions()[0])
    seat = s.controller(s.to_move)
    g = Game(s, ["human"] * 3, Console(file=io.StringIO()))
    text = plain(g.hint(seat), width=400, strip=True)
    assert text.startswith("hint: ") and " — mean outcome over sampled deals (your score less the others' mean): " in text
    assert " deals)" in text or "every legal card is worth the same" in text
