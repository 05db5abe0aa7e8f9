"""`pbem report` and `pbem archive`, and the reports written whenever a file is played or received.

Registered in pbem/cli/app.py. Reports go to GAME/report/ (beside the game
files; the protocol reads only NNNNNN.pbem, so they never disturb a game),
written without following a link planted there (pbem.game.folder.write_beside);
`--out` is the user's own path.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, Optional

import typer

from pbem.signed import identity as ids
from pbem.game import referee
from pbem.game import session
from pbem.game import store
from pbem.game import writing
from pbem.errors import PbemError, UsageError

# pbem.reports.report and pbem.reports.archive (jinja2, the report views) cost about 40 ms of imports: each
# function that writes or reads a report imports them, so every other command goes without.
if TYPE_CHECKING:
    from pbem.reports import report

REPORT_FOLDER = "report"


def report_command(
    folder: Annotated[Path, typer.Argument(help="The game folder.")],
    file: Annotated[Optional[int], typer.Option("--file", help="Report the outcome of this file.")] = None,
    turn: Annotated[Optional[int], typer.Option("--turn", help="Report this whole turn (0: set-up).")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", help="Where to write the HTML (default: GAME/report/...).")] = None,
    ranges: Annotated[bool, typer.Option("--ranges", help="Draw every commander's command range.")] = False,
    reach: Annotated[list[str], typer.Option("--reach", help="Draw where this unit can end a move now; repeatable.")] = [],
    key: Annotated[Optional[str], typer.Option("--key", envvar="PBEM_KEY", help="Your key, for your private preview of the last file.")] = None,
    keys: Annotated[Optional[Path], typer.Option("--keys", help="Key folder.", show_default=False)] = None,
    preview: Annotated[bool, typer.Option("--preview", help="Report the last file's outcome with your own next reveal (your turn only).")] = False,
) -> None:
    """Write an HTML turn report: the map, what happened with every die explained, the record sheets."""
    from pbem.reports import report

    if file is not None and turn is not None:
        raise UsageError("give --file or --turn, not both")
    game = store.load(folder)
    if preview:
        span = _preview(game, ids.key_folder(keys), key)
        if span is None:
            raise UsageError("no preview: it is not your turn, or none of your keys plays this game")
    elif file is not None:
        span = report.file_span(game, file)
    elif turn is not None:
        span = report.turn_span(game, turn)
    else:
        span = report.latest_span(game)
    options: dict[str, Any] = {"ranges": ranges, "reach": list(reach)}
    try:
        html = report.render(game, span, options)
    except KeyError as exc:  # a --reach unit the battle does not have
        raise UsageError(str(exc.args[0]) if exc.args else str(exc)) from None
    except game.ruleset.illegal_errors as exc:
        raise UsageError(f"--reach: {exc}") from None
    if out is not None:
        path = report.write(out, html)
    else:
        name = f"turn-{turn:02d}.html" if turn is not None else report.report_name(span)
        path = report.write_beside(folder, REPORT_FOLDER, name, html)
    typer.echo(f"wrote {path} ({span.title}): open it in any browser")


def archive_command(
    folder: Annotated[Optional[Path], typer.Argument(help="The game folder.")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", help="The archive's file name, e.g. game.html.")] = None,
    index: Annotated[Optional[Path], typer.Option("--index", help="Write FOLDER/index.html listing the archives in it.")] = None,
) -> None:
    """Write the whole game as one HTML file with its signed files inside (check it: pbem verify FILE.html)."""
    from pbem.reports import archive as archives

    if index is not None:
        if folder is not None or out is not None:
            raise UsageError("--index FOLDER takes no game folder and no --out")
        path = archives.index(index)
        typer.echo(f"wrote {path}")
        return
    if folder is None or out is None:
        raise UsageError("write: pbem archive GAME --out FILE.html (or pbem archive --index FOLDER)")
    game = store.load(folder)
    archives.write(game, out)
    typer.echo(f"wrote {out}: {len(game.files)} files; check it with: pbem verify {out}")


def is_archive(path: Path) -> bool:
    """Whether the file is an archive made by `pbem archive` (pbem verify FILE.html)."""
    from pbem.reports import archive as archives

    return archives.is_archive(path)


def verify_archive(path: Path, say: Callable[[str], None]) -> None:
    """`pbem verify FILE.html`: the game from the archive alone, then its pages."""
    from pbem.reports import archive as archives

    game, pages = archives.verify(path)
    host, guest = game.setup.host, game.guest
    players = f"{host.name} ({host.side}) v {guest.name} ({guest.side})" if guest else f"{host.name} ({host.side})"
    state = f"finished: {game.result()}" if game.finished() else "in progress"
    say(f"ok: archive of game {game.game_id} ({game.ruleset.name} {game.setup.scenario_name}), "
        f"{len(game.files)} files verified; {players}; {state}; {pages}")


def _preview(game: referee.Game, keys: Path, key: str | None) -> report.Span | None:
    """The last file's outcome as its next author sees it, if one of these keys is that author."""
    from pbem.reports import report

    if game.finished() or game.next_seq < 3:
        return None
    try:
        me = session.choose_key(game, keys, key, role=game.next_author)
        if writing.my_role(game, me) != game.next_author:
            return None
        view = writing.outlook(game, me)
    except PbemError:
        return None
    return report.latest_span(game, (game.next_seq - 1, view.resolution, view.reveal))


