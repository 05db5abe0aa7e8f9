"""pbem.game.checked_ahead: files parsed and signatures checked by a forked child change nothing a replay finds or says.

Every game here is short, so the child is forced on (AHEAD_FROM = 1) and
each outcome compared with the replay that checks every signature itself.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.signed import canonical
from pbem.signed import movefile
from pbem.game import referee
from pbem.game import checked_ahead
from pbem.errors import BadSignature, PbemError
from pbem.signed.movefile import author_of

from .conftest import Kit, Recorded


@pytest.fixture
def ahead_always(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checked_ahead, "AHEAD_FROM", 1)


@pytest.fixture
def ahead_never(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checked_ahead, "AHEAD_FROM", 10**9)


def outcome(raws: list[bytes]) -> tuple[str, object]:
    """What a replay of these files gives: the error's type and message, or every resolved state's bytes."""
    try:
        game = referee.replay(raws, [f"file {i}" for i in range(len(raws))])
    except PbemError as exc:
        return type(exc).__name__, str(exc)
    return "ok", [game.ruleset.state_bytes(r.state) for _, r in sorted(game.resolutions.items())]


def children() -> set[int]:
    """This process's children, zombies too (from /proc: a session's Chromium or mail server is a child as well)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == os.getpid():
            found.add(int(stat.parent.name))
    return found


def no_child_left(before: set[int]) -> bool:
    """The replay's forked child is gone and reaped: no child of ours that was not there before."""
    return not children() - before


def both_ways(monkeypatch: pytest.MonkeyPatch, raws: list[bytes]) -> tuple[str, object]:
    monkeypatch.setattr(checked_ahead, "AHEAD_FROM", 1)
    before = children()
    ahead = outcome(raws)
    assert no_child_left(before)
    monkeypatch.setattr(checked_ahead, "AHEAD_FROM", 10**9)
    alone = outcome(raws)
    assert ahead == alone
    return ahead


def test_a_whole_game_replays_to_the_same_states(recorded: Recorded, monkeypatch: pytest.MonkeyPatch) -> None:
    kind, states = both_ways(monkeypatch, recorded.raws)
    assert kind == "ok" and len(states) == len(recorded.raws) - 2  # type: ignore[arg-type]  # all but the invite and the last


