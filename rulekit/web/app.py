"""The ASGI app of ``rulekit serve`` (Starlette; the ``web`` extra).

Pages (plain HTML, JS and CSS from ``rulekit/web/static/``, no build step):

* ``/``: the lobby: an installed variant or an uploaded file (checked, its problems shown at
  file:line:column), the seats (human, sensible bot, random), deal.
* ``/t/{table}/{token}``: a seat's table; ``/host/{table}/{host}``: the links of the seats.
* ``/pad/{pad}/{token}``: a scorepad (``rulekit score`` in the page, :mod:`rulekit.web.pads`).

The JSON API: ``GET /api/variants``; ``POST /api/check`` (a variant file's text: its problems);
``POST /api/tables`` (a new table: the host's link and, for one human, his seat's link);
``GET /api/t/{table}/{token}`` (the seat's view, :func:`rulekit.web.view.seat_view`; with
``?since=VERSION``, only ``{"version", "unchanged"}`` while no action was taken since);
``POST /api/t/{table}/{token}/act`` (an action; a refusal is answered with the engine's reason);
``GET /api/t/{table}/{token}/record`` (the record, once the match is over);
``GET /api/t/{table}/{token}/rules`` (``rulekit explain`` of the table's variant);
``GET /api/host/{table}/{host}`` (the seats' links); the scorepad: ``POST /api/pads`` (a new pad
of an installed variant), ``GET /api/pad/{pad}/{token}`` (its question, the answers of the hand,
the sheet), ``POST .../answer``, ``.../undo``, ``.../stop``, ``GET .../sheet.csv|json|txt``.

Safety: a seat is known only by its token (compared in constant time), and receives only its
own view; a request body is refused past :data:`MAX_BODY` bytes; uploaded files are read with
the loader's limits and their ``extends:`` may name installed variants only (never a path).
"""
from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rulekit import records
from rulekit.cli.score import pad_header
from rulekit.errors import RulekitError, VariantError
from rulekit.variant import builtin_ids, check, compile_variant, load_variant
from rulekit.variant.explain import explain
from rulekit.variant.loader import MAX_FILE_SIZE, resolve_text
from rulekit.sheets.render import renderable
from rulekit.web.pads import Pad, Pads
from rulekit.web.tables import CONTROLLERS, Table, TableError, Tables
from rulekit.web.view import plain_text, seat_view

#: the largest request body accepted (an uploaded variant file and its JSON wrapping)
MAX_BODY = MAX_FILE_SIZE + 4096
#: the name uploaded files go by in messages
UPLOAD_NAME = "upload.yaml"


class BodyTooLarge(Exception):
    """A request body past :data:`MAX_BODY`."""


def _static() -> Path:
    return Path(str(resources.files("rulekit.web") / "static"))


#: each page's title (after "rulekit — "), by its body's file in static/
PAGES = {"index.html": "new table", "table.html": "table", "host.html": "the seats' links", "pad.html": "scorepad"}


def _page(name: str) -> HTMLResponse:
    """The page ``name``: the one head of every page (static/head.html, with the page's title of
    :data:`PAGES`), then its body (static/``name``)."""
    head = (_static() / "head.html").read_text(encoding="utf-8").replace("TITLE", PAGES[name])
    body = (_static() / name).read_text(encoding="utf-8").split("\n", 1)[1]    # past its comment line
    return HTMLResponse(head + body,
                        headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
                                 "X-Content-Type-Options": "nosniff"})


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={"Cache-Control": "no-store"})


def _error(message: str, status: int = 400, **extra) -> JSONResponse:
    return _json({"error": message, **extra}, status)


async def _body(request: Request) -> dict:
    """The JSON object of the request body, at most :data:`MAX_BODY` bytes.

    :raises BodyTooLarge: the body is longer.  :raises ValueError: it is no JSON object.
    """
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
        raise BodyTooLarge()
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise BodyTooLarge()
    out = json.loads(data.decode("utf-8") or "{}")
    if not isinstance(out, dict):
        raise ValueError("expected a JSON object")
    return out


def _uploaded(text: str, players: int | None):
    """``(variant or None, problems)`` of an uploaded file's text."""
    if len(text.encode("utf-8")) > MAX_FILE_SIZE:
        return None, [f"{UPLOAD_NAME}:1:1: the file is larger than {MAX_FILE_SIZE} bytes"]
    r = resolve_text(UPLOAD_NAME, text, embedded=True)
    problems = [str(d) for d in check(r, players)]
    if problems:
        return None, problems
    try:
        return compile_variant(r, {"players": players} if players is not None else {}), []
    except VariantError as e:
        return None, [str(d) for d in e.diagnostics]


