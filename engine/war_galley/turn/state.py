"""The whole game as one frozen value (3.1): galleys, commanders, squadrons, the turn's bookkeeping.

`apply(state, decision, dice)` is pure because everything the rules need
lives here, the rules data included (`rules`, parsed once and cached by
`engine.war_galley.map_and_galleys.rulesdata.parse`). Its canonical bytes
are `engine.war_galley.turn.state_bytes`'s.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator

import msgspec
from msgspec.structs import replace

from engine.events import Event
from engine.memo import kept_property
from engine.war_galley.galley_combat.combat_record import CombatOptions, CombatRecord
from engine.war_galley.galley_combat.reactions import ReactionOrders
from engine.war_galley.manpower_combat.devices import NO_DEVICES, Devices
from engine.war_galley.manpower_combat.grappling import GrappleLine
from engine.war_galley.map_and_galleys.board import Board
from engine.war_galley.map_and_galleys.charts import Charts
from engine.war_galley.map_and_galleys.galley import Colour, Galley, GalleyId
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.map_and_galleys.rulesdata import RulesData, parse
from engine.war_galley.movement.speed import Wind
from engine.war_galley.turn.deploy_tasks import DeployGroup as DeployGroup, DeployTask as DeployTask, Zone as Zone


def galley_key(galley_id: GalleyId) -> tuple[str, str, int]:
    """A sort key for galley ids (their enums do not order)."""
    return galley_id.colour.value, galley_id.type.value, galley_id.number


DEFENSIVE_REACTION_RAM = "defensive_reaction_ram"  # the game option of 6.7 ("on" / "off")
# The rules version a game is judged by (engine.war_galley.ruleset, docs/protocol.md "Upgrades"), kept with the
# options so that `apply` stays a function of the state: absent in version 1's states, whose bytes it must not change.
RULES_VERSION = "ruleset_version"


class Phase(enum.Enum):
    """The phases of 3.1, plus set-up before turn 1 and the end of the game."""

    DEPLOYMENT = "deployment"
    WIND = "A"  # Wind Determination
    SQUADRONS = "B"  # Squadron Determination
    INITIATIVE = "C"
    SPEED = "D"  # Speed Level Determination
    COMMAND = "E"  # Command Squadron Activation
    INDIVIDUAL = "F"  # Individual Squadron Activation
    STATUS = "G"  # Status Resolution
    VICTORY = "H"
    OVER = "over"


PHASE_NAMES = {
    Phase.DEPLOYMENT: "Deployment",
    Phase.WIND: "A. Wind Determination Phase",
    Phase.SQUADRONS: "B. Squadron Determination Phase",
    Phase.INITIATIVE: "C. Initiative Phase",
    Phase.SPEED: "D. Speed Level Determination Phase",
    Phase.COMMAND: "E. Command Squadron Activation Phase",
    Phase.INDIVIDUAL: "F. Individual Squadron Activation Phase",
    Phase.STATUS: "G. Status Resolution Phase",
    Phase.VICTORY: "H. Victory Phase",
    Phase.OVER: "Game over",
}


class Segment(enum.Enum):
    """Segments of E/F (E/1-E/3) and of G (G/1-G/4); NONE in the other phases."""

    NONE = ""
    MOVEMENT = "E/1"
    BOARDING = "E/2"
    PHASE_PASS = "E/3"
    DISENGAGE = "G/1"
    GALLEY_RECOVERY = "G/2"
    FATIGUE_RECOVERY = "G/3"
    SINKING = "G/4"


class SideInfo(msgspec.Struct, frozen=True):
    """A player's side: scenario key, name, counter colour, and its scenario facts."""

    key: str
    name: str
    colour: Colour
    vp_needed: int | None = None  # 9.1 threshold; None: the book sets none
    vp_ratio: int = 2  # "and at least twice the enemy's"
    initiative_drm: int = 0  # e.g. Lade's Ionians, no admiral: -1
    double_activation: bool = True  # Lade: fleets without an admiral cannot
    keep_squadrons: bool = False  # Lade: galleys stay with their deployment squadron
    sails: bool = False  # the scenario lets this side use sails (6.2)


