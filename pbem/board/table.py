"""The player's table behind `pbem play`: his game, his key, and what the board page may ask of them.

Everything the page receives is built here as plain data: the report's drawing
of the board (the ruleset's view through its templates, one drawing for
reports, archive and play), the ruleset's click options (`play_options`, an
optional part of the contract, engine/contract.py), the rules' verdict on the
order text, and what sending did. The key stays here: the page never sees a
private key, a reveal or a chain secret, only the public game.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from pbem.exchange import outbox
from pbem.errors import IllegalDecision, OtherSeat, PbemError, UsageError, WrongTurn
from pbem.game import referee, session, store, writing
from pbem.reports import frames, report
from pbem.signed import identity as ids
from pbem.signed.identity import Identity

NOT_OFFERED = "this ruleset offers no clicks yet (it has no play_options): type the order text and check it"


class Table:
    """One game folder and one key; every call holds the table's lock (the server answers in threads)."""

    def __init__(self, folder: Path, keys: Path, key: str | None, mail_config: Path | None = None) -> None:
        self.folder, self.keys, self.key_name, self.mail_config = folder, keys, key, mail_config
        self.lock = threading.Lock()
        self._load()

    def _load(self) -> None:
        self.game = store.load(self.folder)
        # The state cache now, as each `pbem mail` round writes it, not once `pbem play` exits: a table left
        # open for days, then closed with the terminal, must not cost the next command a replay of the game.
        store.save_loaded()
        self.me: Identity = session.choose_key(self.game, self.keys, self.key_name, role=self.game.next_author)
        self.role = writing.my_role(self.game, self.me)
        self.outlook: writing.Outlook | None = None
        self.teammate = ""  # a team game: the seat of my side that writes the next file, if not mine
        if not self.game.finished() and self.game.next_author == self.role:
            try:
                self.outlook = writing.outlook(self.game, self.me)
            except OtherSeat as exc:
                self.teammate = str(exc)

    @property
    def state(self) -> Any:
        return self.outlook.resolution.state if self.outlook is not None else self.game.resolved_state

    def my_decision(self) -> bool:
        """Whether the rules wait on my side now (else the page only shows the board)."""
        if self.outlook is None or self.outlook.pending.finished:
            return False
        player = self.game.player(self.role)
        return player is not None and self.outlook.pending.side == player.side

    def status(self) -> dict[str, Any]:
        game = self.game
        player = game.player(self.role)
        if game.finished():
            waiting = f"the game is over: {game.result()}"
        elif self.teammate:
            waiting = f"waiting on your teammate: {self.teammate}"
        elif self.outlook is None:
            waiting = f"waiting on {game.awaited()} for file {game.next_seq}"
        elif self.my_decision():
            waiting = self.outlook.pending.prompt
        else:
            waiting = f"nothing for you to decide ({self.outlook.pending.prompt}): send the file without orders"
        seats = writing.my_seats(game, self.me)
        you = (f"{seats[0].name}: {', '.join(game.team.describe(seat) for seat in seats)}"  # type: ignore[union-attr]
               if seats else player.name if player else self.role)
        return {"game": game.game_id, "files": len(game.files), "you": you,
                "seats": [game.team.describe(seat) + f", {seat.side}" for seat in game.team.roster.seats]
                if game.team is not None else [],
                "side": player.side if player else None, "yours": self.outlook is not None,
                "decide": self.my_decision(), "waiting": waiting,
                "clicks": hasattr(game.ruleset, "play_options"), "not_offered": NOT_OFFERED}

    def page(self) -> str:
        """The play page: the report's board drawing, the panel around it (templates/pbem/play.html.j2)."""
        ruleset = self.game.ruleset
        folder = report.templates_of(ruleset)
        # before the first file after the acceptance resolves there is no battle yet: no board to draw
        view = ruleset.view(self.state, [], None, {}) if self.state is not None else None
        return report.environment().get_template("pbem/play.html.j2").render(
            view=view, templates=folder, status=self.status(), map_id="map", grid_ref=None, since=self.since(),
            since_frames=frames.as_script(self.since_frames(), "pbem-since-frames"))

    def _since_span(self) -> report.Span | None:
        """My last file and, on my turn, the opponent's last one as my next reveal resolves it (the
        report's private preview), or the newest resolved file; None before any."""
        game = self.game
        if self.outlook is not None and game.next_seq >= 3:
            last = game.next_seq - 1
            first = last - 1 if last - 1 in game.resolutions else last
            return report.Span(first, last, "since your last file", (self.outlook.resolution, self.outlook.reveal))
        if game.resolutions:
            return report.file_span(game, max(game.resolutions))
        return None

    def since(self) -> list[dict[str, Any]]:
        """What happened since my last file, event by event with every die explained, as the report shows it.
        The reveal itself stays here: it keys the dice until I send my file."""
        span = self._since_span()
        if span is None:
            return []
        files = report.context(self.game, span)["files"]
        for entry in files:
            entry["keyed"] = dict(entry["keyed"], reveal="")
        return list(files)

    def since_frames(self) -> dict[str, Any]:
        """Where the pieces stood before those files and after each (pbem/reports/frames.py), for the page's
        step-by-step replay; the last is what the board draws."""
        span = self._since_span()
        if span is None:
            return {"frames": [], "players": []}
        game = self.game
        states = [(span.first - 1, game.state_before(span.first))]
        states += [(seq, report.resolution_of(game, seq, span).state) for seq in range(span.first, span.last + 1)]
        return {"frames": frames.frames(game.ruleset, states), "players": []}

    def stylesheet(self) -> str:
        env = report.environment()
        play_css = env.loader.get_source(env, "pbem/play.css")[0]  # type: ignore[union-attr]
        return report.stylesheet(report.templates_of(self.game.ruleset)) + "\n" + play_css

    def options(self, picks: list[str]) -> dict[str, Any]:
        ruleset = self.game.ruleset
        if not hasattr(ruleset, "play_options"):
            return {"offered": False, "prompt": NOT_OFFERED, "options": [], "order": None, "steps": [], "paths": [],
                    "card": None}
        if not self.my_decision():
            return {"offered": False, "prompt": self.status()["waiting"], "options": [], "order": None, "steps": [],
                    "paths": [], "card": None}
        return offer(ruleset, self.state, picks)

    def card(self, subject: str) -> dict[str, Any]:
        """A piece's card: the ruleset's `explain` data (optional in the contract), as `pbem legal` shows it."""
        ruleset = self.game.ruleset
        if not hasattr(ruleset, "explain"):
            raise UsageError(f"ruleset {ruleset.name} explains no pieces")
        try:
            with referee.ruleset_call(ruleset, "explain", f"explaining {subject}"):
                data, text = ruleset.explain(self.state, subject)
        except ruleset.illegal_errors as exc:
            raise IllegalDecision(str(exc)) from None
        return {"data": data, "text": text}

    def check(self, lines: list[str]) -> dict[str, Any]:
        """The order text judged as `pbem move` would judge it, nothing signed or written."""
        if not self.my_decision():
            raise WrongTurn(self.status()["waiting"])
        assert self.outlook is not None
        return judge(self.game, self.state, self.outlook.role, lines, self.outlook.seat)

    def send(self, lines: list[str], note: str) -> dict[str, Any]:
        """Sign with the local key (pbem.game.session.move, as `pbem move`), then mail it if mail is set up."""
        if self.outlook is None:
            raise WrongTurn(self.status()["waiting"])
        if self.my_decision() and not [line for line in lines if line.strip()]:
            raise IllegalDecision("no orders: a decision is due (build one, or use `pbem move --pass`)")
        path, signed, _ = session.move(self.folder, self.me, lines, note, self.keys, known=self.game)
        try:
            mailed = outbox.mail_if_configured(self.mail_config, self.folder, signed.body.seq)
        except PbemError as exc:
            mailed, problem = None, str(exc)
        else:
            problem = None
        self._load()
        how = f"mailed to {mailed}" if mailed else (
            f"saved; not mailed ({problem}): send it with `pbem send {self.folder}`" if problem else
            "saved; no mail settings: send this file to your opponent by hand")
        return {"ok": True, "path": str(path), "file": signed.body.seq, "mailed_to": mailed, "said": f"wrote {path}: {how}"}

    def fresh(self) -> bool:
        """Re-read the folder if files arrived (`pbem mail` or a hand copy): True when the table changed."""
        files = len(store.load(self.folder, known=self.game).files)
        if files != len(self.game.files):
            self._load()
            return True
        return False


def offer(ruleset: Any, state: Any, picks: list[str]) -> dict[str, Any]:
    """The ruleset's click options after the click path `picks` in `state` (a refusal as IllegalDecision).
    Apart from the table so that any position of a game, a recorded one's too, is offered as the page is."""
    try:
        with referee.ruleset_call(ruleset, "play_options", "offering the options"):
            return dict(ruleset.play_options(state, picks))
    except ruleset.illegal_errors as exc:
        raise IllegalDecision(str(exc)) from None


def judge(game: referee.Game, state: Any, role: str, lines: list[str], seat: Any = None) -> dict[str, Any]:
    """The order text judged in `state` as `pbem check` and `pbem move` judge it (pbem/cli/player.py): parsed
    (pbem.game.session.parse_orders), then the rules' own check (pbem.game.referee.check_decisions); in a team
    game only for the commands `seat` holds."""
    decisions = session.parse_orders(game, state, lines)
    referee.check_decisions(game, state, role, decisions, "orders", seat=seat)
    return {"ok": True, "orders": [game.ruleset.format_order(d) for d in decisions]}


def open_table(folder: Path, keys: Path | None, key: str | None, mail_config: Path | None) -> Table:
    return Table(folder, ids.key_folder(keys), key, mail_config)
