"""``rulekit serve``'s JSON API without a browser (starlette's TestClient): each seat receives only
its own observation (no hidden card, no seed, no other seat's token), refusals carry the engine's
reason, a table is saved after every action and resumed by a new server, and requests are bounded."""
from __future__ import annotations

import json
import random
import warnings

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install -e '.[web]'")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx: pip install -e '.[webtest]'")
warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.testclient import TestClient  # noqa: E402

from rulekit.cards import bits  # noqa: E402
from rulekit.variant import builtin_ids, load_variant  # noqa: E402
from rulekit.web.app import MAX_BODY, create_app  # noqa: E402

SEED = 1_234_567_891   # a seed long enough that its digits never turn up by chance


def _client(folder):
    return TestClient(create_app(folder))


def _table(client, players, vid="fivehundred", seed=SEED):
    tables = client.app.state.tables
    t = tables.create(load_variant(vid, players=len(players)), players, seed=seed)
    return t, {s: f"/api/t/{t.id}/{tok}" for s, tok in enumerate(t.tokens) if tok is not None}


def _cards_in(data) -> set:
    """Every card the JSON ``data`` holds (the ``c`` of each card object)."""
    found = set()
    if isinstance(data, dict):
        if isinstance(data.get("c"), str) and "t" in data:
            found.add(data["c"])
        for v in data.values():
            found |= _cards_in(v)
    elif isinstance(data, list):
        for v in data:
            found |= _cards_in(v)
    return found


def _hidden_from(state, seat) -> set:
    """The cards ``seat`` may not see now: every card it has not seen, by the engine's own account."""
    obs = state.observation(seat)
    deck = state.variant.deck
    return {deck.name(c) for c in bits(obs.unseen())}


def _step(client, url, rng) -> dict:
    """One action of the seat at ``url``, chosen at random among those its view offers."""
    v = client.get(url).json()
    if v["choose"]:
        pick = rng.sample([c["c"] for c in v["hand"]], v["choose"]["count"])
        action = "discard " + " ".join(pick)
    else:
        cards = v["hand"] + [c for o in v["others"] for c in o["cards"]]
        options = [a["action"] for c in cards for a in c.get("legal", [])] + [b["action"] for b in v["buttons"]]
        action = rng.choice(options)
    r = client.post(url + "/act", json={"action": action})
    assert r.status_code == 200
    assert "refused" not in r.json(), r.json()
    return r.json()


def test_a_seat_receives_no_hidden_card_no_seed_and_no_other_token(tmp_path):
    """Fair play: at every step of a hand, each human seat's response holds only cards it may see
    (none of those the engine counts unseen for it), never the seed, the host's secret or another
    seat's token."""
    client = _client(tmp_path)
    t, urls = _table(client, ["human", "human", "random"])
    secrets_ = [x for x in t.tokens if x] + [t.host]
    rng = random.Random(3)
    checked = 0
    for _ in range(60):
        if t.state.is_over or t.state.hand.number > 0:
            break
        for seat, url in urls.items():
            r = client.get(url)
            text = r.text
            assert str(SEED) not in text
            assert t.tokens[seat] not in text
            for other in secrets_:
                if other != t.tokens[seat]:
                    assert other not in text
            shown = _cards_in(r.json())
            assert not shown & _hidden_from(t.state, seat), f"seat {seat} was sent {shown & _hidden_from(t.state, seat)}"
            checked += 1
        decider = t.decider()
        _step(client, urls[decider], rng)
    assert checked > 20


