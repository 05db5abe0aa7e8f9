"""The typed notation of every decision (docs/orders.md, "Decisions").

    deploy: G3-1 2007-2006, G3-2 2107-2106; Aeaces on G3-1
    squadrons: line astern Chios; G3-5 to Samos
    initiative: ionians first
    speed Egypt: max G3-1 G3-2          (or: speed Egypt: cruise)
    activate Egypt: G3-1 max 6: F F P F; G3-2 cruise 3: F F F; refloat G3-4
    activate Egypt: G3-1 max 6: F F R:R5-3; G3-1 firepots; G3-2 disengage; G3-2 cruise 2: F F;
                    G3-2 fire R5-3 @1; G3-2 grapple R5-3
    activate Aeaces + Egypt: ...        (a successful Double Activation)
    board: G3-2 R5-3, G3-4 R5-3 M1      (or: board, to board nothing)
    reactions: default: avoid=ram-position fire=attacked; G3-12: avoid=never
    double Egypt
    individual G3-12
    individual G3-12: free: G3-12 max 6: F F R:R5-3 | held: G3-12 cruise 2: F F     (engine.war_galley.play.shortcuts)
    speed Egypt: max G3-1; rest: cruise                                             (engine.war_galley.play.shortcuts)
    transfer Egypt to G3-14
    concede / propose halt / accept halt

The side is the one the rules ask (`parse_decision` takes it from the
state); printing leaves it out. Hex positions use the battle's map
notation, so reading needs the map and printing a deployment needs it too.
"""

from __future__ import annotations

import re
from typing import Any

from engine.errors import NotationError
from engine.numerals import shown, whole
from engine.war_galley.galley_combat.reactions import format_reactions, parse_reactions
from engine.war_galley.manpower_combat import manpower_orders
from engine.war_galley.map_and_galleys.galley import parse_galley_id
from engine.war_galley.map_and_galleys.hexes import SINGLE_SHEET, MapSpec
from engine.war_galley.map_and_galleys.position import format_position, parse_position
from engine.war_galley.play import orders
from engine.war_galley.turn.decisions import (
    AcceptHalt,
    Activate,
    AnyDecision,
    Boarding,
    Concede,
    Deploy,
    Double,
    Individual,
    Initiative,
    Missiles,
    ProposeHalt,
    Reactions,
    Speed,
    Squadrons,
    Standing,
    Transfer,
)
from engine.war_galley.turn.entry import offmap_text

_AT_STEP = re.compile(r"(.*?)\s+@(\d+)")
_THEN_BOARD = re.compile(r"then\s+board\s*:?\s*(.*)", re.IGNORECASE)
_GALLEY_ORDERS = ("disengage", "grapple", "fire", "firepots")


def _ids(text: str) -> tuple:
    return tuple(parse_galley_id(t) for t in text.split())


def _parts(text: str, sep: str = ";") -> list[str]:
    return [p.strip() for p in text.split(sep) if p.strip()]


