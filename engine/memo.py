"""Remember the last few answers about immutable values, by identity.

Game states are frozen but not hashable (some hold dicts), and the rules ask
the same question of one state many times in a row (who decides now, who is
in command range). `by_identity` keeps the last answers keyed by the
argument's `id()`, holding a reference to the argument so that the id cannot
be reused by another object while the answer is kept.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

T = TypeVar("T")


def by_identity(size: int = 8) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Memoise a pure function of one immutable value (further arguments must be hashable)."""

    def wrap(function: Callable[..., T]) -> Callable[..., T]:
        kept: dict[tuple[Any, ...], tuple[Any, T]] = {}

        @wraps(function)
        def memoised(value: Any, *args: Any) -> T:
            key = (id(value), *args)
            hit = kept.get(key)
            if hit is not None and hit[0] is value:
                return hit[1]
            answer = function(value, *args)
            if len(kept) >= size:
                del kept[next(iter(kept))]  # the oldest
            kept[key] = (value, answer)
            return answer

        return memoised

    return wrap
