"""`pbem demo`: a whole game between two new identities, through the real protocol.

Two players, each with his own key folder and his own game folder, exchange
files exactly as they would by email: each file is written by its author's
`pbem move` logic into his folder and delivered by `receive` into the other's.
The players' choices come from the ruleset's own demo player (`choose`, if
it has one) or a seeded pick among its legal decisions (the demo's only
randomness; the dice come from the protocol). A player fills his file the
way a person would: decisions while it is his turn, up to the first one that
rolls dice. At the end both folders are replayed from scratch and must hold
the same bytes.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated, Any, Callable, Optional

import typer

from pbem.signed import commitments
from pbem.game import folder as folder_files
from pbem.signed import identity as ids
from pbem.game import referee
from pbem.game import session
from pbem.game import store
from pbem.game import writing
from pbem.game import ruleset as rulesets
from pbem.signed.dice import NoDiceYet, SealedDice
from pbem.errors import UsageError
from pbem.reports.tally import lines as tally_lines, tally

# A game without a turn limit may never end under random choices:
# the demo stops after this many files, unfinished, and still verifies both folders.
FILE_LIMIT = 600


def choose_orders(ruleset: Any, state: Any, side: str, chooser: random.Random) -> list[str]:
    """A demo player's orders for one file: decide while asked, stop after a decision that rolls dice."""
    orders: list[str] = []
    choose = getattr(ruleset, "choose", None)
    for _ in range(50):
        pending = ruleset.pending(state)
        if pending.finished or pending.side != side:
            break
        decision = choose(state, side, chooser) if choose else chooser.choice(ruleset.legal(state))
        orders.append(ruleset.format_order(decision))
        if commitments.is_secret_line(orders[-1]):
            break  # pbem seals it with the player's key when the file is written
        try:
            state, _ = ruleset.apply(state, decision, SealedDice())
        except NoDiceYet:
            break
    return orders


def choose_seat_orders(ruleset: Any, state: Any, team: Any, seat: Any, chooser: random.Random) -> tuple[list[str], str]:
    """A demo seat's orders in a team game (docs/protocol.md, "Team games"): the demo player's choice while
    it concerns only the seat's commands (or is the whole side's and the seat leads), else a seeded pick
    among the legal decisions that do. (orders, hand): a lead with nothing of his own to decide hands the
    side's file to the seat holding a command the rules wait on."""
    orders: list[str] = []
    choose = getattr(ruleset, "choose", None)
    lead = team.roster.lead[seat.side] == seat.seat

    def mine(decision: Any) -> bool:
        concerned = list(ruleset.commands_of(state, decision))
        return all(c in seat.commands for c in concerned) if concerned else lead

    for _ in range(50):
        pending = ruleset.pending(state)
        if pending.finished or pending.side != seat.side:
            break
        awaited = list(ruleset.awaited_commands(state))
        if lead and awaited and not orders and not any(c in seat.commands for c in awaited):
            return [], next(team.holder[(seat.side, c)] for c in awaited)  # only teammates' commands may act
        decision = None
        for _ in range(20 if choose else 0):  # the demo player's own pick, while it is this seat's to make
            decision = choose(state, seat.side, chooser)
            if mine(decision):
                break
            decision = None
        if decision is None:  # the whole listing is costly (a deployment's): only when the picks missed
            allowed = [d for d in ruleset.legal(state) if mine(d)]
            if not allowed:
                if not orders and lead:
                    holder = next((team.holder.get((seat.side, c)) for c in awaited
                                   if team.holder.get((seat.side, c)) not in (None, seat.seat)), "")
                    return [], holder or ""
                break
            decision = chooser.choice(allowed)
        orders.append(ruleset.format_order(decision))
        if commitments.is_secret_line(orders[-1]):
            break
        try:
            state, _ = ruleset.apply(state, decision, SealedDice())
        except NoDiceYet:
            break
    return orders, ""


