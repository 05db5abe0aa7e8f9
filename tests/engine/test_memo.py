"""engine.memo: answers kept by identity (by_identity) and on the value itself (kept_property)."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from engine.memo import by_identity, kept_property


class Counter(msgspec.Struct, frozen=True, dict=True):
    value: int
    asked: list[int] = []  # how many times the kept property was worked out (the list is shared: a tally)

    @kept_property
    def doubled(self) -> int:
        self.asked.append(self.value)
        return 2 * self.value


def test_a_kept_property_is_worked_out_once_per_instance_and_is_no_field() -> None:
    tally: list[int] = []
    one = Counter(3, tally)
    assert one.doubled == 6 and one.doubled == 6
    assert tally == [3]
    other = replace(one, value=5)  # a new value starts without the old one's answers
    assert other.doubled == 10 and tally == [3, 5]
    assert msgspec.json.encode(one) == msgspec.json.encode(Counter(3, tally))  # not encoded
    assert one == Counter(3, tally)  # not compared
    assert Counter.doubled.function is not None  # read on the class: the descriptor itself


def test_by_identity_answers_again_for_the_same_object_only() -> None:
    calls: list[object] = []

    @by_identity(2)
    def size(value: list[int], extra: int) -> int:
        calls.append(value)
        return len(value) + extra

    a, b = [1, 2], [1, 2]
    assert size(a, 1) == 3 and size(a, 1) == 3
    assert calls == [a]
    assert size(b, 1) == 3  # equal but not the same object: worked out again
    assert len(calls) == 2 and calls[1] is b
    size(a, 2)  # a third key: the oldest goes
    size(a, 1)
    assert len(calls) == 4
