"""pbem: signed, hash-chained play-by-email files with dice no one can bend.

The protocol layer knows no game: it sees a ruleset only through the contract
in `pbem.game.ruleset`. See docs/protocol.md and docs/security.md.
"""

__version__ = "0.1.0"
