"""The referee: binds the protocol to a ruleset.

It replays a game from its first file, checking every signature, hash link,
reveal, die and state; it knows whose file comes next and what the game
waits on; it admits a file only if all of it holds (`admit`), and proves an
equivocation. It sees the ruleset only through `pbem.game.ruleset`. Writing a
player's own next file is pbem.game.writing's.

Timing (docs/protocol.md): the decisions of file k are resolved with dice
keyed by the opponent's reveal in file k+1. So with files 0..n on hand,
everyone can compute the state through file n-1; file n's decisions wait for
the next file, whose author (who knows his own reveal) sees their outcome
first, then decides.
"""

from __future__ import annotations

import base64
from msgspec.structs import replace
from typing import Any

from pbem.signed import chain
from pbem.signed import identity as ids
from pbem.signed import movefile
from pbem.game import ruleschange
from pbem.signed.dice import DiceStream, NoDiceYet, SealedDice
from pbem.game.gamefiles import GameFiles
from pbem.errors import (
    PbemError,
    BadReveal,
    BrokenChain,
    Equivocation,
    GameOver,
    IllegalDecision,
    KeyProblem,
    MalformedFile,
    RulesChangeRefused,
    RulesetProblem,
    StateMismatch,
    WrongGame,
    WrongTurn,
)
from pbem.signed.movefile import Accept, Invite, Move, SignedFile, author_of
from pbem.game.checked import Checked, Game, Resolution, Setup, first_state, ruleset_call, sha256_hex, state_hash
from pbem.game.ruleset import Ruleset, find
from pbem.game.checked_ahead import CheckedAhead
from pbem.game import roster
from pbem.signed import seals


def check_invite(invite: SignedFile, what: str) -> Setup:
    """Verify an invitation on its own: self-signed, ruleset and data available."""
    body = invite.body
    if not isinstance(body, Invite):
        raise MalformedFile(f"{what}: file 0 must be an invitation")
    ids.check_public(body.host.key, what)
    ids.verify(body.host.key, invite.signature, invite.body_bytes, what)
    ruleset = find(body.ruleset)
    try:
        setup = setup_of(body, ruleset, what)
    except ruleset.illegal_errors as exc:
        raise RulesetProblem(f"{what}: the ruleset refuses the game's set-up: {exc}") from None
    return replace(setup, initial_state=first_state(setup, what))


def setup_of(body: Invite, ruleset: Ruleset, what: str, vouched: bool = False) -> Setup:
    """The set-up file 0 pins. `vouched`: a state cache made by this very ruleset, version and code
    from these very bytes stands for it, so the set-up was checked then and its sides need no reading.

    The game is judged by the ruleset at the version it pins and on the data it pins by hash, carried
    in the file or kept by this installation (pbem.game.ruleschange): an upgrade strands no game."""
    ruleset = ruleschange.judge(ruleset, body.ruleset_version, what)
    rules = _pinned_data(
        body.rules_data, ruleschange.rules_by_hash(ruleset, body.rules_hash), body.rules_hash, "rules data", what
    )
    builtin = ruleschange.scenario_by_hash(ruleset, body.scenario, body.scenario_hash)
    scenario = _pinned_data(
        body.scenario_data, builtin, body.scenario_hash, f"scenario {body.scenario!r}", what
    )
    team = None if body.roster is None else roster.Team.of(body.roster)
    if not vouched:
        with ruleset_call(ruleset, what, "reading the scenario's sides"):
            sides = ruleset.sides(scenario, rules)
        if body.host.side not in sides:
            raise MalformedFile(f"{what}: side {body.host.side!r} is not a side of {body.scenario}")
        if body.roster is not None:
            with ruleset_call(ruleset, what, "reading the battle's commands"):
                team = roster.check(body.roster, ruleset, scenario, rules, body.host.key, body.host.side,
                                    body.seals, what)
    return Setup(body.game, ruleset, rules, body.scenario, scenario, dict(body.options), body.host, team=team)