def create_app(folder: Path, max_tables: int = 100) -> Starlette:
    """The app, its tables kept in ``folder`` (those already there are loaded).

    :param max_tables: the most tables at once.
    """
    tables = Tables(folder, max_tables)
    tables.load()
    pads = Pads(Path(folder) / "pads", max_tables)
    pads.load()

    def seat(request: Request) -> tuple[Table, int]:
        t = tables.get(request.path_params["table"])
        s = t.seat_of(request.path_params["token"])
        if s is None:
            raise TableError("no such seat (the link may be mistyped)")
        return t, s

    async def lobby(request: Request) -> Response:
        return _page("index.html")

    async def table_page(request: Request) -> Response:
        return _page("table.html")

    async def host_page(request: Request) -> Response:
        return _page("host.html")

    async def pad_page(request: Request) -> Response:
        return _page("pad.html")

    async def variants(request: Request) -> Response:
        out = []
        for vid in builtin_ids():
            try:
                v = load_variant(vid)
            except RulekitError:
                continue
            out.append({"id": vid, "name": v.name, "players": v.player_choices})
        return _json(out)

    async def check_upload(request: Request) -> Response:
        try:
            body = await _body(request)
        except BodyTooLarge:
            return _error(f"the file is larger than {MAX_FILE_SIZE} bytes", 413)
        except ValueError as e:
            return _error(f"unreadable request: {e}")
        text = body.get("text")
        if not isinstance(text, str):
            return _error("expected the file's text")
        v, problems = _uploaded(text, None)
        if v is None:
            return _json({"ok": False, "problems": problems})
        return _json({"ok": True, "name": v.name, "players": v.player_choices, "problems": []})

    def new_table(body: dict) -> Response:
        players = body.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players) or not players:
            return _error(f"expected the seats' players ({', '.join(CONTROLLERS)})")
        if len(players) > 16:
            return _error("too many seats")
        text, vid = body.get("text"), body.get("variant")
        if isinstance(text, str) and text.strip():
            v, problems = _uploaded(text, len(players))
            if v is None:
                return _json({"error": "the variant file has problems", "problems": problems}, 400)
        elif isinstance(vid, str) and vid in builtin_ids():
            try:
                v = load_variant(vid, players=len(players))
            except RulekitError as e:
                return _error(str(e).splitlines()[0] if str(e) else "the variant does not load")
        else:
            return _error("choose an installed variant or upload a file")
        try:
            t = tables.create(v, players)
        except RulekitError as e:
            return _error(str(e), 409 if "tables already" in str(e) else 400)
        links = [{"seat": s, "name": t.state.names[s], "url": f"/t/{t.id}/{tok}"}
                 for s, tok in enumerate(t.tokens) if tok is not None]
        return _json({"table": t.id, "host": f"/host/{t.id}/{t.host}", "seats": links})

    async def create(request: Request) -> Response:
        try:
            body = await _body(request)
        except BodyTooLarge:
            return _error(f"the request is larger than {MAX_BODY} bytes", 413)
        except ValueError as e:
            return _error(f"unreadable request: {e}")
        return await _in_thread(lambda: new_table(body))

    def view(request: Request) -> Response:
        try:
            t, s = seat(request)
        except TableError as e:
            return _error(str(e), 404)
        since = request.query_params.get("since", "")
        if since.isdigit() and int(since) == t.version:   # a poll with nothing new: no view built
            return _json({"version": t.version, "unchanged": True})
        with t.lock:
            out = seat_view(t.state, s, t.controllers)
            out["version"] = t.version
            out["table"] = t.id
        return _json(out)

    async def act(request: Request) -> Response:
        try:
            t, s = seat(request)
        except TableError as e:
            return _error(str(e), 404)
        try:
            body = await _body(request)
        except (BodyTooLarge, ValueError):
            return _error("unreadable request")
        text = body.get("action")
        if not isinstance(text, str) or not text.strip() or len(text) > 400:
            return _error("expected an action")
        return await _in_thread(lambda: _act(t, s, text))

    def _act(t: Table, s: int, text: str) -> Response:
        refused = None
        try:
            tables.act(t, s, text)
        except RulekitError as e:
            refused = str(e)
        except OSError as e:
            refused = f"the table could not be saved: {e.strerror or e}"
        with t.lock:
            out = seat_view(t.state, s, t.controllers)
            out["version"] = t.version
            out["table"] = t.id
        if refused is not None:
            out["refused"] = refused
        return _json(out)

    def record(request: Request) -> Response:
        try:
            t, _s = seat(request)
        except TableError as e:
            return _error(str(e), 404)
        with t.lock:
            if not t.state.is_over:   # the record holds the seed: every hidden card
                return _error("the record is given once the match is over (it holds every card)", 403)
            data = records.to_record(t.state, t.controllers)
        return Response(json.dumps(data, indent=1, ensure_ascii=False), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="rulekit-{t.state.variant.id}.json"'})

    def rules(request: Request) -> Response:
        try:
            t, _s = seat(request)
        except TableError as e:
            return _error(str(e), 404)
        return _json({"text": explain(t.state.match_variant)})

    def host(request: Request) -> Response:
        try:
            t = tables.get(request.path_params["table"])
        except TableError as e:
            return _error(str(e), 404)
        if not t.is_host(request.path_params["host"]):
            return _error("no such table (the link may be mistyped)", 404)
        return _json({"table": t.id, "variant": t.state.variant.name,
                      "seats": [{"seat": s, "name": t.state.names[s], "controller": c,
                                 "url": f"/t/{t.id}/{t.tokens[s]}" if t.tokens[s] else None}
                                for s, c in enumerate(t.controllers)]})

    def pad_of(request: Request) -> Pad:
        return pads.get(request.path_params["pad"], request.path_params["token"])

    def pad_view(p: Pad, refused: str | None = None, said: str | None = None) -> Response:
        pad = p.pad
        q = None if pad.is_over else pad.next_question(p.facts)
        out: dict = {"variant": {"id": pad.variant.id, "name": pad.variant.name}, "hands": len(pad.hands),
                     "header": None if pad.is_over else pad_header(pad),
                     "question": None if q is None else {"name": q.name, "prompt": q.prompt, "help": q.help},
                     "answers": [[prompt, text] for prompt, text, _f in p.answered],
                     "sheet": plain_text(renderable(pad.sheet, pad.variant, we=None,
                                                    title=f"{pad.variant.name} — score sheet")),
                     "over": pad.is_over, "winner": None}
        if pad.is_over:
            names = " and ".join(pad.columns[c] for c in pad.winners)
            out["winner"] = (f"A tie: {names}" if len(pad.winners) > 1 else f"{names} wins") + f" ({pad.end_reason})."
        if refused is not None:
            out["refused"] = refused
        if said is not None:
            out["said"] = said
        return _json(out)

    async def pad_create(request: Request) -> Response:
        try:
            body = await _body(request)
        except (BodyTooLarge, ValueError):
            return _error("unreadable request")
        vid, players, dealer = body.get("variant"), body.get("players"), body.get("dealer")
        if not isinstance(vid, str) or vid not in builtin_ids():
            return _error("choose an installed variant")
        if players is not None and not isinstance(players, int):
            return _error("expected a number of players")
        try:
            p = pads.create(load_variant(vid, players=players), dealer if isinstance(dealer, str) else None)
        except RulekitError as e:
            return _error(str(e).splitlines()[0])
        return _json({"url": f"/pad/{p.id}/{p.token}"})

    def pad_get(request: Request) -> Response:
        try:
            p = pad_of(request)
        except RulekitError as e:
            return _error(str(e), 404)
        with p.lock:
            return pad_view(p)

    async def pad_do(request: Request) -> Response:
        try:
            p = pad_of(request)
            body = await _body(request)
        except RulekitError as e:
            return _error(str(e), 404)
        except (BodyTooLarge, ValueError):
            return _error("unreadable request")
        what, text = request.path_params["what"], body.get("text", "")
        if not isinstance(text, str) or len(text) > 400:
            return _error("expected an answer")
        with p.lock:
            hands = len(p.pad.hands), p.pad.stopped
            refused = said = None
            try:
                if what == "answer":
                    p.answer(text)
                elif what == "undo":
                    said = "undone: " + p.undo()
                elif what == "stop":
                    p.stop()
                else:
                    return _error("no such request", 404)
            except RulekitError as e:
                refused = str(e)
            if (len(p.pad.hands), p.pad.stopped) != hands:
                try:
                    pads.save(p)
                except OSError as e:
                    refused = f"not saved: {e.strerror or e}; every hand is kept here, try again later"
            return pad_view(p, refused, said)

    def pad_export(request: Request) -> Response:
        try:
            p = pad_of(request)
        except RulekitError as e:
            return _error(str(e), 404)
        fmt = request.path_params["fmt"]
        make = {"csv": (p.pad.export_csv, "text/csv"), "json": (p.pad.export_json, "application/json"),
                "txt": (p.pad.export_text, "text/plain")}.get(fmt)
        if make is None:
            return _error("expected csv, json or txt", 404)
        with p.lock:
            text = make[0]()
        return Response(text, media_type=make[1] + "; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="{p.pad.variant.id}-sheet.{fmt}"'})

    routes = [
        Route("/", lobby), Route("/t/{table}/{token}", table_page), Route("/host/{table}/{host}", host_page),
        Route("/api/variants", variants), Route("/api/check", check_upload, methods=["POST"]),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/t/{table}/{token}", view), Route("/api/t/{table}/{token}/act", act, methods=["POST"]),
        Route("/api/t/{table}/{token}/record", record), Route("/api/t/{table}/{token}/rules", rules),
        Route("/api/host/{table}/{host}", host),
        Route("/pad/{pad}/{token}", pad_page), Route("/api/pads", pad_create, methods=["POST"]),
        Route("/api/pad/{pad}/{token}", pad_get), Route("/api/pad/{pad}/{token}/sheet.{fmt}", pad_export),
        Route("/api/pad/{pad}/{token}/{what}", pad_do, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(_static())), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.tables = tables
    app.state.pads = pads
    return app


async def _in_thread(fn):
    """Run ``fn`` in a worker thread (the bots think there, not in the event loop)."""
    return await run_in_threadpool(fn)