def write_reports(folder: Path, keys: Path | None, key: str | None, say: Callable[[str], None],
                  game: referee.Game | None = None, known: referee.Game | None = None) -> None:
    """After a file was played or received: the latest outcome everyone can see, and your preview on your turn.

    `game`: the folder's game as the caller loaded it after the last file was added (else it is loaded,
    extending `known`, the game as loaded before, if the caller has one: store.load).
    A report that cannot be written is a warning: the game files are already safe.
    """
    from pbem.reports import report

    try:
        game = game if game is not None else store.load(folder, known=known)
        written = []
        if len(game.files) >= 3:  # the latest outcome, file n-2's (resolved by file n-1). Not by asking
            span = report.file_span(game, len(game.files) - 2)  # game.resolutions for its keys: that replays
            written.append(report.write_beside(folder, REPORT_FOLDER, report.report_name(span), report.render(game, span)))
        span = _preview(game, ids.key_folder(keys), key)
        if span is not None:
            written.append(report.write_beside(folder, REPORT_FOLDER, report.report_name(span), report.render(game, span)))
        for path in written:
            say(f"report: {path}")
    except (PbemError, OSError) as exc:
        print(f"pbem: warning: no turn report written: {exc}", file=sys.stderr)


def register(app: typer.Typer) -> None:
    app.command("report")(report_command)
    app.command("archive")(archive_command)


def write_arrived(folder: Path, seqs: list[int], keys: Path, key: str | None, say: Callable[[str], None],
                  game: referee.Game | None = None) -> None:
    """After `pbem mail` added or answered files: the report of what each of them resolved, and your preview.

    File n resolves file n-1 (its dice come from file n's reveal), so each
    arrival gets file-(n-1).html; a report that cannot be written is a
    warning, as in write_reports. `game`: the folder's game as the caller has it, if it has.
    """
    from pbem.reports import report

    try:
        game = game if game is not None else store.load(folder)
        for seq in sorted(set(seqs)):
            if seq - 1 not in game.resolutions:
                continue
            span = report.file_span(game, seq - 1)
            say(f"report: {report.write_beside(folder, REPORT_FOLDER, report.report_name(span), report.render(game, span))}")
        preview = _preview(game, keys, key)
        if preview is not None:
            say(f"report: {report.write_beside(folder, REPORT_FOLDER, report.report_name(preview), report.render(game, preview))}")
    except (PbemError, OSError) as exc:
        print(f"pbem: warning: no turn report written: {exc}", file=sys.stderr)