def _pinned_data(embedded: str, builtin: bytes | None, pinned: str, name: str, what: str) -> bytes:
    data = embedded.encode("utf-8") if embedded else builtin
    if data is None:
        raise RulesetProblem(
            f"{what}: {name} {pinned[:16]} is neither carried in the file nor kept by this installation"
        )
    if sha256_hex(data) != pinned and embedded:
        raise RulesetProblem(
            f"{what}: {name} carried in the file has hash {sha256_hex(data)[:16]}, the game pins {pinned[:16]}"
        )
    if sha256_hex(data) != pinned:  # no release kept here has the pinned bytes: say which ones are here
        raise RulesetProblem(
            f"{what}: {name} {pinned[:16]} is neither carried in the file nor kept by this installation "
            f"(the one built in here has hash {sha256_hex(data)[:16]})"
        )
    return data


# ----- replay -------------------------------------------------------------------


def replay(raws: list[bytes], names: list[str]) -> Game:
    """Check every file in order and compute every resolvable state."""
    if not raws:
        raise BrokenChain("the game has no files (file 000000.pbem, the invitation, is missing)")
    first = movefile.parse(raws[0], names[0])
    _check_place(first, 0, None, names[0], None)
    setup = check_invite(first, names[0])
    game = Game(GameFiles([first]), [names[0]], setup)
    ahead: CheckedAhead | None = None
    try:
        for seq, (raw, name) in enumerate(zip(raws[1:], names[1:]), 1):
            # a file the child parsed and found signed is read without the canonical checks it passed there
            checked = ahead is not None and ahead.verified(seq)
            signed = movefile.parse_known(raw) if checked else movefile.parse(raw, name)
            admit(game, signed, name, signature_checked=checked)
            if seq == 1 and game.guest is not None and game.team is None:  # both keys known: checked on the side
                ahead = CheckedAhead(raws, 2, {"host": setup.host.key, "guest": game.guest.key})
    finally:
        if ahead is not None:
            ahead.close()
    return game


def _check_place(signed: SignedFile, seq: int, previous: SignedFile | None, what: str, game_id: str | None) -> None:
    body = signed.body
    if game_id is not None and body.game != game_id:
        raise WrongGame(f"{what}: belongs to game {body.game}, not {game_id}")
    if body.seq != seq:
        raise BrokenChain(f"{what}: says it is file {body.seq} but stands in place {seq}")
    if body.author != author_of(seq):
        raise WrongTurn(f"{what}: written as the {body.author}, but file {seq} is the {author_of(seq)}'s")
    if previous is not None and body.prev != previous.hash_hex:
        raise BrokenChain(f"{what}: does not follow file {seq - 1} (its prev hash differs)")


def admit(game: Game, signed: SignedFile, what: str, signature_checked: bool = False,
          resolved: Resolution | None = None) -> None:
    """Check `signed` as the game's next file and add it, resolving the one before.

    `signature_checked`: its signature was found good with its author's key already (pbem.game.checked_ahead).
    `resolved`: the file before's resolution with this file's reveal, as its author's outlook computed it
    (make_move checking its own file); still checked against the dice and state the file records."""
    seq = game.next_seq
    if game.finished():
        raise GameOver(f"{what}: the game is over ({game.result()}); no file may follow")
    _check_place(signed, seq, game.files[-1], what, game.game_id)
    body = signed.body
    author = game.player(body.author) if not isinstance(body, Accept) else None
    if isinstance(body, Accept):
        with ruleset_call(game.ruleset, what, "reading the scenario's sides"):
            sides = game.ruleset.sides(game.setup.scenario_data, game.setup.rules_data)
        if body.guest.side == game.setup.host.side or body.guest.side not in sides:
            raise MalformedFile(f"{what}: the guest must play the side the host left free")
        ids.check_public(body.guest.key, what)
        if ids.same_key(body.guest.key, game.setup.host.key):
            raise KeyProblem(f"{what}: the guest uses the host's own key")
        ids.verify(body.guest.key, signed.signature, signed.body_bytes, what)
        _check_joined(game, signed, body, what)
        game.guest = body.guest
        game.initial_state = game.setup.initial_state
        game.files.append(signed)
        game.names.append(what)
        return
    assert isinstance(body, Move) and author is not None
    seat = _signer(game, body, author.side, what)
    if not signature_checked:
        ids.verify(author.key if seat is None else seat.key, signed.signature, signed.body_bytes, what)
    reveal = bytes.fromhex(body.reveal)
    if not chain.follows(reveal, game.last_chain_value(body.author)):
        raise BadReveal(
            f"{what}: reveal is not the {body.author}'s next chain value "
            "(it must hash to his previous one, exactly one step)"
        )
    resolution = resolved if resolved is not None else resolve(game, seq - 1, reveal, what)
    if resolution.rolls != list(body.rolls):
        raise StateMismatch(f"{what}: the dice it records for file {seq - 1} differ from the replay")
    before = game.setup
    if body.accept_rules:  # the rules change of file seq-1 takes effect: this file is judged by the new rules
        resolution, changed = take_effect(game, seq, body.accept_rules, resolution, what)
        game.eras = (game.eras or [(0, before)]) + [(seq, changed)]
        game.setup = changed
    try:
        with ruleset_call(game.ruleset, what, f"encoding the state after file {seq - 1}"):
            replayed = state_hash(game.ruleset.state_bytes(resolution.state))
        if replayed != body.state:
            raise StateMismatch(f"{what}: the state it records after file {seq - 1} differs from the replay")
        game.resolutions[seq - 1] = resolution
        if seat is not None and game.team is not None:  # whose file it is follows from the rules and the roster
            with ruleset_call(game.ruleset, what, "finding the seat that writes this file"):
                expected = roster.next_seat(game.team, game.ruleset, resolution.state, author.side, game.handed(seq))
            if not (body.seat_change is not None and not body.decisions):  # a seat change: any seat of the side
                roster.check_seat(game.team, expected, seat.seat, what, seq)
            roster.check_hand(game.team, seat, body.hand, what)
            if body.seat_change is not None:
                roster.check_change(game.team, seat, body.seat_change, what)
        check_decisions(game, resolution.state, body.author, body.decisions, what, signed.hash, seat)
    except BaseException:
        if game.setup is not before:  # the file is refused: so is the change it accepts
            game.setup, game.eras = before, game.eras[:-1] if len(game.eras) > 2 else []
        raise
    if body.accept_seat:  # the other side's seat passes to its new holder from the next file on
        _take_seat_change(game, seq, body.accept_seat, what)
    game.files.append(signed)
    game.names.append(what)


