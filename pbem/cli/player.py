"""The player's commands that speak to scripts as well as people: `pbem check`, `status --json`.

The JSON shapes are documented in docs/cli.md ("JSON output"); a test holds
the real output to the documented examples, key for key and type for type.
"""

from __future__ import annotations

import datetime as _dt
import json
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from pbem.signed import commitments
from pbem.signed import dice
from pbem.game import folder as folders
from pbem.signed import identity as ids
from pbem.signed import movefile as movefiles
from pbem.game import referee
from pbem.game import session
from pbem.game import store
from pbem.game import writing
from pbem.errors import PbemError

KeysOption = Annotated[Optional[Path], typer.Option("--keys", help="Key folder (default: $PBEM_KEYS or ~/.config/pbem/keys).", show_default=False)]
KeyOption = Annotated[Optional[str], typer.Option("--key", envvar="PBEM_KEY", help="Name of your key.")]


def _iso(timestamp: int) -> str:
    try:
        return _dt.datetime.fromtimestamp(timestamp, _dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (ValueError, OverflowError, OSError):
        return ""


def _pending(pending: Any) -> dict[str, Any]:
    return {"side": pending.side, "kind": pending.kind, "prompt": pending.prompt, "finished": pending.finished}


def status_json(game: referee.Game, keys: Path, key: str | None) -> dict[str, Any]:
    """The game's status as data (docs/cli.md, `pbem status --json`)."""
    setup = game.setup

    def player(role: str) -> dict[str, Any] | None:
        p = game.player(role)
        return None if p is None else {"name": p.name, "side": p.side, "fingerprint": ids.fingerprint(p.key)}

    pinned = referee.sha256_hex(setup.rules_data)
    state = game.resolved_state
    turn_of = getattr(game.ruleset, "turn", None)
    waiting = game.player(game.next_author)
    you: dict[str, Any] | None = None
    try:
        me = session.choose_key(game, keys, key, role=game.next_author)
        role = writing.my_role(game, me)
    except PbemError:
        me, role = None, None
    if me is not None and role is not None:
        you = {"role": role, "your_turn": role == game.next_author and not game.finished(), "to_decide": False, "pending": None}
        if you["your_turn"] and game.next_seq >= 2:
            view = writing.outlook(game, me)
            mine = game.player(role)
            you["pending"] = _pending(view.pending)
            you["to_decide"] = bool(mine and not view.pending.finished and view.pending.side == mine.side)
    return {
        "game": game.game_id,
        "ruleset": game.ruleset.name,
        "ruleset_version": game.ruleset.version,
        "scenario": setup.scenario_name,
        "files": len(game.files),
        "players": {"host": player("host"), "guest": player("guest")},
        "rules_data": {"builtin": pinned == referee.sha256_hex(setup.ruleset.default_rules_data()), "sha256": pinned},
        "turn": turn_of(state) if turn_of is not None and state is not None else None,
        "state": game.ruleset.describe(state) if state is not None else None,
        "finished": game.finished(),
        "result": game.result(),
        "waiting_on": None if game.finished() else {
            "role": game.next_author,
            "name": waiting.name if waiting else None,
            "file": game.next_seq,
            "since": _iso(game.last_time),
        },
        "you": you,
    }


def check_orders(folder: Path, lines: list[str], keys: Path, key: str | None) -> dict[str, Any]:
    """Validate orders as `pbem move` would, without signing or writing anything."""
    game = store.load(folder)
    me = session.choose_key(game, keys, key, role=game.next_author)
    view = writing.outlook(game, me)
    player = game.player(view.role)
    assert player is not None

    def secret(line: str) -> Any:  # sealed exactly as move would, but remembered nowhere
        return commitments.decision(line, me, game.game_id, player.nonce, keys, remember=False)

    decisions = session.parse_orders(game, view.resolution.state, lines, secret)
    referee.check_decisions(game, view.resolution.state, view.role, decisions, "orders")
    state, rolls = view.resolution.state, False
    for decision in decisions:
        try:
            state, _ = game.ruleset.apply(state, decision, dice.SealedDice())
        except dice.NoDiceYet:
            rolls = True
            break
    then = None if rolls else _pending(game.ruleset.pending(state))
    due = not view.pending.finished and view.pending.side == player.side
    return {
        "ok": True,
        "game": game.game_id,
        "file": game.next_seq,
        "side": player.side,
        "decision_due": due,
        "orders": [{"line": game.ruleset.format_order(d), "decision": d} for d in decisions],
        "rolls_dice": rolls,
        "then": then,
        "error": None,
    }


def register(app: typer.Typer) -> None:
    @app.command("check")
    def check(
        folder: Annotated[Path, typer.Argument(help="The game folder.")],
        orders: Annotated[Optional[list[str]], typer.Argument(help="Orders, one per argument.")] = None,
        orders_file: Annotated[Optional[Path], typer.Option("--orders", help="A file of orders, one per line.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON (docs/cli.md).")] = False,
        key: KeyOption = None,
        keys: KeysOption = None,
    ) -> None:
        """Check orders against the current state without signing or writing anything."""
        lines = list(orders or [])
        if orders_file is not None:
            lines.extend(folders.read(orders_file).decode("utf-8", errors="replace").splitlines())
        try:
            result = check_orders(folder, lines, ids.key_folder(keys), key)
        except PbemError as exc:
            if not as_json:
                raise
            typer.echo(json.dumps({"ok": False, "error": {"code": exc.exit_code, "type": type(exc).__name__, "message": str(exc)}}))
            raise typer.Exit(exc.exit_code)
        if as_json:
            typer.echo(json.dumps(result, ensure_ascii=False))
            return
        count = len(result["orders"])
        typer.echo(f"ok: {count} order{'' if count == 1 else 's'} valid for file {result['file']} ({result['side']}); nothing written")
        for order in result["orders"]:
            typer.echo(f"  {order['line']}")
        if result["rolls_dice"]:
            typer.echo("the last order rolls dice: its outcome comes with your opponent's next file")
        elif result["then"] is not None:
            then = result["then"]
            typer.echo(f"then: {then['prompt']}" + ("" if then["side"] != result["side"] else " (still yours: add orders)"))
        if not count and result["decision_due"]:
            typer.echo("no orders, but a decision is due: pbem move would refuse this (see pbem legal)", err=True)


def print_status_json(folder: Path, keys: Path | None, key: str | None) -> None:
    game = store.load(folder)
    if key:
        session.choose_key(game, ids.key_folder(keys), key)
    sys.stdout.write(json.dumps(status_json(game, ids.key_folder(keys), key), ensure_ascii=False) + "\n")


# ----- what `receive` and `move` say besides ---------------------------------------------


def shown(text: str) -> str:
    """File-borne text for a terminal: control and bidi characters spelt out (pbem.signed.textsafe), never obeyed."""
    from pbem.signed import textsafe

    return textsafe.visible(text)


def waiting_line(game: referee.Game) -> str:
    if game.finished():
        return f"game over: {game.result()}"
    return (f"the game waits on {shown(game.awaited())} ({game.next_author}) for file {game.next_seq} "
            f"since {session.when(game.last_time)}")


def _my_role(game: referee.Game, keys: Path, key: str | None) -> str | None:
    try:
        return writing.my_role(game, session.choose_key(game, keys, key, role=movefiles.author_of(game.next_seq)))
    except PbemError:
        return None


def print_received(game: referee.Game, added: list[int], keys: Path, key: str | None, out: Any) -> None:
    """For each file received: what it did to your own last orders, the opponent's orders, his note."""
    from pbem.signed.movefile import Move

    mine = _my_role(game, keys, key)
    for seq in added:
        body = game.files[seq].body
        if not isinstance(body, Move):
            continue
        author = game.player(body.author)
        name = shown(author.name) if author else body.author
        resolved = game.resolutions.get(seq - 1)
        if resolved is not None and mine is not None and movefiles.author_of(seq - 1) == mine and seq - 1 >= 2:
            previous = game.files[seq - 1].body
            orders = getattr(previous, "decisions", [])
            out(f"results of your file {seq - 1}" + (f" ({len(orders)} order{'' if len(orders) == 1 else 's'}):" if orders else ":"))
            for event in resolved.events or []:
                out("  " + shown(game.ruleset.describe_event(event, resolved.state)))
            if not resolved.events:
                out("  (nothing happened)")
        if body.decisions:
            out(f"{name}'s orders in file {seq}: " + "; ".join(shown(game.ruleset.format_order(d)) for d in body.decisions))
        if body.note:
            out(f"note from {name}: {shown(body.note)}")


def refuse_empty_move(game: referee.Game, me: ids.Identity, lines: list[str], pass_: bool) -> None:
    """`pbem move` without orders while a decision is due costs a round trip: refuse it unless --pass."""
    from pbem.errors import UsageError

    if pass_ or any(line.strip() and not line.strip().startswith("#") for line in lines):
        return
    view = writing.outlook(game, me)
    player = game.player(view.role)
    if player is not None and not view.pending.finished and view.pending.side == player.side:
        raise UsageError(
            f"a decision is due ({view.pending.prompt}): give orders (see pbem legal {game_folder_of(game)}), "
            "concede, or add --pass to send the file without them"
        )


def game_folder_of(game: referee.Game) -> Path:
    return Path(game.names[0]).parent


def solo_answers(folder: Path, keys: Path, key: str | None, out: Any, players: referee.Game | None = None) -> None:
    """Solo or hot-seat (both players' keys in this key folder): answer for the side with nothing to decide.

    `players`: the game as loaded before a file was added, if at hand: who plays it is set by its first two
    files, so it answers whose keys these are without loading the game again (a load reads every file)."""
    game = players if players is not None and players.guest is not None else store.load(folder)
    if len(session.my_roles(game, keys, None)) < 2:
        return
    game = store.load(folder, known=players)
    from pbem.exchange import watch  # only now: it loads the mail modules (ssl, mailbox), ~20 ms of every move

    before = len(game.files)
    watch.acknowledge(folder, keys, None)
    game = store.load(folder, known=game)
    for seq in range(before, len(game.files)):
        player = game.player(movefiles.author_of(seq))
        out(f"solo: wrote {folder / f'{seq:06d}.pbem'}, {shown(player.name) if player else ''}'s acknowledgement (nothing to decide)")
    out(waiting_line(game) + (" (your other side)" if not game.finished() else ""))


# ----- accepting once ----------------------------------------------------------------------


def _accepted_mark(keys: Path, me: ids.Identity, game_id: str) -> Path:
    return keys / "accepted" / f"{me.name}-{game_id}"


def refuse_second_acceptance(invitation: Path, me: ids.Identity, keys: Path, again: bool) -> None:
    """A second acceptance is a second, different file 1: to the host, proof of equivocation. Warn first."""
    from pbem.exchange import intake  # its HTML and mail parsers: only for an invitation (status needs none)

    (raw, what), *_ = intake.incoming(invitation)
    refuse_second((raw, what), me, keys, again)


def refuse_second(invitation: tuple[bytes, str], me: ids.Identity, keys: Path, again: bool) -> None:
    """refuse_second_acceptance for an invitation already read (a file, a message, one kept by pbem mail)."""
    from pbem.signed import movefile
    from pbem.errors import UsageError

    raw, what = invitation
    game_id = movefile.parse(raw, what).body.game
    mark = _accepted_mark(keys, me, game_id)
    if mark.exists() and not again:
        where = mark.read_text(encoding="utf-8", errors="replace").strip()
        raise UsageError(
            f"you accepted game {game_id} before ({where}); a second acceptance is a different file 1 that your "
            "opponent sees as equivocation: play on in that folder, or add --again if you really mean it"
        )


def record_acceptance(game_id: str, me: ids.Identity, keys: Path, path: Path) -> None:
    mark = _accepted_mark(keys, me, game_id)
    mark.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    folders.write_atomic(mark, f"{path.resolve()} on {session.when(writing.now())}\n".encode())
