"""Counting a game's files per game turn: which needed a person, which the machine can send.

A file with decisions is one a person had to write; a file without
decisions (an acknowledgement, or the final file) only reveals the next
chain value and carries no choice, so `pbem mail` writes and sends it. A
file counts in the game turn its decisions were made in (the ruleset's
optional `turn(state)`; without it the whole game is one turn).
"""

from __future__ import annotations


import msgspec

from pbem.signed.movefile import Move
from pbem.game.referee import Game


class TurnCount(msgspec.Struct):
    turn: int | None
    decisions: int = 0  # files a person wrote
    acknowledgements: int = 0  # files the machine writes

    @property
    def files(self) -> int:
        return self.decisions + self.acknowledgements


class Tally(msgspec.Struct):
    setup: int = 0
    turns: list[TurnCount] = msgspec.field(default_factory=list)

    @property
    def files(self) -> int:
        return self.setup + sum(t.files for t in self.turns)

    @property
    def decisions(self) -> int:
        return sum(t.decisions for t in self.turns)

    @property
    def acknowledgements(self) -> int:
        return sum(t.acknowledgements for t in self.turns)


def tally(game: Game) -> Tally:
    turn_of = getattr(game.ruleset, "turn", None)
    result = Tally()
    by_turn: dict[int | None, TurnCount] = {}
    for seq, signed in enumerate(game.files):
        body = signed.body
        if not isinstance(body, Move):
            result.setup += 1
            continue
        turn = turn_of(game.state_before(seq)) if turn_of is not None else None
        count = by_turn.setdefault(turn, TurnCount(turn))
        if body.decisions:
            count.decisions += 1
        else:
            count.acknowledgements += 1
    result.turns = list(by_turn.values())
    return result


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def lines(result: Tally) -> list[str]:
    """The tally as the demo prints it."""
    out = ["files per game turn (written by a person = with decisions; by the machine = acknowledgements):"]
    out.append(f"  set-up: {_plural(result.setup, 'file')} (invitation, acceptance)")
    for count in result.turns:
        name = "the game" if count.turn is None else "deployment" if count.turn == 0 else f"turn {count.turn}"
        out.append(
            f"  {name}: {_plural(count.files, 'file')}, {count.decisions} by a person, "
            f"{_plural(count.acknowledgements, 'acknowledgement')} by the machine"
        )
    out.append(
        f"  total: {_plural(result.files, 'file')}; {result.decisions} written by a person, "
        f"{result.acknowledgements} sent by the machine ({result.acknowledgements * 100 // max(1, result.files - result.setup)}%)"
    )
    return out