@pytest.mark.parametrize("where", [2, 3, "middle", "last"])
def test_a_forged_signature_fails_as_it_would_alone(
    kit: Kit, recorded: Recorded, monkeypatch: pytest.MonkeyPatch, where: int | str
) -> None:
    k = {"middle": len(recorded.raws) // 2, "last": len(recorded.raws) - 1}.get(where, where)  # type: ignore[call-overload]
    raws = list(recorded.raws)
    raws[k] = kit.sign_bytes(raws[k].split(b"\n")[0], recorded.third)
    kind, message = both_ways(monkeypatch, raws)
    assert kind == BadSignature.__name__ and f"file {k}:" in str(message)


def test_a_malleated_signature_fails_as_it_would_alone(recorded: Recorded, monkeypatch: pytest.MonkeyPatch) -> None:
    k = len(recorded.raws) // 2
    body_bytes, sig_line, _ = recorded.raws[k].split(b"\n")
    sig = base64.b64decode(sig_line)
    s = int.from_bytes(sig[32:], "little") + 2**252 + 27742317777372353535851937790883648493
    raws = list(recorded.raws)
    raws[k] = body_bytes + b"\n" + base64.b64encode(sig[:32] + s.to_bytes(32, "little")) + b"\n"
    assert both_ways(monkeypatch, raws)[0] == BadSignature.__name__


def test_an_earlier_error_comes_first_as_it_would_alone(kit: Kit, recorded: Recorded, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad signature late in the game and a broken file early: the early one is named, child or not."""
    raws = list(recorded.raws)
    late = len(raws) - 1
    raws[late] = kit.sign_bytes(raws[late].split(b"\n")[0], recorded.third)
    raws[5] = raws[5].replace(b"\n", b"\n\n", 1)  # not two lines any more
    kind, message = both_ways(monkeypatch, raws)
    assert kind == "MalformedFile" and "file 5:" in str(message)


def test_the_childs_verdicts_are_the_signatures_truth(kit: Kit, recorded: Recorded, ahead_always: None) -> None:
    raws = list(recorded.raws)
    forged = {4, 9, len(raws) - 2}
    for k in forged:
        raws[k] = kit.sign_bytes(raws[k].split(b"\n")[0], recorded.opponent(author_of(k)))
    game = referee.replay(recorded.raws[:2], ["file 0", "file 1"])
    assert game.guest is not None
    keys = {"host": game.setup.host.key, "guest": game.guest.key}
    before = children()
    with checked_ahead.CheckedAhead(raws, 2, keys) as ahead:
        verdicts = [ahead.verified(seq) for seq in range(2, len(raws))]
    assert no_child_left(before)
    assert verdicts == [seq not in forged for seq in range(2, len(raws))]


def test_the_childs_verdicts_refuse_malformed_files(kit: Kit, recorded: Recorded, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file whose signature verifies over bytes that are not canonical, or not a well-formed body, is
    not vouched for: the replay then parses it itself and names what is wrong."""
    raws = list(recorded.raws)
    spaced = raws[4].split(b"\n")[0].replace(b":", b": ", 1)  # whitespace: not the canonical encoding
    raws[4] = kit.sign_bytes(spaced, recorded.host)
    raws[7] = kit.sign_bytes(b'{"pbem":1}', recorded.guest)  # canonical, but no file body
    raws[8] = b"two\nlines too many\n\n"
    monkeypatch.setattr(checked_ahead, "AHEAD_FROM", 1)
    game = referee.replay(recorded.raws[:2], ["file 0", "file 1"])
    assert game.guest is not None
    with checked_ahead.CheckedAhead(raws, 2, {"host": game.setup.host.key, "guest": game.guest.key}) as ahead:
        verdicts = [ahead.verified(seq) for seq in range(2, len(raws))]
    assert verdicts == [seq not in {4, 7, 8} for seq in range(2, len(raws))]
    kind, message = both_ways(monkeypatch, raws)
    assert kind == "MalformedFile" and "file 4:" in str(message) and "canonical" in str(message)


@settings(max_examples=200, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53 - 1), 2**53 - 1) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
), st.text(max_size=50))
def test_parse_known_reads_what_parse_accepts_as_the_same_value(decision: object, note: str) -> None:
    """The replay reads a file the child vouched for with parse_known: for any bytes parse accepts, the
    same SignedFile (decisions and notes of any JSON and any text, escapes and all)."""
    body = {"kind": "move", "pbem": 1, "game": "0" * 32, "seq": 2, "prev": "a" * 64, "author": "host", "time": 1,
            "reveal": "b" * 64, "rolls": [], "state": "c" * 64, "decisions": [decision], "note": note}
    raw = canonical.encode(body) + b"\n" + base64.b64encode(bytes(64)) + b"\n"
    try:
        strict = movefile.parse(raw, "file")
    except PbemError:
        return  # refused by parse (a depth past MAX_DEPTH, say): never vouched for, never read known
    assert movefile.parse_known(raw) == strict


def test_a_replay_that_stops_early_leaves_no_child(recorded: Recorded, ahead_always: None) -> None:
    raws = list(recorded.raws)
    raws[3] = b"garbage\n"
    before = children()
    with pytest.raises(PbemError):
        referee.replay(raws, [f"file {i}" for i in range(len(raws))])
    assert no_child_left(before)


def test_short_games_do_not_fork(recorded: Recorded, ahead_never: None, tmp_path: Path) -> None:
    ahead = checked_ahead.CheckedAhead(recorded.raws, 2, {"host": "", "guest": ""})
    assert ahead._pid == 0 and not ahead.verified(2)  # nothing forked: every file is checked in line
