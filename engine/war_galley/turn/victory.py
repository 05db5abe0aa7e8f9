"""Victory (9.1, 9.2): the VP ledger, the scenario's thresholds, concession, halt and withdrawal.

VP are held per enemy galley (`Award`), so that later events can take them
back: an enemy galley Rammed, Run Aground or sunk is worth its Ram Defense
once ("damage"); a captured one its Ram Defense ("capture", unless already
held as damage) plus the Capture Bonus ("bonus", 1 in the rules data). Recapture takes the
capture and the bonus away; a captured galley later Rammed, sunk or Run
Aground loses the bonus. The Ram Defense is the one printed on the counter's
front (Cruise) side.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.events import Event
from engine.war_galley.map_and_galleys.galley import Capture, Galley, GalleyId
from engine.war_galley.turn import hooks
from engine.war_galley.turn.state import Award, GameState, Phase, Result


class VPAwarded(Event, frozen=True, kw_only=True):
    side: str
    galley: GalleyId
    vp: int
    reason: str


class VPLost(Event, frozen=True, kw_only=True):
    side: str
    galley: GalleyId
    vp: int
    reason: str


class GameEnded(Event, frozen=True, kw_only=True):
    winner: str | None
    kind: str
    text: str


def _owner(state: GameState, galley_id: GalleyId) -> str:
    return state.side_of(galley_id.colour)


def _held(state: GameState, galley_id: GalleyId, side: str, kind: str) -> Award | None:
    return next((a for a in state.awards if a.galley == galley_id and a.side == side and a.kind == kind), None)


def _drop(state: GameState, award: Award, reason: str) -> tuple[GameState, list[Event]]:
    awards = tuple(a for a in state.awards if a != award)
    return replace(state, awards=awards), [VPLost(rule="9.1", side=award.side, galley=award.galley, vp=award.vp,
                                                  reason=reason)]


def damaged(state: GameState, galley_id: GalleyId, how: str) -> tuple[GameState, list[Event]]:
    """An enemy galley Rammed, Run Aground or sunk (`how`): its Ram Defense to its enemy, once."""
    galley = state.galley(galley_id)
    if galley.capture is Capture.CAPTURED:
        captor = state.other(_owner(state, galley_id))
        bonus = _held(state, galley_id, captor, "bonus")
        return _drop(state, bonus, f"the captured galley {how}") if bonus else (state, [])
    enemy = state.other(_owner(state, galley_id))
    if _held(state, galley_id, enemy, "damage") or _held(state, galley_id, enemy, "capture"):
        return state, []
    vp = _value(state, galley)
    award = Award(galley_id, enemy, "damage", vp)
    return replace(state, awards=(*state.awards, award)), [
        VPAwarded(rule="9.1", side=enemy, galley=galley_id, vp=vp, reason=how)
    ]


def captured(state: GameState, galley_id: GalleyId) -> tuple[GameState, list[Event]]:
    """An enemy galley captured by boarding (8.25): Ram Defense + the Capture Bonus."""
    captor = state.other(_owner(state, galley_id))
    vp = _value(state, state.galley(galley_id))
    new = [Award(galley_id, captor, "bonus", state.charts.fixed.capture.bonus_vp)]  # 9.1
    if not _held(state, galley_id, captor, "damage"):
        new.insert(0, Award(galley_id, captor, "capture", vp))
    events: list[Event] = [VPAwarded(rule="9.1", side=captor, galley=galley_id, vp=a.vp,
                                     reason="captured" if a.kind == "capture" else "Capture Bonus") for a in new]
    return replace(state, awards=(*state.awards, *new)), events


def recaptured(state: GameState, galley_id: GalleyId) -> tuple[GameState, list[Event]]:
    """A captured galley regained by its own side: the captor loses the capture VP (9.1)."""
    captor = state.other(_owner(state, galley_id))
    events: list[Event] = []
    for kind in ("capture", "bonus"):
        award = _held(state, galley_id, captor, kind)
        if award is not None:
            state, lost = _drop(state, award, "recaptured")
            events += lost
    return state, events


def _value(state: GameState, galley: Galley) -> int:
    """A galley's VP: its Ram Defense, unless the scenario values it otherwise (Ecnomus' transports)."""
    special = hooks.award_value(state, galley)
    return galley.ratings.cruise.ram_defense if special is None else special


# --- the end of the game -----------------------------------------------------------


def _most(state: GameState, kind: str, why: str, vp: dict[str, int] | None = None) -> Result:
    totals = vp or {s.key: state.vp(s.key) for s in state.sides}
    bonus, reasons = hooks.final_bonus(state)  # Actium: the leaders survive
    totals = {k: v + bonus.get(k, 0) for k, v in totals.items()}
    if reasons:
        why = f"{why}; {'; '.join(reasons)}"
    a, b = (s.key for s in state.sides)
    score = f"{state.side(a).name} {totals[a]} VP, {state.side(b).name} {totals[b]} VP"
    if totals[a] == totals[b]:
        return Result(None, "draw", f"{why}: a draw ({score})")
    winner = a if totals[a] > totals[b] else b
    return Result(winner, kind, f"{why}: {state.side(winner).name} win ({score})")


def check(state: GameState) -> Result | None:
    """Phase H: a side with at least its VP and `ratio` times the enemy's wins (9.1).

    If a side has no galley left on the map, play is over: the thresholds
    are judged first, then (9.1, "because a player has exited ships") most VP wins.
    """
    won = []
    for info in state.sides:
        mine, theirs = state.vp(info.key), state.vp(state.other(info.key))
        if info.vp_needed is not None and mine >= info.vp_needed and mine >= info.vp_ratio * theirs:
            won.append(info.key)
    if len(won) == 1:
        w = state.side(won[0])
        return Result(w.key, "victory", f"{w.name} win with {state.vp(w.key)} VP (needed {w.vp_needed} "
                                        f"and {w.vp_ratio} times the enemy's {state.vp(state.other(w.key))})")
    if won:
        return _most(state, "victory", "both sides reached their VP")
    if any(next(state.galleys_of(s.key), None) is None and not any(q.side == s.key and q.galleys
                                                                    for q in state.extra.queues)
           for s in state.sides):
        return _most(state, "victory", "a fleet has no galleys left on the map")
    return None


def concession(state: GameState, side: str) -> Result:
    winner = state.other(side)
    return Result(winner, "concession", f"{state.side(side).name} concede: {state.side(winner).name} win (9.1)")


def halt(state: GameState) -> Result:
    """Play halted by agreement: a minor victory to the side with most VP (scenario `minor_on_halt`)."""
    if not state.minor_on_halt:
        return Result(None, "draw", "play halted by agreement: a draw")
    return _most(state, "minor", "play halted by agreement, minor victory")


def withdrawal(state: GameState, side: str) -> Result:
    """9.2: the fleet that lost its only admiral withdraws; the other adds 25 VP; high total wins,
    but a withdrawing fleet that still comes out ahead only earns a draw."""
    bonus = state.charts.fixed.loss_of_admiral.withdrawal_bonus_vp
    totals = {s.key: state.vp(s.key) + (bonus if s.key != side else 0) for s in state.sides}
    result = _most(state, "withdrawal", f"{state.side(side).name} withdraw (9.2)", totals)
    if result.winner == side:
        return Result(None, "draw", result.text.replace(" win (", " come out ahead, which is a draw (", 1))
    return result


def end(state: GameState, result: Result) -> tuple[GameState, list[Event]]:
    return replace(state, result=result, phase=Phase.OVER), [
        GameEnded(rule="9.2" if result.kind == "withdrawal" else "9.1", winner=result.winner, kind=result.kind,
                  text=result.text)
    ]