def _take_seat_change(game: Game, seq: int, accepted: str, what: str) -> None:
    proposing = game.files[seq - 1]
    change = proposing.body.seat_change if isinstance(proposing.body, Move) else None
    if change is None or game.team is None:
        raise MalformedFile(f"{what}: it accepts a seat change, but file {seq - 1} proposes none")
    if accepted != proposing.hash_hex:
        raise MalformedFile(f"{what}: it accepts the seat change of another file than file {seq - 1}")
    game.setup = replace(game.setup, team=roster.changed(game.team, change))
    game.seat_changes.append(seq)


def _signer(game: Game, body: Move, side: str, what: str) -> roster.Seat | None:
    """The seat that signed a team game's file (None in a two-player game, where the file names none)."""
    team = game.team
    if team is None:
        if body.seat or body.hand or body.seat_change is not None or body.accept_seat:
            raise MalformedFile(f"{what}: names a seat, but this game is played by two players, not teams")
        return None
    seat = team.by_id.get(body.seat)
    if seat is None:
        raise WrongTurn(f"{what}: a team game's file names the seat that signed it; {body.seat or 'none'!r} "
                        "is not a seat of this game")
    if seat.side != side:
        raise WrongTurn(f"{what}: file {body.seq} is the {side}' file, but {team.describe(seat)} sits on the "
                        f"{seat.side}: no seat writes the file that keys its own side's dice")
    return seat


def _check_joined(game: Game, signed: SignedFile, body: Accept, what: str) -> None:
    """File 1 of a team game: the guest leads his side; every other seat took its place with its own key."""
    team = game.team
    if team is None:
        if body.joined or body.seals:
            raise MalformedFile(f"{what}: carries seats' acceptances, but this game is played by two players")
        return
    lead = team.lead(body.guest.side)
    if not ids.same_key(lead.key, body.guest.key):
        raise KeyProblem(f"{what}: the guest must sit in his side's lead seat ({team.describe(lead)})")
    wanted = roster.joiners(team, game.setup.host.key, body.guest.key)
    if set(body.joined) != wanted:
        missing = sorted(wanted - set(body.joined))
        raise MalformedFile(f"{what}: the game begins when every seat is taken; "
                            + (f"seat(s) {', '.join(missing)} have not joined" if missing else
                               f"it carries acceptances of seats {', '.join(sorted(set(body.joined) - wanted))} "
                               "that need none"))
    message_of = game.files[0].hash
    for seat_id, signature in sorted(body.joined.items()):
        ids.verify(team.by_id[seat_id].key, base64.b64decode(signature), seals.seat_message(message_of, seat_id),
                   f"{what}: seat {seat_id}'s acceptance")
    roster.check_seals(team, body.guest.side, body.guest.key, body.seals, what)


