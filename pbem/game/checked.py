"""A game as the referee (pbem.game.referee) has checked it: its set-up, its files, the states resolved.

Also what the referee and its callers share: the state hash a file signs, and the guard around every
call into a ruleset on behalf of a file.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

import msgspec

from pbem.game import ruleschange
from pbem.signed.dice import NoDiceYet, RecordedRoll
from pbem.errors import PbemError, RulesetFailure, RulesetProblem
from pbem.game.gamefiles import GameFiles
from pbem.signed.movefile import Move, Player, author_of
from pbem.game.ruleset import Ruleset
from pbem.game.roster import Team, changed


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def state_hash(data: bytes) -> str:
    """The hash a file signs of a state's bytes (docs/protocol.md, "The state hash")."""
    return hashlib.sha256(data).hexdigest()


@contextlib.contextmanager
def ruleset_call(ruleset: Ruleset, what: str, doing: str) -> Iterator[None]:
    """Around every call into a ruleset on behalf of a file: an exception the contract
    does not allow (not one of its illegal_errors) is the ruleset's bug, reported as
    RulesetFailure naming the file, not a crash (rc 70) that names nothing."""
    try:
        yield
    except (PbemError, NoDiceYet, *ruleset.illegal_errors):
        raise
    except Exception as exc:
        raise RulesetFailure(
            f"{what}: {doing}: the ruleset {ruleset.name} {ruleset.version} failed "
            f"({type(exc).__name__}: {exc}); this is a bug in the ruleset, please report it with this file"
        ) from exc


class Setup(msgspec.Struct, frozen=True):
    """What the invitation pins: the game, the ruleset and the exact data."""

    game_id: str
    ruleset: Ruleset
    rules_data: bytes
    scenario_name: str
    scenario_data: bytes
    options: dict[str, Any]
    host: Player
    # The first state, built when the invitation is checked: a set-up the ruleset
    # refuses (a bad option) fails at file 0, before anyone accepts or writes.
    initial_state: Any = None
    team: Team | None = None  # a team game's roster (pbem.game.roster); None: two players


class Resolution(msgspec.Struct):
    """What resolving one file produced."""

    state: Any
    events: list[Any]
    rolls: list[RecordedRoll]


