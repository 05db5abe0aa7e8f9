"""The `pbem` command line. Every failure is one line on stderr and an exit code.

Exit codes (docs/cli.md): 0 success; 1 other error; 2 usage; 3 missing file;
4 malformed file; 5 bad signature; 6 broken chain; 7 bad reveal; 8 wrong game;
9 wrong turn; 10 equivocation; 11 illegal decision; 12 state mismatch;
13 key problem; 14 ruleset problem; 15 game over; 16 folder problem;
17 mail problem; 18 not your command; 70 internal error (a bug).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from pbem.exchange import armor as armoring
from pbem.signed import chain
from pbem.cli import report as cli_report
from pbem.cli import start as cli_start
from pbem.cli import collector
from pbem.cli import helptext
from pbem.signed import identity as ids
from pbem.signed import movefile
from pbem.game import writing
from pbem.reports import provenance
from pbem.game import referee
from pbem.game import ruleset as rulesets
from pbem.game import session
from pbem.game import store
from pbem.signed import textsafe
from pbem.errors import OtherSeat, PbemError, UsageError

if TYPE_CHECKING:
    from pbem.signed.movefile import Player

# The app's hooks, so a command run in-process (CliRunner) keeps state caches as the script
# does: only its own loads, written only once it succeeded (without: Tauris mail test 1,193 replays).
def _starting() -> None:
    store.forget_loaded()


def _succeeded(*_: Any, **__: Any) -> None:
    store.save_loaded()


app = typer.Typer(
    name="pbem",
    callback=_starting,
    result_callback=_succeeded,
    help="Play War Galley by email: signed, hash-chained turn files with dice no one can bend.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

KeysOption = Annotated[Optional[Path], typer.Option(
    "--keys", help="Key folder (default: $PBEM_KEYS or ~/.config/pbem/keys).", show_default=False)]
KeyOption = Annotated[Optional[str], typer.Option(
    "--key", envvar="PBEM_KEY", help="Name of your key (default: the one key here that plays this game).")]


def out(line: str = "") -> None:
    """Print a line; anything in it that a terminal would obey is spelled out (pbem.signed.textsafe)."""
    typer.echo(textsafe.visible_lines(line))


@app.command()
def keygen(name: Annotated[str, typer.Argument(help="A name for the key, e.g. your own.")], keys: KeysOption = None) -> None:
    """Make an Ed25519 key pair; print the public key and its fingerprint."""
    folder = ids.key_folder(keys)
    identity = ids.generate(name, folder)
    out(f"key {name} written to {folder / (name + '.key')} (private, mode 600)")
    out(f"public key:  {identity.public_b64}")
    out(f"fingerprint: {identity.fingerprint}")
    out("Tell your opponent the fingerprint by another channel (phone, chat) and compare it with the one pbem shows.")


@app.command("keys")
def list_keys(keys: KeysOption = None) -> None:
    """List the keys in the key folder with their fingerprints."""
    folder = ids.key_folder(keys)
    found = ids.all_identities(folder)
    if not found:
        out(f"no keys in {folder} (make one with: pbem keygen NAME)")
        return
    for identity in found:
        out(f"{identity.name:20} {identity.fingerprint}")


@app.command("rulesets")
def list_rulesets() -> None:
    """List the installed rulesets."""
    for name in rulesets.available():
        out(f"{name} {rulesets.find(name).version}")


@app.command()
def scenarios(ruleset: Annotated[str, typer.Option(help="Ruleset name.")] = "war-galley") -> None:
    """List a ruleset's built-in scenarios."""
    for info in rulesets.find(ruleset).scenarios():
        out(f"{info.name:24} {info.title}  ({' v '.join(info.sides)}){'  ' + info.summary if info.summary else ''}")


def _options(pairs: list[str]) -> dict[str, str | int | bool]:
    options: dict[str, str | int | bool] = {}
    for pair in pairs:
        if "=" not in pair:
            raise UsageError(f"--option {pair!r}: write NAME=VALUE")
        key, value = pair.split("=", 1)
        options[key.strip()] = True if value == "true" else False if value == "false" else int(value) if value.lstrip("-").isdigit() else value
    return options


