"""A decision applied once: checked up to its first die, then rolled when the dice are known.

The referee checks a file's decisions when the file arrives (sealed dice:
every check the rules make comes before their first die), and resolves them
when the next file reveals the key of the dice. Applying a decision twice,
once to its first die and again in full, did the checks and everything
before the die twice. Here `ruleset.apply` runs once, in a greenlet: when it
asks for its first die it switches back to the referee, holding everything
the rules computed so far, until `resume` gives it the real dice (or `cancel`
tells it no dice will come: it then sees `NoDiceYet`, as sealed dice raise).

A greenlet, not a thread: the two take turns on one thread by explicit
switches, so the rules run exactly as they would in one call, with the same
calls on the dice in the same order. A thread cost about 260 microseconds to
start and hand over per decision (0.4 s of a 2,000-file verify, issue 16);
a greenlet switch costs about one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from greenlet import GreenletExit, greenlet

from pbem.signed.dice import NoDiceYet

Apply = Callable[[Any, Any, Any], tuple[Any, list[Any]]]


class Paused:
    """`apply(state, decision, dice)` run up to its first die (or to its end, if it rolls none).

    After construction: `finished` with `result`, or paused at a die (`resume`/`cancel`).
    An exception the apply raised before any die is raised by the constructor.
    Use it on the thread that made it: a greenlet cannot be switched to from another.
    """

    def __init__(self, apply: Apply, state: Any, decision: Any) -> None:
        self.result: tuple[Any, list[Any]] | None = None
        self.spent = False  # resumed or cancelled: a paused apply goes on once
        self._rules = greenlet(self._run)
        self._answer(self._rules.switch(apply, state, decision))

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def ended(self) -> bool:
        """The rules have returned or raised: nothing is held paused any more."""
        return self._rules.dead

    @staticmethod
    def _run(apply: Apply, state: Any, decision: Any) -> tuple[str, Any]:
        try:
            return "done", apply(state, decision, _Dice())
        except GreenletExit:
            raise  # collected while paused: let the greenlet end
        except BaseException as exc:  # handed to the referee, which raises it
            return "raised", exc

    def _answer(self, answer: tuple[str, Any]) -> None:
        kind, value = answer
        if kind == "raised":
            raise value
        if kind == "done":
            self.result = value

    # --- the referee's side ------------------------------------------------------------------------
    def resume(self, dice: Any) -> tuple[Any, list[Any]]:
        """Go on from the first die with `dice`: the apply's (state, events), or what it raised."""
        assert not self.finished and not self.spent
        self.spent = True
        self._answer(self._rules.switch(dice))
        assert self.result is not None
        return self.result

    def cancel(self) -> None:
        """No dice will come: the waiting apply sees NoDiceYet and its greenlet ends."""
        if not self.finished and not self.spent:
            self.spent = True
            self._rules.switch(None)  # it answers ("raised", NoDiceYet), which nobody waits for


class _Dice:
    """The dice the paused rules roll: the first call switches back to the referee for the real dice."""

    def __init__(self) -> None:
        self._dice: Any = None
        self._rules = greenlet.getcurrent()  # made inside the rules' greenlet

    def _real(self, purpose: str) -> Any:
        if self._dice is None:
            assert self._rules.parent is not None
            self._dice = self._rules.parent.switch(("paused", purpose))
            if self._dice is None:
                raise NoDiceYet(purpose)
        return self._dice

    def d6(self, purpose: str) -> int:
        return self._real(purpose).d6(purpose)

    def two_d6(self, purpose: str) -> int:
        return self._real(purpose).two_d6(purpose)
