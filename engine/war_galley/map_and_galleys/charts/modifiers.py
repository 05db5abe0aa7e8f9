"""The modifiers of each table and the numbers the rules text fixes outside the charts, as typed data."""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.war_galley.map_and_galleys.charts.ranges import RollRange

# ---------------------------------------------------------------- modifiers


class _Strict(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class RamModifiers(_Strict, frozen=True):
    """7.15 (and 6.7's penalty after a failed defensive reaction ram)."""

    per_mp_over_cruise: int
    mp_bonus_max_bow_flank_turns: int
    target_crippled_fouled_grappled: int
    target_half_speed_or_fatigued: int
    better_crew: int
    target_at_maximum: int
    target_better_crew: int
    rammer_towers: int
    anastrophe_failed_rake: int
    after_defensive_reaction_ram: int


class RakeModifiers(_Strict, frozen=True):
    """7.27."""

    faster: int
    slower: int
    target_crippled_grappled_fouled: int
    target_half_speed_or_fatigued: int


class GrappleModifiers(_Strict, frozen=True):
    """8.12 (scenario devices live with their scenarios)."""

    target_crippled_fouled_grappled: int
    target_under_sail: int
    target_opposite_direction: int
    grappler_under_sail: int


class BoardingModifiers(_Strict, frozen=True):
    """8.24."""

    attacker_height_advantage: int
    defender_height_advantage: int


class BoardingDepletion(_Strict, frozen=True):
    """8.28: Depletions besides the Capture itself."""

    attacker_on_capture: RollRange
    attacker_on_repulse: bool
    defender_on_repulse: RollRange


class MissileModifiers(_Strict, frozen=True):
    """8.44."""

    engines: int
    height_advantage: int
    height_disadvantage: int
    under_sail: int
    jettisoned_towers: int
    target_rammed_grappled_fouled_crippled: int
    range_two_hexes: int


class FatigueModifiers(_Strict, frozen=True):
    """6.42."""

    per_mp_over_cruise: int
    ram_attempt: int
    rake_attempt: int


class GrappleDisengageModifiers(_Strict, frozen=True):
    """8.32."""

    repulsed_boarding_this_turn: int
    better_crew: int
    controls_both: int
    crippled_or_fouled: int


# ---------------------------------------------------------------- fixed numbers


CrewCheckKind = Literal["at_most_crew"]


class Initiative(_Strict, frozen=True):
    rule: str
    die: Literal["1d6"]
    ties: Literal["reroll"]


class CrewCheck(_Strict, frozen=True):
    rule: str
    check: CrewCheckKind


class Transfer(_Strict, frozen=True):
    rule: str
    success: RollRange


class Avoidance(_Strict, frozen=True):
    rule: str
    check: CrewCheckKind
    half_speed: int
    fatigue: str


class RunAground(_Strict, frozen=True):
    rule: str
    check: CrewCheckKind
    eliminated: RollRange


class Movement(_Strict, frozen=True):
    """6.32's costs, in MP."""

    rule: str
    forward: int
    bow_flank: int
    facing_change: int  # a hexside (6.34)
    turn_around: int  # 6.35
    backwater: int  # a hex (6.33)


class Sails(_Strict, frozen=True):
    """6.21, 6.25: what raising and lowering sails cost, in MP."""

    rule: str
    raise_: int = msgspec.field(name="raise")
    lower: int
    tremiola_raise_lower: int  # 6.25


class DefensiveReactionRam(_Strict, frozen=True):
    rule: str
    check: CrewCheckKind
    failed_ram_mover_mp: int


class Sinking(_Strict, frozen=True):
    rule: str
    sinks: RollRange


class Flame(_Strict, frozen=True):
    rule: str
    ignites: RollRange
    max_range: int


class Firepots(_Strict, frozen=True):
    rule: str
    ignites: RollRange


class LossOfAdmiral(_Strict, frozen=True):
    rule: str
    fewer_vp: int
    withdraw_above: int
    withdrawal_bonus_vp: int


class PassThrough(_Strict, frozen=True):
    rule: str
    mp: int  # 7.25: MP spent moving dead ahead through the enemy galleys


class Towers(_Strict, frozen=True):
    rule: str
    jettison_mp: int  # 8.48: the cost of jettisoning


class Capture(_Strict, frozen=True):
    rule: str
    bonus_vp: int  # 9.1: the Capture Bonus, on top of the Ram Defense


class Fixed(_Strict, frozen=True):
    """Numbers the rules text states outside the charts."""

    initiative: Initiative
    individual_activation: CrewCheck
    transfer: Transfer
    avoidance: Avoidance
    run_aground: RunAground
    movement: Movement
    sails: Sails
    defensive_reaction_ram: DefensiveReactionRam
    sinking: Sinking
    flame: Flame
    firepots: Firepots
    loss_of_admiral: LossOfAdmiral
    pass_through: PassThrough
    towers: Towers
    capture: Capture
