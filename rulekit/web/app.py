"""The ASGI app of ``rulekit serve`` (Starlette; the ``web`` extra).

Pages (plain HTML, JS and CSS from ``rulekit/web/static/``, no build step):

* ``/``: the lobby: an installed variant or an uploaded file (checked, its problems shown at
  file:line:column), the seats (human, sensible bot, random), deal.
* ``/t/{table}/{token}``: a seat's table; ``/host/{table}/{host}``: the links of the seats.

The JSON API: ``GET /api/variants``; ``POST /api/check`` (a variant file's text: its problems);
``POST /api/tables`` (a new table: the host's link and, for one human, his seat's link);
``GET /api/t/{table}/{token}`` (the seat's view, :func:`rulekit.web.view.seat_view`);
``POST /api/t/{table}/{token}/act`` (an action; a refusal is answered with the engine's reason);
``GET /api/t/{table}/{token}/record`` (the record, once the match is over);
``GET /api/t/{table}/{token}/rules`` (``rulekit explain`` of the table's variant);
``GET /api/host/{table}/{host}`` (the seats' links).

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
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rulekit.errors import RulekitError, VariantError
from rulekit.variant import builtin_ids, check, compile_variant, load_variant
from rulekit.variant.loader import MAX_FILE_SIZE, resolve_text
from rulekit.web.tables import CONTROLLERS, Table, TableError, Tables
from rulekit.web.view import seat_view

#: the largest request body accepted (an uploaded variant file and its JSON wrapping)
MAX_BODY = MAX_FILE_SIZE + 4096
#: the name uploaded files go by in messages
UPLOAD_NAME = "upload.yaml"


class BodyTooLarge(Exception):
    """A request body past :data:`MAX_BODY`."""


def _static() -> Path:
    return Path(str(resources.files("rulekit.web") / "static"))


def _page(name: str) -> HTMLResponse:
    return HTMLResponse((_static() / name).read_text(encoding="utf-8"),
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


def _players_of(v) -> list:
    """The player counts a variant offers."""
    p = v.data.get("players")
    if isinstance(p, dict) and isinstance(p.get("choices"), list):
        return sorted(x for x in p["choices"] if isinstance(x, int))
    return [v.players]


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

    async def variants(request: Request) -> Response:
        out = []
        for vid in builtin_ids():
            try:
                v = load_variant(vid)
            except RulekitError:
                continue
            out.append({"id": vid, "name": v.name, "players": _players_of(v)})
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
        return _json({"ok": True, "name": v.name, "players": _players_of(v), "problems": []})

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
            from rulekit import records
            data = records.to_record(t.state, t.controllers)
        return Response(json.dumps(data, indent=1, ensure_ascii=False), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="rulekit-{t.state.variant.id}.json"'})

    def rules(request: Request) -> Response:
        try:
            t, _s = seat(request)
        except TableError as e:
            return _error(str(e), 404)
        from rulekit.variant.explain import explain
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

    routes = [
        Route("/", lobby), Route("/t/{table}/{token}", table_page), Route("/host/{table}/{host}", host_page),
        Route("/api/variants", variants), Route("/api/check", check_upload, methods=["POST"]),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/t/{table}/{token}", view), Route("/api/t/{table}/{token}/act", act, methods=["POST"]),
        Route("/api/t/{table}/{token}/record", record), Route("/api/t/{table}/{token}/rules", rules),
        Route("/api/host/{table}/{host}", host),
        Mount("/static", StaticFiles(directory=str(_static())), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.tables = tables
    return app


async def _in_thread(fn):
    """Run ``fn`` in a worker thread (the bots think there, not in the event loop)."""
    from starlette.concurrency import run_in_threadpool
    return await run_in_threadpool(fn)
