"""The fleet ruleset's own error types: one per kind of failure, each a one-line message."""

from __future__ import annotations


class FleetsError(Exception):
    """Any refusal by the fleet rules (the ruleset's `illegal_errors`)."""


class IllegalOrder(FleetsError):
    """An order the rules forbid now; the message names the rule (docs/fleets-rules.md section)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule


class NotationError(FleetsError):
    """An order line that is not in the notation of docs/fleets-orders.md."""


class ScenarioError(FleetsError):
    """A scenario or rules-data file that cannot be used."""
