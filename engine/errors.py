"""Typed errors of the rules engine. Each names the rulebook section it enforces."""

from __future__ import annotations


class RulesError(Exception):
    """Base of every error the engine raises about a decision or data."""


class IllegalOrder(RulesError):
    """A decision the rules forbid. `rule` is the section, e.g. "6.35"."""

    def __init__(self, rule: str, reason: str) -> None:
        self.rule = rule
        self.reason = reason
        super().__init__(f"{rule}: {reason}")


class WrongPlayer(RulesError):
    """A decision made by the side that is not the one asked to decide."""


class NotationError(RulesError, ValueError):
    """Text that does not parse as a hex, galley id or order."""


class RulesDataError(RulesError):
    """Rules data (charts, counters, scenarios) that is missing or malformed."""