def test_an_illegal_card_is_refused_with_the_engines_reason(tmp_path):
    """A card the rules forbid (not following suit) is refused with the engine's own reason, and
    the match does not move."""
    client = _client(tmp_path)
    t, urls = _table(client, ["human", "random", "random"])
    url = urls[0]
    rng = random.Random(5)
    for _ in range(400):
        v = client.get(url).json()
        legal = [c for c in v["hand"] if c["legal"]]
        illegal = [c for c in v["hand"] if not c["legal"]]
        if legal and illegal and not v["buttons"]:
            st = t.state
            before = st.actions_taken
            expected = None
            try:
                st.check(st.parse_action("play " + illegal[0]["c"]))
            except Exception as e:  # noqa: BLE001 - the engine's refusal, to compare with
                expected = str(e)
            assert expected, "the view marked a legal card as illegal"
            r = client.post(url + "/act", json={"action": "play " + illegal[0]["c"]}).json()
            assert r["refused"] == expected
            assert st.actions_taken == before
            return
        if v["over"]:
            break
        _step(client, url, rng)
    pytest.fail("no trick with a card that may not be played came up")


def test_not_your_turn_and_unknown_links_are_refused(tmp_path):
    """Another seat's turn is refused with who is to move; a mistyped table or token is a 404
    that says so; the record is refused while the match goes on (it holds the seed)."""
    client = _client(tmp_path)
    t, urls = _table(client, ["human", "human", "random"])
    waiting = next(s for s in urls if s != t.decider())
    r = client.post(urls[waiting] + "/act", json={"action": "pass"}).json()
    assert r["refused"].startswith("it is not your turn")
    assert client.get(f"/api/t/{t.id}/not-a-token").status_code == 404
    assert client.get(f"/api/t/nosuchtable/{t.tokens[0]}").status_code == 404
    r = client.get(urls[0] + "/record")
    assert r.status_code == 403 and "over" in r.json()["error"]


def test_each_action_is_saved_and_a_new_server_resumes_the_table(tmp_path):
    """The table file is rewritten after every action, sealed while the match is in progress (its
    text holds no seed and no card still in another hand, the key file beside it is its owner's
    only), and a server started on the same folder shows each seat the same view."""
    client = _client(tmp_path)
    t, urls = _table(client, ["human", "random", "random"])
    rng = random.Random(7)
    for _ in range(8):
        _step(client, urls[0], rng)
        text = (tmp_path / f"{t.id}.json").read_text(encoding="utf-8")
        saved = json.loads(text)
        assert saved["record"]["seed"] is None and "sealed" in saved["record"]   # a match in progress
        assert saved["record"]["actions"] == [[s, a] for s, a in t.state.history][:len(saved["record"]["actions"])]
        unseen = [c for s in (1, 2) for c in t.state.variant.deck.names_of(t.state.hand.hands[s])]
        assert unseen and not [c for c in unseen if f'"{c}"' in text or f"play {c}" in text]
        assert f'"seed": {t.state.seed}' not in text
        assert oct((tmp_path / f"{t.id}.json.key").stat().st_mode & 0o777) == "0o600"
    before = client.get(urls[0]).json()
    assert client.get(urls[0], params={"since": before["version"]}).json() == {"version": before["version"],
                                                                                "unchanged": True}
    again = _client(tmp_path)
    after = again.get(urls[0]).json()
    assert after == before
    _step(again, urls[0], rng)


def test_the_record_is_given_at_the_end(tmp_path):
    """Once the match is over the record downloads, and it replays to the same sheet."""
    from rulekit import records
    client = _client(tmp_path)
    t, urls = _table(client, ["human", "random", "random", "random"], vid="king")
    rng = random.Random(11)
    for _ in range(2000):
        if t.state.is_over:
            break
        _step(client, urls[0], rng)
    assert t.state.is_over
    v = client.get(urls[0]).json()
    assert v["over"] and v["winner"]
    rec = client.get(urls[0] + "/record").json()
    assert records.replay(rec).sheet.totals() == t.state.sheet.totals()