def take_effect(game: Game, seq: int, accepted: str, resolution: Resolution, what: str) -> tuple[Resolution, Setup]:
    """File `seq` accepts the rules change file seq-1 proposes: the set-up under the new rules, and file
    seq-1's resolution with its state rebound to them (the state file `seq` signs)."""
    proposing = game.files[seq - 1]
    offer = ruleschange.open_proposal(proposing.body)
    if offer is None:
        raise RulesChangeRefused(f"{what}: it accepts a rules change, but file {seq - 1} proposes none")
    if accepted != proposing.hash_hex:
        raise RulesChangeRefused(f"{what}: it accepts a rules change of another file than file {seq - 1}")
    ruleset, rules_data = ruleschange.proposed(game.ruleset, offer, what)
    try:
        with ruleset_call(ruleset, what, f"rebinding the state after file {seq - 1} to the new rules"):
            state = ruleset.rebind(resolution.state, rules_data, game.setup.rules_data)
    except ruleset.illegal_errors as exc:
        raise RulesChangeRefused(f"{what}: the rules change of file {seq - 1} cannot apply: {exc}") from None
    changed = replace(game.setup, ruleset=ruleset, rules_data=rules_data, initial_state=None)
    return Resolution(state, resolution.events, resolution.rolls), changed


# ----- resolving and checking decisions -------------------------------------------------


def resolve(game: Game, seq: int, key: bytes, what: str | None = None) -> Resolution:
    """Resolve file `seq`'s decisions, and the automatic steps after them (for the
    file `what`, whose reveal `key` is: named in a ruleset's failure).

    The decisions `check_decisions` already applied in full (they rolled no
    die) are not applied again: resolution resumes from the state the check
    reached, with the dice stream untouched, exactly as if it had applied them.
    The one that stopped at its first die (the file's last) is applied again
    from that state, now with the dice: rules are pure, so the second
    application goes exactly where the first did, and on.
    """
    what = what or game.names[seq]
    ruleset = game.ruleset
    body = game.files[seq].body
    decisions = body.decisions if isinstance(body, Move) else []
    checked = game.checked if game.checked is not None and game.checked.file_hash == game.files[seq].hash else None
    if checked is not None:
        state, done, events = checked.state, checked.done, list(checked.events)
    else:
        state, done, events = game.state_before(seq), 0, []
    dice = DiceStream(key, game.game_id, game.files[seq].hash)
    for number, decision in enumerate(decisions[done:], done + 1):
        try:
            with ruleset_call(ruleset, what, f"resolving decision {number} of {game.names[seq]}"):
                state, new = ruleset.apply(state, decision, dice)
        except ruleset.illegal_errors as exc:
            # check_decisions admitted it, and the contract forbids errors after a roll.
            raise IllegalDecision(f"{game.names[seq]}: decision {number}: {exc}") from None
        events.extend(new)
    with ruleset_call(ruleset, what, f"running the automatic steps after {game.names[seq]}"):
        state, new = ruleset.advance(state, dice)
    events.extend(new)
    return Resolution(state, events, list(dice.rolls))