class CommanderState(msgspec.Struct, frozen=True, kw_only=True):
    """A Squadron Commander or Admiral counter (5.1) in play."""

    name: str
    side: str
    admiral: bool
    command_range: int
    re_command_range: int
    initiative: int = 0
    re_initiative: int = 0
    galley: GalleyId | None = None  # his Command Ship (5.14); None once gone
    reduced: bool = False  # on his Reduced Effectiveness side
    permanent_re: bool = False  # 5.53: lost once, RE for the rest of the game
    until_commands: bool = False  # 5.52: RE until the end of the activation in which he next commands
    transfer_turn: int = 0  # the turn of his last transfer attempt (one a turn, 5.51)
    group: str = ""  # his deployment group (Lade's keep_squadrons)

    @property
    def range(self) -> int:
        return self.re_command_range if self.reduced else self.command_range

    @property
    def rating(self) -> int:
        """Initiative in play (3.2, 5.42, 9.2)."""
        return self.re_initiative if self.reduced else self.initiative


class Squadron(msgspec.Struct, frozen=True):
    """A squadron of phase B: a Command Squadron under `commander`, or one galley's Individual Squadron (5.3)."""

    key: str  # the commander's name, or the galley id of an Individual Squadron
    side: str
    galleys: tuple[GalleyId, ...]
    commander: str | None = None
    line_astern: bool = False  # formed by 5.22 rather than by range
    leaderless: bool = False  # a scenario's transport squadron: moves as a Command Squadron without a SqC

    @property
    def individual(self) -> bool:
        return self.commander is None and not self.leaderless


class EntryQueue(msgspec.Struct, frozen=True):
    """Galleys waiting off the map to enter in Line Astern (engine.war_galley.turn.entry), the next to enter first.

    `start` is where the next galley stands before its first step: off the map
    behind an edge hex (its first Forward enters the map), or a port position
    (Drepanum: bow in the port hex, stern off the map), `port` True.
    `entries` alternate (Drepanum: "double Line Astern through 1027 and/or 1028").
    """

    side: str
    group: str
    galleys: tuple[GalleyId, ...]
    starts: tuple[Position, ...]
    port: bool = False
    from_turn: int = 1
    after: str | None = None  # a group whose galleys must all be on the map first
    ahead: GalleyId | None = None  # the galley the next one follows
    entered: int = 0  # how many have entered (which of `starts` comes next)


class Commitment(msgspec.Struct, frozen=True):
    """A secret choice (docs/protocol.md): the hash now, the value once opened."""

    side: str
    label: str
    hash: str
    value: str | None = None


class ScenarioState(msgspec.Struct, frozen=True):
    """What the battle's special rules (engine.war_galley.battles.shared) and off-map entry keep between decisions."""

    rules: tuple[tuple[str, str], ...] = ()  # active special rules: (name, params as JSON), in file order
    groups: tuple[tuple[GalleyId, str], ...] = ()  # each galley's deployment group
    queues: tuple[EntryQueue, ...] = ()
    flags: tuple[str, ...] = ()  # e.g. "treachery:Samos", "line-astern-broken:romans"
    marked: tuple[tuple[str, GalleyId], ...] = ()  # (mark, galley): "fleeing", "anchored", "towing"
    exits: tuple[tuple[GalleyId, str], ...] = ()  # galleys that left the map and by which edge
    commitments: tuple[Commitment, ...] = ()
    tournament: str = ""  # the tournament's set-up as JSON (engine.war_galley.battles.tournament), "" for a battle


class WindRule(msgspec.Struct, frozen=True):
    """The scenario's wind (3.1 A, 6.2)."""

    mode: str = "none"  # none, steady, variable, direction_only, rising
    start: Wind | None = None  # the marker as the scenario places it
    from_turn: int = 2
    roller: str = ""


class Award(msgspec.Struct, frozen=True):
    """VP one side holds for one enemy galley (9.1)."""

    galley: GalleyId
    side: str
    kind: str  # "damage" (rammed, aground or sunk), "capture" (Ram Defense), "bonus" (the Capture Bonus)
    vp: int


class Result(msgspec.Struct, frozen=True):
    """How the game ended (9.1, 9.2): the winner (None: a draw), its kind and a sentence."""

    winner: str | None
    kind: str  # victory, minor, draw, concession, withdrawal
    text: str


