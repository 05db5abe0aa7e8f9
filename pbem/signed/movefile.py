"""Signed game files: the invitation, the acceptance and every move file.

A file is two lines: the canonical JSON body (pbem.signed.canonical), then the
base64 Ed25519 signature over exactly those body bytes. The file's hash,
SHA-256 of all its bytes, is what the next file's `prev` names. We never
re-serialise to verify: the signed bytes are kept and checked verbatim.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import re
from typing import Any, Literal, Union

import msgspec

from pbem.signed import canonical
from pbem.signed import textsafe
from pbem.signed.dice import RecordedRoll
from pbem.errors import MalformedFile
from pbem.signed.identity import Identity, fingerprint

FORMAT_VERSION = 1
MAX_FILE_BYTES = 1 << 20
MAX_NOTE_CHARS = 4000
MAX_DECISIONS = 1000
MAX_NAME_CHARS = 100

Author = Literal["host", "guest"]
OptionValue = Union[str, int, bool]

# \Z, not $: `$` would also match before a final newline.
HEX64 = re.compile(r"\A[0-9a-f]{64}\Z")
GAME_ID = re.compile(r"\A[0-9a-f]{32}\Z")
MAX_TIME = 253402300799  # 9999-12-31T23:59:59Z: every date a report can print


class Player(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A player as the set-up files pin him: name, key, side and chain anchor."""

    name: str
    key: str  # base64 Ed25519 public key
    side: str  # the ruleset's name for the side he plays
    anchor: str  # hex of c_N, the end of his reveal chain
    chain: int  # N
    nonce: str  # 32 hex digits, fresh per set-up file: part of the chain's seed


