"""The short plain-text account a mail carries instead of the HTML report (issue 24).

What the file resolved with its dice, where the battle stands, and what the
receiver decides now with the legal options in brief. Every line comes from
the ruleset contract the report also uses (describe_event, describe,
pending, legal, format_order): pbem knows no ruleset. The receiver's tool
renders the full HTML report itself when the file arrives (pbem mail,
pbem receive), so the mail stays a few kilobytes.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple

from pbem.game import referee
from pbem.signed import textsafe
from pbem.signed.movefile import Accept, Invite, Move

LEGAL_SHOWN = 12  # the options listed in a mail; the rest are one `pbem legal` away
# A long resolution is cut, by bytes as well as by count: the local report has every event. A count
# alone let a melee of long events make a 21.6 KB mail.
EVENTS_SHOWN = 60
EVENTS_BYTES = 4 * 1024
ORDERS_BYTES = 1024  # the orders line, cut: the file itself (attached and armored) has them all
LEGAL_BYTES = 2 * 1024  # the legal options listed, cut likewise: `pbem legal` has them all


class Room(NamedTuple):
    """The bytes an account may spend on each of its long parts."""

    events: int
    orders: int
    legal: int


# The file travels twice (armored and attached, each 1.37x its size), so a large file leaves less
# room: pbem.exchange.mailer.compose takes the first room whose mail keeps within issue 24's 20 KB.
# In the full room alone a Tauris mail once reached 23.5 KB (random dice in a test); the largest of
# ten demo games' 910 mails is 16.3 KB (a 3.5 KB file, 4 KB of events). In the last room a file of
# up to about 6 KB fits both ways; a larger one (a 7.3 KB Tauris transfer with both its activations
# written out) travels armored only, in the first room that fits.
ROOMS = (
    Room(EVENTS_BYTES, ORDERS_BYTES, LEGAL_BYTES),
    Room(EVENTS_BYTES // 2, ORDERS_BYTES // 2, LEGAL_BYTES // 2),
    Room(EVENTS_BYTES // 8, ORDERS_BYTES // 4, LEGAL_BYTES // 4),
    Room(0, 0, 0),
)


def cut(lines: Iterable[str], count: int, budget: int) -> list[str]:
    """The first lines, at most `count` of them and `budget` bytes (newlines counted)."""
    kept: list[str] = []
    size = 0
    for line in lines:
        size += len(line.encode()) + 1
        if len(kept) == count or size > budget:
            break
        kept.append(line)
    return kept


def other(role: str) -> str:
    return "guest" if role == "host" else "host"


def account(game: referee.Game, seq: int, room: Room = ROOMS[0]) -> list[str]:
    """The lines telling the receiver of file `seq` what it brings and what he does next, within `room`."""
    body = game.files[seq].body
    if isinstance(body, Invite):
        return [
            f"Invitation: {body.ruleset} {body.scenario}; the host plays {body.host.side}.",
            "pbem mail lists it with the command to accept it (pbem accept ID --out NEW-FOLDER);",
            "or accept this message by hand: pbem accept THIS-MESSAGE.eml --out NEW-FOLDER",
        ]
    if isinstance(body, Accept):
        return [f"Accepted: the guest plays {body.guest.side}. pbem mail adds it and answers for you."]
    assert isinstance(body, Move)
    ruleset = game.ruleset
    lines: list[str] = []
    resolution = game.resolutions.get(seq - 1)
    if resolution is not None and seq >= 3 and resolution.events:
        events = list(resolution.events)
        lines.append(f"What file {seq - 1} did, with the dice of this file's reveal ({len(resolution.rolls)} dice):")
        shown = cut(("  " + textsafe.visible(ruleset.describe_event(e, resolution.state)) for e in events),
                    EVENTS_SHOWN, room.events)
        lines.extend(shown)
        if len(events) > len(shown):
            more = f"and {len(events) - len(shown)} more events" if shown else f"{len(events)} events"
            lines.append(f"  ... {more} (the report pbem writes has them all)")
    if resolution is not None:
        lines.append("Now: " + textsafe.visible(ruleset.describe(resolution.state)))
    if body.decisions:
        orders = textsafe.visible("; ".join(ruleset.format_order(d) for d in body.decisions))
        if len(orders.encode()) > room.orders:
            orders = orders.encode()[: room.orders].decode(errors="ignore") + " ... (the file has them all)"
        lines.append(f"Orders in this file: {orders}")
        lines.append("Their dice come from your reveal: pbem mail adds this file, writes the report of what")
        lines.append("they did, and tells you what you decide then.")
        return lines
    if resolution is None:
        return lines
    pending = ruleset.pending(resolution.state)
    receiver = game.player(other(body.author))
    if pending.finished:
        lines.append(f"Game over: {textsafe.visible(pending.prompt)}")
    elif receiver is not None and pending.side == receiver.side:
        lines.append(f"Your decision now: {textsafe.visible(pending.prompt)}")
        lines.extend(legal_brief(game, resolution.state, room.legal))
    return lines


def legal_brief(game: referee.Game, state: object, budget: int = LEGAL_BYTES) -> list[str]:
    """The legal options as the report lists them: the first LEGAL_SHOWN, within `budget` bytes."""
    ruleset = game.ruleset
    try:
        options = [ruleset.format_order(d) for d in ruleset.legal(state)]
    except ruleset.illegal_errors:
        return []
    if not options:
        return []
    lines = cut((f"  - {textsafe.visible(option)}" for option in options), LEGAL_SHOWN, budget)
    if len(options) > len(lines):
        lines.append(f"  ... {len(options) - len(lines)} {'more' if lines else 'options'}: pbem legal GAME-FOLDER")
    return ["Legal options:"] + lines