def parse_decision(text: str, side: str, map_: MapSpec = SINGLE_SHEET) -> AnyDecision:
    line = " ".join(text.strip().split())
    head, colon, body = line.partition(":")
    words = head.split(" ", 1)
    verb = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    if verb == "concede" and not colon and not rest:
        return Concede(side=side)
    if line.lower() == "propose halt":
        return ProposeHalt(side=side)
    if line.lower() == "accept halt":
        return AcceptHalt(side=side)
    if verb == "deploy" and colon:
        galleys_text, _, commanders_text = body.partition(";")
        galleys = []
        for item in _parts(galleys_text, ","):
            gid, _, where = item.partition(" ")
            off = offmap_text(where, map_)  # `off`, `behind G5-11`, `enter 3028` (engine.war_galley.turn.entry)
            galleys.append((parse_galley_id(gid), off or format_position(parse_position(where.strip(), map_), map_)))
        aboard = []
        for item in _parts(commanders_text, ","):
            match = re.fullmatch(r"(.+?) on (\S+)", item)
            if match is None:
                raise NotationError(f"{item!r}: write 'NAME on GALLEY'")
            aboard.append((match.group(1), parse_galley_id(match.group(2))))
        return Deploy(side=side, galleys=tuple(galleys), commanders=tuple(aboard))
    if verb == "squadrons":
        lines: tuple[str, ...] = ()
        assign = []
        for part in _parts(body):
            if part.lower().startswith("line astern "):
                lines = tuple(n.strip() for n in part[len("line astern "):].split(","))
                continue
            for item in _parts(part, ","):
                match = re.fullmatch(r"(\S+) to (.+)", item)
                if match is None:
                    raise NotationError(f"{item!r}: write 'GALLEY to COMMANDER'")
                assign.append((parse_galley_id(match.group(1)), match.group(2)))
        return Squadrons(side=side, line_astern=lines, assign=tuple(assign))
    if verb == "initiative" and colon:
        match = re.fullmatch(r"(\S+) first", body.strip())
        if match is None:
            raise NotationError("write 'initiative: SIDE first'")
        return Initiative(side=side, first=match.group(1))
    if verb == "speed" and colon and rest:
        body, _, standing = body.partition(";")
        later = ""
        if standing.strip():  # the standing choice for the side's other squadrons (engine.war_galley.play.shortcuts)
            match = re.fullmatch(r"rest:?\s*(cruise|max)", standing.strip(), re.IGNORECASE)
            if match is None:
                raise NotationError("write 'rest: cruise' or 'rest: max' after the squadron's speed")
            later = match.group(1).lower()
        level, _, ids = body.strip().partition(" ")
        if level.lower() == "cruise" and not ids:
            return Speed(side=side, squadron=rest, rest=later)
        if level.lower() == "max":
            return Speed(side=side, squadron=rest, maximum=_ids(ids), rest=later)
        raise NotationError("write 'speed SQUADRON: cruise' or 'speed SQUADRON: max GALLEY ...'")
    if verb == "activate" and colon and rest:
        first, _, second = rest.partition(" + ")
        return _activate(side, first.strip(), second.strip() or None, body, map_)
    if verb == "board":
        parties = manpower_orders.parse_boarding(line).parties if colon and body.strip() else ()
        return Boarding(side=side, parties=parties)
    if verb == "reactions" and colon and not rest:
        return Reactions(side=side, orders=parse_reactions("\n".join(_parts(body))))
    if verb == "double" and rest and not colon:
        return Double(side=side, other=rest)
    if verb == "individual" and _THEN_NEXT in line:  # engine.war_galley.play.chain
        first, _, after = line.partition(_THEN_NEXT)
        head = parse_decision(first, side, map_)
        then = parse_decision(after, side, map_)
        if not isinstance(head, Individual) or not isinstance(then, Individual):
            raise NotationError(f"'=> then' joins Individual Squadron galleys: {shown(line)}")
        return Individual(side=side, galley=head.galley, if_free=head.if_free, if_held=head.if_held, then=then)
    if verb == "individual" and rest and not colon:
        return Individual(side=side, galley=parse_galley_id(rest))
    if verb == "individual" and rest and colon:
        return _individual(side, rest, body, map_)
    if verb == "standing" and colon and not rest:
        return _standing(side, body)
    if verb == "transfer" and _THEN.search(line):
        return _transfer(side, line, map_)
    if verb == "transfer" and not colon:
        match = re.fullmatch(r"(.+) to (\S+)", rest)
        if match:
            return Transfer(side=side, commander=match.group(1), to=parse_galley_id(match.group(2)))
    raise NotationError(
        f"not a decision: {text!r} (deploy, squadrons, initiative, speed, activate, double, individual, "
        "board, reactions, transfer, concede, propose halt, accept halt: see docs/orders.md)"
    )


def _after_step(text: str, part: str) -> int:
    """The step of the galley's plan after which it fires (`@2`), within the plan's bound."""
    step = whole(text, orders.MOST_STEPS)
    if step is None:
        raise NotationError(f"{shown(part)}: '@' takes a step of the plan, 0 to {orders.MOST_STEPS}")
    return step


