"""``rulekit serve``: play any variant in a web browser, alone against bots or several people at
one table, each on his own device (the ``web`` extra: Starlette and uvicorn).

* :mod:`rulekit.web.view`: a seat's view as JSON, from its observation only.
* :mod:`rulekit.web.tables`: the tables, their seat tokens, bots, and files saved after every action.
* :mod:`rulekit.web.pads`: the scorepads of games played with real cards (``rulekit score`` in the page).
* :mod:`rulekit.web.app`: the ASGI app (pages and the JSON API).

This package is at the top of the layers with the CLI (``rulekit.LAYERS``): the core never
imports it, and ``cli/app.py`` imports it only when ``rulekit serve`` runs.
"""
