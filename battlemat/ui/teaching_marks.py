"""The teaching overlay's contents (key O): every NPC's declared intent, the squares it threatens, and in
which phase each part of it resolves, for tables with new players. Never imports pygame.

Nothing here restates a rule. The route is the resolver's own (`movement.plan_route` from the
positions as the turn begins, with the sticky foes of the declared intents, as the move preview
has it); a reach attack threatens the squares `geometry.adjacent` calls next to where that route
ends (P4's own test of reach); a ranged attack threatens the squares within its unpenalized range
(`ranges.unpenalized`, R1) that it can see (`geometry.sight`, R4) from there. The phases are the
rules data's (`Half.phase_of`, `Half.sub_phase`), and a move's phase is the resolver's movement
phase (`resolver.PHASES`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from battlemat.core import geometry, movement, ranges, uses
from battlemat.core.board import Board
from battlemat.core.encounter import Encounter
from battlemat.core.errors import BattlematError
from battlemat.core.intents import Intent
from battlemat.core.memory import MatchMemory
from battlemat.core.resolver import PHASES
from battlemat.core.resolver.moves import movement_phase
from battlemat.core.state import CharacterState
from battlemat.core.types import XY, CharId
from battlemat.log import describe_intent

MOVE_PHASE = next(name for name, _, run in PHASES if run is movement_phase)  # where every move happens


@dataclass(frozen=True)
class Badge:
    """A phase number on the map: which phase (`phase`, 'P2'), what resolves then (`what`: 'move
    (sub-phase 3)', 'Shoot on Garran'), and the square it is drawn at."""

    phase: str
    what: str
    at: XY


@dataclass(frozen=True)
class IntentMark:
    """One NPC's declared intent as the overlay shows it: its words, the route the resolver will take,
    its target's square, its phase badges in phase order, and the squares it threatens (`threat_rule`:
    the rule that decides them, '' when it threatens none)."""

    who: CharId
    words: str
    start: XY
    route: tuple[XY, ...]
    target_at: XY | None
    badges: tuple[Badge, ...]
    threatened: frozenset[XY]
    threat_rule: str
    threat_kind: str = ""  # reach | ranged | '' (none)

    @property
    def end(self) -> XY:
        return self.route[-1] if self.route else self.start


@dataclass(frozen=True)
class TeachingLayer:
    """Every NPC's mark, and the phase order with the resolver's words for each phase."""

    marks: tuple[IntentMark, ...]
    order: tuple[tuple[str, str], ...] = tuple((name, words) for name, words, _ in PHASES)


def teaching_layer(enc: Encounter, board: Board, chars: Mapping[CharId, CharacterState],
                   declared: Mapping[CharId, Intent], npcs: Sequence[CharId],
                   memory: MatchMemory | None = None) -> TeachingLayer:
    """The overlay for `npcs` (in that order) from the declared intents and the positions as the turn
    begins (`chars`, with every character's square)."""
    known = memory if memory is not None else MatchMemory(enc)
    marks = []
    for cid in npcs:
        it, st = declared.get(cid), chars.get(cid)
        if it is None or st is None or st.at is None or not st.active:
            continue
        marks.append(_mark(enc, board, chars, declared, it, known))
    return TeachingLayer(tuple(marks))


def _mark(enc: Encounter, board: Board, chars: Mapping[CharId, CharacterState], declared: Mapping[CharId, Intent],
          it: Intent, known: MatchMemory) -> IntentMark:
    rules = enc.rules
    half = rules.halves[it.use]
    start = _at(chars, it.who)
    assert start is not None  # (teaching_layer marks only characters on the map)
    route = _route(enc, board, chars, declared, it, known)
    end = route[-1] if route else start
    target_at = _at(chars, it.target)
    badges = []
    if route:
        badges.append(Badge(MOVE_PHASE, f"move (sub-phase {half.sub_phase})", end))
    phase = half.phase_of(it.target)
    if phase != MOVE_PHASE or not route:
        aims = half.act in ("attack", "item") and target_at is not None  # drawn on its target; else on itself
        name = enc.by_id[it.target].name if it.target else ""
        what = f"{it.use} on {name}" if aims else f"{it.use} watching {name}" if name else it.use
        badges.append(Badge(phase, what, target_at if aims and target_at is not None else end))
    threatened, rule = threat(enc, board, chars, it, end)
    kind = ("reach" if half.reach else "ranged") if threatened else ""
    return IntentMark(it.who, describe_intent(enc, it), start, route, target_at,
                      tuple(sorted(badges, key=lambda b: b.phase)), threatened, rule, kind)


def _at(chars: Mapping[CharId, CharacterState], cid: CharId | None) -> XY | None:
    """Where a character stands, as a square (None: no one, or off the map)."""
    at = chars[cid].at if cid else None
    return (at[0], at[1]) if at is not None else None


def _route(enc: Encounter, board: Board, chars: Mapping[CharId, CharacterState], declared: Mapping[CharId, Intent],
           it: Intent, known: MatchMemory) -> tuple[XY, ...]:
    """The squares the resolver's route for `it` walks (none when it does not move)."""
    if not uses.moves(enc.rules, it, on_map=True):
        return ()
    try:
        mover = movement.mover_for(known, chars, it.who, it.use, it.target, it.item)
    except (BattlematError, KeyError):
        return ()
    side = enc.by_id[it.who].side
    others = {c: i for c, i in declared.items() if c != it.who}
    ctx = movement.context(enc, chars, side, uses.sticky_uses(enc.rules, others), who=it.who)
    plan = movement.Plan(it.to, tuple((p[0], p[1]) for p in it.path), ctx)
    return tuple(movement.plan_route(board, enc.rules, mover, ctx, plan).squares)


def threat(enc: Encounter, board: Board, chars: Mapping[CharId, CharacterState], it: Intent,
           at: XY) -> tuple[frozenset[XY], str]:
    """(squares, rule) an attack declared by `it` threatens from `at`: next to it for a reach attack
    (its phase, P4), in unpenalized range and sight for a ranged one (R1, R4); nothing for any other use."""
    half = enc.rules.halves[it.use]
    if half.act != "attack" or (it.target is None and half.untargeted):
        return frozenset(), ""
    if half.reach:
        near = geometry.steps(board, at, "chebyshev")  # every square around, kept where P4 says adjacent
        return (frozenset(sq for sq, _, _ in near if geometry.adjacent(board, at, sq) and board.enterable(sq)),
                half.phase)
    if half.ranged:
        char = enc.by_id[it.who]
        radius = ranges.unpenalized(enc.rules, char, it.use, chars[it.who].major)
        if radius <= 0:
            aim = _at(chars, it.target)
            return (frozenset({aim}) if aim else frozenset(), "R4")
        diagonals = enc.rules.switch_str("diagonals")
        x0, y0 = at
        out = set()
        for y in range(max(0, y0 - radius), min(board.height, y0 + radius + 1)):
            for x in range(max(0, x0 - radius), min(board.width, x0 + radius + 1)):
                sq = (x, y)
                if sq == at or not board.enterable(sq) or geometry.distance(board, at, sq, diagonals) > radius:
                    continue
                if geometry.sight(board, at, sq)[0]:
                    out.add(sq)
        return frozenset(out), "R1"
    return frozenset(), ""