def _activate(side: str, squadron: str, also: str | None, body: str, map_: MapSpec) -> Activate:
    """The parts of an activation: movement orders, and per galley disengage, fire, grapple, firepots."""
    fields: dict[str, list] = {"plans": [], "disengage": [], "fire": [], "grapple": [], "firepots": []}
    refloat: tuple = ()
    board: tuple | None = None
    for part in _parts(body):
        words = part.split()
        keyword = words[1].lower() if len(words) > 1 else ""
        then_board = _THEN_BOARD.fullmatch(part)
        if then_board:  # the Boarding Segment's parties, declared now (engine.war_galley.play.shortcuts)
            rest_text = then_board.group(1).strip()
            board = () if rest_text.lower() == NOTHING else \
                manpower_orders.parse_boarding("board: " + rest_text).parties
        elif words[0].lower() == "refloat":
            refloat = _ids(part[len("refloat"):])
        elif keyword == "disengage":
            fields["disengage"].append(manpower_orders.parse_disengage(part).galley)
        elif keyword == "firepots" and len(words) == 2:
            fields["firepots"].append(parse_galley_id(words[0]))
        elif keyword == "grapple":
            fields["grapple"].append(manpower_orders.parse_grapple(part, map_))
        elif keyword == "fire":
            at = _AT_STEP.fullmatch(part)
            text, step = (at.group(1), _after_step(at.group(2), part)) if at else (part, None)
            fields["fire"].append(Missiles(manpower_orders.parse_fire(text), step))
        else:
            fields["plans"].append(orders.parse_order(part))
    return Activate(side=side, squadron=squadron, also=also, refloat=refloat, board=board,
                    **{k: tuple(v) for k, v in fields.items()})


def _individual(side: str, galley: str, body: str, map_: MapSpec) -> Individual:
    """`individual G3-12: free: ORDERS | held: ORDERS`: the Crew check's alternatives (engine.war_galley.play.shortcuts)."""
    gid = parse_galley_id(galley)
    alternatives: dict[str, Activate] = {}
    for part in _parts(body, "|"):
        result, colon, orders_text = part.partition(":")
        result = result.strip().lower()
        if not colon or result not in ("free", "held") or result in alternatives:
            raise NotationError(f"{part!r}: write 'free: ORDERS' and/or 'held: ORDERS', separated by '|'")
        text = "" if orders_text.strip().lower() == NOTHING else orders_text
        alternatives[result] = _activate(side, str(gid), None, text, map_)
    if not alternatives:
        raise NotationError("write 'individual GALLEY', or after ':' 'free: ORDERS | held: ORDERS'")
    return Individual(side=side, galley=gid, if_free=alternatives.get("free"), if_held=alternatives.get("held"))


def _standing(side: str, body: str) -> Standing:
    """`standing: [this turn:] squadrons by range; initiative SIDE first; speed cruise|max`, or `standing: ask`."""
    fields: dict[str, Any] = {}
    if re.match(r"\s*this turn\s*:", body, re.IGNORECASE):
        fields["this_turn"] = True
        body = body.split(":", 1)[1]
    for part in _parts(body):
        words = part.lower().split()
        if words == ["ask"]:
            continue
        if words == ["squadrons", "by", "range"]:
            fields["squadrons"] = True
        elif len(words) == 3 and words[0] == "initiative" and words[2] == "first":
            fields["first"] = part.split()[1]
        elif len(words) == 2 and words[0] == "speed" and words[1] in ("cruise", "max"):
            fields["speed"] = words[1]
        else:
            raise NotationError(f"{part!r}: write 'squadrons by range', 'initiative SIDE first', "
                                "'speed cruise' or 'speed max' (separated by ';'), or 'ask'")
    return Standing(side=side, **fields)


_THEN = re.compile(r"\s*=>\s*(transferred|stays)\s*:\s*", re.IGNORECASE)


def _transfer(side: str, line: str, map_: MapSpec) -> Transfer:
    """`transfer C to G => transferred: DECISION => stays: DECISION` (engine.war_galley.play.transfer_orders)."""
    head, *pieces = _THEN.split(line)
    plain = parse_decision(head, side, map_)
    if not isinstance(plain, Transfer) or plain.if_done is not None:
        raise NotationError(f"{head.strip()!r}: write 'transfer COMMANDER to GALLEY' before '=>'")
    follow: dict[str, AnyDecision] = {}
    for word, text in zip(pieces[::2], pieces[1::2]):
        word = word.lower()
        decision = parse_decision(text, side, map_)
        if word in follow or isinstance(decision, (Transfer, Reactions, Deploy, Boarding, Initiative)):
            raise NotationError(f"=> {word}: one decision of phase B, D, E or F for each result "
                                "(squadrons, speed, activate, double, individual)")
        follow[word] = decision
    return Transfer(side=side, commander=plain.commander, to=plain.to,
                    if_done=follow.get("transferred"), if_failed=follow.get("stays"))  # type: ignore[arg-type]


