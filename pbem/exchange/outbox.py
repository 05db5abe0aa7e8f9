"""Mailing one file of a game to the opponent: what `pbem send`, `pbem watch` and `pbem play` share (docs/mail.md)."""

from __future__ import annotations

from pathlib import Path

from pbem.errors import MailProblem, PbemError, UsageError
from pbem.exchange import mailconfig, mailer
from pbem.game import folder as folder_files
from pbem.game import referee, store


def report_for(folder: Path, seq: int) -> mailer.Attachment | None:
    """The report of what file `seq` resolved (the outcome of file seq-1), if `pbem report` wrote one.

    Reports live in GAME/report/ as file-NNNNNN.html, named by the file whose
    outcome they show (docs/reports.md); previews are private and never sent.
    Read once, here, never through a link (the folder or the file): a report
    planted as a link to a private file would mail it, and a name checked
    first and read later could be swapped in between.
    """
    if seq < 3:
        return None
    name = f"file-{seq - 1:06d}.html"
    try:
        data = folder_files.read_beside(folder, name, mailer.MAX_REPORT_BYTES, sub="report")
    except PbemError:
        return None  # a planted or oversized report is not mailed; the file itself still is
    return None if data is None else mailer.Attachment(name, data)


def opponent_address(config: mailconfig.MailConfig, state: mailconfig.MailState, folder: Path, game_id: str) -> str | None:
    return config.games.get(folder.resolve()) or state.learned(game_id)


def team_addresses(game: referee.Game, mine: str) -> str:
    """A team game's file goes to every other seat's address the roster names (one message, all of them)."""
    if game.team is None:
        return ""
    found: list[str] = []
    for seat in game.team.roster.seats:
        if seat.address and seat.address.lower() != mine.lower() and seat.address.lower() not in map(str.lower, found):
            found.append(seat.address)
    return ", ".join(found)


def send_file(
    config: mailconfig.MailConfig, state: mailconfig.MailState, folder: Path, seq: int, to: str | None = None,
    known: referee.Game | None = None,
) -> str:
    """Mail file `seq` of the game in `folder` to the opponent; returns the address. `known`: the game as
    the caller loaded it (store.load's known)."""
    if config.smtp is None:
        raise MailProblem(f"{config.path}: no [smtp] settings; pbem cannot send mail")
    game = store.load(folder, known=known)
    address = to or team_addresses(game, config.address) or opponent_address(config, state, folder, game.game_id)
    if not address:
        raise UsageError(
            f"{folder}: no address for your opponent; give --to ADDRESS or add it under [games] in {config.path}"
        )
    report = report_for(folder, seq) if config.attach_report else None  # the mail's own account by default
    message = mailer.compose(game, seq, config.address, config.name, address, report)
    mailer.send(config.smtp, message)
    state.mark_sent(game.game_id, seq)
    if to:
        state.set_address(game.game_id, to)
    if folder.resolve() not in config.games:
        state.add_game(folder, address)  # plain `pbem mail` reads for every game sent from by mail
    state.save()
    return address


def mail_if_configured(config: Path | None, folder: Path, seq: int) -> str | None:
    """Mail file `seq` if mail settings exist (the address it went to), else None: the file stays saved.
    Settings that exist but cannot send raise MailProblem or UsageError, naming what to fix."""
    if not mailconfig.config_path(config).exists():
        return None
    settings = mailconfig.load(config)
    return send_file(settings, mailconfig.MailState(mailconfig.state_path(settings.path)), folder, seq)