class Game(msgspec.Struct):
    """A replayed game: every file checked, every resolvable state computed."""

    files: GameFiles  # a list of SignedFile is taken as one
    names: list[str]
    setup: Setup
    guest: Player | None = None
    # resolutions[k] resolves file k (k >= 1); the last file is unresolved.
    resolutions: MutableMapping[int, Resolution] = msgspec.field(default_factory=dict)  # pbem.game.store's may replay
    _initial_state: Any = None
    # (k, state): file k's resolved state, known from the state cache without its events
    tip: tuple[int, Any] | None = None
    # (k - 1, state made on demand): the state before file k, which the cache also keeps, so that the
    # last resolved file can be resolved (for its report) without replaying the game
    before_tip: tuple[int, Callable[[], Any]] | None = None
    # (k, state_bytes, previous): the state cache's own encodings of `tip` and of the state before it,
    # so that rewriting the cache for the same files (to record what reading them showed) encodes nothing
    cached_bytes: tuple[int, bytes, bytes] | None = None
    # (first file, set-up) of every agreed rules change, the invitation's first (empty: none):
    # `setup` is the last one's, the rules in force (pbem.game.ruleschange)
    eras: list[tuple[int, Setup]] = msgspec.field(default_factory=list)
    # the check of the last admitted file's decisions, which its resolution resumes from (check_decisions)
    checked: Checked | None = None
    # the files that accepted a team game's seat change (pbem.game.roster.change_seat): `setup.team` is the
    # roster after the last; the state cache is not written for such a game (its key is file 0's roster)
    seat_changes: list[int] = msgspec.field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.files, GameFiles):
            self.files = GameFiles(self.files)

    @property
    def initial_state(self) -> Any:
        """The state before file 2's decisions; made on demand for a game loaded from the cache."""
        if self._initial_state is None and self.guest is not None:
            self._initial_state = first_state(self.eras[0][1] if self.eras else self.setup, self.names[0])
        return self._initial_state

    @initial_state.setter
    def initial_state(self, state: Any) -> None:
        self._initial_state = state

    # ----- facts about the game -------------------------------------------------
    @property
    def ruleset(self) -> Ruleset:
        return self.setup.ruleset

    @property
    def game_id(self) -> str:
        return self.setup.game_id

    def player(self, role: str) -> Player | None:
        return self.setup.host if role == "host" else self.guest

    @property
    def team(self) -> Team | None:
        return self.setup.team

    def team_at(self, seq: int) -> Team | None:
        """The roster file `seq` was written under: file 0's, with each seat change accepted before it."""
        if self.team is None:
            return None
        body = self.files[0].body
        team = Team.of(body.roster)  # type: ignore[union-attr]
        for accepted in self.seat_changes:
            if accepted < seq:
                team = changed(team, self.files[accepted - 1].body.seat_change)  # type: ignore[union-attr]
        return team

    def handed(self, seq: int) -> str:
        """The seat the side's file before `seq` (file seq-2, the same side's) handed file `seq` to, or ""."""
        if seq < 4:
            return ""
        body = self.files[seq - 2].body
        return body.hand if isinstance(body, Move) else ""

    def signer(self, seq: int) -> str:
        """Who wrote file `seq`, for people: the player's name and side, and in a team game his seat."""
        body = self.files[seq].body
        player = self.player(body.author)
        if player is None:
            return body.author
        seat = self.team.by_id.get(body.seat) if self.team is not None and isinstance(body, Move) else None
        if seat is not None:
            return f"{seat.name} ({seat.side}, seat {seat.seat})"
        return f"{player.name} ({player.side})"

    def awaited(self) -> str:
        """Who the game waits on, as far as everyone can tell: the player, or a team game's side (which of its
        seats writes follows from the last file's outcome, which only that side can resolve yet)."""
        player = self.player(self.next_author)
        if player is None:
            return "the guest's acceptance"
        if self.team is None or self.next_seq < 2:
            return player.name
        return f"the {player.side} ({', '.join(seat.name for seat in self.team.seats_of(player.side))})"

    def role_of_side(self, side: str) -> str:
        return "host" if side == self.setup.host.side else "guest"

    @property
    def next_seq(self) -> int:
        return len(self.files)

    @property
    def next_author(self) -> str:
        return author_of(self.next_seq)

    @property
    def last_time(self) -> int:
        return self.files[-1].body.time

    def state_before(self, seq: int) -> Any:
        """The state the decisions of file `seq` are made in (resolved file seq-1)."""
        if seq <= 1:
            return self.initial_state
        at_hand = self.known_state_before(seq)
        return at_hand if at_hand is not None else self.resolutions[seq - 1].state  # this may replay

    def known_state_before(self, seq: int) -> Any | None:
        """The state before file `seq` if it is at hand without replaying anything, else None."""
        if seq <= 1:
            return self.initial_state
        if self.tip is not None and self.tip[0] == seq - 1:
            return self.tip[1]  # the state cache's: equal to the replay's (pbem.game.statecache)
        if self.before_tip is not None and self.before_tip[0] == seq - 1:
            return self.before_tip[1]()  # the cache's too: its hash is the one file seq signs
        known = self.resolutions.get(seq - 1)  # pbem.game.store's Resolutions: without replaying
        return None if known is None else known.state

    @property
    def resolved_state(self) -> Any:
        """The latest state everyone can compute (through file n-1); None before file 2."""
        if len(self.files) < 3:
            return None
        return self.state_before(len(self.files) - 1)

    def finished(self) -> bool:
        """Over once the resolved state is final: no file may follow the one that showed it."""
        state = self.resolved_state
        return state is not None and self.ruleset.pending(state).finished

    def result(self) -> str | None:
        state = self.resolved_state
        if state is None or not self.finished():
            return None
        return self.ruleset.result(state)

    # ----- chain bookkeeping -----------------------------------------------------
    def last_chain_value(self, role: str) -> bytes:
        """The author's newest published chain value: his last reveal, or his anchor."""
        for signed in reversed(self.files):
            body = signed.body
            if isinstance(body, Move) and body.author == role:
                return bytes.fromhex(body.reveal)
        player = self.player(role)
        assert player is not None
        return bytes.fromhex(player.anchor)

    def copy(self) -> Game:
        """A copy whose file list and resolutions can grow without touching this one."""
        return Game(self.files.copy(), list(self.names), self.setup, self.guest, copy.copy(self.resolutions),
                    self._initial_state,
                    self.tip, self.before_tip, self.cached_bytes, list(self.eras), self.checked,
                    list(self.seat_changes))

    def judged_by(self) -> list[ruleschange.Judged]:
        """Which rules judged which files: the invitation's, then each agreed change's from its file on."""
        eras = self.eras or [(0, self.setup)]
        return [ruleschange.Judged(first, eras[i + 1][0] - 1 if i + 1 < len(eras) else None, setup.ruleset.name,
                                   setup.ruleset.version, sha256_hex(setup.rules_data))
                for i, (first, setup) in enumerate(eras)]

    def judged_by_text(self) -> str:
        return ruleschange.describe(self.judged_by())

    def reveals_made(self, role: str) -> int:
        """The author's move files so far: files 2, 3, ... alternate host, guest (each admitted file's
        place and kind are checked), so counting needs none of them read."""
        return sum(1 for seq in range(2, len(self.files)) if author_of(seq) == role)


def first_state(setup: Setup, what: str) -> Any:
    try:
        with ruleset_call(setup.ruleset, what, "setting up the game"):
            return setup.ruleset.new_game(setup.scenario_data, setup.rules_data, setup.options)
    except setup.ruleset.illegal_errors as exc:
        raise RulesetProblem(f"{what}: the game cannot be set up: {exc}") from None



class Checked(msgspec.Struct):
    """What checking file `file_hash`'s decisions computed, for its resolution to resume from: the state
    after those applied in full (`done`, with their events); a last one that rolls is applied again."""

    file_hash: bytes
    state: Any
    done: int
    events: list[Any]