def check_decisions(
    game: Game, state: Any, role: str, decisions: list[Any], what: str, file_hash: bytes | None = None,
    seat: roster.Seat | None = None,
) -> None:
    """Check a file's decisions as far as they go without dice (docs/protocol.md).

    Each decision must be the author's to make. A decision that rolls dice
    must be the file's last: its author could not know the outcome, so any
    decision after it would be made blind. With `file_hash` (the file's, about
    to be admitted), what the check computed is kept as `game.checked` for
    `resolve` to resume from.
    """
    ruleset = game.ruleset
    player = game.player(role)
    assert player is not None
    done, events = 0, []
    for number, decision in enumerate(decisions, 1):
        with ruleset_call(ruleset, what, f"decision {number}"):
            pending = ruleset.pending(state)
        if pending.finished:
            raise GameOver(f"{what}: decision {number}: the game is already over")
        if pending.side != player.side:
            waiting = "automatic steps" if pending.side is None else f"the {pending.side} player"
            raise WrongTurn(
                f"{what}: decision {number}: it is not the {player.side} player's decision now "
                f"(the game waits on {waiting}: {pending.prompt})"
            )
        if seat is not None and game.team is not None:
            try:
                with ruleset_call(ruleset, what, f"decision {number}"):
                    roster.check_authority(game.team, ruleset, state, seat, decision, number, what)
            except ruleset.illegal_errors as exc:
                raise IllegalDecision(f"{what}: decision {number}: {exc}") from None
        try:
            with ruleset_call(ruleset, what, f"decision {number}"):
                state, new = ruleset.apply(state, decision, SealedDice())
        except NoDiceYet:  # it rolls: resolve applies it again once the dice are known
            if number != len(decisions):
                raise IllegalDecision(
                    f"{what}: decision {number + 1} follows one that rolls dice; "
                    "it must wait for the next file"
                ) from None
        except ruleset.illegal_errors as exc:
            raise IllegalDecision(f"{what}: decision {number}: {exc}") from None
        else:
            done += 1
            events.extend(new)
    if file_hash is not None:
        game.checked = Checked(file_hash, state, done, events)


def equivocation_proof(game: Game, signed: SignedFile, what: str) -> str | None:
    """The proof that `signed` and the game's file of its step are an equivocation, or None."""
    proven, text = equivocation(game, signed, what)
    return text if proven else None


def equivocation(game: Game, signed: SignedFile, what: str) -> tuple[bool, str]:
    """(True, the proof) if `signed` and the game's file of its step are two different,
    validly signed continuations of the same history; else (False, why not).

    The same game id is not enough: a host may re-use a published game id for a
    new file 0, and the guest's honest file 1 of that new game would then
    "contradict" his file 1 of the old one. A game is its file 0 (docs/protocol.md,
    "Game identity"), and every later file is bound to it by the chain of `prev`
    hashes, so a proof needs the same game, the same seq and the same prev.
    """
    body = signed.body
    seq = body.seq
    if body.game != game.game_id:
        return False, f"it belongs to game {body.game}, not {game.game_id}"
    if seq == 0:
        return False, "it is another invitation: a second file 0 is a second game, not a second step of this one"
    if seq >= len(game.files):
        return False, f"it is file {seq}, a step this game (files 0..{len(game.files) - 1}) has not taken"
    existing = game.files[seq]
    if existing.raw == signed.raw:
        return False, f"it is identical to the game's file {seq}"
    if body.prev != existing.body.prev:
        return False, (
            f"it does not continue the same history: its prev {body.prev[:16]} is not the hash of "
            f"the game's file {seq - 1} ({existing.body.prev[:16]}): another game re-using this game id, "
            "or a branch from an earlier step (compare the files there)"
        )
    role = author_of(seq)
    player = game.player(role)
    if player is None or body.author != role:
        return False, f"it is not written as the {role}, whose step {seq} is"
    key, who = player.key, player.name
    team = game.team
    if team is not None:  # a team game's file is signed by the seat it names, of the side whose step it is
        seat = team.by_id.get(body.seat) if isinstance(body, Move) else None
        if isinstance(body, Move) and (seat is None or seat.side != player.side):
            return False, f"it names no seat of the {role}'s side"
        if isinstance(body, Move) and isinstance(existing.body, Move) and body.seat != existing.body.seat:
            return False, (f"it is signed by seat {body.seat}, the game's file {seq} by seat {existing.body.seat}: "
                           "one of them is not the side's file for that step, not a second step of one seat")
        if seat is not None:
            key, who = seat.key, f"{player.side}' {team.describe(seat)}"
    try:
        ids.verify(key, signed.signature, signed.body_bytes, what)
    except PbemError:
        return False, f"it is not validly signed by the {role}'s key"
    return True, (
        f"EQUIVOCATION by the {role} ({who}, key {ids.fingerprint(key)}): "
        f"two different files {seq} of game {game.game_id}, both following file {seq - 1} "
        f"(sha256 {body.prev}), both validly signed: "
        f"{game.names[seq]} (sha256 {existing.hash_hex}) and {what} (sha256 {signed.hash_hex})"
    )


def raise_if_equivocation(game: Game, signed: SignedFile, what: str) -> None:
    proof = equivocation_proof(game, signed, what)
    if proof:
        raise Equivocation(proof)
