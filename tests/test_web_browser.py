"""``rulekit serve`` in a real browser: the system's Chromium driven by Playwright plays a whole
Five Hundred hand by clicking, sees the engine's reason for a card it may not play, keeps two
players at one table from seeing each other's cards (in the page and in every response), and
comes back to the same place after a reload.  Skipped where Chromium or Playwright is absent."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.web_helpers import CHROMIUM, CHROMIUM_ARGS, running_server

pytest.importorskip("starlette", reason="the web extra is not installed: pip install -e '.[web]'")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="playwright is not installed: pip install -e '.[webtest]'")
if CHROMIUM is None:
    pytest.skip("no system Chromium (Debian: apt-get install chromium); no browser is downloaded",
                allow_module_level=True)

from rulekit.cards import bits  # noqa: E402
from rulekit.engine.phases.base import shown_rows  # noqa: E402
from rulekit.variant import load_variant  # noqa: E402

DOCS = Path(__file__).resolve().parent.parent / "docs" / "web"
SHOTS = os.environ.get("RULEKIT_WEB_SHOTS") == "1"   # write the screenshots of docs/web.md
# one worker of a parallel run (pytest -n, --dist loadgroup) launches the one Chromium of this module
pytestmark = pytest.mark.xdist_group("chromium")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        except sync_api.Error as e:
            pytest.skip(f"Chromium at {CHROMIUM} does not start under Playwright: {e}")
        yield b
        b.close()


@pytest.fixture()
def server(tmp_path):
    with running_server(tmp_path) as s:
        yield s


def shot(page, name: str, tmp_path) -> None:
    """A screenshot of the page, kept for docs/web.md when ``RULEKIT_WEB_SHOTS=1``."""
    path = tmp_path / name
    page.screenshot(path=str(path))
    if SHOTS:   # a palette of 96 colours keeps the committed files small
        DOCS.mkdir(exist_ok=True)
        try:
            from PIL import Image
        except ImportError:
            shutil.copyfile(path, DOCS / name)
            return
        with Image.open(path) as im:
            im.convert("RGB").quantize(colors=96).save(DOCS / name, optimize=True)


def page_of(browser):
    ctx = browser.new_context(viewport={"width": 1000, "height": 760})
    page = ctx.new_page()
    page.set_default_timeout(60000)   # ms; generous: a loaded machine renders slowly
    return ctx, page


def view_of(page) -> dict:
    """The seat's view as the page last drew it (its own request, same origin)."""
    return page.evaluate("() => view")


def click_something(page) -> None:
    """One decision by clicking: a raised card, else the chosen cards of a discard, else the
    first call that is not pass (the page's own controls)."""
    v = view_of(page)
    if v["choose"]:
        for c in v["hand"][:v["choose"]["count"]]:
            page.click(f'#hand .cardbtn[data-card="{c["c"]}"]')
        page.click("#discard")
    elif page.locator(".cardbtn.legal").count():
        page.locator(".cardbtn.legal").first.click()
    else:
        calls = [b for b in v["buttons"] if b["action"] != "pass"] or v["buttons"]
        page.click(f'#buttons button[data-action="{calls[0]["action"]}"]')
    page.wait_for_function("v => view.version !== v", arg=v["version"])


def test_a_whole_hand_of_five_hundred_by_clicking(browser, server, tmp_path):
    """From the lobby: choose Five Hundred and the seats, deal, and play the hand to its score by
    clicking calls and raised cards; the sheet then has the hand's row."""
    base, tables = server
    ctx, page = page_of(browser)
    page.goto(base + "/")
    page.select_option("#variant", "fivehundred")
    page.select_option("#seats select >> nth=1", "random")
    page.select_option("#seats select >> nth=2", "random")
    shot(page, "lobby.png", tmp_path)
    page.click("#deal")
    page.wait_for_selector("#hand .cardbtn")
    shot(page, "bidding.png", tmp_path)
    (t,) = tables.tables.values()
    assert t.controllers == ["human", "random", "random"]
    shots = {"exchange": "exchange.png", "play": "play.png"}
    for _ in range(80):
        if t.state.hand.number > 0 or t.state.is_over:
            break
        role = t.state.kind.role if t.state.kind is not None else ""
        if role in shots:
            shot(page, shots.pop(role), tmp_path)
        click_something(page)
    assert t.state.hand.number > 0 or t.state.is_over
    row = t.state.sheet.rows[0]
    page.wait_for_selector("#previous div")
    text = page.inner_text("#previous")
    assert f"hand 1" in text and f"({row.totals[0]})" in text
    page.click("#show-sheet")
    assert str(row.totals[0]) in page.inner_text("#sheet")
    ctx.close()


