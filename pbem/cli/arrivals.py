"""What `pbem mail`/`pbem watch` show after a round: what arrived, its dice, its report, invitations.

The round (pbem.exchange.watch) adds files and answers; this tells the
player, at once, what his opponent's files resolved (his own last orders'
dice among them), writes the HTML report of each arrival into GAME/report/
(the mail no longer carries one), lists the invitations waiting with the
command that accepts each, and runs the notification command of the mail
settings for each game where something arrived.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from pbem.cli import report as cli_report
from pbem.errors import PbemError
from pbem.exchange import invitations, notify
from pbem.exchange.mailconfig import MailConfig, MailState
from pbem.exchange.watch import Round
from pbem.game import session
from pbem.signed import movefile, textsafe

EVENTS_SHOWN = 40  # per file, in the command's output; the report has them all


def config_option(explicit: Path | None) -> str:
    """The --config part of a suggested command, when the player gave one."""
    return f" --config {explicit}" if explicit is not None else ""


def show(config: MailConfig, state: MailState, result: Round, keys: Path, key: str | None,
         explicit: Path | None, say: Callable[[str], None]) -> None:
    for folder, seqs in result.arrived.items():
        try:
            _arrived(config, folder, seqs, result, keys, key, say)
        except PbemError as exc:  # the files are in; telling about them failed: say so, never stop the round
            say(f"{folder}: {exc}")
    new = {offered.game_id for offered in result.invited}
    for offered in invitations.waiting(state):
        hint = invitations.hint(offered.game_id, config_option(explicit))
        if offered.game_id in new:
            say(offered.line(hint))
            problem = notify.run(config.notify, notify.Arrival(
                offered.game_id[:invitations.SHORT_ID], "", f"invitation from {offered.host} to {offered.scenario}", "yours"))
            if problem:
                say(problem)
        else:
            say(f"invitation {offered.game_id[:invitations.SHORT_ID]} from {offered.host} still waits: {hint}")


def _arrived(config: MailConfig, folder: Path, seqs: list[int], result: Round, keys: Path, key: str | None,
             say: Callable[[str], None]) -> None:
    game = result.load(folder)
    mine = session.my_roles(game, keys, key)
    theirs = [seq for seq in sorted(set(seqs)) if movefile.author_of(seq) not in mine]
    for seq in theirs:
        resolution = game.resolutions.get(seq - 1)
        if resolution is None or not resolution.events:
            continue
        say(f"{folder}: file {seq} resolved file {seq - 1} ({len(resolution.rolls)} dice):")
        for event in list(resolution.events)[:EVENTS_SHOWN]:
            say("  " + textsafe.visible(game.ruleset.describe_event(event, resolution.state)))
    cli_report.write_arrived(folder, seqs, keys, key, lambda line: say(f"{folder}: {line}"), game)
    if not theirs:
        return
    last = theirs[-1]
    author = game.player(movefile.author_of(last))
    if folder in result.decisions:
        whose = "yours"
    elif game.finished():
        whose = "nobody's: the game is over"
    else:
        whose = "yours" if game.next_author in mine else f"{game.awaited()}'s"
    what = f"file {last} from {author.name if author else movefile.author_of(last)}"
    problem = notify.run(config.notify, notify.Arrival(folder.name, str(folder), what, whose))
    if problem:
        say(f"{folder}: {problem}")
