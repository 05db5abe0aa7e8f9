"""Writing a player's own next file: the invitation, its acceptance, and each move.

What the player sees (`outlook`: the latest resolvable state, what it waits
on, his next reveal) and the file he signs from it. Every file written here
is checked as the opponent will check it (pbem.game.referee) before it is
returned, so nothing a player writes can be refused at the other end.
"""

from __future__ import annotations

import base64
import secrets
import time as _time
from typing import Any

import msgspec

from pbem.signed import canonical, chain
from pbem.signed import identity as ids
from pbem.signed import movefile
from pbem.signed import textsafe
from pbem.errors import GameOver, OtherSeat, KeyProblem, MalformedFile, UsageError, WrongTurn
from pbem.game.checked import Game, Resolution, Setup, sha256_hex, state_hash
from pbem.signed.identity import Identity
from pbem.signed.movefile import Accept, Invite, Move, Player, SignedFile
from pbem.game.ruleset import Pending, Ruleset
from pbem.game.referee import admit, check_invite, resolve, take_effect
from pbem.game import roster as rosters
from pbem.signed import seals as sealing
from pbem.signed.movefile import Roster, Seat


def now() -> int:
    return int(_time.time())


def new_game_id() -> str:
    return secrets.token_hex(16)


def make_invite(
    host: Identity,
    host_name: str,
    ruleset: Ruleset,
    scenario: str,
    side: str,
    options: dict[str, Any],
    rules_data: bytes | None = None,
    chain_length: int = chain.DEFAULT_LENGTH,
    game_id: str | None = None,
    roster: Roster | None = None,
) -> SignedFile:
    """File 0. With `roster`, a team game: the host sits in his side's lead seat and seals his side's
    chain to its other seats (pbem.signed.seals)."""
    _check_name(host_name)
    game_id = game_id or new_game_id()
    scenario_name, scenario_data = ruleset.load_scenario(scenario)
    default_rules = ruleset.default_rules_data()
    rules = default_rules if rules_data is None else rules_data
    builtin = ruleset.builtin_scenario(scenario_name)
    sides = ruleset.sides(scenario_data, rules)
    if side not in sides:
        raise MalformedFile(f"side {side!r} is not a side of {scenario_name} (choose {' or '.join(sides)})")
    ruleset.new_game(scenario_data, rules, options)  # refuses bad options with the ruleset's own error
    nonce = secrets.token_hex(16)
    seed = chain.seed(host.private_raw(), game_id, nonce)
    host_anchor = chain.anchor(seed, chain_length).hex()
    boxes = {} if roster is None else _seal_side(roster, side, host, game_id, host_anchor, seed)
    body = Invite(
        pbem=movefile.FORMAT_VERSION,
        game=game_id,
        seq=0,
        prev="",
        author="host",
        time=now(),
        ruleset=ruleset.name,
        ruleset_version=ruleset.version,
        rules_hash=sha256_hex(rules),
        rules_data="" if rules == default_rules else _text(rules, "rules data"),
        scenario=scenario_name,
        scenario_hash=sha256_hex(scenario_data),
        scenario_data="" if scenario_data == builtin else _text(scenario_data, "scenario"),
        options=options,
        host=Player(host_name, host.public_b64, side, host_anchor, chain_length, nonce),
        roster=roster,
        seals=boxes,
    )
    signed = movefile.sign(body, host)
    check_invite(signed, "the new invitation")
    return signed


def _seal_side(roster: Roster, side: str, lead: Identity, game_id: str, anchor: str, seed: bytes) -> dict[str, str]:
    """The side's chain seed sealed to each of its seats another key holds."""
    return {seat.seat: sealing.seal(lead.private_raw(), ids.public_raw(seat.key, f"seat {seat.seat}"),
                                    sealing.context(game_id, anchor, seat.seat), seed)
            for seat in roster.seats if seat.side == side and not ids.same_key(seat.key, lead.public_b64)}


def secrets_context(game_id: str, seq: int) -> bytes:
    return f"{game_id}@{seq}".encode("ascii")


