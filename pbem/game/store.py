"""Loading a game folder, and the state cache that spares a command the replay.

`load` reads and hashes every file of the folder (about 16 ms for 2,000
files), then either replays the game (pbem.game.referee) or, if the state cache
beside it (pbem.game.statecache) covers those very files, resumes from the state it
keeps and admits only the later files. The cache's entry is taken only if it
is sealed by this user's secret, keyed by the digests of exactly the files
read, made by this ruleset, version, code and data, and its state is the one
the last covered file signs (the signed state hash): so a resumed game is the
replay's, and `pbem verify` (use_cache=False) never reads a cache.

A command's cache is written only after the command succeeded (`save_loaded`,
called by the CLI), so a failed command leaves the game folder as it was.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, MutableMapping
from pathlib import Path
from typing import Any

from pbem.game import folder as folders
from pbem.signed import movefile
from pbem.game import referee
from pbem.game import ruleschange
from pbem.game import statecache
from pbem.game.gamefiles import GameFiles
from pbem.signed.movefile import Accept, Invite, Move
from pbem.game.referee import Game, Resolution, sha256_hex, state_hash
from pbem.game.ruleset import Ruleset, find


class Resolutions(MutableMapping[int, Resolution]):
    """resolutions[k] resolves file k; those the state cache skipped are replayed when first read.

    A game resumed from the cache knows its latest state but not the events and
    dice of every earlier file: `history`, reports and the like ask for them, and
    then, once, the files are replayed from file 0. Which files the replay would
    resolve (`filled`) is known without it, so asking whether one is resolved, or
    which are, or `get` (what is at hand), replays nothing: only reading a
    skipped one's resolution does.
    """

    def __init__(self, known: dict[int, Resolution] | None = None,
                 fill: Callable[[], MutableMapping[int, Resolution]] | None = None, filled: range = range(0),
                 one: Callable[[int], Resolution | None] | None = None) -> None:
        self._known = dict(known or {})
        self._fill = fill
        self._filled = filled if fill is not None else range(0)
        # Resolves one skipped file on its own when it can (the last one, from the state before it
        # that the cache also keeps); None: only the replay can.
        self._one = one

    def _complete(self) -> None:
        if self._fill is not None:
            fill, self._fill, self._filled = self._fill, None, range(0)
            for seq, resolution in fill().items():
                self._known.setdefault(seq, resolution)

    def _keys(self) -> set[int]:
        return set(self._known).union(self._filled)

    def __contains__(self, seq: object) -> bool:
        return seq in self._known or seq in self._filled

    def __getitem__(self, seq: int) -> Resolution:
        if seq not in self._known and seq in self._filled:
            alone = self._one(seq) if self._one is not None and self._fill is not None else None
            if alone is not None:
                self._known[seq] = alone
                return alone
            self._complete()
        return self._known[seq]

    def get(self, seq: int, default: Any = None) -> Any:  # type: ignore[override]
        """File `seq`'s resolution if it is at hand, without replaying anything."""
        return self._known.get(seq, default)

    def __setitem__(self, seq: int, resolution: Resolution) -> None:
        self._known[seq] = resolution

    def __delitem__(self, seq: int) -> None:
        self._complete()
        del self._known[seq]

    def __iter__(self) -> Iterator[int]:
        return iter(sorted(self._keys()))

    def __len__(self) -> int:
        return len(self._keys())

    def copy(self) -> Resolutions:
        return Resolutions(self._known, self._fill, self._filled, self._one)

    __copy__ = copy


# folder -> (the game a command loaded from it, the digest of the last file the cache beside it covered
# then, None if it covered none): written by save_loaded once the command has succeeded
_to_save: dict[Path, tuple[Game, bytes | None]] = {}


def load(folder: Path, use_cache: bool = True, known: Game | None = None) -> Game:
    """The game in `folder`: replayed, or resumed from its state cache for the files that covers; either
    way the same game, and every file after those checked. `use_cache=False` (pbem verify) replays all and
    neither reads nor writes a cache.

    `known`: the game this command loaded from this folder before (it passes the game on rather than
    have a memo keep it): if its files are still the folder's first files, byte for byte (every file is
    read and hashed again, so a file changed since is seen), it is extended by the files added since,
    each admitted as any other. Without it, a command that loads three times (a move, its reports) would
    replay a game without a cache three times: 2,000 Actium files, 1.6 -> 3.9 s CPU."""
    names = folders.game_file_names(folder)
    raws = folders.read_game_files(names)
    if not use_cache:
        return referee.replay(raws, names)
    digests = [hashlib.sha256(raw).digest() for raw in raws]
    game, covered = _extended(known, digests), None
    if game is None:
        entry = statecache.read(folder)
        game = None if entry is None else _resumed(entry, raws, names, digests)
        covered = None if game is None or entry is None else entry.files[-1]
    if game is None:
        game = referee.replay(raws[:1], names[:1])
    for index in range(len(game.files), len(raws)):
        referee.admit(game, movefile.parse(raws[index], names[index]), names[index])
    _to_save[folder.resolve()] = (game, covered)
    return game


