"""`pbem legal`, `pbem orders`, `pbem board`: what a player may do, a draft to edit, the pieces' places.

No game knowledge: each asks the ruleset's optional contract methods
(pbem/game/ruleset.py: `explain`, `board`, `draft`) and prints their text, or
their JSON with `--json` (shapes in docs/cli.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from pbem.signed import identity as ids
from pbem.game import referee
from pbem.game import session
from pbem.game import store
from pbem.signed import textsafe
from pbem.game import writing
from pbem.errors import PbemError, UsageError

FolderArg = Annotated[Path, typer.Argument(help="The game folder.")]
KeysOption = Annotated[
    Optional[Path],
    typer.Option("--keys", help="Key folder (default: $PBEM_KEYS or ~/.config/pbem/keys).", show_default=False),
]
KeyOption = Annotated[
    Optional[str],
    typer.Option("--key", envvar="PBEM_KEY", help="Name of your key (default: the one key here that plays this game)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON (docs/cli.md) instead of text.")]


def _needs(ruleset: Any, method: str) -> Any:
    found = getattr(ruleset, method, None)
    if found is None:
        raise UsageError(f"the {ruleset.name} ruleset offers no `{method}`")
    return found


def _state(game: referee.Game, keys: Path | None, key: str | None) -> tuple[Any, writing.Outlook | None]:
    """The latest state I may see: resolved with my reveal on my turn, else the last resolved one."""
    try:
        me = session.choose_key(game, ids.key_folder(keys), key, role=game.next_author)
        view = writing.outlook(game, me)
        return view.resolution.state, view
    except PbemError:
        if key:  # a key named on the command line must work
            raise
        return game.resolved_state, None


def _explain(game: referee.Game, state: Any, subject: str | None) -> tuple[Any, str]:
    try:
        return _needs(game.ruleset, "explain")(state, subject)
    except game.ruleset.illegal_errors as exc:
        message = str(exc)  # named once: the ruleset's message may name the subject itself
        raise UsageError(message if subject and subject in message else f"{subject}: {message}") from None


def legal(folder: FolderArg, unit: Annotated[Optional[str], typer.Argument(
              metavar="[UNIT]", help="A unit id the ruleset knows (e.g. G5-86): its ratings, markers, "
                                     "movement, end positions and targets.")] = None,
          as_json: JsonOption = False, key: KeyOption = None, keys: KeysOption = None) -> None:
    """List the orders you may give now; with UNIT, everything that unit may do."""
    game = store.load(folder)
    if unit is not None:
        state, _ = _state(game, keys, key)
        if state is None:
            raise UsageError("the game has not started yet (no state to look at)")
        data, text = _explain(game, state, unit)
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False) if as_json else textsafe.visible_lines(text))
        return
    me = session.choose_key(game, ids.key_folder(keys), key, role=game.next_author)
    view = writing.outlook(game, me)
    player = game.player(view.role)
    mine = player is not None and view.pending.side == player.side
    decisions = game.ruleset.legal(view.resolution.state) if mine else []
    notes_of = getattr(game.ruleset, "legal_notes", None)  # optional: e.g. which units can attack now
    notes = list(notes_of(view.resolution.state)) if mine and notes_of is not None else []
    if as_json:
        typer.echo(json.dumps({
            "pending": {"side": view.pending.side, "kind": view.pending.kind, "prompt": view.pending.prompt,
                        "yours": mine},
            "decisions": [{"order": game.ruleset.format_order(d), "decision": d} for d in decisions],
            "notes": notes,
        }, indent=2, ensure_ascii=False))
        return
    if not mine:
        typer.echo(f"nothing for you to decide now ({view.pending.prompt})")
        return
    typer.echo(view.pending.prompt)
    for decision in decisions:
        typer.echo("  " + textsafe.visible(game.ruleset.format_order(decision)))
    for line in notes:
        typer.echo(textsafe.visible(line))


def orders(folder: FolderArg, out: Annotated[Optional[Path], typer.Option(
               "--out", help="Write the draft to this file (default: print it).")] = None,
           key: KeyOption = None, keys: KeysOption = None) -> None:
    """Write the pending decision as an editable draft, the options as comments; send it with
    `pbem move GAME --orders DRAFT`."""
    game = store.load(folder)
    me = session.choose_key(game, ids.key_folder(keys), key, role=game.next_author)
    view = writing.outlook(game, me)
    player = game.player(view.role)
    if player is None or view.pending.side != player.side:
        raise UsageError(f"nothing for you to decide now ({view.pending.prompt}); no draft to write")
    text = _needs(game.ruleset, "draft")(view.resolution.state, str(folder))
    if out is None:
        typer.echo(textsafe.visible_lines(text), nl=False)
        return
    if out.exists():
        raise UsageError(f"{out}: exists; give a new file to --out")
    from pbem.game import folder as folders

    folders.write_atomic(out, text.encode("utf-8"))
    typer.echo(f"draft written to {out}: edit it, then: pbem move {folder} --orders {out}")


def board(folder: FolderArg, as_json: JsonOption = False, key: KeyOption = None, keys: KeysOption = None) -> None:
    """Print every unit's position, facing and markers (for terminals; the reports draw the map)."""
    game = store.load(folder)
    state, _ = _state(game, keys, key)
    if state is None:
        raise UsageError("the game has not started yet (no state to look at)")
    if as_json:
        data, _ = _explain(game, state, None)
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    typer.echo(textsafe.visible_lines(_needs(game.ruleset, "board")(state)))


def register(app: typer.Typer) -> None:
    for command in (legal, orders, board):
        app.command(command.__name__)(command)