def test_an_illegal_card_shows_the_engines_reason(browser, server, tmp_path):
    """A card the rules forbid is clickable but refused, the page showing the engine's reason."""
    base, tables = server
    t = tables.create(load_variant("fivehundred"), ["human", "random", "random"])
    ctx, page = page_of(browser)
    page.goto(f"{base}/t/{t.id}/{t.tokens[0]}")
    page.wait_for_selector("#hand .cardbtn")
    for _ in range(200):
        v = view_of(page)
        bad = [c for c in v["hand"] if not c["legal"]]
        if v["deciding"] and not v["buttons"] and not v["choose"] and bad and len(bad) < len(v["hand"]):
            st = t.state
            with pytest.raises(Exception) as why:
                st.check(st.parse_action("play " + bad[0]["c"]))
            page.click(f'#hand .cardbtn[data-card="{bad[0]["c"]}"]')
            page.wait_for_function("() => document.getElementById('refused').textContent !== ''")
            assert page.inner_text("#refused") == "refused: " + str(why.value)
            shot(page, "refused.png", tmp_path)
            ctx.close()
            return
        if t.state.is_over:
            break
        click_something(page)
    pytest.fail("no trick with a card that may not be played came up")


def test_two_players_at_one_table_never_see_each_others_cards(browser, server, tmp_path):
    """Two browser contexts, one seat each: neither page's DOM nor any response it receives ever
    holds a card the engine counts unseen for that seat; each plays its turns by clicking."""
    base, tables = server
    t = tables.create(load_variant("fivehundred"), ["human", "human", "random"])
    deck = t.state.variant.deck
    pages = {}
    bodies: dict = {0: [], 1: []}
    for seat in (0, 1):
        ctx, page = page_of(browser)
        page.on("response", lambda r, s=seat: bodies[s].append(r) if "/api/" in r.url else None)
        page.goto(f"{base}/t/{t.id}/{t.tokens[seat]}")
        page.wait_for_selector("#hand .cardbtn")
        pages[seat] = (ctx, page)
    for step in range(30):
        if t.state.hand.number > 0 or t.state.is_over:
            break
        for seat, (_ctx, page) in pages.items():
            unseen = {deck.name(c) for c in bits(t.state.observation(seat).unseen())}
            page.evaluate("() => load()")
            in_dom = set(page.eval_on_selector_all("[data-card]", "es => es.map(e => e.dataset.card)"))
            assert not in_dom & unseen, f"seat {seat}'s page shows {in_dom & unseen}"
            for r in bodies[seat]:
                body = r.text()
                assert t.tokens[1 - seat] not in body and t.host not in body
                data = json.loads(body)
                sent = {c.get("c") for c in _card_objects(data)}
                assert not sent & unseen, f"seat {seat} was sent {sent & unseen}"
            bodies[seat].clear()
        decider = t.decider()
        if step == 3 and decider in pages:
            shot(pages[decider][1], "two-players.png", tmp_path)
        if decider in pages:
            pages[decider][1].evaluate("() => load()")
            click_something(pages[decider][1])
    for ctx, _page in pages.values():
        ctx.close()


def _card_objects(data):
    if isinstance(data, dict):
        if "c" in data and "t" in data:
            yield data
        for v in data.values():
            yield from _card_objects(v)
    elif isinstance(data, list):
        for v in data:
            yield from _card_objects(v)


def test_a_reload_mid_hand_comes_back_to_the_same_place(browser, server, tmp_path):
    """After a few actions a reload shows the same hand, the same trick and the same turn."""
    base, tables = server
    t = tables.create(load_variant("fivehundred"), ["human", "random", "random"])
    ctx, page = page_of(browser)
    page.goto(f"{base}/t/{t.id}/{t.tokens[0]}")
    page.wait_for_selector("#hand .cardbtn")
    for _ in range(4):
        click_something(page)
    before = view_of(page)
    cards = page.eval_on_selector_all("#hand [data-card]", "es => es.map(e => e.dataset.card)")
    page.reload()
    page.wait_for_selector("#hand .cardbtn")
    assert view_of(page) == before
    assert page.eval_on_selector_all("#hand [data-card]", "es => es.map(e => e.dataset.card)") == cards
    ctx.close()


def _play_on(t, hands: int) -> None:
    """Play the table's match on (random legal actions for every seat) until hand ``hands``."""
    import random
    rng = random.Random(1)
    st = t.state
    with t.lock:
        while st.hand.number < hands and not st.is_over:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            t.version += 1