def _extended(known: Game | None, digests: list[bytes]) -> Game | None:
    """A copy of `known` to grow, if its files are the first of these; None if there is none or it differs."""
    if known is None or not 2 <= len(known.files) <= len(digests):
        return None
    if any(known.files.digest(index) != digests[index] for index in range(len(known.files))):
        return None
    return known.copy()


def _resumed(entry: statecache.Entry, raws: list[bytes], names: list[str], digests: list[bytes]) -> Game | None:
    """The game as the cache entry has it, for the files it covers; None if it is not the entry of those."""
    count = len(entry.files)
    if not 3 <= count <= len(raws) or entry.resolved != count - 2 or entry.files != tuple(digests[:count]):
        return None
    files = GameFiles.vouched(raws[:count], digests[:count])
    try:
        invite, acceptance, last = files[0].body, files[1].body, files[-1].body
        if not isinstance(invite, Invite) or not isinstance(acceptance, Accept) or not isinstance(last, Move):
            return None
        # The state must be the one the last file signs for: no cache can slip in another.
        if state_hash(entry.state) != last.state:
            return None
        ruleset = ruleschange.judge(find(invite.ruleset), invite.ruleset_version, names[0])
        if not statecache.key_matches(entry, ruleset, invite.rules_hash, invite.scenario_hash):
            return None
        setup = referee.setup_of(invite, ruleset, names[0], vouched=True)
        state = ruleset.load_state(entry.state, setup.rules_data)
        if ruleset.state_bytes(state) != entry.state:
            return None
        resolved = count - 2
        before_tip = _before_tip(entry.previous, files[resolved].body, ruleset, setup.rules_data, resolved)
    except Exception:  # a damaged or foreign cache of any kind: replay gives the true answer or error
        return None
    covered_names = names[:count]

    def one(seq: int) -> Resolution | None:
        """The last resolved file's resolution, from the state before it: a report of the latest
        file then costs one file's rules, not a replay. None (replay) unless it is checked as the
        replay checks it: the dice and the state the next file signs."""
        if seq != resolved or (seq >= 2 and before_tip is None):
            return None
        try:
            following = files[seq + 1].body
            assert isinstance(following, Move)
            resolution = referee.resolve(game, seq, bytes.fromhex(following.reveal), names[seq + 1])
            if (resolution.rolls != list(following.rolls)
                    or state_hash(ruleset.state_bytes(resolution.state)) != following.state):
                return None
        except Exception:  # whatever went wrong, the replay gives the true answer or error
            return None
        return resolution

    # replaying files 0..count-1 resolves files 1..count-2
    resolutions = Resolutions(fill=lambda: referee.replay(raws[:count], covered_names).resolutions,
                              filled=range(1, count - 1), one=one)
    game = Game(files, covered_names, setup, acceptance.guest, resolutions, None, (resolved, state), before_tip,
                (resolved, entry.state, entry.previous))
    return game


def _before_tip(data: bytes, resolved_body: Any, ruleset: Ruleset, rules_data: bytes,
                resolved: int) -> tuple[int, Callable[[], Any]] | None:
    """The cache's state before the last resolved file, if it keeps one whose hash that file signs."""
    if not data or resolved < 2 or not isinstance(resolved_body, Move) or state_hash(data) != resolved_body.state:
        return None
    made: list[Any] = []

    def state() -> Any:
        if not made:
            made.append(ruleset.load_state(data, rules_data))
        return made[0]

    return resolved - 1, state


def forget_loaded() -> None:
    """Forget the games loaded so far: a command about to start writes the caches of its own loads only."""
    _to_save.clear()


def save_loaded() -> None:
    """Write the state cache of every folder this command loaded (after it succeeded: a command that
    fails leaves the game folder exactly as it was)."""
    while _to_save:
        folder, (game, covered) = _to_save.popitem()
        if covered is None or covered != game.files.digest(len(game.files) - 1):
            save(folder, game)


def save(folder: Path, game: Game) -> None:
    """Write the game's latest resolvable state beside it."""
    count = len(game.files)
    if count < 3 or game.eras or game.seat_changes:  # the key (file 0's rules and roster) would not say which
        return
    ruleset = game.ruleset
    if game.cached_bytes is not None and game.cached_bytes[0] == count - 2:
        state, previous = game.cached_bytes[1:]  # the cache's own, for the same files: nothing to encode
    else:
        state, previous = ruleset.state_bytes(game.resolved_state), _previous_bytes(game)
    statecache.write(folder, statecache.Entry(
        format=statecache.FORMAT,
        ruleset=ruleset.name,
        version=ruleset.version,
        code=statecache.code_fingerprint(type(ruleset).__module__),
        rules_hash=sha256_hex(game.setup.rules_data),
        scenario_hash=sha256_hex(game.setup.scenario_data),
        files=tuple(game.files.digest(index) for index in range(count)),
        resolved=count - 2,
        state=state,
        previous=previous,
    ))


def _previous_bytes(game: Game) -> bytes:
    """The state before the last resolved file, encoded, if the game has it at hand (b"" if not: a
    report of that file then replays)."""
    resolved = len(game.files) - 2
    if resolved < 2:
        return b""
    state = game.known_state_before(resolved)
    return b"" if state is None else game.ruleset.state_bytes(state)