@app.command()
def new(
    scenario: Annotated[str, typer.Argument(help="A built-in scenario name, or the path of a scenario file.")],
    side: Annotated[str, typer.Option(help="The side you play.")],
    out_folder: Annotated[Path, typer.Option("--out", help="New folder for this game.")],
    name: Annotated[str, typer.Option(help="Your name as the opponent will see it.")] = "Host",
    ruleset: Annotated[Optional[str], typer.Option(help="Ruleset name (default: the one that has this scenario).")] = None,
    rules_data: Annotated[Optional[Path], typer.Option(help="Your own rules data file instead of the built-in one.")] = None,
    option: Annotated[list[str], typer.Option(help="A game option NAME=VALUE; repeatable.")] = [],
    chain_length: Annotated[int, typer.Option(help="Length of your reveal chain (files you can write).")] = chain.DEFAULT_LENGTH,
    roster: Annotated[Optional[Path], typer.Option(help="A team game: each side's seats, their commands and keys (docs/cli.md).")] = None,
    key: KeyOption = None,
    keys: KeysOption = None,
) -> None:
    """Start a game: write the invitation (file 0) into a new folder."""
    folder = ids.key_folder(keys)
    me = ids.load(key, folder) if key else _only_key(folder)
    chosen = rulesets.find(ruleset) if ruleset else rulesets.for_scenario(scenario)
    data = _read(rules_data) if rules_data is not None else None
    try:
        seats = cli_team.read_roster(roster, chosen, scenario) if roster is not None else None
        invite = writing.make_invite(me, name, chosen, scenario, side, _options(option), data, chain_length,
                                     roster=seats)
    except chosen.illegal_errors as exc:
        message = str(exc)  # the ruleset's message may already name the file: name it once
        raise UsageError(message if message.startswith(scenario) else f"{scenario}: {message}") from None
    path = session.start(out_folder, invite)
    body = invite.body
    out(f"game {body.game}: {body.ruleset} {body.scenario}, you ({name}) play {side}")
    _setup_report(referee.check_invite(invite, str(path)), None)
    out(f"your fingerprint: {me.fingerprint}")
    out(f"send {path} to your opponent (or paste: pbem armor {path})")


def _read(path: Path) -> bytes:
    from pbem.game import folder as folders

    return folders.read(path)


def _stdin() -> bytes:
    """Standard input up to the bound of a mail message (pbem.exchange.intake: mail may be piped in)."""
    from pbem.exchange import intake  # mail parsing (email): 8 ms that only a piped `receive` needs

    return intake.read_bounded(None, intake.MAX_MESSAGE_BYTES, sys.stdin.buffer)


def _only_key(folder: Path) -> ids.Identity:
    found = ids.all_identities(folder)
    if len(found) == 1:
        return found[0]
    if not found:
        raise UsageError(f"no key in {folder}; make one with: pbem keygen NAME")
    raise UsageError(f"several keys in {folder}; say which with --key NAME")


