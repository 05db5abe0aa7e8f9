"""The mail commands: `pbem send`, `pbem mail --once`, `pbem watch` (docs/mail.md)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Callable, Optional

import typer

from pbem.game import folder as folder_files
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

ConfigOption = Annotated[
    Optional[Path],
    typer.Option("--config", help="Mail settings (default: $PBEM_MAIL_CONFIG or $XDG_CONFIG_HOME/pbem/mail.toml).", show_default=False),
]
KeysOption = Annotated[Optional[Path], typer.Option("--keys", help="Key folder (default: $PBEM_KEYS or ~/.config/pbem/keys).", show_default=False)]
KeyOption = Annotated[Optional[str], typer.Option("--key", envvar="PBEM_KEY", help="Name of your key.")]


def report_for(folder: Path, seq: int) -> mailer.Attachment | None:
    """The report of what file `seq` resolved (the outcome of file seq-1), if `pbem report` wrote one.

    Reports live in GAME/report/ as file-NNNNNN.html, named by the file whose
    outcome they show (docs/reports.md); previews are private and never sent.
    Read once, here, never through a link (the folder or the file): a report
    planted as a link to a private file would mail it, and a name checked
    first and read later could be swapped in between.
    """
    from pbem.exchange import mailer

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


def send_file(
    config: mailconfig.MailConfig, state: mailconfig.MailState, folder: Path, seq: int, to: str | None = None
) -> str:
    """Mail file `seq` of the game in `folder` to the opponent; returns the address."""
    from pbem.exchange import mailer

    if config.smtp is None:
        raise MailProblem(f"{config.path}: no [smtp] settings; pbem cannot send mail")
    game = store.load(folder)
    address = to or opponent_address(config, state, folder, game.game_id)
    if not address:
        raise UsageError(
            f"{folder}: no address for your opponent; give --to ADDRESS or add it under [games] in {config.path}"
        )
    message = mailer.compose(game, seq, config.address, config.name, address, report_for(folder, seq))
    mailer.send(config.smtp, message)
    state.mark_sent(game.game_id, seq)
    if to:
        state.set_address(game.game_id, to)
    state.save()
    return address


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
        address = send_file(settings, state, folder, seq, to)
        say(f"sent {movefile.file_name(seq)}{again} to {address}: {mailer.summary(game, seq)}")

    def one_round(folders: list[Path], config: Path | None, keys: Path | None, key: str | None) -> int:
        from pbem.exchange import mailconfig
        from pbem.exchange import watch

        settings = mailconfig.load(config)
        state = mailconfig.MailState(mailconfig.state_path(settings.path))
        chosen = list(folders) or list(settings.games)
        if not chosen:
            raise UsageError(f"no game folders: name them, or list them under [games] in {settings.path}")
        result = watch.run_round(
            settings, state, chosen, ids.key_folder(keys), key,
            lambda folder, seq: send_file(settings, state, folder, seq),
        )
        state.save()
        for line in result.lines:
            say(line)
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
        _loop(lambda: one_round(folders or [], config, keys, key), interval)

    @app.command("watch")
    def watch_command(
        folders: Annotated[Optional[list[Path]], typer.Argument(help="Game folders (default: those under [games] in the settings).")] = None,
        interval: Annotated[int, typer.Option(help="Seconds between rounds.")] = 300,
        config: ConfigOption = None,
        key: KeyOption = None,
        keys: KeysOption = None,
    ) -> None:
        """`pbem mail` in a loop: read, receive and acknowledge every INTERVAL seconds until interrupted."""
        _loop(lambda: one_round(folders or [], config, keys, key), interval)


def _loop(round_: Callable[[], int], interval: int) -> None:
    if interval < 10:
        raise UsageError("--interval: at least 10 seconds (be kind to the mail server)")
    while True:
        try:
            round_()
        except MailProblem as exc:  # the server may be back next round
            typer.echo(f"pbem: mail: {exc}", err=True)
        time.sleep(interval)
