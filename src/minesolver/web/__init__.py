"""The web app: play, watch a strategy play, analyse positions, play Flags against an AI.

:class:`~.app.WebState` is the core object: it owns the games and builds the ASGI
app; handlers live in :mod:`.views`, the page in ``static/``.  The JSON API is
documented in ``docs/web.md``.

>>> create_app(max_side=50).state.web.max_side
50
"""

from .app import WebState, create_app

__all__ = ["WebState", "create_app"]