def _sealed(game: Game, me: Identity, role: str, committed: dict[str, str]) -> str:
    """A team game's committed values (10.0), sealed so that the side's seats, and only they, know them."""
    text = canonical.encode({"commits": committed})
    return sealing.seal_for_side(side_seed(game, me, role), secrets_context(game.game_id, game.next_seq), text)


def side_secrets(game: Game, me: Identity) -> dict[str, str]:
    """Every value my side's files committed to (a team game): label -> value, the latest last."""
    role = my_role(game, me)
    seed = side_seed(game, me, role)
    found: dict[str, str] = {}
    for seq in range(2, len(game.files)):
        body = game.files[seq].body
        if isinstance(body, Move) and body.sealed and body.author == role:
            text = sealing.open_for_side(seed, secrets_context(game.game_id, seq), body.sealed, f"file {seq}")
            value = canonical.decode(text, f"file {seq}'s sealed secrets")
            commits = value.get("commits", {}) if isinstance(value, dict) else {}
            found.update({k: v for k, v in commits.items() if isinstance(k, str) and isinstance(v, str)})
    return found


def change_context(game_id: str, anchor: str, seat: str, seq: int) -> bytes:
    """A seat change's box is bound to the file that proposes it, as a set-up file's to the seat."""
    return sealing.context(game_id, anchor, seat) + f"@{seq}".encode("ascii")


def seat_change(game: Game, me: Identity, seat_id: str, name: str, key: str, address: str) -> movefile.SeatChange:
    """A proposal that my side's seat `seat_id` pass to `key`: the side's chain sealed to it (any seat of the
    side may propose, in a file that decides nothing; the other side's next file accepts it)."""
    role = my_role(game, me)
    player = game.player(role)
    assert player is not None
    _check_name(name)
    ids.check_public(key, "the seat's new holder")
    seed = side_seed(game, me, role)
    box = sealing.seal(me.private_raw(), ids.public_raw(key, "the seat's new holder"),
                       change_context(game.game_id, player.anchor, seat_id, game.next_seq), seed)
    return movefile.SeatChange(seat_id, name, key, box, address)


def take_seat(invite: SignedFile, me: Identity, seat_id: str) -> str:
    """A seat's own acceptance of a team game's invitation: its signature, for the guest lead's file 1."""
    body = invite.body
    if not isinstance(body, Invite) or body.roster is None:
        raise UsageError("this invitation is not a team game's; accept it with pbem accept")
    seat = next((s for s in body.roster.seats if s.seat == seat_id), None)
    if seat is None:
        raise UsageError(f"the invitation has no seat {seat_id!r} (its seats: "
                         f"{', '.join(s.seat for s in body.roster.seats)})")
    if not ids.same_key(seat.key, me.public_b64):
        raise KeyProblem(f"seat {seat_id} is for key {ids.fingerprint(seat.key)}, not yours ({me.fingerprint})")
    return base64.b64encode(me.sign(sealing.seat_message(invite.hash, seat_id))).decode("ascii")


def _check_name(name: str) -> None:
    """The player's own name, refused before anything is signed (movefile refuses it in files too)."""
    problem = textsafe.refused_in_name(name) or (
        f"is longer than {movefile.MAX_NAME_CHARS} characters" if len(name) > movefile.MAX_NAME_CHARS else None
    )
    if problem:
        raise UsageError(f"--name '{textsafe.visible(name)}' {problem}: a name is one line of visible text")


