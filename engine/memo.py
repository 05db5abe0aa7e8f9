"""Remember the last few answers about immutable values, by identity.

Game states are frozen but not hashable (some hold dicts), and the rules ask
the same question of one state many times in a row (who decides now, who is
in command range). `by_identity` keeps the last answers keyed by the
argument's `id()`, holding a reference to the argument so that the id cannot
be reused by another object while the answer is kept.

`kept_property` keeps an answer on the value itself (a frozen struct with
`dict=True`), like `functools.cached_property` without its lock: Python 3.11
takes a lock on every first reading, and the rules read thousands of fresh
galleys and positions a game. A race can only work the same answer out twice.

Kept (issue 23) because a target is missed without them. `verify` of 2,000
Actium files, 3 paired whole-process runs against main (1.25 s): with
`by_identity` a plain call, 1.49x (1.85 s); with `kept_property` a plain
property, 3.3x (4.2 s); with neither (and galley_combat.kept off), 5.9x
(7.3 s). Main is at 2.9x the floor; the target is 3x.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Generic, TypeVar, overload

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


class kept_property(Generic[T]):  # noqa: N801 - used as a decorator, like property
    """A property worked out once per instance, kept in its `__dict__` (which then answers, in C)."""

    def __init__(self, function: Callable[[Any], T]) -> None:
        self.function = function
        self.name = function.__name__
        self.__doc__ = function.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> kept_property[T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> T | kept_property[T]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.function(instance)
        return value