def test_an_uploaded_file_is_checked_with_file_line_column(tmp_path):
    """An uploaded variant with a mistake is answered with its problems at file:line:column; a
    valid one (extending an installed variant) makes a table that a new server resumes; ``extends:``
    of a path is refused."""
    client = _client(tmp_path)
    bad = "extends: fivehundred\nname: House\nmatch:\n  target: lots\n"
    r = client.post("/api/check", json={"text": bad}).json()
    assert not r["ok"]
    assert any(p.startswith("upload.yaml:4:11:") for p in r["problems"]), r["problems"]
    good = "extends: fivehundred\nname: House rules\n"
    r = client.post("/api/check", json={"text": good}).json()
    assert r == {"ok": True, "name": "House rules", "players": [3], "problems": []}
    made = client.post("/api/tables", json={"text": good, "players": ["human", "bot", "random"]}).json()
    assert len(made["seats"]) == 1
    view = client.get("/api" + made["seats"][0]["url"]).json()
    assert view["variant"]["name"] == "House rules"
    again = _client(tmp_path)          # the table's record carries the file: a new server resumes it
    assert again.get("/api" + made["seats"][0]["url"]).json() == view
    outside = f"extends: {tmp_path / 'x.yaml'}\nname: X\n"
    (tmp_path / "x.yaml").write_text("id: x\n", encoding="utf-8")
    r = client.post("/api/check", json={"text": outside}).json()
    assert not r["ok"] and r["problems"][0].startswith("upload.yaml:1:10: extends: base variant")   # never read