@app.command()
def accept(
    invitation: Annotated[str, typer.Argument(help="The invitation: a file (raw, armored, a saved mail) or the id pbem mail printed.")],
    out_folder: Annotated[Path, typer.Option("--out", help="New folder for this game.")],
    name: Annotated[str, typer.Option(help="Your name as the opponent will see it.")] = "Guest",
    chain_length: Annotated[int, typer.Option(help="Length of your reveal chain.")] = chain.DEFAULT_LENGTH,
    again: Annotated[bool, typer.Option("--again", help="Accept although you accepted this game before (your opponent sees two acceptances).")] = False,
    config: Annotated[Optional[Path], typer.Option("--config", help="Mail settings, to mail the acceptance (docs/mail.md).", show_default=False)] = None,
    joined: Annotated[list[Path], typer.Option(help="A team game: each other seat's acceptance (pbem join); repeatable.")] = [],
    key: KeyOption = None,
    keys: KeysOption = None,
) -> None:
    """Accept an invitation: check it, write the acceptance (file 1), and mail it if the invitation came by mail."""
    from pbem.cli import join  # mail parsing and sending: only accepting needs them
    folder = ids.key_folder(keys)
    me = ids.load(key, folder) if key else _only_key(folder)
    game, path, mailed = join.accept(invitation, out_folder, name, chain_length, again, config, me, folder, joined)
    host = game.setup.host
    out(f"game {game.game_id}: {game.ruleset.name} {_scenario_label(game.setup)}; you play {game.guest.side if game.guest else '?'}")
    _setup_report(game.setup, game.guest)
    out(f"host {host.name} plays {host.side}, fingerprint {ids.fingerprint(host.key)}: compare it with the host out of band")
    out(f"mailed {path.name} to {mailed}; pbem mail now reads for {out_folder}" if mailed else
        f"send {path} to {host.name}: pbem send {out_folder} --to HOST-ADDRESS (or paste: pbem armor {path})")
    cli_player.solo_answers(out_folder, folder, None, out)


@app.command()
def receive(
    folder: Annotated[Path, typer.Argument(help="The game folder.")],
    files: Annotated[list[Path], typer.Argument(help="Files received (raw or armored; '-' reads standard input).")],
    key: KeyOption = None,
    keys: KeysOption = None,
    no_reply: Annotated[bool, typer.Option("--no-reply", help="Do not write the acknowledgement automatically.")] = False,
) -> None:
    """Check received files and add them to the game; acknowledge when you have nothing to decide."""
    from pbem.exchange import intake  # mail parsing (email, mailbox): 8 ms only commands reading outside files need
    incoming: list[tuple[bytes, str]] = []
    for path in files:
        if str(path) == "-":
            incoming.extend(intake.incoming(None, _stdin()))
        else:
            incoming.extend(intake.incoming(path))
    result = session.receive(folder, incoming)
    for line in result.already:
        out(line + " (nothing to do)")
    # as written under the lock, not read and hashed again (10 ms at Actium's 1,400); an ack re-checks under it
    game = result.game if result.game is not None else store.load(folder)
    if not result.added:  # an old or duplicate message: say so, and show nothing as if it were new
        out(f"nothing new: {len(result.already)} file{'s' if len(result.already) != 1 else ''} already in the game; "
            + cli_player.waiting_line(game))
        return
    for path in result.added:
        out(f"added {path}")
    cli_player.print_received(game, [int(p.stem) for p in result.added], ids.key_folder(keys), key, out)
    replied = _report_status(game, ids.key_folder(keys), key, auto_reply=not no_reply)
    if result.added:  # the game as loaded, unless an acknowledgement was added since
        cli_report.write_reports(folder, keys, key, out, game=None if replied else game, known=game)


def _report_status(game: referee.Game, keys: Path, key: str | None, auto_reply: bool, shown: str | None = None) -> bool:
    """Say where the game stands for this key; True if it wrote a file (auto_reply: an acknowledgement).

    `shown`: the state line already printed (status prints the last resolved state's), not printed again
    when resolving the opponent's latest file left the state as it was."""
    if game.finished():
        out(f"game over: {game.result()}")
        return False
    try:
        me = session.choose_key(game, keys, key, role=game.next_author)
        role = writing.my_role(game, me)
    except PbemError:
        me, role = None, None
    if me is None or role != game.next_author or game.next_seq < 2:
        out(f"waiting on {game.awaited()} ({game.next_author}) for file {game.next_seq} since {session.when(game.last_time)}")
        return False
    try:
        view = writing.outlook(game, me)
    except OtherSeat as exc:  # a team game: a teammate writes the side's next file
        out(f"waiting on your teammate: {exc} (since {session.when(game.last_time)})")
        return False
    for event in view.resolution.events:
        out("  " + textsafe.visible(game.ruleset.describe_event(event, view.resolution.state)))
    now = game.ruleset.describe(view.resolution.state)
    if now != shown:
        out(now)
    player = game.player(role)
    if view.pending.finished:
        outcome = f"game over: {view.pending.prompt}"
        if auto_reply:
            path, _, _ = session.move(game_folder(game), me, [], "", known=game)
            out(f"{outcome}; wrote the final file {path}: send it (pbem send {game_folder(game)}, or pbem mail), or paste:")
            out(_armored(path))
            return True
        out(f"{outcome}; write the final file with: pbem move {game_folder(game)}")
    elif view.pending.side == player.side:
        out(f"your decision: {view.pending.prompt}  (see: pbem legal {game_folder(game)})")
    elif auto_reply:
        path, _, _ = session.move(game_folder(game), me, [], "", known=game)
        out(f"nothing for you to decide; wrote acknowledgement {path}: send it (pbem send {game_folder(game)}, or pbem mail), or paste:")
        out(_armored(path))
        return True
    else:
        out(f"nothing for you to decide; write the acknowledgement with: pbem move {game_folder(game)}")
    return False


