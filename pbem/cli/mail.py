"""The mail commands: `pbem send`, `pbem mail --once`, `pbem watch` (docs/mail.md)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Callable, Optional

import typer

from pbem.signed import identity as ids
from pbem.signed import movefile
from pbem.game import session
from pbem.game import store
from pbem.game import writing
from pbem.errors import MailProblem, PbemError, UsageError

# pbem.exchange.mailer, pbem.exchange.mailconfig and pbem.exchange.watch (smtplib, imapclient, email) cost about 35 ms of
# imports: the mail commands import them, so every other command goes without.
if TYPE_CHECKING:
    from pbem.exchange import mailconfig
    from pbem.exchange import mailer
    from pbem.game.referee import Game

ConfigOption = Annotated[
    Optional[Path],
    typer.Option("--config", help="Mail settings (default: $PBEM_MAIL_CONFIG or $XDG_CONFIG_HOME/pbem/mail.toml).", show_default=False),
]
KeysOption = Annotated[Optional[Path], typer.Option("--keys", help="Key folder (default: $PBEM_KEYS or ~/.config/pbem/keys).", show_default=False)]
KeyOption = Annotated[Optional[str], typer.Option("--key", envvar="PBEM_KEY", help="Name of your key.")]


def report_for(folder: Path, seq: int) -> mailer.Attachment | None:
    """The report of what file `seq` resolved, if `pbem report` wrote one (pbem.exchange.outbox.report_for)."""
    from pbem.exchange import outbox

    return outbox.report_for(folder, seq)


def opponent_address(config: mailconfig.MailConfig, state: mailconfig.MailState, folder: Path, game_id: str) -> str | None:
    from pbem.exchange import outbox

    return outbox.opponent_address(config, state, folder, game_id)


def send_file(
    config: mailconfig.MailConfig, state: mailconfig.MailState, folder: Path, seq: int, to: str | None = None,
    known: Game | None = None,
) -> str:
    """Mail file `seq` of the game in `folder` to the opponent; returns the address (pbem.exchange.outbox)."""
    from pbem.exchange import outbox

    return outbox.send_file(config, state, folder, seq, to, known)


def register(app: typer.Typer) -> None:
    """Add the mail commands to the `pbem` app."""

    def say(line: str = "") -> None:
        typer.echo(line)

    @app.command("send")
    def send(
        folder: Annotated[Path, typer.Argument(help="The game folder.")],
        to: Annotated[Optional[str], typer.Option(help="The opponent's address (remembered for this game).")] = None,
        file: Annotated[Optional[int], typer.Option("--file", help="Send this file number (default: the latest).")] = None,
        config: ConfigOption = None,
        key: KeyOption = None,
        keys: KeysOption = None,
    ) -> None:
        """Mail your latest file to your opponent: armored in the body, attached, the turn in the subject."""
        from pbem.exchange import mailconfig
        from pbem.exchange import mailer

        settings = mailconfig.load(config)
        state = mailconfig.MailState(mailconfig.state_path(settings.path))
        game = store.load(folder)
        seq = len(game.files) - 1 if file is None else file
        if not 0 <= seq < len(game.files):
            raise UsageError(f"{folder}: has no file {seq} (files 0-{len(game.files) - 1})")
        me = session.choose_key(game, ids.key_folder(keys), key, role=movefile.author_of(seq))
        if writing.my_role(game, me) != movefile.author_of(seq):
            raise UsageError(
                f"{folder}: file {seq} is your opponent's, not yours; nothing to send "
                f"(the game waits on {'you' if game.next_author == writing.my_role(game, me) else 'your opponent'})"
            )
        again = " again" if state.was_sent(game.game_id, seq) else ""
        address = send_file(settings, state, folder, seq, to, game)
        say(f"sent {movefile.file_name(seq)}{again} to {address}: {mailer.summary(game, seq)}")

    def one_round(folders: list[Path], config: Path | None, keys: Path | None, key: str | None) -> int:
        from pbem.cli import arrivals
        from pbem.exchange import mailconfig
        from pbem.exchange import watch

        store.forget_loaded()  # a round writes the state caches of its own loads (watch: of each round)
        settings = mailconfig.load(config)
        state = mailconfig.MailState(mailconfig.state_path(settings.path))
        # No game yet is no reason to stop: the round still finds invitations (pbem accept ID).
        chosen = list(folders) or [*settings.games, *(f for f in state.games() if f not in settings.games)]
        result = watch.run_round(
            settings, state, chosen, ids.key_folder(keys), key,
            lambda folder, seq, game: send_file(settings, state, folder, seq, known=game),
        )
        state.save()
        # The games' state caches now, whatever the round's exit code: the files it added are in either
        # way, and `pbem mail --once` ends by typer.Exit, past the app's own hook. Without this every
        # round replayed from the cache of the player's last move: the Tauris team game by mail made
        # 3,278 admissions in 447 rounds.
        store.save_loaded()
        for line in result.lines:
            say(line)
        try:
            arrivals.show(settings, state, result, ids.key_folder(keys), key, config, say)
        except PbemError as exc:  # the files are in and answered; only telling about them failed
            say(f"mail: {exc}")
            return exc.exit_code
        return result.errors[-1].exit_code if result.errors else 0

    @app.command("mail")
    def mail(
        folders: Annotated[Optional[list[Path]], typer.Argument(help="Game folders (default: those under [games] in the settings).")] = None,
        once: Annotated[bool, typer.Option("--once", help="One round, then exit (for cron).")] = False,
        interval: Annotated[int, typer.Option(help="Seconds between rounds, without --once.")] = 300,
        config: ConfigOption = None,
        key: KeyOption = None,
        keys: KeysOption = None,
    ) -> None:
        """Fetch new mail for your games, receive it, and send the acknowledgements that need no person."""
        if once:
            raise typer.Exit(one_round(folders or [], config, keys, key))
        _loop(lambda: one_round(folders or [], config, keys, key), interval, config, rounds=None)

    @app.command("watch")
    def watch_command(
        folders: Annotated[Optional[list[Path]], typer.Argument(help="Game folders (default: those under [games] in the settings).")] = None,
        interval: Annotated[int, typer.Option(help="Most seconds between rounds (IMAP IDLE wakes it as mail arrives).")] = 300,
        rounds: Annotated[Optional[int], typer.Option(help="Stop after this many rounds (default: run until interrupted).")] = None,
        config: ConfigOption = None,
        key: KeyOption = None,
        keys: KeysOption = None,
    ) -> None:
        """`pbem mail` as mail arrives: IMAP IDLE (or every INTERVAL seconds), run the notify command."""
        _loop(lambda: one_round(folders or [], config, keys, key), interval, config, rounds)


def _loop(round_: Callable[[], int], interval: int, config: Path | None, rounds: int | None) -> None:
    """Rounds until interrupted (or `rounds` done); between them IMAP IDLE, else a wait of `interval`."""
    from pbem.exchange import mailbox, mailconfig

    if interval < 10:
        raise UsageError("--interval: at least 10 seconds (be kind to the mail server)")
    if rounds is not None and rounds < 1:
        raise UsageError("--rounds: at least 1")
    done = 0
    while True:
        try:
            round_()
        except MailProblem as exc:  # the server may be back next round
            typer.echo(f"pbem: mail: {exc}", err=True)
        done += 1
        if rounds is not None and done >= rounds:
            return
        try:
            settings = mailconfig.load(config)
            if settings.imap is not None:
                state = mailconfig.MailState(mailconfig.state_path(settings.path))
                typer.echo(f"pbem watch: waiting for mail (IMAP IDLE, at most {interval} s)")
                if mailbox.wait_for_mail(settings.imap, state, interval):
                    continue  # woken by mail, or IDLE ran its time: a round either way
        except MailProblem as exc:
            typer.echo(f"pbem: mail: {exc}", err=True)
        time.sleep(interval)