class Seat(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A seat of a team game (docs/protocol.md, "Team games"): who sits there and the commands he holds."""

    seat: str  # the seat's id: 1..32 of a-z, 0-9, '-'; files of a team game name the seat that signed them
    name: str  # the person's name, as a player's
    side: str
    key: str  # base64 Ed25519 public key of the person sitting there (one person may hold several seats)
    commands: list[str]  # the ruleset's names of the commands the seat holds (its `commands`)
    address: str = ""  # where every file of the game is mailed for this seat ("": handed on by other means)


class Roster(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Each side's seats, and its lead: the seat that holds the side's whole decisions and its reveal chain."""

    seats: list[Seat]
    lead: dict[str, str]  # side -> seat id


class _Header(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind"):
    pbem: int
    game: str
    seq: int
    prev: str  # hex SHA-256 of file seq-1; "" in the invitation
    author: Author
    time: int  # the author's clock, seconds since 1970 (informative: "since when")


# omit_defaults: a team game's fields are written only when used, so a two-player invitation or
# acceptance encodes byte for byte as it did before they existed.
class Invite(_Header, frozen=True, tag="invite", omit_defaults=True):
    """File 0, by the host: the game, the ruleset, the exact rules data, the host (and a team game's roster)."""

    ruleset: str
    ruleset_version: str
    rules_hash: str
    rules_data: str  # the rules data itself if not the ruleset's built-in, else ""
    scenario: str
    scenario_hash: str
    scenario_data: str  # the scenario itself if not built in, else ""
    options: dict[str, OptionValue]
    host: Player
    roster: Roster | None = None  # a team game's seats; None: two players, one a side
    seals: dict[str, str] = {}  # seat id -> the host side's chain seed sealed to that seat (pbem.signed.seals)


class Accept(_Header, frozen=True, tag="accept", omit_defaults=True):
    """File 1, by the guest: his key, side and anchor. It carries no decisions.

    In a team game the guest is the guest side's lead seat, and file 1 also carries every other seat's
    own acceptance (`joined`) and the guest side's chain seed sealed to its other seats (`seals`)."""

    guest: Player
    joined: dict[str, str] = {}  # seat id -> base64 of the seat's signature taking its place (pbem.signed.seals)
    seals: dict[str, str] = {}


class RulesProposal(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An offer to go on under other rules of the same ruleset and scenario (docs/protocol.md, "Upgrades")."""

    ruleset_version: str
    rules_hash: str
    rules_data: str  # the rules data itself if no release keeps it by hash, else ""


class SeatChange(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A team game's seat passing to another person (docs/protocol.md, "Team games"): proposed by a file of the
    seat's side, in force once the other side's next file accepts it."""

    seat: str
    name: str
    key: str  # the new holder's base64 Ed25519 public key
    box: str  # the side's chain seed sealed to the new key by the proposing seat (pbem.signed.seals)
    address: str = ""


# omit_defaults: the two fields of a rules change are written only when used, so every file without one
# encodes byte for byte as files did before they existed (and those files still verify).
class Move(_Header, frozen=True, tag="move", omit_defaults=True):
    """File k >= 2: resolves file k-1 (reveal, its dice, the state) and commits decisions."""

    reveal: str  # the author's next chain value, hex
    rolls: list[RecordedRoll]  # the dice that resolved file k-1, as the author computed them
    state: str  # hex SHA-256 of the ruleset's state after resolving file k-1
    decisions: list[Any]
    note: str  # a message to the opponent, shown in reports ("" for none)
    propose_rules: RulesProposal | None = None  # the author offers other rules from his opponent's next file
    accept_rules: str = ""  # hex SHA-256 of file k-1, whose proposal the author accepts (docs/protocol.md)
    seat: str = ""  # a team game's: the seat that signed the file ("" in a two-player game)
    hand: str = ""  # a team game's: the seat the lead hands his side's next file to (no decisions then)
    seat_change: SeatChange | None = None  # a team game's: a seat of the author's side passes to another person
    accept_seat: str = ""  # hex SHA-256 of file k-1, whose seat change the author (the other side) accepts
    sealed: str = ""  # a team game's: the values the file commits to, sealed for its side's seats (seals)


Body = Union[Invite, Accept, Move]


class SignedFile(msgspec.Struct, frozen=True, dict=True):
    """A parsed file: its body, the exact bytes, and the signature."""

    body: Body
    raw: bytes
    body_bytes: bytes
    signature: bytes

    # Worked out once (dict=True gives the struct the __dict__ cached_property needs): a replay asks each
    # file's hash four times (the next file's link, the dice, the check's key, the state cache).
    @functools.cached_property
    def hash(self) -> bytes:
        return file_hash(self.raw)

    @functools.cached_property
    def hash_hex(self) -> str:
        return self.hash.hex()


def file_hash(raw: bytes) -> bytes:
    return hashlib.sha256(raw).digest()


def sign(body: Body, identity: Identity) -> SignedFile:
    """Encode `body` canonically and sign it: the file as it will be sent."""
    _check_fields(body, "new file")
    body_bytes = canonical.encode(msgspec.to_builtins(body))
    signature = identity.sign(body_bytes)
    raw = body_bytes + b"\n" + base64.b64encode(signature) + b"\n"
    if len(raw) > MAX_FILE_BYTES:
        raise MalformedFile(f"new file: {len(raw)} bytes, more than the {MAX_FILE_BYTES} allowed")
    return SignedFile(body, raw, body_bytes, signature)


def parse(raw: bytes, what: str) -> SignedFile:
    """Parse a file's bytes; MalformedFile naming `what` for anything off.

    The signature is only decoded here; verifying it needs the author's key,
    which the referee knows from the set-up files.
    """
    if len(raw) > MAX_FILE_BYTES:
        raise MalformedFile(f"{what}: {len(raw)} bytes, more than the {MAX_FILE_BYTES} allowed")
    if not raw:
        raise MalformedFile(f"{what}: empty file")
    if not raw.endswith(b"\n") or raw.count(b"\n") != 2:
        raise MalformedFile(f"{what}: a pbem file is exactly two lines (body, signature)")
    body_bytes, sig_line, _ = raw.split(b"\n")
    try:
        signature = base64.b64decode(sig_line, validate=True)
    except (binascii.Error, ValueError):
        raise MalformedFile(f"{what}: the signature line is not base64") from None
    if len(signature) != 64 or base64.b64encode(signature) != sig_line:
        raise MalformedFile(f"{what}: the signature line is not one base64 Ed25519 signature")
    value = canonical.decode(body_bytes, what)
    if not isinstance(value, dict):
        raise MalformedFile(f"{what}: the body is not a JSON object")
    if value.get("pbem") != FORMAT_VERSION:
        raise MalformedFile(
            f"{what}: format version {value.get('pbem')!r}, this pbem reads version {FORMAT_VERSION}"
        )
    try:
        body = msgspec.convert(value, Body, strict=True)
    except msgspec.ValidationError as exc:
        raise MalformedFile(f"{what}: {exc}") from None
    _check_fields(body, what)
    return SignedFile(body, raw, body_bytes, signature)


_body_decoder = msgspec.json.Decoder(Body)


def parse_known(raw: bytes) -> SignedFile:
    """A file this installation parsed and checked before (the state cache vouches for its hash, or the
    child of pbem.game.checked_ahead parsed these very bytes).

    The same value `parse` gives, without re-checking what was checked: a
    fraction of the cost, for commands that must not pay per file of a long game.
    """
    body_bytes, sig_line, _ = raw.split(b"\n")
    return SignedFile(_body_decoder.decode(body_bytes), raw, body_bytes, base64.b64decode(sig_line))


def _check_fields(body: Body, what: str) -> None:
    """The rules msgspec's types cannot say: formats and the file's place."""
    if not 0 <= body.time <= MAX_TIME:
        raise MalformedFile(f"{what}: time {body.time} is not a date between 1970 and 9999")
    if not GAME_ID.match(body.game):
        raise MalformedFile(f"{what}: game id {body.game!r} is not 32 lowercase hex digits")
    kind = _KINDS[type(body)]
    if body.seq < 0 or kind != _KIND_AT.get(body.seq, "move"):
        raise MalformedFile(f"{what}: file {body.seq} cannot be of kind {kind!r}")
    if body.seq == 0:
        if body.prev != "":
            raise MalformedFile(f"{what}: the invitation has no previous file")
    elif not HEX64.match(body.prev):
        raise MalformedFile(f"{what}: prev is not a hex SHA-256")
    if isinstance(body, Invite):
        _check_player(body.host, what)
        if body.roster is not None or body.seals:
            _check_roster(body, what)
        for name in ("rules_hash", "scenario_hash"):
            if not HEX64.match(getattr(body, name)):
                raise MalformedFile(f"{what}: {name} is not a hex SHA-256")
    elif isinstance(body, Accept):
        _check_player(body.guest, what)
        for seat, signature in body.joined.items():
            _check_seat_id(seat, what)
            if not _canonical_b64(signature, 64):
                raise MalformedFile(f"{what}: seat {seat}'s acceptance is not the base64 of one Ed25519 signature")
        _check_seals(body.seals, what)
    else:  # reveal and state written out, not a loop over their names: this runs for every file
        if not HEX64.match(body.reveal):
            raise MalformedFile(f"{what}: reveal is not 64 hex digits")
        if not HEX64.match(body.state):
            raise MalformedFile(f"{what}: state is not 64 hex digits")
        if len(body.note) > MAX_NOTE_CHARS:
            raise MalformedFile(f"{what}: note longer than {MAX_NOTE_CHARS} characters")
        if len(body.decisions) > MAX_DECISIONS:
            raise MalformedFile(f"{what}: more than {MAX_DECISIONS} decisions")
        for expected, roll in enumerate(body.rolls):
            if roll.index != expected or not 1 <= roll.face <= 6:
                raise MalformedFile(f"{what}: roll {expected} is out of order or not a die face")
        if body.propose_rules is not None or body.accept_rules:
            _check_rules_change(body, what)
        if body.seat_change is not None or body.accept_seat:
            _check_seat_change(body, what)
        if body.sealed and (len(body.sealed) > MAX_NOTE_CHARS * 2 or not _canonical_b64(body.sealed, None)):
            raise MalformedFile(f"{what}: sealed is not the canonical base64 of a sealed text")
        if body.seat or body.hand:
            _check_seat_id(body.seat, what)
            if body.hand:
                _check_seat_id(body.hand, what)
                if body.decisions or body.hand == body.seat:
                    raise MalformedFile(f"{what}: a file that hands the side's next file on decides nothing "
                                        "and hands it to another seat")


VERSION = re.compile(r"\A[0-9A-Za-z][0-9A-Za-z.+-]{0,31}\Z")


def _check_rules_change(body: Move, what: str) -> None:
    """A rules change's fields: well formed, one step at a time (docs/protocol.md, "Upgrades")."""
    if body.accept_rules and not HEX64.match(body.accept_rules):
        raise MalformedFile(f"{what}: accept_rules is not a hex SHA-256")
    proposal = body.propose_rules
    if proposal is None:
        return
    if body.accept_rules:
        raise MalformedFile(f"{what}: a file may accept a rules change or propose one, not both")
    if not VERSION.match(proposal.ruleset_version):
        raise MalformedFile(f"{what}: proposed ruleset version {textsafe.visible(proposal.ruleset_version)!r} "
                            "is not 1..32 letters, digits, '.', '+' or '-'")
    if not HEX64.match(proposal.rules_hash):
        raise MalformedFile(f"{what}: the proposal's rules_hash is not a hex SHA-256")
    if proposal.rules_data and hashlib.sha256(proposal.rules_data.encode("utf-8")).hexdigest() != proposal.rules_hash:
        raise MalformedFile(f"{what}: the rules data the proposal carries does not have the hash it names")


SEAT_ID = re.compile(r"\A[a-z0-9][a-z0-9-]{0,31}\Z")
MAX_SEATS = 64
MAX_COMMAND_CHARS = 100


def _check_seat_id(seat: str, what: str) -> None:
    if not SEAT_ID.match(seat):
        raise MalformedFile(f"{what}: seat id {textsafe.visible(seat)!r} is not 1..32 of a-z, 0-9, '-'")


def _canonical_b64(text: str, length: int | None) -> bool:
    """The one base64 spelling of some bytes (of `length` bytes, if given)."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (ValueError, binascii.Error):
        return False
    return (length is None or len(raw) == length) and base64.b64encode(raw).decode("ascii") == text


def _check_seat_change(body: Move, what: str) -> None:
    if body.accept_seat and not HEX64.match(body.accept_seat):
        raise MalformedFile(f"{what}: accept_seat is not a hex SHA-256")
    change = body.seat_change
    if change is None:
        return
    _check_seat_id(change.seat, what)
    _check_player(Player(change.name, change.key, "", "0" * 64, 1, "0" * 32), f"{what}: the seat's new holder")
    if not _canonical_b64(change.key, 32):
        raise MalformedFile(f"{what}: the seat's new key is not the canonical base64 of 32 bytes")
    if len(change.box) > 200 or len(change.address) > 254 or textsafe.refused_in_name(change.address or "x"):
        raise MalformedFile(f"{what}: the seat change's sealed chain or address is malformed")


def _check_seals(seals: dict[str, str], what: str) -> None:
    for seat, box in seals.items():
        _check_seat_id(seat, what)
        if len(box) > 200:
            raise MalformedFile(f"{what}: the sealed chain of seat {seat} is too long")


def _check_roster(body: Invite, what: str) -> None:
    """A roster's form: ids, names, keys' spelling, commands as visible text (pbem.game.roster judges the rest)."""
    roster = body.roster
    if roster is None:
        raise MalformedFile(f"{what}: sealed chains without a roster")
    if not 2 <= len(roster.seats) <= MAX_SEATS:
        raise MalformedFile(f"{what}: a roster has 2..{MAX_SEATS} seats, not {len(roster.seats)}")
    for seat in roster.seats:
        _check_seat_id(seat.seat, what)
        _check_player(Player(seat.name, seat.key, seat.side, "0" * 64, 1, "0" * 32), f"{what}: seat {seat.seat}")
        if not _canonical_b64(seat.key, 32):
            raise MalformedFile(f"{what}: seat {seat.seat}'s key is not the canonical base64 of 32 bytes")
        for command in seat.commands:
            if not command or len(command) > MAX_COMMAND_CHARS or textsafe.refused_in_name(command):
                raise MalformedFile(f"{what}: seat {seat.seat} holds a command that is not one line of "
                                    f"1..{MAX_COMMAND_CHARS} visible characters")
        if len(seat.address) > 254 or textsafe.refused_in_name(seat.address or "x"):
            raise MalformedFile(f"{what}: seat {seat.seat}'s address is not one line of visible text")
    for side, seat in roster.lead.items():
        _check_seat_id(seat, what)
    _check_seals(body.seals, what)


def _check_player(player: Player, what: str) -> None:
    if not HEX64.match(player.anchor):
        raise MalformedFile(f"{what}: anchor is not 64 hex digits")
    if not GAME_ID.match(player.nonce):
        raise MalformedFile(f"{what}: nonce is not 32 hex digits")
    if not 1 <= player.chain <= 10_000_000:
        raise MalformedFile(f"{what}: chain length {player.chain} outside 1..10000000")
    if not player.name or len(player.name) > MAX_NAME_CHARS:
        raise MalformedFile(f"{what}: player name must be 1..{MAX_NAME_CHARS} characters")
    problem = textsafe.refused_in_name(player.name)
    if problem:  # a name is one line of visible text: no terminal controls, no bidi tricks
        raise MalformedFile(
            f"{what}: player name '{textsafe.visible(player.name)}' {problem} "
            f"(a name is one line of visible text; the key's fingerprint is {_fingerprint(player.key)})"
        )


def _fingerprint(key: str) -> str:
    try:
        return fingerprint(key)
    except (ValueError, binascii.Error):
        return "unreadable"


_KINDS: dict[type, str] = {Invite: "invite", Accept: "accept", Move: "move"}
_KIND_AT = {0: "invite", 1: "accept"}  # and "move" for every later file


def author_of(seq: int) -> Author:
    """Files alternate strictly: the host writes the even ones, the guest the odd."""
    return "host" if seq % 2 == 0 else "guest"


def file_name(seq: int) -> str:
    """The name a file has in a game folder: its sequence number."""
    return f"{seq:06d}.pbem"
