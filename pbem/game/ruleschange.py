"""Games survive an upgrade: the rules a game is judged by, found by version and by hash, and the
rules change both players sign (docs/protocol.md, "Upgrades"; docs/security.md, "Upgrades").

A game pins its ruleset's version and the SHA-256 of its rules data and
scenario in the signed invitation. An installation judges it if its ruleset
still judges that version (`versions`, `at_version`) and has, or the game
carries, data with those hashes (`rules_data_by_hash`, `scenario_by_hash`:
every data a release shipped is kept by hash). A game may go on under other
rules of the same ruleset and scenario from an agreed point: file k proposes
(`Move.propose_rules`), the opponent's file k+1 accepts it by naming file k's
hash (`Move.accept_rules`); the state after file k is rebound to the new rules
(`rebind`), and file k+1's decisions on are judged by them. A proposal the next
file does not accept has lapsed. pbem knows no ruleset: all of this goes
through the contract (pbem.game.ruleset).
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from pbem.errors import RulesChangeRefused, RulesetProblem
from pbem.signed.movefile import RulesProposal
from pbem.game.ruleset import Ruleset


def versions_of(ruleset: Ruleset) -> tuple[str, ...]:
    """Every version `ruleset` judges (a plug-in that declares none judges only its own)."""
    return tuple(getattr(ruleset, "versions", ()) or (ruleset.version,))


def judge(ruleset: Ruleset, version: str, what: str) -> Ruleset:
    """The ruleset judging as `version` did; RulesetProblem naming both versions if this installation cannot."""
    if ruleset.version == version:
        return ruleset
    known = versions_of(ruleset)
    at = getattr(ruleset, "at_version", None)
    if version not in known or at is None:
        raise RulesetProblem(
            f"{what}: the game is judged by {ruleset.name} {version}, this installation judges "
            f"{ruleset.name} {', '.join(known)} (install a release that judges {version}: docs/protocol.md, Upgrades)"
        )
    judged: Ruleset = at(version)
    return judged


def rules_by_hash(ruleset: Ruleset, sha256: str) -> bytes | None:
    """The rules data with this hash if this installation keeps it (today's built-in or a kept one)."""
    lookup = getattr(ruleset, "rules_data_by_hash", None)
    if lookup is not None:
        data: bytes | None = lookup(sha256)
        return data
    data = ruleset.default_rules_data()
    return data if hashlib.sha256(data).hexdigest() == sha256 else None


def scenario_by_hash(ruleset: Ruleset, name: str, sha256: str) -> bytes | None:
    """The built-in scenario `name` with this hash if this installation keeps it; else today's built-in
    (so that a mismatch is reported with the hash installed here)."""
    lookup = getattr(ruleset, "scenario_by_hash", None)
    found: bytes | None = lookup(name, sha256) if lookup is not None else None
    return found if found is not None else ruleset.builtin_scenario(name)


def proposed(ruleset: Ruleset, proposal: RulesProposal, what: str) -> tuple[Ruleset, bytes]:
    """The ruleset (at the proposed version) and rules data a proposal names, if this installation has them."""
    judged = judge(ruleset, proposal.ruleset_version, what)
    if proposal.rules_data:
        data = proposal.rules_data.encode("utf-8")
    else:
        found = rules_by_hash(judged, proposal.rules_hash)
        if found is None:
            raise RulesChangeRefused(
                f"{what}: the proposed rules data {proposal.rules_hash[:16]} is neither carried in the file "
                "nor kept by this installation"
            )
        data = found
    if hashlib.sha256(data).hexdigest() != proposal.rules_hash:
        raise RulesChangeRefused(f"{what}: the proposed rules data does not have the hash the proposal names")
    return judged, data


def proposal(ruleset: Ruleset, rules_data: bytes, version: str, new_data: bytes | None, what: str) -> RulesProposal:
    """A proposal to go from `ruleset` (at its version) on `rules_data` to `version` on `new_data`
    (None: the same data), refused here if this installation could not judge it or nothing changes."""
    data = rules_data if new_data is None else new_data
    judged = judge(ruleset, version, what)
    if judged.version == ruleset.version and data == rules_data:
        raise RulesChangeRefused(f"{what}: the game is already judged by {ruleset.name} {version} on these rules data")
    kept = rules_by_hash(judged, hashlib.sha256(data).hexdigest()) == data
    try:
        text = "" if kept else data.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesChangeRefused(f"{what}: rules data must be UTF-8 text to travel in a file") from None
    return RulesProposal(ruleset_version=version, rules_hash=hashlib.sha256(data).hexdigest(), rules_data=text)


class Judged(msgspec.Struct, frozen=True):
    """Files `first`..`last` (None: to the end) were judged by `ruleset` `version` on rules data `rules_hash`."""

    first: int
    last: int | None
    ruleset: str
    version: str
    rules_hash: str

    def __str__(self) -> str:
        files = f"files {self.first} on" if self.last is None else f"files {self.first}-{self.last}"
        return f"{files}: {self.ruleset} {self.version}, rules data {self.rules_hash[:16]}"


def describe(spans: list[Judged]) -> str:
    """Which rules judged which files, e.g. 'files 0-57: NAME 1, rules data 3f2a..; files 58 on: NAME 2, rules data 9c01..' (NAME the ruleset's)."""
    return "; ".join(str(span) for span in spans)


def open_proposal(last_body: Any) -> RulesProposal | None:
    """The proposal the last file makes, which the next file may accept (None: none is open)."""
    found = getattr(last_body, "propose_rules", None)
    return found if isinstance(found, RulesProposal) else None
