"""`pbem rules-change`: go on under other rules from an agreed point, both players signing it.

One player proposes in his next file (`--to VERSION`, optionally `--rules-data FILE`); the opponent
accepts in his next file (`--accept`), whose orders the new rules then judge. A file that does not
accept (a plain `pbem move`) refuses it. docs/protocol.md ("Upgrades") is the exchange; pbem verify
and pbem status say which rules judged which files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from pbem.signed import identity as ids
from pbem.game import referee
from pbem.game import ruleschange
from pbem.game import session
from pbem.game import store
from pbem.signed import textsafe
from pbem.errors import UsageError

KeysOption = Annotated[
    Optional[Path],
    typer.Option("--keys", help="Key folder (default: $PBEM_KEYS or ~/.config/pbem/keys).", show_default=False),
]
KeyOption = Annotated[
    Optional[str],
    typer.Option("--key", envvar="PBEM_KEY", help="Name of your key (default: the one key here that plays this game)."),
]
MAX_RULES_BYTES = 512 * 1024  # a rules data file read for a proposal; it travels in a file of at most 1 MiB


def out(line: str = "") -> None:
    typer.echo(textsafe.visible_lines(line))


def rules_change(
    folder: Annotated[Path, typer.Argument(help="The game folder.")],
    orders: Annotated[Optional[list[str]], typer.Argument(help="Your orders for this file, one per argument.")] = None,
    to: Annotated[Optional[str], typer.Option("--to", help="Propose to go on under this version of the ruleset.")] = None,
    rules_data: Annotated[Optional[Path], typer.Option("--rules-data", help="Propose these rules data (default: the game's).")] = None,
    accept: Annotated[bool, typer.Option("--accept", help="Accept the rules change your opponent's last file proposes.")] = False,
    note: Annotated[str, typer.Option(help="A message to your opponent.")] = "",
    key: KeyOption = None,
    keys: KeysOption = None,
) -> None:
    """Propose other rules (--to VERSION) in your next file, or accept the ones your opponent proposes (--accept)."""
    if accept == (to is not None or rules_data is not None):
        raise UsageError("say either --to VERSION [--rules-data FILE] (propose) or --accept, not both or neither")
    game = store.load(folder)
    me = session.choose_key(game, ids.key_folder(keys), key, role=game.next_author)
    offer = None
    if not accept:
        new_data = None if rules_data is None else _read_rules(rules_data)
        offer = ruleschange.proposal(game.ruleset, game.setup.rules_data, to or game.ruleset.version, new_data,
                                     f"file {game.next_seq}")
    elif ruleschange.open_proposal(game.files[-1].body) is None:
        raise UsageError(f"your opponent's last file ({game.names[-1]}) proposes no rules change")
    path, signed, view = session.move(folder, me, list(orders or []), note, ids.key_folder(keys), offer, accept)
    ruleset = view.changed.ruleset if view.changed is not None else game.ruleset
    for event in view.resolution.events:
        out("  " + textsafe.visible(ruleset.describe_event(event, view.resolution.state)))
    if offer is not None:
        out(f"wrote {path}: it proposes {game.ruleset.name} {offer.ruleset_version}, rules data {offer.rules_hash[:16]}, "
            f"from your opponent's next file, if he accepts it there; send it (pbem send {folder}, or pbem mail)")
    else:
        out(f"wrote {path}: it accepts the rules change; this file and the next are judged by {ruleset.name} "
            f"{ruleset.version}; send it (pbem send {folder}, or pbem mail)")


def _read_rules(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_RULES_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"--rules-data {path}: cannot read: {exc.strerror}") from None
    if len(data) > MAX_RULES_BYTES:
        raise UsageError(f"--rules-data {path}: more than {MAX_RULES_BYTES} bytes")
    return data


def status_lines(game: "referee.Game", folder: Path) -> list[str]:
    """For `pbem status`: which rules judged which files, and a rules change waiting for an answer."""
    lines = [f"rules: {ruleschange.describe(game.judged_by())}"]
    offer = ruleschange.open_proposal(game.files[-1].body) if not game.finished() else None
    if offer is not None:
        lines.append(f"rules change proposed in {game.names[-1]}: {game.ruleset.name} {offer.ruleset_version}, "
                     f"rules data {offer.rules_hash[:16]}; accept it with pbem rules-change {folder} "
                     "--accept, or refuse it by moving as usual (pbem move)")
    return lines


def register(app: typer.Typer) -> None:
    app.command("rules-change")(rules_change)
