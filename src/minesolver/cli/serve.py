"""``minesolver serve``: the web app (play, watch a strategy, analyse positions)."""

from __future__ import annotations

import socket

import click

from .base import cli, fail


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Interface to listen on (0.0.0.0 exposes the app to your network).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0 picks a free one).")
@click.option("--max-side", type=click.IntRange(1, 1000), default=200, show_default=True,
              help="Largest board width or height the app accepts.")
def serve_cmd(host: str, port: int, max_side: int) -> None:
    """Serve the web app until interrupted; prints the address it listens on."""
    try:
        import uvicorn

        from ..web import create_app
    except ModuleNotFoundError as exc:
        fail(f"the web app needs {exc.name}: pip install 'minesolver[web]'")

    app = create_app(max_side=max_side)
    # bind and listen first: the printed address is real (also for --port 0) and usable
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)  # connections wait in the backlog until uvicorn takes over
    except OSError as exc:
        sock.close()
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    click.echo(f"minesolver: serving on http://{shown}:{bound}/ (Ctrl-C to stop)")
    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio")
    uvicorn.Server(config).run(sockets=[sock])