def _text(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedFile(f"{name} must be UTF-8 text to travel in the invitation") from None


def make_accept(game: Game, guest: Identity, guest_name: str, chain_length: int = chain.DEFAULT_LENGTH,
                joined: dict[str, str] | None = None) -> SignedFile:
    """File 1. In a team game the guest is his side's lead; `joined`: every other seat's own acceptance
    (take_seat), since the game begins when every seat is taken."""
    _check_name(guest_name)
    if game.next_seq != 1:
        raise WrongTurn("this game has been accepted already")
    if ids.same_key(guest.public_b64, game.setup.host.key):
        raise KeyProblem("you cannot accept your own invitation with the host's key")
    sides = game.ruleset.sides(game.setup.scenario_data, game.setup.rules_data)
    side = sides[1] if sides[0] == game.setup.host.side else sides[0]
    nonce = secrets.token_hex(16)
    seed = chain.seed(guest.private_raw(), game.game_id, nonce)
    guest_anchor = chain.anchor(seed, chain_length).hex()
    team = game.team
    boxes: dict[str, str] = {}
    if team is not None:
        if not ids.same_key(team.lead(side).key, guest.public_b64):
            raise KeyProblem(f"key {guest.name!r} ({guest.fingerprint}) is not the {side}' lead seat "
                             f"({team.describe(team.lead(side))}); the lead accepts for his side, the other "
                             "seats take theirs with pbem join")
        boxes = _seal_side(team.roster, side, guest, game.game_id, guest_anchor, seed)
    body = Accept(
        pbem=movefile.FORMAT_VERSION,
        game=game.game_id,
        seq=1,
        prev=game.files[0].hash_hex,
        author="guest",
        time=now(),
        guest=Player(guest_name, guest.public_b64, side, guest_anchor, chain_length, nonce),
        joined=dict(joined or {}),
        seals=boxes,
    )
    signed = movefile.sign(body, guest)
    admit(game.copy(), signed, "file 1")  # checked as the host will check it, before anything is written
    return signed


def my_seats(game: Game, me: Identity) -> list[Seat]:
    """The seats my key holds in a team game (none in a two-player game)."""
    return [] if game.team is None else game.team.seats_of_key(me.public_b64)


def my_role(game: Game, me: Identity) -> str:
    seats = my_seats(game, me)
    if seats:  # a team game's seat: the role of its side (one side: a key sits on one side only)
        return game.role_of_side(seats[0].side)
    for role in ("host", "guest"):
        player = game.player(role)
        if player is not None and ids.same_key(player.key, me.public_b64):
            return role
    raise KeyProblem(f"key {me.name!r} ({me.fingerprint}) is not a player of game {game.game_id}")


class Outlook(msgspec.Struct):
    """What the next author sees before he writes: the outcome of the last file."""

    role: str
    reveal: bytes
    resolution: Resolution
    pending: Pending
    # the rules the new file's decisions are judged by if it accepts the rules change the last file
    # proposes (its resolution's state is then rebound to them); None: the game's
    changed: Setup | None = None
    # the last file's resolution under the game's rules (`resolution` unless a rules change rebinds it)
    resolved: Resolution | None = None
    # a team game's: the seat that writes this file (pbem.game.roster.next_seat); None in a two-player game
    seat: Seat | None = None


def outlook(game: Game, me: Identity, accept_rules: bool = False, any_seat: bool = False) -> Outlook:
    """Resolve the last file with my own next reveal (only the next author may). `any_seat`: a team game's
    file that proposes a seat change and decides nothing, which any seat of the side may write."""
    role = my_role(game, me)
    if game.finished():
        raise GameOver(f"the game is over: {game.result()}")
    if game.next_author != role:
        raise WrongTurn(f"it is not your turn: the game waits on the {game.next_author}'s file {game.next_seq}")
    if game.next_seq < 2:
        raise WrongTurn("the game is not accepted yet")
    player = game.player(role)
    assert player is not None
    seed = side_seed(game, me, role)
    made = game.reveals_made(role)
    if made >= player.chain:
        raise KeyProblem(
            f"your reveal chain for this game is used up ({player.chain} files); "
            "the game cannot go on (start the next game with a longer --chain-length)"
        )
    store = me.chain_store
    reveal = chain.reveal(seed, player.chain, made + 1, store)
    if store is not None and not chain.follows(reveal, game.last_chain_value(role)):
        chain.forget(store, seed, player.chain)  # damaged checkpoints: walk the chain itself
        reveal = chain.reveal(seed, player.chain, made + 1)
    if not chain.follows(reveal, game.last_chain_value(role)):
        raise KeyProblem(f"key {me.name!r} does not reproduce its own reveal chain for this game")
    resolved = resolve(game, game.next_seq - 1, reveal)
    seat = None
    if game.team is not None:
        seat = rosters.next_seat(game.team, game.ruleset, resolved.state, player.side, game.handed(game.next_seq))
        if seat not in my_seats(game, me) and any_seat:
            seat = next(mine for mine in my_seats(game, me) if mine.side == player.side)
        if seat not in my_seats(game, me):
            raise OtherSeat(f"your side's file {game.next_seq} is for {game.team.describe(seat)}, "
                            "not for your seat")
    if accept_rules:
        resolution, changed = take_effect(game, game.next_seq, game.files[-1].hash_hex, resolved,
                                          f"file {game.next_seq}")
        return Outlook(role, reveal, resolution, changed.ruleset.pending(resolution.state), changed, resolved, seat)
    return Outlook(role, reveal, resolved, game.ruleset.pending(resolved.state), None, resolved, seat)


def side_seed(game: Game, me: Identity, role: str) -> bytes:
    """My side's chain seed: from my own key if I hold the side's chain, else opened from the seal its lead
    made for my seat in the side's set-up file (a team game, pbem.signed.seals)."""
    player = game.player(role)
    assert player is not None
    if ids.same_key(player.key, me.public_b64) or game.team is None:
        return chain.seed(me.private_raw(), game.game_id, player.nonce)
    team = game.team
    assert team is not None
    for seq in range(len(game.files) - 1, 1, -1):  # a seat that changed hands: sealed in the proposing file
        change = getattr(game.files[seq].body, "seat_change", None)
        if change is not None and ids.same_key(change.key, me.public_b64):
            proposer = game.team_at(seq).by_id[game.files[seq].body.seat]  # type: ignore[union-attr]
            return sealing.open_box(me.private_raw(), ids.public_raw(proposer.key, "the proposer's key"),
                                    change_context(game.game_id, player.anchor, change.seat, seq), change.box,
                                    f"file {seq}")
    body = game.files[0 if role == "host" else 1].body
    boxes = body.seals if isinstance(body, (Invite, Accept)) else {}
    for seat in my_seats(game, me):
        if seat.seat in boxes:
            return sealing.open_box(me.private_raw(), ids.public_raw(player.key, "the lead's key"),
                                    sealing.context(game.game_id, player.anchor, seat.seat), boxes[seat.seat],
                                    f"file {0 if role == 'host' else 1}")
    raise KeyProblem(f"key {me.name!r}: the {player.side}' chain is sealed to none of your seats")


def make_move(game: Game, me: Identity, decisions: list[Any], note: str = "",
              propose_rules: movefile.RulesProposal | None = None, accept_rules: bool = False,
              view: Outlook | None = None, hand: str = "", seat_change: movefile.SeatChange | None = None,
              accept_seat: bool = False, committed: dict[str, str] | None = None) -> SignedFile:
    """Write my next file: reveal, the outcome of the last file, and my decisions; it may propose other
    rules, or accept those the last file proposes (pbem.game.ruleschange). `view`: my outlook(game, me,
    accept_rules), if the caller has it (the last file is then not resolved again)."""
    view = view if view is not None else outlook(game, me, accept_rules)
    ruleset = view.changed.ruleset if view.changed is not None else game.ruleset
    body = Move(
        pbem=movefile.FORMAT_VERSION,
        game=game.game_id,
        seq=game.next_seq,
        prev=game.files[-1].hash_hex,
        author=view.role,  # type: ignore[arg-type]
        time=now(),
        reveal=view.reveal.hex(),
        rolls=view.resolution.rolls,
        state=state_hash(ruleset.state_bytes(view.resolution.state)),
        decisions=decisions,
        note=note,
        propose_rules=propose_rules,
        accept_rules=game.files[-1].hash_hex if accept_rules else "",
        seat=view.seat.seat if view.seat is not None else "",
        hand=hand,
        seat_change=seat_change,
        accept_seat=game.files[-1].hash_hex if accept_seat else "",
        sealed=_sealed(game, me, view.role, committed) if committed and game.team is not None else "",
    )
    if hand and view.seat is None:
        raise UsageError("--hand is for team games: there is no other seat to hand your file to")
    signed = movefile.sign(body, me)
    # Check the new file as the opponent will, before anyone sees it (the last file's resolution is the
    # outlook's: the same function of the same files and reveal, and checked against what the file records).
    admit(game.copy(), signed, f"file {body.seq}", resolved=view.resolved)
    return signed