def run_demo(
    out_folder: Path, ruleset_name: str, seed: int, say: Callable[[str], None], scenario_name: str | None = None
) -> Path:
    from pbem.exchange import intake  # reads the files the demo's players pass (status needs none of it)

    if out_folder.exists() and any(out_folder.iterdir()):
        raise UsageError(f"{out_folder}: not empty; give a new folder to --out")
    ruleset = rulesets.find(ruleset_name)
    infos = {info.name: info for info in ruleset.scenarios()}
    wanted = scenario_name or getattr(ruleset, "demo_scenario", None) or next(iter(infos))
    if wanted not in infos:
        raise UsageError(f"no scenario {wanted!r} in {ruleset_name} (see: pbem scenarios --ruleset {ruleset_name})")
    scenario = infos[wanted]
    chooser = random.Random(seed)
    keys = {"host": out_folder / "keys" / "alice", "guest": out_folder / "keys" / "bob"}
    folders = {"host": out_folder / "alice", "guest": out_folder / "bob"}
    me = {
        "host": ids.generate("alice", keys["host"]),
        "guest": ids.generate("bob", keys["guest"]),
    }
    say(f"alice {me['host'].fingerprint}  bob {me['guest'].fingerprint}")
    invite = writing.make_invite(me["host"], "Alice", ruleset, scenario.name, scenario.sides[0], {})
    invite_path = session.start(folders["host"], invite)
    game, accept_path = session.accept(intake.one_file(invite_path), folders["guest"], me["guest"], "Bob", 100_000)
    session.receive(folders["host"], intake.incoming(accept_path))
    say(f"game {game.game_id}: {ruleset.name} {scenario.name}, Alice ({scenario.sides[0]}) v Bob ({scenario.sides[1]})")
    role = "host"
    known: dict[str, referee.Game] = {}  # each folder's game as last loaded, passed on (store.load's known)
    while True:
        game = store.load(folders[role], known=known.get(role))
        if game.finished() or len(game.files) >= FILE_LIMIT:
            break
        view = writing.outlook(game, me[role])
        player = game.player(role)
        orders = choose_orders(ruleset, view.resolution.state, player.side, chooser)
        path, signed, _ = session.move(folders[role], me[role], orders, "", keys[role], known=game)
        known[role] = game
        for event in view.resolution.events:
            say("  " + ruleset.describe_event(event, view.resolution.state))
        if orders:
            say(f"{player.name} orders: {'; '.join(orders)}")
        other = "guest" if role == "host" else "host"
        received = session.receive(folders[other], intake.incoming(path), known=known.get(other))
        if received.game is not None:
            known[other] = received.game
        role = other
    final = {r: _replay_from_scratch(folders[r]) for r in folders}
    same = [f.raw for f in final["host"].files] == [f.raw for f in final["guest"].files]
    if not same:
        raise UsageError("the two players' folders differ: this is a bug")
    result = final["host"].result()
    if result is None:
        state = final["host"].resolved_state
        result = f"stopped after {len(final['host'].files)} files, unfinished: {ruleset.describe(state)}"
    say(f"result: {result}")
    for line in tally_lines(tally(final["host"])):
        say(line)
    say(f"verified: {len(final['host'].files)} files, both folders identical")
    say(f"games: {folders['host']} and {folders['guest']}; check with: pbem verify {folders['host']}")
    _write_reports(final["host"], out_folder, say)
    return folders["host"]


def _write_reports(game: referee.Game, out_folder: Path, say: Callable[[str], None]) -> None:
    """The last turn's report and the whole game's archive, beside the players' folders, for the reader to open."""
    from pbem.reports import archive
    from pbem.reports import report

    if getattr(game.ruleset, "view", None) is None or not game.resolutions:
        return
    span = report.turn_spans(game)[-1]
    path = report.write(out_folder / "report" / f"{span.title.replace(' ', '-')}.html", report.render(game, span))
    say(f"turn report: {path} (open it in a browser)")
    archived = archive.write(game, out_folder / "archive.html")
    say(f"archive: {archived} (the whole game; check it with: pbem verify {archived})")


def _replay_from_scratch(folder: Path) -> referee.Game:
    """Verify as a stranger would: every file from file 0, no cached state."""
    paths = folder_files.game_files(folder)
    return referee.replay([folder_files.read(p) for p in paths], [str(p) for p in paths])


def register(app: typer.Typer) -> None:
    """Add `pbem demo` to the app."""
    from pbem.cli.app import out

    @app.command()
    def demo(
        out_folder: Annotated[Path, typer.Option("--out", help="Folder for the demo (keys, both players' game folders).")] = Path("demo-game"),
        ruleset: Annotated[str, typer.Option(help="Ruleset to play.")] = "war-galley",
        seed: Annotated[int, typer.Option(help="Seed of the demo players' choices (not of the dice).")] = 1,
        scenario: Annotated[Optional[str], typer.Option(help="Scenario to play (default: the ruleset's demo scenario).")] = None,
    ) -> None:
        """Play a whole game between two new identities through the real protocol, verify it, say where it is."""
        run_demo(out_folder, ruleset, seed, out, scenario)