def test_requests_are_bounded(tmp_path):
    """A body past the limit is refused (413) before it is read whole; a table of a wrong seat
    count, no human or an unknown player is refused with the reason (a bot file too: the web table
    runs no file a visitor names); tables past the bound are refused."""
    client = _client(tmp_path)
    r = client.post("/api/check", content=b"{" + b" " * (MAX_BODY + 10) + b"}",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/tables", json={"variant": "fivehundred", "players": ["human", "bot"]}).json()
    assert "3 players" in r["error"]
    r = client.post("/api/tables", json={"variant": "fivehundred", "players": ["human", "bot", "wizard"]}).json()
    assert "wizard" in r["error"]
    r = client.post("/api/tables", json={"variant": "fivehundred", "players": ["human", "bot", "bot:/tmp/x.py"]}).json()
    assert r["error"] == ("'bot:/tmp/x.py': a bot file plays only at the terminal (rulekit play --players "
                          "bot:PATH); expected human, bot, random")
    r = client.post("/api/tables", json={"variant": "fivehundred", "players": ["bot"] * 3}).json()
    assert r["error"] == "a table needs at least one human seat"
    small = TestClient(create_app(tmp_path / "small", max_tables=1))
    seats = ["human", "bot", "bot", "bot"]
    assert small.post("/api/tables", json={"variant": "king", "players": seats}).status_code == 200
    r = small.post("/api/tables", json={"variant": "king", "players": seats})
    assert r.status_code == 409 and "1 tables" in r.json()["error"]


def test_the_scorepad_asks_refuses_undoes_saves_and_exports(tmp_path):
    """The scorepad page's API: ``rulekit score``'s questions one by one, the same refusal
    (tricks that do not add up to the hand, rules/fivehundred.md), a made 7♠ written as 140 for the
    declarer and 10 a trick for each defender, undo of an answer and of a hand, the pad resumed by a new server, the sheet exported."""
    client = _client(tmp_path)
    url = "/api" + client.post("/api/pads", json={"variant": "fivehundred"}).json()["url"]
    d = client.get(url).json()
    assert d["question"]["name"] == "contract" and d["header"] == "hand 1, P0 deals"
    for text in ("7S", "P0"):
        d = client.post(url + "/answer", json={"text": text}).json()
        assert "refused" not in d
    d = client.post(url + "/answer", json={"text": "5 4 3"}).json()
    assert d["refused"] == "tricks add up to 12, but a hand has 10"
    d = client.post(url + "/undo").json()
    assert d["said"] == "undone: the last answer" and d["question"]["name"] == "declarer"
    client.post(url + "/answer", json={"text": "P0"})
    d = client.post(url + "/answer", json={"text": "7 2 1"}).json()
    assert d["hands"] == 1 and d["header"] == "hand 2, P1 deals" and d["answers"] == []
    pad = client.app.state.pads.pads[url.split("/")[3]].pad
    assert pad.sheet.totals() == [140, 20, 10]      # the defenders score 10 a trick
    again = _client(tmp_path)                     # a new server: the pad and its hand are back
    assert again.get(url).json()["sheet"] == d["sheet"]
    assert "140" in again.get(url + "/sheet.csv").text
    d = again.post(url + "/undo").json()
    assert d["said"] == "undone: the last hand" and d["hands"] == 0
    assert again.get(url.rsplit("/", 1)[0] + "/wrong-token").status_code == 404


@pytest.mark.parametrize("vid", builtin_ids())
def test_every_installed_variant_plays_a_hand_through_the_page_api(tmp_path, vid):
    """Every installed variant: a hand played through the seat's view alone (each decision one
    of the cards raised, the buttons or a choice of the asked number of cards) is never refused,
    the view always offers a decision when the seat is to act, and never holds a card the seat
    has not seen."""
    client = _client(tmp_path)
    v = load_variant(vid)
    t, urls = _table(client, ["human"] + ["random"] * (v.players - 1), vid=vid)
    rng = random.Random(1)
    for _ in range(400):
        if t.state.hand.number > 0 or t.state.is_over:
            break
        d = client.get(urls[0]).json()
        assert d["deciding"]
        assert not _cards_in(d) & _hidden_from(t.state, 0)
        _step(client, urls[0], rng)
    assert t.state.hand.number > 0 or t.state.is_over


def test_the_host_page_lists_the_seats_links_and_the_rules_page_explains(tmp_path):
    """A table of two humans: the creator's answer and the host's page give a link per human
    seat (bots have none); a wrong host secret is a 404; the rules are ``rulekit explain``'s."""
    from rulekit.variant.explain import explain
    client = _client(tmp_path)
    made = client.post("/api/tables", json={"variant": "fivehundred", "players": ["human", "random", "human"]}).json()
    assert [s["seat"] for s in made["seats"]] == [0, 2]
    host = client.get("/api" + made["host"]).json()
    assert [s["url"] for s in host["seats"]] == [made["seats"][0]["url"], None, made["seats"][1]["url"]]
    assert client.get("/api" + made["host"].rsplit("/", 1)[0] + "/wrong").status_code == 404
    rules = client.get("/api" + made["seats"][0]["url"] + "/rules").json()["text"]
    assert rules == explain(load_variant("fivehundred"))


def test_every_page_has_the_one_head_with_its_title(tmp_path):
    """The lobby, a table, the host's links and a scorepad share one head: the charset, the
    viewport of a phone, no referrer (a link is a seat's key), the style sheet; each its own title."""
    client = _client(tmp_path)
    pages = {"/": "new table", "/t/x/y": "table", "/host/x/y": "the seats' links", "/pad/x/y": "scorepad"}
    heads = {}
    for url, title in pages.items():
        html = client.get(url).text
        head, body = html.split("</head>\n", 1)
        assert f"<title>rulekit — {title}</title>" in head and body.startswith("<body>") and html.endswith("</html>\n")
        heads[url] = head.replace(title, "")
    assert len(set(heads.values())) == 1
    assert '<meta name="referrer" content="no-referrer">' in heads["/"]
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in heads["/"]


def test_a_call_button_says_what_the_bid_is_worth_as_the_prompt_does():
    """A bid's button carries the prompt's words: Bridge's 1♣ is worth at least 20 (honours may add
    [S7]), Five Hundred's 7♣ exactly 160."""
    from rulekit.engine import State
    from rulekit.variant import load_variant
    from rulekit.web.view import seat_view
    for vid, call, worth in (("bridge", "1C", "at least 20"), ("fivehundred", "7C", "160")):
        s = State(load_variant(vid), seed=3)
        buttons = {b["action"]: b["worth"] for b in seat_view(s, s.to_move, ["human"] * s.variant.players)["buttons"]}
        assert buttons[call] == worth