def test_bridge_shows_the_dummy_and_the_declarer_plays_it_by_clicking(browser, server, tmp_path):
    """Bridge: the human wins the auction, the dummy is laid face up after the opening lead, and
    when it is the dummy's turn its legal cards are raised in the dummy's row and played by a
    click (the declarer plays both hands)."""
    base, tables = server
    v = load_variant("bridge")
    seats = ["random"] * 4
    home = v.home_seat
    seats[home] = "human"
    t = tables.create(v, seats)
    ctx, page = page_of(browser)
    page.goto(f"{base}/t/{t.id}/{t.tokens[home]}")
    page.wait_for_selector("#hand .cardbtn")
    while t.state.kind is not None and t.state.kind.role == "auction":
        view = view_of(page)
        bids = [b for b in view["buttons"] if b["action"] not in ("pass", "X", "XX")]
        page.click(f'#buttons button[data-action="{(bids or view["buttons"])[-1]["action"]}"]')
        page.wait_for_function("v => view.version !== v", arg=view["version"])
    h = t.state.hand
    assert h.declarer in (home, t.state.partner_of(home)), "the human's side bid the most"
    played_dummy = False
    for _ in range(40):
        if t.state.hand is not h:
            break
        view = view_of(page)
        if view["others"]:
            dummy = view["others"][0]
            assert dummy["label"].startswith("dummy") and len(dummy["cards"]) == t.state.hand.hands[h.dummy].bit_count()
            if view["from_dummy"] and not played_dummy:
                shot(page, "bridge-dummy.png", tmp_path)
                raised = page.locator("#others .cardbtn.legal")
                assert raised.count() > 0 and page.locator("#hand .cardbtn.legal").count() == 0
                played_dummy = True
        click_something(page)
    assert played_dummy or h.declarer != home
    ctx.close()


def test_the_domino_round_of_king_by_clicking(browser, server, tmp_path):
    """King's jacks domino round: the rows are drawn as the kind shows them, the cards that fit
    are raised, a pass is a button when none fits; the round is played to its score by clicking."""
    base, tables = server
    v = load_variant("king")
    t = tables.create(v, ["human", "random", "random", "random"])
    domino = next(i for i, r in enumerate(v.data["rounds"]) if "domino" in r["name"])
    _play_on(t, domino)
    ctx, page = page_of(browser)
    page.goto(f"{base}/t/{t.id}/{t.tokens[0]}")
    page.wait_for_selector("#hand .cardbtn")
    with t.lock:
        t.run_bots()
        t.version += 1
    page.evaluate("() => load()")
    rows_seen = False
    for _ in range(60):
        if t.state.hand.number != domino or t.state.is_over:
            break
        view = view_of(page)
        st = t.state
        shown = [list(r) for r in shown_rows(st.hand, st.rules_of(st.hand.number), st.names)]
        assert shown and all(r in view["rows"] for r in shown)      # the kind's rows, as it shows them
        rows_seen |= any(text.count("J") and label.startswith("row") for label, text in shown)
        if rows_seen and not (tmp_path / "domino.png").exists():
            shot(page, "domino.png", tmp_path)
        click_something(page)
    assert t.state.hand.number > domino or t.state.is_over
    assert rows_seen
    assert [r.hand for r in t.state.sheet.rows].count(domino) == 1    # the round was scored
    ctx.close()


def test_the_scorepad_in_the_browser(browser, server, tmp_path):
    """The lobby opens a scorepad of the chosen variant; a hand is typed into its form (a
    refusal shown with the pad's reason), and the sheet drawn in the page has the hand."""
    base, _tables = server
    ctx, page = page_of(browser)
    page.goto(base + "/")
    page.select_option("#variant", "fivehundred")
    page.click("#pad")
    page.wait_for_selector("#prompt:has-text('contract')")
    for text, prompt in (("8H", "declarer"), ("P1", "tricks"), ("5 4 3", "tricks")):
        page.fill("#answer", text)
        page.click("#send")
        page.wait_for_selector(f"#prompt:has-text('{prompt}')")
    page.wait_for_selector("#refused:has-text('refused')")
    assert page.inner_text("#refused") == "refused: tricks add up to 12, but a hand has 10"
    shot(page, "scorepad.png", tmp_path)
    page.fill("#answer", "2 8 0")
    page.click("#send")
    page.wait_for_selector("#header:has-text('hand 2')")
    assert "300" in page.inner_text("#sheet")          # 8♥ made: 300 for P1
    ctx.close()