class PendingActivation(msgspec.Struct, frozen=True):
    """What an activation already begun still needs: after a Double Activation roll (5.42) or an IS Crew check (5.31)."""

    squadrons: tuple[str, ...]  # they move now, in one decision
    confusion: tuple[tuple[GalleyId, int], ...] = ()  # 5.42 Orders Confusion: MP added (negative)
    restricted: bool = False  # 5.31: failed Crew check, may not move adjacent to an enemy
    double: bool = False  # a Double Activation (5.42)


class GameState(msgspec.Struct, frozen=True, kw_only=True, dict=True):
    scenario: str
    rules: RulesData
    options: tuple[tuple[str, str], ...]
    sides: tuple[SideInfo, SideInfo]
    board: Board
    galleys: tuple[Galley, ...]
    commanders: tuple[CommanderState, ...]
    wind_rule: WindRule = WindRule()
    wind: Wind | None = None
    stilled: Wind | None = None  # 6.2: the wind a Dead Calm stilled; the next turns' rolls start from it
    first_turn_initiative: str | None = None  # a side given the first turn's initiative
    turn: int = 0  # 0 during deployment
    phase: Phase = Phase.DEPLOYMENT
    segment: Segment = Segment.NONE
    deploy: tuple[DeployTask, ...] = ()
    home_groups: tuple[tuple[GalleyId, str], ...] = ()  # keep_squadrons sides: each galley's group
    squadrons: tuple[Squadron, ...] = ()
    squadrons_done: tuple[str, ...] = ()  # sides that have settled phase B this turn
    initiative: str | None = None  # the side that won phase C
    initiative_admiral: str | None = None  # 5.13: the admiral whose rating was used
    first: str | None = None  # the side going first in D, E and F (3.2)
    to_move: str | None = None  # whose selection or activation it is in D, E, F
    speed_set: tuple[str, ...] = ()  # squadrons whose speed is chosen (D)
    activated: tuple[str, ...] = ()  # squadrons activated this turn (E, F)
    double_tried: bool = False  # 5.42: one attempt a turn (per side: see `double_sides`)
    double_sides: tuple[str, ...] = ()
    current: PendingActivation | None = None
    fresh_fatigue: tuple[GalleyId, ...] = ()  # F markers placed this turn: G/3 leaves them (6.43-6.44)
    awards: tuple[Award, ...] = ()
    minor_on_halt: bool = True  # the scenario's 9.1 halt rule
    halt_proposed: str | None = None  # a side proposing to halt play (9.1 minor victory)
    result: Result | None = None
    # --- combat (7, 8) ---
    devices: Devices = NO_DEVICES  # the scenario's Corvus, Harpax, flame, firepots, towers rules
    reactions: tuple[tuple[str, ReactionOrders], ...] = ()  # each side's standing reaction orders
    record: CombatRecord = CombatRecord()  # this turn's (and phase's) combat bookkeeping
    grapple_lines: tuple[GrappleLine, ...] = ()  # grapples in force, as made (8.32's device DRM)
    grapple_tried: tuple[GalleyId, ...] = ()  # 8.13: galleys that attempted a grapple this turn
    fired: tuple[GalleyId, ...] = ()  # 8.42: galleys that used their movement segment's fire this turn
    retracted: tuple[tuple[GalleyId, GalleyId], ...] = ()  # (rammer, target): Retracted in place this turn
    rammed_by: tuple[tuple[GalleyId, GalleyId], ...] = ()  # (target, rammer): 7.16, a Rammed galley fires back
    repulsed: tuple[GalleyId, ...] = ()  # 8.27: targets that repulsed a boarding this turn (8.32's +1 too)
    boarders: tuple[GalleyId, ...] = ()  # E/2: the galleys of the activation whose Boarding Segment it is
    extra: ScenarioState = ScenarioState()  # special rules, off-map entry, secrets (engine.war_galley.battles.shared)

    # --- lookups ---

    @property
    def charts(self) -> Charts:
        return parse(self.rules).charts

    def side(self, key: str) -> SideInfo:
        for info in self.sides:
            if info.key == key:
                return info
        raise KeyError(key)

    def other(self, key: str) -> str:
        return self.sides[1].key if self.sides[0].key == key else self.sides[0].key

    def side_of(self, colour: Colour) -> str:
        return self.sides[0].key if self.sides[0].colour is colour else self.sides[1].key

    def controller(self, galley: Galley) -> str:
        return self.side_of(galley.controller)

    def galley(self, galley_id: GalleyId) -> Galley:
        found = self._galley_index.get(galley_id)
        if found is None:
            raise KeyError(galley_id)
        return found

    def rammers(self, galley_id: GalleyId) -> tuple[GalleyId, ...]:
        """7.16: every galley that rammed `galley_id` (a Rammed galley may fire only at one of them)."""
        return tuple(rammer for target, rammer in self.rammed_by if target == galley_id)

    def has_galley(self, galley_id: GalleyId) -> bool:
        return galley_id in self._galley_index

    @kept_property
    def _galley_index(self) -> dict[GalleyId, Galley]:
        """Galleys by id, made once per (immutable) state; the first of a repeated id, as a scan finds it."""
        return {g.id: g for g in reversed(self.galleys)}

    @kept_property
    def _galley_slots(self) -> dict[GalleyId, int]:
        """Where each galley stands in `galleys`, for with_galley; empty if an id is listed twice."""
        slots = {g.id: slot for slot, g in enumerate(self.galleys)}
        return slots if len(slots) == len(self.galleys) else {}

    def galleys_of(self, side: str) -> Iterator[Galley]:
        """The galleys `side` controls that are on the map."""
        colour = self.side(side).colour
        return (g for g in self.galleys if g.position is not None and g.controller is colour)

    def commander(self, name: str) -> CommanderState:
        for c in self.commanders:
            if c.name == name:
                return c
        raise KeyError(name)

    def commanders_of(self, side: str) -> list[CommanderState]:
        return [c for c in self.commanders if c.side == side]

    def commander_on(self, galley_id: GalleyId) -> list[CommanderState]:
        return [c for c in self.commanders if c.galley == galley_id]

    def squadron(self, key: str) -> Squadron:
        for s in self.squadrons:
            if s.key == key:
                return s
        raise KeyError(key)

    def squadron_of(self, galley_id: GalleyId) -> Squadron | None:
        for s in self.squadrons:
            if galley_id in s.galleys:
                return s
        return None

    def vp(self, side: str) -> int:
        return sum(a.vp for a in self.awards if a.side == side)

    def option(self, key: str, default: str = "off") -> str:
        return dict(self.options).get(key, default)

    @property
    def rules_version(self) -> int:
        """The War Galley rules version judging this game (1 when the state does not say)."""
        return int(next((value for key, value in self.options if key == RULES_VERSION), "1"))

    def reaction_orders(self) -> dict[Colour, ReactionOrders]:
        """The standing reaction orders in force, by counter colour (what the combat rules read)."""
        return {self.side(key).colour: orders for key, orders in self.reactions}

    def combat_options(self) -> CombatOptions:
        """6.7's optional rule (chosen at set-up) and the turn's conditions."""
        drr = self.option(DEFENSIVE_REACTION_RAM) == "on"
        return CombatOptions(defensive_reaction_ram=drr, wind=self.wind, turn=self.turn, rules_version=self.rules_version)

    # --- updates ---

    def with_galley(self, galley: Galley) -> GameState:
        gid = galley.id
        slot = self._galley_slots.get(gid)
        if slot is None:  # not listed, or listed twice: every copy is replaced
            return replace(self, galleys=tuple(galley if g.id == gid else g for g in self.galleys))
        galleys = self.galleys
        new = replace(self, galleys=(*galleys[:slot], galley, *galleys[slot + 1 :]))
        # The same ids in the same slots: the new state's lookups are this one's, one galley changed,
        # so a run of with_galley calls pays for one index, not one scan each.
        new.__dict__["_galley_slots"] = self._galley_slots
        index = self.__dict__.get("_galley_index")
        if index is not None:
            new.__dict__["_galley_index"] = {**index, gid: galley}
        return new

    def with_commander(self, commander: CommanderState) -> GameState:
        return replace(
            self, commanders=tuple(commander if c.name == commander.name else c for c in self.commanders)
        )


class PhaseBegan(Event, frozen=True, kw_only=True):
    """The sequence of play moved on (3.1): turn, phase and segment."""

    turn: int
    phase: Phase
    segment: Segment = Segment.NONE