_THEN_NEXT = " => then "  # the side's next Individual Squadron galley (engine.war_galley.play.chain)
NOTHING = "nothing"  # an alternative in which the galley does nothing (still activated, 5.41)


def _activation_parts(decision: Activate, map_: MapSpec) -> list[str]:
    parts = [orders.format_order(p) for p in decision.plans]
    parts += [f"{g} firepots" for g in decision.firepots]
    parts += [manpower_orders.format_disengage(manpower_orders.DisengageOrder(g)) for g in decision.disengage]
    parts += [manpower_orders.format_fire(m.order) + ("" if m.after_step is None else f" @{m.after_step}")
              for m in decision.fire]
    parts += [manpower_orders.format_grapple(o, map_) for o in decision.grapple]
    if decision.refloat:
        parts.append("refloat " + " ".join(str(g) for g in decision.refloat))
    if decision.board is not None:
        parts.append("then " + (manpower_orders.format_boarding(manpower_orders.BoardingOrder(decision.board))
                                if decision.board else f"board {NOTHING}"))
    return parts


def format_decision(decision: AnyDecision, map_: MapSpec = SINGLE_SHEET) -> str:
    if isinstance(decision, Deploy):
        galleys = ", ".join(f"{g} {p}" for g, p in decision.galleys)
        aboard = ", ".join(f"{name} on {g}" for name, g in decision.commanders)
        return f"deploy: {galleys}" + (f"; {aboard}" if aboard else "")
    if isinstance(decision, Squadrons):
        parts = [f"line astern {', '.join(decision.line_astern)}"] if decision.line_astern else []
        if decision.assign:
            parts.append(", ".join(f"{g} to {name}" for g, name in decision.assign))
        return "squadrons" + (": " + "; ".join(parts) if parts else "")
    if isinstance(decision, Initiative):
        return f"initiative: {decision.first} first"
    if isinstance(decision, Speed):
        later = f"; rest: {decision.rest}" if decision.rest else ""
        if not decision.maximum:
            return f"speed {decision.squadron}: cruise{later}"
        return f"speed {decision.squadron}: max " + " ".join(str(g) for g in decision.maximum) + later
    if isinstance(decision, Activate):
        who = decision.squadron + (f" + {decision.also}" if decision.also else "")
        parts = _activation_parts(decision, map_)
        return f"activate {who}:" + (" " + "; ".join(parts) if parts else "")
    if isinstance(decision, Boarding):
        return manpower_orders.format_boarding(manpower_orders.BoardingOrder(decision.parties)) if decision.parties \
            else "board"
    if isinstance(decision, Reactions):
        return "reactions: " + "; ".join(format_reactions(decision.orders).splitlines())
    if isinstance(decision, Double):
        return f"double {decision.other}"
    if isinstance(decision, Individual):
        alternatives = [f"{word}: " + ("; ".join(_activation_parts(a, map_)) or NOTHING)
                        for word, a in (("free", decision.if_free), ("held", decision.if_held)) if a is not None]
        then = f"{_THEN_NEXT}{format_decision(decision.then, map_)}" if decision.then is not None else ""
        return f"individual {decision.galley}" + (": " + " | ".join(alternatives) if alternatives else "") + then
    if isinstance(decision, Transfer):
        then = [f" => {word}: {format_decision(follow, map_)}"
                for word, follow in (("transferred", decision.if_done), ("stays", decision.if_failed)) if follow]
        return f"transfer {decision.commander} to {decision.to}" + "".join(then)
    if isinstance(decision, Standing):
        parts = (["squadrons by range"] if decision.squadrons else []) \
            + ([f"initiative {decision.first} first"] if decision.first else []) \
            + ([f"speed {decision.speed}"] if decision.speed else [])
        return "standing: " + ("this turn: " if decision.this_turn else "") + ("; ".join(parts) or "ask")
    if isinstance(decision, Concede):
        return "concede"
    if isinstance(decision, ProposeHalt):
        return "propose halt"
    if isinstance(decision, AcceptHalt):
        return "accept halt"
    raise NotationError(f"no notation for {decision!r}")