def _armored(path: Path) -> str:
    raw = _read(path)
    signed = movefile.parse(raw, str(path))
    return armoring.armor(raw, f"Game: {signed.body.game} File: {signed.body.seq}").rstrip("\n")


def _scenario_label(setup: referee.Setup) -> str:
    """The scenario's name, marked when its bytes are not the built-in battle of that name."""
    builtin = setup.ruleset.builtin_scenario(setup.scenario_name)
    if builtin is not None and builtin != setup.scenario_data:
        return f"{setup.scenario_name} (MODIFIED, not the built-in {setup.scenario_name}: see below)"
    return setup.scenario_name


def _setup_report(setup: referee.Setup, guest: Player | None, indent: str = "") -> None:
    """Rules data, scenario (with what differs from the built-in), options and chain lengths."""
    out(indent + _rules_data_line(setup))
    builtin = setup.ruleset.builtin_scenario(setup.scenario_name)
    for line in provenance.data_lines("scenario", setup.scenario_name, setup.scenario_data, builtin):
        out(indent + line)
    out(indent + provenance.options_line(setup.options))
    out(indent + provenance.chains_line(setup.host, guest))


def _rules_data_line(setup: referee.Setup) -> str:
    """Say which rules data the game pins, loudly when it is not the installed ruleset's own."""
    pinned = referee.sha256_hex(setup.rules_data)
    builtin = referee.sha256_hex(setup.ruleset.default_rules_data())
    if pinned == builtin:
        return f"rules data: {setup.ruleset.name}'s built-in charts and counters (sha256 {pinned[:16]})"
    return (f"rules data: THIS GAME'S OWN, not the built-in (sha256 {pinned[:16]}; built-in {builtin[:16]}): "
            "both players play from it")


def game_folder(game: referee.Game) -> Path:
    return Path(game.names[0]).parent


@app.command()
def status(
    folder: Annotated[Path, typer.Argument(help="The game folder.")],
    key: KeyOption = None,
    keys: KeysOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the status as JSON (docs/cli.md).")] = False,
) -> None:
    """Say whose file the game waits on, since when, and (on your turn) what you must decide."""
    if as_json:
        return cli_player.print_status_json(folder, keys, key)
    game = store.load(folder)
    if key:  # a key named on the command line must exist and play this game
        session.choose_key(game, ids.key_folder(keys), key)
    host, guest = game.setup.host, game.guest
    out(f"game {game.game_id}: {game.ruleset.name} {_scenario_label(game.setup)}, {len(game.files)} files")
    out(f"  host  {host.name} ({host.side}) {ids.fingerprint(host.key)}")
    if guest:
        out(f"  guest {guest.name} ({guest.side}) {ids.fingerprint(guest.key)}")
    for line in cli_team.roster_lines(game):  # a team game: who holds what
        out("  " + line)
    _setup_report(game.setup, guest, "  ")
    shown = None
    if game.resolved_state is not None:
        shown = game.ruleset.describe(game.resolved_state)
        out("  " + shown)
    for line in cli_rules.status_lines(game, folder):
        out("  " + line)
    _report_status(game, ids.key_folder(keys), key, auto_reply=False, shown=shown)


