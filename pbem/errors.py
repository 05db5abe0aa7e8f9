"""Every failure the protocol can report, one type each, with its exit code.

The CLI prints `str(error)` as one line and exits with `error.exit_code`;
docs/cli.md lists the codes. Each message names the file and what is wrong.
"""

from __future__ import annotations


class PbemError(Exception):
    """Base of all protocol errors."""

    exit_code = 1


class UsageError(PbemError):
    """The command was asked for something that makes no sense here."""

    exit_code = 2


class MissingFile(PbemError):
    """A file or folder named on the command line, or expected in the game, is absent."""

    exit_code = 3


class MalformedFile(PbemError):
    """Not a well-formed pbem file: encoding, canonical form, fields, size, depth."""

    exit_code = 4


class BadSignature(PbemError):
    """The signature does not verify with the key of the side that wrote the file."""

    exit_code = 5


class BrokenChain(PbemError):
    """The hash link to the previous file, or the file's place in the game, is wrong."""

    exit_code = 6


class BadReveal(PbemError):
    """The revealed chain value is not exactly one step back from the author's last."""

    exit_code = 7


class WrongGame(PbemError):
    """The file belongs to another game (its game id differs)."""

    exit_code = 8


class WrongTurn(PbemError):
    """The file's author is not the side whose file comes next."""

    exit_code = 9


class OtherSeat(WrongTurn):
    """A team game's next file is for another seat of the player's own side (docs/protocol.md, "Team games")."""


class Equivocation(PbemError):
    """Two different validly signed files for the same step: proof of cheating."""

    exit_code = 10


class IllegalDecision(PbemError):
    """The ruleset rejects a decision (the message names the rule)."""

    exit_code = 11


class StateMismatch(PbemError):
    """The state or dice the author recorded differ from the replay."""

    exit_code = 12


class KeyProblem(PbemError):
    """No usable key: missing, unreadable, or not a player of this game."""

    exit_code = 13


class RulesetProblem(PbemError):
    """The ruleset, scenario or rules data pinned by the game is unavailable or differs."""

    exit_code = 14


class GameOver(PbemError):
    """The game has ended; no further decisions are accepted."""

    exit_code = 15


class FolderProblem(PbemError):
    """The game folder cannot be read or written as a whole."""

    exit_code = 16


class FolderLocked(FolderProblem):
    """Another pbem command is writing to the game folder right now (pbem.game.lock)."""

    exit_code = 16


class RulesChangeRefused(RulesetProblem):
    """A rules change that cannot be made: nothing proposed, not judged here, or not applicable now."""

    exit_code = 14


class RulesetFailure(RulesetProblem):
    """The ruleset failed on a file in a way its contract does not allow (a bug in the ruleset)."""

    exit_code = 14


class NotYourCommand(PbemError):
    """A team game's file decides for a command (or the whole side) its signer's seat does not hold."""

    exit_code = 18


class MailProblem(PbemError):
    """Mail could not be sent or fetched: settings, connection, TLS, login."""

    exit_code = 17
