"""A decision applied once: checked up to its first die, then rolled when the dice are known.

The referee checks a file's decisions when the file arrives (sealed dice:
every check the rules make comes before their first die), and resolves them
when the next file reveals the key of the dice. Applying a decision twice,
once to its first die and again in full, did the checks and everything
before the die twice. Here `ruleset.apply` runs once, in a worker thread:
when it asks for its first die the thread waits, holding everything the
rules computed so far, until `resume` gives it the real dice (or `cancel`
tells it no dice will come: it then sees `NoDiceYet`, as sealed dice raise).

Only one of the two threads runs at any time (each waits on the other's
queue), so the rules run exactly as they would in one thread, with the same
calls on the dice in the same order: the state, events and dice are the ones
a fresh `apply` with the same dice gives.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from pbem.dice import NoDiceYet

Apply = Callable[[Any, Any, Any], tuple[Any, list[Any]]]


class Paused:
    """`apply(state, decision, dice)` run up to its first die (or to its end, if it rolls none).

    After construction: `finished` with `result`, or paused at a die (`resume`/`cancel`).
    An exception the apply raised before any die is raised by the constructor.
    """

    def __init__(self, apply: Apply, state: Any, decision: Any) -> None:
        self._to_rules: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._from_rules: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        self._dice: Any = None
        self.result: tuple[Any, list[Any]] | None = None
        self.spent = False  # resumed or cancelled: a paused apply goes on once
        worker = threading.Thread(target=self._run, args=(apply, state, decision), daemon=True,
                                  name="pbem-paused-apply")
        worker.start()
        self._answer()

    @property
    def finished(self) -> bool:
        return self.result is not None

    def _run(self, apply: Apply, state: Any, decision: Any) -> None:
        try:
            result = apply(state, decision, self)
        except BaseException as exc:  # handed to the waiting thread, which raises it
            self._from_rules.put(("raised", exc))
        else:
            self._from_rules.put(("done", result))

    def _answer(self) -> None:
        kind, value = self._from_rules.get()
        if kind == "raised":
            raise value
        if kind == "done":
            self.result = value

    # --- the dice, as the rules see them ---------------------------------------------------------
    def _real(self, purpose: str) -> Any:
        if self._dice is None:
            self._from_rules.put(("paused", purpose))
            self._dice = self._to_rules.get()
            if self._dice is None:
                raise NoDiceYet(purpose)
        return self._dice

    def d6(self, purpose: str) -> int:
        return self._real(purpose).d6(purpose)

    def two_d6(self, purpose: str) -> int:
        return self._real(purpose).two_d6(purpose)

    # --- the referee's side ------------------------------------------------------------------------
    def resume(self, dice: Any) -> tuple[Any, list[Any]]:
        """Go on from the first die with `dice`: the apply's (state, events), or what it raised."""
        assert not self.finished and not self.spent
        self.spent = True
        self._to_rules.put(dice)
        self._answer()
        assert self.result is not None
        return self.result

    def cancel(self) -> None:
        """No dice will come: the waiting apply sees NoDiceYet and its thread ends."""
        if not self.finished and not self.spent:
            self.spent = True
            self._to_rules.put(None)