@app.command()
def move(
    folder: Annotated[Path, typer.Argument(help="The game folder.")],
    orders: Annotated[Optional[list[str]], typer.Argument(help="Orders, one per argument.")] = None,
    orders_file: Annotated[Optional[Path], typer.Option("--orders", help="A file of orders, one per line.")] = None,
    note: Annotated[str, typer.Option(help="A message to your opponent.")] = "",
    pass_: Annotated[bool, typer.Option("--pass", help="Write the file without orders although a decision is due.")] = False,
    hand: Annotated[str, typer.Option(help="A team game's lead: hand your side's next file to this seat.")] = "",
    key: KeyOption = None,
    keys: KeysOption = None,
) -> None:
    """Write your next file: reveal, resolve your opponent's last orders, add yours."""
    lines = list(orders or [])
    if orders_file is not None:
        lines.extend(_read(orders_file).decode("utf-8", errors="replace").splitlines())
    game = store.load(folder)
    me = session.choose_key(game, ids.key_folder(keys), key, role=game.next_author)
    cli_player.refuse_empty_move(game, me, lines, pass_ or bool(hand))
    path, signed, view = session.move(folder, me, lines, note, ids.key_folder(keys), known=game, hand=hand)
    for event in view.resolution.events:
        out("  " + textsafe.visible(game.ruleset.describe_event(event, view.resolution.state)))
    count = len(signed.body.decisions)
    out(f"wrote {path} ({count} decision{'' if count == 1 else 's'}): send it (pbem send {folder}, or pbem mail), "
        "or undo it by deleting it before it is sent")
    cli_player.solo_answers(folder, ids.key_folder(keys), key, out, players=game)
    cli_report.write_reports(folder, keys, key, out, known=game)


@app.command()
def history(folder: Annotated[Path, typer.Argument(help="The game folder.")]) -> None:
    """Print the whole game: each file's author, orders and note, then what resolving it did and rolled."""
    game = store.load(folder, use_cache=False)  # every file's events and dice: a replay (a cache keeps none)
    ruleset = game.ruleset
    for seq, signed in enumerate(game.files):
        body = signed.body
        out(f"file {seq} by {game.signer(seq)}, {session.when(body.time)}, sha256 {signed.hash_hex[:16]}")
        if isinstance(body, movefile.Invite):
            out(f"  invites to {body.ruleset} {body.ruleset_version}, scenario {body.scenario}, rules data {body.rules_hash[:16]}")
        elif isinstance(body, movefile.Accept):
            out("  accepts")
        else:
            for decision in body.decisions:
                out(f"  orders: {textsafe.visible(ruleset.format_order(decision))}")
            if body.note:
                out(f"  note: {textsafe.visible(body.note)}")
            if body.propose_rules is not None:
                offer = body.propose_rules
                out(f"  proposes rules: {game.ruleset.name} {textsafe.visible(offer.ruleset_version)}, rules data {offer.rules_hash[:16]}")
            if body.accept_rules:
                out(f"  accepts the rules change of file {seq - 1}: judged by the new rules from this file on")
        resolution = game.resolutions.get(seq)
        if resolution is None:
            continue
        for event in resolution.events:
            out(f"    {textsafe.visible(ruleset.describe_event(event, resolution.state))}")
        if resolution.rolls:
            dice = " ".join(f"{r.face}" for r in resolution.rolls)
            out(f"    dice (keyed by file {seq + 1}'s reveal): {dice}")
    out(f"rules: {game.judged_by_text()}")
    if game.finished():
        out(f"game over: {game.result()}")
    else:
        out(f"waiting on {game.awaited()} for file {game.next_seq} since {session.when(game.last_time)}")


@app.command()
def armor(file: Annotated[Path, typer.Argument(help="A game file to print in armored text form.")]) -> None:
    """Print a file as armored text for an email body or a forum post."""
    raw = _read(file)
    signed = movefile.parse(raw, str(file))
    out(armoring.armor(raw, f"Game: {signed.body.game} File: {signed.body.seq}").rstrip("\n"))


