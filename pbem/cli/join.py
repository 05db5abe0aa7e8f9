"""`pbem accept`: join a game from an invitation file, a mail message, or an id `pbem mail` printed.

An invitation that came by mail (an id from `pbem mail`, or the message
saved as .eml) is answered by mail: the acceptance goes to the address the
invitation came from, and the new folder is recorded in the mail state's
games, so that plain `pbem mail` reads for it from then on (pbem never
writes the settings file). A plain file (or no mail settings) leaves the
sending to the player, as before.
"""

from __future__ import annotations

from pathlib import Path
from pbem.cli import player as cli_player
from pbem.errors import MailProblem
from pbem.game import referee, session
from pbem.signed import identity as ids


def _source(source: str, config: Path | None) -> tuple[tuple[bytes, str], str | None, bool]:
    """(the invitation's bytes and name, the address it came from if known, whether it came by id)."""
    from pbem.exchange import intake, invitations, mailconfig

    path = Path(source)
    if not path.exists() and invitations.looks_like_id(source):
        settings = mailconfig.load(config)
        state = mailconfig.MailState(mailconfig.state_path(settings.path))
        offered = invitations.take(state, source)
        return (offered.raw, f"invitation {source} (by mail from {offered.sender})"), offered.sender, True
    found = intake.one_file(path)
    sender = None
    head = intake.read_bounded_head(path) if path.is_file() else b""
    if intake.form_of(head) == "message":
        message = intake.as_email(intake.read_bounded(path, intake.MAX_MESSAGE_BYTES), str(path))
        sender = intake.sender(message, str(path)) or None
    return found, sender, False


def accept(source: str, out_folder: Path, name: str, chain_length: int, again: bool, config: Path | None,
           me: ids.Identity, keys: Path, joined: list[Path] | None = None) -> tuple[referee.Game, Path, str | None]:
    """Write the acceptance; mail it when the invitation came by mail. Returns (game, file 1, address mailed)."""
    from pbem.exchange import invitations, mailconfig

    invitation, sender, by_id = _source(source, config)
    cli_player.refuse_second(invitation, me, keys, again)
    seats = None
    if joined:  # a team game: every other seat's own acceptance (pbem join), carried in file 1
        from pbem.cli import team
        from pbem.signed import movefile

        seats = team.joined_of(joined, movefile.parse(invitation[0], invitation[1]))
    elif by_id:  # the seats' acceptances that came by mail (pbem join mails them to this side's lead)
        from pbem.signed import movefile

        state = mailconfig.MailState(mailconfig.state_path(mailconfig.load(config).path))
        seats = invitations.joined(state, movefile.parse(invitation[0], invitation[1]).body.game) or None
    game, path = session.accept(invitation, out_folder, me, name, chain_length, seats)
    cli_player.record_acceptance(game.game_id, me, keys, path)
    if sender is None:
        return game, path, None
    try:
        settings = mailconfig.load(config)
    except MailProblem:
        if by_id:
            raise
        return game, path, None  # a saved message and no mail settings: the player sends it (pbem send --to)
    state = mailconfig.MailState(mailconfig.state_path(settings.path))
    state.add_game(out_folder, sender)
    invitations.done(state, game.game_id)
    state.save()  # the folder is pbem mail's from now on, whether or not this sending works
    from pbem.cli.mail import send_file

    try:
        address = send_file(settings, state, out_folder, 1, None if game.team is not None else sender)
    except MailProblem as exc:
        raise MailProblem(f"{exc}; the acceptance is written ({path}): pbem send {out_folder} sends it") from None
    return game, path, address
