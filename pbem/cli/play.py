"""`pbem play GAME`: the player's table as a local page (pbem.board, docs/play.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("play")
    def play(
        folder: Annotated[Path, typer.Argument(help="The game folder.")],
        no_browser: Annotated[bool, typer.Option("--no-browser", help="Print the address only; open no browser.")] = False,
        port: Annotated[int, typer.Option(help="Port on 127.0.0.1 (default: any free one).")] = 0,
        config: Annotated[Optional[Path], typer.Option("--config", help="Mail settings for sending (default: as pbem send).",
                                                       show_default=False)] = None,
        key: Annotated[Optional[str], typer.Option("--key", envvar="PBEM_KEY", help="Name of your key.")] = None,
        keys: Annotated[Optional[Path], typer.Option("--keys", help="Key folder (default: $PBEM_KEYS or ~/.config/pbem/keys).",
                                                     show_default=False)] = None,
    ) -> None:
        """Open your table in your browser: the board, your decision as clicks, checked by the rules, signed and sent."""
        from pbem.board import server, table
        from pbem.errors import UsageError

        if not 0 <= port <= 65535:
            raise UsageError(f"--port {port}: not a port (0-65535)")
        board = server.Board(table.open_table(folder, keys, key, config), port)
        board.start()
        typer.echo(f"your table for game {board.table.game.game_id}: {board.url}")
        typer.echo("(the address holds its key: open it only yourself; Ctrl-C ends it)", err=True)
        if not no_browser:
            import webbrowser  # the board alone opens a browser

            webbrowser.open(board.url)
        try:
            assert board.thread is not None
            board.thread.join()
        except KeyboardInterrupt:
            pass
        finally:
            board.stop()