@app.command()
def verify(
    path: Annotated[Path, typer.Argument(help="A game folder, or an archive made by pbem archive.")],
    against: Annotated[Optional[Path], typer.Option(help="Another file for some step: prove equivocation if it is one.")] = None,
) -> None:
    """Replay a game from its first file, re-checking every signature, link, reveal, die and state."""
    # An archive made by `pbem archive`: the game from it alone. A folder is never one (and asking
    # would import the archive and report code, jinja2 with it, for nothing).
    if path.is_file() and cli_report.is_archive(path):
        return cli_report.verify_archive(path, out)
    game = store.load(path, use_cache=False)  # replay is the truth: never the state cache
    if against is not None:
        from pbem.exchange import intake  # mail parsing (email, mailbox): 8 ms only commands reading outside files need
        for raw, what in intake.incoming(against):
            signed = movefile.parse(raw, what)
            proven, text = referee.equivocation(game, signed, what)
            if proven:
                out(text)
                raise typer.Exit(10)
            out(f"{what}: equivocation not proven: {text}")
        return
    host, guest = game.setup.host, game.guest
    players = f"{host.name} ({host.side}) v {guest.name} ({guest.side})" if guest else f"{host.name} ({host.side}), not yet accepted"
    if game.finished():
        state = f"finished: {game.result()}"
    else:
        state = f"in progress, waiting on {game.awaited()} for file {game.next_seq} since {session.when(game.last_time)}"
    out(f"ok: game {game.game_id} ({game.ruleset.name} {game.setup.scenario_name}), {len(game.files)} files verified; {players}; {state}")
    out(f"rules: {game.judged_by_text()}")


from pbem.cli import orders as cli_orders  # noqa: E402  (legal, orders, board: pbem/cli/orders.py)

cli_orders.register(app)
cli_report.register(app)  # report, archive
from pbem.cli import mail as cli_mail  # noqa: E402  (commands in their own modules)
from pbem.cli import player as cli_player
from pbem.cli import play as cli_play
from pbem.cli import rules as cli_rules
from pbem.cli import team as cli_team
from pbem.cli import demo as cli_demo

for _commands in (cli_mail, cli_player, cli_rules, cli_play, cli_team, cli_demo):
    _commands.register(app)


def _click_exception() -> type[Exception]:
    """click's base exception, wherever this typer keeps click (it may vendor it)."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def main() -> None:
    """Run the CLI: one-line errors, documented exit codes, no tracebacks."""
    collector.settle()
    if helptext.asks_for_list(sys.argv[1:]):  # `pbem` alone too: the list, not a usage error
        sys.stdout.write(cli_start.list_text(app, os.path.basename(sys.argv[0])))
        sys.exit(0)
    try:
        result = cli_start.command_for(app, sys.argv[1:])(standalone_mode=False)  # only what this run uses
    except PbemError as exc:
        typer.echo(f"pbem: error: {textsafe.visible(str(exc))}", err=True)
        sys.exit(exc.exit_code)
    except _click_exception() as exc:
        message = textsafe.visible(exc.format_message().replace("\n", " "))  # type: ignore[attr-defined]
        typer.echo(f"pbem: usage error: {message} (see pbem --help)", err=True)
        sys.exit(getattr(exc, "exit_code", 2))
    except typer.Abort:
        typer.echo("pbem: aborted", err=True)
        sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        typer.echo("pbem: interrupted; the game folder is unchanged unless a file was reported written", err=True)
        sys.exit(130)
    except Exception as exc:  # a bug, not bad input: say so in one line; PBEM_DEBUG=1 shows the traceback
        if os.environ.get("PBEM_DEBUG"):
            raise
        typer.echo(f"pbem: internal error: {type(exc).__name__}: {textsafe.visible(str(exc))} (a bug: please report it; PBEM_DEBUG=1 shows details)", err=True)
        sys.exit(70)
    sys.exit(result if isinstance(result, int) else 0)
