"""The resolver: every intent of a turn, declared secretly, resolved at once in phase order P1..P4.

`resolve_turn(encounter, state, intents, rng, dice)` validates the intents (IllegalIntent says
why), walks the declared phases (STYLE.md 8) and returns the events and the new state. It keeps
no globals: the world comes in as arguments and one seeded `random.Random` per match is passed in.

Within one phase step everything is simultaneous: contests read the state at the start of the
step and their losses land together at its end. Between steps and phases the order is the rules'
(P3 before P4, Wonder intimidation before Shoot/Throw), so a character defeated by an arrow in P3
no longer strikes in P4.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from battlemat.core import geometry, movement, ranges
from battlemat.core.board import Hazard
from battlemat.core.character import Character
from battlemat.core.dice import DiceEngine, Diceless, Roll
from battlemat.core.elusion import elude
from battlemat.core.encounter import Encounter
from battlemat.core.memory import MatchMemory, remember
from battlemat.core.errors import IllegalIntent, RulesError
from battlemat.core.events import Event
from battlemat.core.intents import Intent
from battlemat.core.rating import Modifier, Rating
from battlemat.core.rules import Half, Rules
from battlemat.core.state import Advantage, CharacterState, MatchState
from battlemat.types import XY, CharId


@dataclass(frozen=True)
class TurnResult:
    events: tuple[Event, ...]
    state: MatchState


def resolve_turn(
    enc: Encounter,
    state: MatchState,
    intents: Sequence[Intent],
    rng: random.Random,
    dice: DiceEngine,
    memory: MatchMemory | None = None,
) -> TurnResult:
    """Resolve one turn. Raises IllegalIntent before anything happens if an intent breaks a rule."""
    turn = _Turn(enc, state, rng, dice, remember(memory, enc))
    turn.declare(intents)
    for phase, run in PHASES:
        turn.phase = phase
        turn.emit_data("phase", _PHASE_TEXT[phase], (phase,), {})
        run(turn)
    turn.phase = "end"
    turn.end_of_turn()
    new_state = state.replace_chars(turn.st, turn=state.turn + 1)
    turn.emit(
        "turn_end",
        f"end of turn {state.turn}",
        ("L2",),
        state={cid: s.to_dict() for cid, s in turn.st.items()},
    )
    return TurnResult(tuple(turn.events), new_state)


@dataclass(frozen=True)
class Forecast:
    """What an attack would meet if the turn were resolved now, before anyone moves: both sides'
    ratings with their breakdowns and how the defender opposes (for the UI's hover card)."""

    attack: Rating
    defense: Rating
    how: str

    @property
    def margin(self) -> int:
        return self.attack.value - self.defense.value


def forecast(enc: Encounter, state: MatchState, intents: Sequence[Intent], who: CharId) -> Forecast | None:
    """The contest `who`'s attack would bring on, with the other declared intents taken into account
    (groups S7, opposition C5, matchups S8, advantages O1-O5). Diceless, positions as they stand.
    Raises IllegalIntent like the resolver when an intent breaks a rule; None if `who` does not attack."""
    t = _Turn(enc, state, random.Random(0), Diceless(), MatchMemory(enc))
    t.declare(intents)
    it = t.intents.get(who)
    if it is None or it.target is None or t.rules.halves[it.use].act != "attack":
        return None
    group = next((g for g in t.attack_groups(lambda h: True) if who in g.members), None)
    if group is None:
        return None
    dfn, how, dskill = t.opposition(group.target, group)
    att, _ = t.group_rating(group, dskill)
    return Forecast(att, dfn, how)


def validate_intent(enc: Encounter, state: MatchState, intent: Intent, *, fresh: bool = False,
                    memory: MatchMemory | None = None) -> Intent:
    """Check one intent against the rules; return it with canonical skill spelling.

    The UI and the AI call this before a turn is resolved; the resolver calls it again. The answer
    depends on nothing but the encounter, the state and the intent (all values), so the intents
    found legal against the last state are remembered: the resolver's check of what the AI or the
    UI just checked is a look-up (`_remembered`), by identity first (an intent's hash is worked out
    in Python, field by field), then by value. `fresh`: the intent was just made and is checked
    once (the AI's), so it is remembered by identity only.
    """
    memory = remember(memory, enc)
    mem = memory.of_state(state)
    seen = mem.by_id.get(id(intent))
    if seen is not None and seen[0] is intent:
        return seen[1]
    if fresh:
        hit = _validate(enc, state, intent, memory)
    else:
        try:
            known = mem.valid.get(intent)
        except TypeError:  # an intent built with lists instead of tuples: checked, not remembered
            return _validate(enc, state, intent, memory)
        hit = known if known is not None else mem.valid.setdefault(intent, _validate(enc, state, intent, memory))
    mem.by_id[id(intent)] = (intent, hit)  # (holding the intent keeps its id from being reused)
    return hit


def _validate(enc: Encounter, state: MatchState, intent: Intent, memory: MatchMemory) -> Intent:
    rules = enc.rules
    who = intent.who
    if who not in enc.by_id:
        raise IllegalIntent(who, f"no character with id {who!r} in this encounter", field="who")
    st = state[who]
    if st.defeated:
        raise IllegalIntent(who, "is defeated and cannot act", "L3", "who")
    if st.fled:
        raise IllegalIntent(who, "has left the conflict and cannot act", "C5", "who")
    use = intent.use
    half = rules.halves.get(use)  # spelt as the rules spell it (the AI's and the UI's intents): no look-up by case
    if half is None or use == "item":
        if use.strip().lower() == "item":
            use = "item"
            if intent.item not in rules.item_move:
                raise IllegalIntent(
                    who, f"item use must be one of {', '.join(rules.item_move)}, not {intent.item!r}", "M1", "item"
                )
        else:
            try:
                use = rules.half(use).name
            except RulesError as exc:
                raise IllegalIntent(who, str(exc), "S1", "use") from None
        half = rules.halves[use]
    if intent.target is not None:
        if intent.target not in enc.by_id:
            raise IllegalIntent(who, f"target {intent.target!r} is not a character in this encounter", field="target")
        if intent.target == who:
            raise IllegalIntent(who, "cannot target itself", field="target")
        if not state[intent.target].active:
            raise IllegalIntent(who, f"target {intent.target} is already out of the fight", "L3", "target")
    needs_target = half.act in ("observe", "hide") and use != "Perception"
    needs_target |= half.act == "attack" and not half.untargeted
    if needs_target and intent.target is None:
        raise IllegalIntent(who, f"{use} needs a target", half.phase, "target")
    if intent.also:
        if use != "Melee":
            raise IllegalIntent(who, "only Melee may strike secondary targets", "C7", "also")
        talent = enc.by_id[who].talent("Melee/Press")
        if len(intent.also) > talent:
            raise IllegalIntent(
                who, f"Melee talent {talent} allows {talent} secondary target(s), not {len(intent.also)}", "C7", "also"
            )
        for extra in intent.also:
            if extra not in enc.by_id or extra in (who, intent.target) or not state[extra].active:
                raise IllegalIntent(who, f"secondary target {extra!r} is not a fresh foe in the fight", "C7", "also")
        if len(set(intent.also)) != len(intent.also):
            raise IllegalIntent(who, "a secondary target is listed twice", "C7", "also")
    for m in intent.modifiers:
        if m.value not in (-2, -1, 1, 2):
            raise IllegalIntent(who, f"a situational modifier is +-1 or +-2, not {m.value}", "S6", "modifiers")
    held_by = st.held_by if st.held_by is not None and state[st.held_by].active else None
    if held_by is not None and intent.moves and use != "Escape":
        name = enc.by_id[held_by].name
        raise IllegalIntent(who, f"is held by {name}: only Escape can break the grip before moving", "C8", "to")
    if intent.throw is not None:
        _validate_throw(enc, state, intent, use)
    if enc.board is not None and intent.moves:
        _validate_move(enc, state, intent, use, memory)
    if use == intent.use:
        return intent
    return dataclasses.replace(intent, use=use)


def _validate_throw(enc: Encounter, state: MatchState, intent: Intent, use: str) -> None:
    """M13: Wrestle throws a foe it grabbed on an earlier turn, up to 1 square per Wrestle rating."""
    who, target = intent.who, intent.target
    if use != "Wrestle" or target is None:
        raise IllegalIntent(who, "only Wrestle on a held foe can throw it", "M13", "throw")
    if state[target].held_by != who:
        raise IllegalIntent(who, f"does not hold {enc.by_id[target].name}: grab it with Wrestle first", "M13", "throw")
    char = enc.by_id[who]
    strength = char.base("Wrestle/Disarm") + char.equipment_bonus("Wrestle/Disarm")[0]
    start, to = state[target].at, _xy(intent.throw)  # type: ignore[arg-type]
    board = enc.board
    if board is not None and start is not None:
        if not board.enterable(to):
            raise IllegalIntent(who, f"cannot throw onto {to}: not a square to land on", "M13", "throw")
        far = geometry.distance(board, start, to, enc.rules.switch("diagonals"))
        if far > strength:
            raise IllegalIntent(who, f"throw of {far} squares is beyond Wrestle {strength} (1 per point)", "M13",
                                "throw")


def _xy(v: Sequence[int]) -> XY:
    return (int(v[0]), int(v[1]))


def _bare(why: str, rule: str) -> str:
    """Words without their trailing '(rule)': IllegalIntent adds the rule itself."""
    tag = f" ({rule})"
    return why[: -len(tag)] if why.endswith(tag) else why


def _validate_move(enc: Encounter, state: MatchState, intent: Intent, use: str, memory: MatchMemory) -> None:
    """With a board, a declared `to` or `path` must be reachable as the board stands at the start
    of the turn (terrain, allowance, everyone's square); sticky zones and collisions only cut
    plans short while resolving (M6, M10). The UI preview calls the same `movement.reach`."""
    who = intent.who
    board = enc.board
    if state[who].at is None:
        raise IllegalIntent(who, "has no square on the map, so it cannot move", "M1", "to")
    for sq in ((intent.to,) if intent.to is not None else ()) + tuple(intent.path):
        if not board.inside(tuple(sq)):
            raise IllegalIntent(who, f"square {tuple(sq)} is off the map", "M1", "path" if intent.path else "to")
    mover = movement.mover_for(enc, state.chars, who, use, intent.target, intent.item, memory)
    ctx = start_context(enc, state, enc.by_id[who].side, memory)
    if intent.path:
        route = movement.follow(board, enc.rules, mover, ctx, [_xy(p) for p in intent.path])
        if route.stopped is not None and route.end != _xy(intent.path[-1]):
            why = _bare(route.stopped.why, route.stopped.rule)
            raise IllegalIntent(who, f"path stops at {route.end}: {why}", route.stopped.rule, "path")
        return
    assert intent.to is not None
    rc = movement.reach(board, enc.rules, mover, ctx)
    to = _xy(intent.to)
    if not rc.can_end(to):
        refusal = rc.why_not(to)
        raise IllegalIntent(who, f"cannot end on {to}: {_bare(refusal.why, refusal.rule)}", refusal.rule, "to")


def start_context(enc: Encounter, state: MatchState, side: str, memory: MatchMemory) -> movement.Context:
    """Who stands where as the turn starts, for any mover of `side` (M10): the same for every intent
    declared against this state (the AI's plans, the checks of intents, the plans that P2 follows),
    so it is worked out once per state (MatchMemory.of_state)."""
    contexts = memory.of_state(state).contexts
    ctx = contexts.get(side)
    if ctx is None:
        ctx = contexts[side] = movement.context(enc, state.chars, side)
    return ctx


# --------------------------------------------------------------------------------------------------
@dataclass
class _Group:
    """Characters doing the same thing to one target in one step (rule S7)."""

    use: str
    target: CharId
    members: list[CharId]
    half: Half

    @property
    def key(self) -> tuple[str, CharId]:
        return (self.use, self.target)


@dataclass
class _Hit:
    victim: CharId
    losses: int
    sources: tuple[CharId, ...]


_MOVED_WHILE_SHOOTING = Modifier(-1, "moved while shooting", "M1")
_HIGHER_GROUND = Modifier(1, "higher ground", "R5")

_PHASE_WORDS = {
    "P1": "observations",
    "P2": "movement and communication",
    "P3": "ranged effects",
    "P4": "reach effects",
}
_PHASE_TEXT = {phase: f"{phase}: {words}" for phase, words in _PHASE_WORDS.items()}  # the phase events' words


@dataclass
class _Turn:
    enc: Encounter
    state: MatchState
    rng: random.Random
    dice: DiceEngine
    memory: MatchMemory
    phase: str = "declare"
    events: list[Event] = field(default_factory=list)
    intents: dict[CharId, Intent] = field(default_factory=dict)
    st: dict[CharId, CharacterState] = field(default_factory=dict)
    caused: set[CharId] = field(default_factory=set)
    suffered: set[CharId] = field(default_factory=set)
    attacked_by: dict[CharId, set[CharId]] = field(default_factory=dict)
    blocks: dict[CharId, set[tuple[str, CharId]]] = field(default_factory=dict)
    shares: list[tuple[CharId, Advantage]] = field(default_factory=list)
    hidden: list[tuple[CharId, CharId]] = field(default_factory=list)
    grips: list[tuple[CharId, CharId, int]] = field(default_factory=list)  # (held, wrestler, rating)
    failed: set[CharId] = field(default_factory=set)  # attacks that came to nothing (R2, R4, P4)
    attacks: list[tuple[CharId, str, CharId, Half]] = field(default_factory=list)  # (who, use, target, half): declare
    _levels: list[int] | None = None  # levels(), on first use

    def __post_init__(self) -> None:
        self.rules: Rules = self.enc.rules
        self.n = self.state.turn
        self.st = dict(self.state.chars)
        self.skill_penalty = self.rules.switch("major_loss_penalty") == "skills"  # L5 takes from skills

    # -- helpers ---------------------------------------------------------------------------------
    def emit(self, type_: str, text: str, rules: Sequence[str] = (), **data: object) -> None:
        self.events.append(Event(type_, self.n, self.phase, text, tuple(rules), MappingProxyType(data)))

    def emit_data(self, type_: str, text: str, rules: tuple[str, ...], data: dict[str, object]) -> None:
        """emit() for data already in a dict of its own (no keyword arguments to pack again)."""
        self.events.append(Event(type_, self.n, self.phase, text, rules, MappingProxyType(data)))

    def char(self, cid: CharId) -> Character:
        return self.enc.by_id[cid]

    def name(self, cid: CharId) -> str:
        return self.enc.by_id[cid].name

    def active(self, cid: CharId) -> bool:
        return self.st[cid].active

    def half_of(self, cid: CharId) -> Half | None:
        it = self.intents.get(cid)
        return self.rules.halves[it.use] if it else None

    def order(self) -> tuple[CharId, ...]:
        """Declaration order of the encounter: the deterministic order of every loop."""
        return self.enc.ids

    def enemies(self, a: CharId, b: CharId) -> bool:
        return self.char(a).side != self.char(b).side

    # -- declaring -------------------------------------------------------------------------------
    def declare(self, intents: Sequence[Intent]) -> None:
        self.emit("turn_start", f"turn {self.n}", ("P1", "P2", "P3", "P4"))
        for raw in intents:
            intent = validate_intent(self.enc, self.state, raw, memory=self.memory)
            if intent.who in self.intents:
                raise IllegalIntent(intent.who, "declared two intents in one turn; pick one skill use", "P1", "who")
            self.intents[intent.who] = intent
        # the declared attacks with a target, in declaration order (attack_groups reads them each step)
        halves = self.rules.halves
        for cid in self.order():
            it = self.intents.get(cid)
            if it is not None and it.target is not None and halves[it.use].act == "attack":
                self.attacks.append((cid, it.use, it.target, halves[it.use]))
        for cid in self.order():
            it = self.intents.get(cid)
            if it is None:
                if self.active(cid):
                    self.emit("intent", f"{self.name(cid)} is idle", (), who=cid, use=None)
                continue
            words = f"{self.name(cid)} uses {it.use}" + (f" on {self.name(it.target)}" if it.target else "")
            if it.to is not None or it.path:
                words += f", heading for {tuple(it.to) if it.to is not None else tuple(it.path[-1])}"
            if it.throw is not None:
                words += f", to throw it to {tuple(it.throw)}"
            self.emit_data("intent", words, (self.rules.halves[it.use].phase,), it.to_dict())
        self._plan_blocks()

    def _plan_blocks(self) -> None:
        """C5: Block/Dodge works at full rating against one chosen attacker (a group is one
        threat [house]) plus one more threat per point of Exit/Escape talent, strongest first."""
        threats: dict[CharId, list[_Group]] = {}
        guarding = {cid for cid, it in self.intents.items() if self.rules.halves[it.use].defense == "full_vs_chosen"}
        for g in self.attack_groups(lambda h: True):
            if g.target in guarding:  # only those who Block or Dodge choose among their threats
                threats.setdefault(g.target, []).append(g)
        for cid, it in self.intents.items():
            if self.rules.halves[it.use].defense != "full_vs_chosen":
                continue
            extra = self.char(cid).talent("Exit/Escape")
            groups = threats.get(cid, [])
            # Strongest first, then the first declared; ranked only when it picks a threat (no attacker
            # named, or talent for more than one): a rating is worked out with all its parts.
            rank = len(groups) > 1 and (it.target is None or extra > 0)
            mine = sorted(
                (-max(self.attack_rating(m, g.use, g.target, None).value for m in g.members) if rank else 0,
                 self.order().index(g.members[0]), g.key, g.members)
                for g in groups
            )
            chosen: set[tuple[str, CharId]] = set()
            if it.target is not None:
                chosen |= {key for _, _, key, members in mine if it.target in members}
                if not self.rules.switch("group_is_one_threat"):
                    chosen = {key for _, _, key, members in mine if members == [it.target]}
            elif mine:
                chosen.add(mine[0][2])  # no attacker named: the strongest threat [house]
            for _, _, key, _ in mine:
                if extra <= 0:
                    break
                if key not in chosen:
                    chosen.add(key)
                    extra -= 1
            self.blocks[cid] = chosen

    # -- groups and ratings ----------------------------------------------------------------------
    def attack_groups(self, which: Callable[[Half], bool]) -> list[_Group]:
        """Attackers with the same skill use on the same target form one group (S7 [house]:
        'doing the same thing' = same half, same target, same phase step)."""
        groups: dict[tuple[str, CharId], _Group] = {}
        st, failed = self.st, self.failed
        for cid, use, target, half in self.attacks:
            if not st[cid].active or cid in failed or not which(half):
                continue
            g = groups.get((use, target))
            if g is None:
                g = groups[use, target] = _Group(use, target, [], half)
            g.members.append(cid)
        return list(groups.values())

    def situational(self, cid: CharId, vs: CharId | None) -> tuple[Modifier, ...]:
        it = self.intents.get(cid)
        mods = list(it.modifiers) if it else []
        if it is not None and self.enc.board is not None:
            mods += self.position_mods(cid, it, vs)
        if vs is not None:
            for adv in self.st[cid].advantages:
                if adv.vs == vs and (adv.turn is None or adv.turn == self.n):
                    mods.append(Modifier(adv.value, adv.reason, adv.rule))
        return tuple(mods)

    def position_mods(self, cid: CharId, it: Intent, vs: CharId | None) -> list[Modifier]:
        """Situational modifiers from the board for an attack on `vs` (R1, R3, R4, R5, M1)."""
        mods: list[Modifier] = []
        blank = vs is not None and it.target == vs and self.point_blank(cid, it.use, vs)  # R3: no penalties
        if it.use == "Shoot" and it.moves and self.rules.allowance("Shoot") == 0 and not blank:
            mods.append(_MOVED_WHILE_SHOOTING)
        half = self.rules.halves[it.use]
        if vs is None or it.target != vs or half.act != "attack":
            return mods
        board = self.enc.board
        a, b = self.st[cid].at, self.st[vs].at
        if a is None or b is None:
            return mods
        a, b = _xy(a), _xy(b)
        level = self.levels()
        if level[a[1] * board.width + a[0]] > level[b[1] * board.width + b[0]]:
            mods.append(_HIGHER_GROUND)
        if half.ranged:
            if not blank:
                band = ranges.unpenalized(self.rules, self.char(cid), it.use)
                dist = geometry.distance(board, a, b, self.rules.switch("diagonals"))
                if band and dist > band:
                    mods.append(Modifier(-1, f"beyond {band} squares", "R1"))
                _, cover, _ = geometry.sight(board, a, b)
                if cover:
                    mods.append(Modifier(-min(cover, 2), f"cover on the line ({cover})", "R4"))
        elif half.reach and self.flanked(cid, vs):
            mods.append(Modifier(1, f"flanking {self.name(vs)}", "R5"))
        return mods

    def levels(self) -> list[int]:
        """The board's level by node (y * width + x), as the movement graph keeps them (M12)."""
        if self._levels is None:
            self._levels = movement.grid(self.enc.board, str(self.rules.switch("diagonals"))).level
        return self._levels

    def point_blank(self, cid: CharId, use: str, vs: CharId) -> bool:
        """R3: a talented shot or throw takes no penalties at all within its point-blank range."""
        board = self.enc.board
        a, b = self.st[cid].at, self.st[vs].at
        if board is None or a is None or b is None:
            return False
        blank = ranges.point_blank(self.rules, self.char(cid), use)
        return bool(blank) and geometry.distance(board, _xy(a), _xy(b), self.rules.switch("diagonals")) <= blank

    def flanked(self, cid: CharId, vs: CharId) -> bool:
        """R5: an ally next to the target on the opposite side from `cid`."""
        board = self.enc.board
        a, t = self.st[cid].at, self.st[vs].at
        if a is None or t is None or not geometry.adjacent(board, _xy(a), _xy(t)):
            return False
        if geometry.is_hex(board):
            ca, ct = geometry.to_cube(board, _xy(a)), geometry.to_cube(board, _xy(t))
            opp = geometry.from_cube(board, tuple(2 * y - x for x, y in zip(ca, ct, strict=True)))  # type: ignore[arg-type]
        else:
            opp = (2 * t[0] - a[0], 2 * t[1] - a[1])
        side, by_id = self.char(cid).side, self.enc.by_id
        for c, s in self.st.items():
            if s.at is not None and tuple(s.at) == opp and c != cid and by_id[c].side == side and s.active:
                return True
        return False

    def rating(
        self,
        cid: CharId,
        use: str,
        vs: CharId | None,
        against: str | None,
        *,
        halved: bool = False,
        adjustments: tuple[Modifier, ...] = (),
    ) -> Rating:
        """The effective rating of `cid` using `use`, facing `vs` who uses `against`."""
        if use == "item":
            return Rating("item", fixed=0, rules=("C5",))
        base, equip, talent, notes = self.memory.parts(cid, use)
        matchup = self.rules.matchup(use, against) if against else 0
        penalty = self.st[cid].major if self.skill_penalty else 0
        return Rating(use, base, equip, self.situational(cid, vs), 0, 1, talent, matchup, penalty, adjustments, halved,
                      None, notes)

    def attack_rating(self, cid: CharId, use: str, target: CharId, against: str | None) -> Rating:
        adjustments: tuple[Modifier, ...] = ()
        half = self.rules.halves[use]
        dodge = self.char(target).talent("Block/Dodge")
        if half.ranged and use in ("Shoot", "Throw") and dodge and not self.point_blank(cid, use, target):
            adjustments = (Modifier(-dodge, f"{self.name(target)} dodges missiles", "R6"),)
        return self.rating(cid, use, target, against, adjustments=adjustments)

    def group_rating(self, g: _Group, against: str | None, extra: tuple[Modifier, ...] = ()) -> tuple[Rating, CharId]:
        """S7: the group acts once at its best member's rating plus the group bonus; members
        rated 0 do not count; C6: the target's Exit/Escape talent shrinks the group first."""
        best: tuple[int, int, Rating, CharId] | None = None
        for i, m in enumerate(g.members):
            r = self.attack_rating(m, g.use, g.target, against)
            if extra:
                r = r.with_(adjustments=r.adjustments + extra)
            if best is None or (r.value, -i) > (best[0], -best[1]):
                best = (r.value, i, r, m)
        assert best is not None
        _, _, rating, leader = best
        counted = sum(1 for m in g.members if self.char(m).base(g.half.pair) > 0)
        shrink = self.char(g.target).talent("Exit/Escape")
        size = max(0, counted - shrink)
        bonus = self.rules.group_bonus(size)
        if len(g.members) > 1:
            notes = rating.notes + (
                f"group: {', '.join(self.name(m) for m in g.members)}; leader {self.name(leader)}",
            )
            if shrink:
                notes += (f"{self.name(g.target)}'s Exit/Escape talent {shrink} shrinks it to {size} (C6)",)
            rating = rating.with_(group=bonus, group_size=max(size, 1), notes=notes)
        return rating, leader

    def opposition(self, defender: CharId, g: _Group) -> tuple[Rating, str, str | None]:
        """C5: what `defender` puts against group `g`: (rating, how, the skill it opposes with)."""
        it = self.intents.get(defender)
        attacker = g.members[0]
        if g.half.opposed_by:  # O5: intimidation is contested by the target's own Wonder
            r = self.rating(defender, g.half.opposed_by, attacker, g.use)
            return r, f"contests with {g.half.opposed_by} (O5)", g.half.opposed_by
        if it is None:
            return Rating("idle", fixed=0, notes=("no intent: opposes with 0",)), "idle, opposes with 0", None
        half = self.rules.halves[it.use]
        if half.defense == "undefended" or (
            half.defense == "half" and self.rules.switch("other_skill_defense") == "zero" and half.act != "attack"
        ):
            why = "using an item" if it.use == "item" else f"using {it.use}"
            return Rating(it.use, fixed=0), f"undefended while {why} (C5)", None
        if half.defense == "full_vs_chosen":
            if g.key in self.blocks.get(defender, set()):
                return self.rating(defender, it.use, attacker, g.use), f"{it.use} at full rating (C5)", it.use
            r = self.rating(defender, it.use, attacker, g.use, halved=True)
            return r, f"{it.use} is turned on another attacker: half (C5)", it.use
        if half.defense == "full":
            return self.rating(defender, it.use, attacker, g.use), f"{it.use} at full rating while fleeing (C5)", it.use
        r = self.rating(defender, it.use, attacker, g.use, halved=True)
        what = "attacking someone else" if half.act == "attack" else f"busy with {it.use}"
        return r, f"{what}: half its rating (C5)", it.use

    # -- losses ----------------------------------------------------------------------------------
    def apply(self, hits: list[_Hit]) -> None:
        """Land a step's losses together (simultaneity within a step) and check defeat (L1-L4)."""
        for hit in hits:
            if hit.losses <= 0 or not self.active(hit.victim):
                continue
            victim = self.char(hit.victim)
            s = self.st[hit.victim]
            minor, major = s.minor, s.major
            for _ in range(hit.losses):
                if minor < 2:
                    minor += 1
                else:
                    major += 1
            deadly = s.deadly_losses + (hit.losses if any(self.char(x).deadly for x in hit.sources) else 0)
            s = s.with_(minor=minor, major=major, deadly_losses=deadly)
            self.st[hit.victim] = s
            self.suffered.add(hit.victim)
            self.caused.update(hit.sources)
            by = ", ".join(self.name(x) for x in hit.sources)
            by = by or "the hazard"
            self.emit(
                "losses",
                f"{victim.name} suffers {hit.losses} loss{'es' if hit.losses != 1 else ''} from {by}: "
                f"{minor} minor, {major} major (L1)",
                ("C2", "L1"),
                who=hit.victim,
                n=hit.losses,
                by=list(hit.sources),
                minor=minor,
                major=major,
            )
            limit = self.rules.switch("deadly_defeats_after")
            why, rule = "", "L3"
            if victim.fragile and s.losses >= limit:
                why, rule = f"fragile: {s.losses} losses (L4)", "L4"
            elif deadly and s.losses >= limit:
                why, rule = f"struck by a deadly foe: {s.losses} losses (L4)", "L4"
            elif major >= victim.defeat_threshold():
                extra = victim.talent("Wrestle/Disarm")
                why = f"{major} major losses (L3" + (f", +{extra} from Wrestle talent" if extra else "") + ")"
            if why:
                self.st[hit.victim] = s.with_(defeated=True)
                self.emit("defeated", f"{victim.name} is defeated: {why}", (rule,), who=hit.victim)

    # -- contests --------------------------------------------------------------------------------
    def contest_event(
        self, kind: str, att: Rating, att_who: list[CharId], dfn: Rating, dfn_who: list[CharId], how: str,
        roll: Roll, rules: Sequence[str],
    ) -> None:
        a_names = ", ".join(self.name(m) for m in att_who)
        d_names = ", ".join(self.name(m) for m in dfn_who)
        if roll.winner == "attack":
            verdict = f"{a_names} win{'s' if len(att_who) == 1 else ''} by {roll.margin}"
        elif roll.winner == "defense":
            held = "holds" if kind != "interfere" else ("wins" if len(dfn_who) == 1 else "win")
            verdict = f"{d_names} {held} by {roll.margin}"
        else:
            verdict = "a tie"
        text = (
            f"{a_names}: {att.explain()}  vs  {d_names}: {dfn.explain()} [{how}] -> {verdict}"
            + (f" ({roll.detail})" if roll.detail else "")
        )
        self.emit(
            "contest",
            text,
            tuple(rules) + (roll.rule,),
            kind=kind,
            attackers=list(att_who),
            defenders=list(dfn_who),
            attack=att.to_dict(),
            defense=dfn.to_dict(),
            how=how,
            winner=roll.winner,
            margin=roll.margin,
            totals=[roll.attack_total, roll.defense_total],
            dice=roll.detail,
        )

    def run_attacks(self, groups: list[_Group], interfere: bool) -> None:
        """One phase step of attacks: pair up interfering reach groups (C3), then every other
        group against its target's opposition (C2, C4, C5). Losses land at the end (apply)."""
        hits: list[_Hit] = []
        done: set[tuple[str, CharId]] = set()
        group_of = {m: g for g in groups for m in g.members}  # one intent each: one group each
        for g in groups:
            if g.key in done:
                continue
            if not self.active(g.target):
                who = ", ".join(self.name(m) for m in g.members)
                self.emit("no_effect", f"{who}: {g.use} on {self.name(g.target)} has no effect, "
                          f"{self.name(g.target)} is already out of the fight", ("L3",), target=g.target,
                          attackers=list(g.members))
                done.add(g.key)
                continue
            partner = None
            if interfere:  # C3: the target attacks one of this group's members back
                cand = group_of.get(g.target)
                if cand is not None and cand.target in g.members and cand.key not in done and cand is not g:
                    partner = cand
            for m in g.members:
                self.attacked_by.setdefault(g.target, set()).add(m)
            if partner is not None:
                done |= {g.key, partner.key}
                for m in partner.members:
                    self.attacked_by.setdefault(partner.target, set()).add(m)
                ra, lead_a = self.group_rating(g, partner.use)
                rb, lead_b = self.group_rating(partner, g.use)
                roll = self.dice.contest(ra, rb, self.rng)
                self.contest_event(
                    "interfere", ra, g.members, rb, partner.members,
                    "attacking each other: one contest, only the higher succeeds (C3)", roll, ("C3",),
                )
                if roll.winner == "attack":
                    hits.append(_Hit(g.target, roll.margin, tuple(g.members)))
                    self.grip(g, lead_a, ra)
                elif roll.winner == "defense":
                    hits.append(_Hit(partner.target, roll.margin, tuple(partner.members)))
                    self.grip(partner, lead_b, rb)
                elif self.rules.switch("mutual_tie_both_succeed"):
                    self.emit("no_effect", "equal ratings: both attacks succeed, with no losses (C3)", ("C3",))
                else:
                    self.emit("no_effect", "equal ratings: nobody suffers losses (C3)", ("C3",))
                continue
            done.add(g.key)
            dfn, how, dskill = self.opposition(g.target, g)
            att, leader = self.group_rating(g, dskill)
            roll = self.dice.contest(att, dfn, self.rng)
            rules = ["C2", "C5"] + (["S7"] if len(g.members) > 1 else []) + (["C4"] if g.half.ranged else [])
            self.contest_event("attack", att, g.members, dfn, [g.target], how, roll, rules)
            if roll.winner == "attack":
                hits.append(_Hit(g.target, roll.margin, tuple(g.members)))
                self.grip(g, leader, att)
            elif roll.winner == "defense" and self.rules.switch("defense_inflicts_losses"):
                it = self.intents.get(g.target)
                if it and self.rules.halves[it.use].act == "attack" and dskill:
                    hits.append(_Hit(g.members[0], roll.margin, (g.target,)))
        hits += self.secondary_hits(groups)
        self.apply(hits)
        self.land_grips()

    def grip(self, g: _Group, leader: CharId, rating: Rating) -> None:
        """M13: a successful Wrestle grabs its target (or throws a foe already held)."""
        if g.use == "Wrestle":
            self.grips.append((g.target, leader, rating.value))

    def land_grips(self) -> None:
        for held, wrestler, value in self.grips:
            if not (self.active(held) and self.active(wrestler)):
                continue
            it = self.intents[wrestler]
            if it.throw is not None and self.state[held].held_by == wrestler and it.target == held:
                to = (int(it.throw[0]), int(it.throw[1]))
                taken = any(s.at == to and s.active for c, s in self.st.items() if c != held)
                if taken:
                    self.emit("no_effect", f"{self.name(wrestler)} cannot throw {self.name(held)} onto {to}: "
                              "someone stands there (M13, M10)", ("M13", "M10"), who=wrestler, target=held)
                    continue
                self.st[held] = self.st[held].with_(at=to, held_by=None, hold=0)
                self.emit("thrown", f"{self.name(wrestler)} throws {self.name(held)} to {to} (M13)", ("M13",),
                          who=held, by=wrestler, to=list(to))
                continue
            self.st[held] = self.st[held].with_(held_by=wrestler, hold=value)
            self.emit("grabbed", f"{self.name(wrestler)} grabs {self.name(held)} (grip {value}): it cannot move "
                      f"away unless its Escape beats {value} (C8); next turn it can be thrown (M13)", ("M13", "C8"),
                      who=held, by=wrestler, hold=value)
        self.grips.clear()

    def secondary_hits(self, groups: list[_Group]) -> list[_Hit]:
        """C7: Melee talent strikes extra adjacent foes, each at Melee - 1, each its own contest."""
        hits: list[_Hit] = []
        for g in groups:
            for m in g.members:
                it = self.intents[m]
                for extra in it.also:
                    if not self.active(extra):
                        continue
                    a, b = self.st[m].at, self.st[extra].at
                    if self.enc.board is not None and a is not None and b is not None and not geometry.adjacent(
                        self.enc.board, _xy(a), _xy(b)
                    ):
                        self.emit("no_effect", f"{self.name(m)}: {self.name(extra)} is not next to it (C7)", ("C7",),
                                  who=m, target=extra, rule="C7")
                        continue
                    sub = _Group(g.use, extra, [m], g.half)
                    dfn, how, dskill = self.opposition(extra, sub)
                    att, _ = self.group_rating(sub, dskill, (Modifier(-1, "secondary target", "C7"),))
                    roll = self.dice.contest(att, dfn, self.rng)
                    self.contest_event("secondary", att, [m], dfn, [extra], how, roll, ("C7", "C5"))
                    self.attacked_by.setdefault(extra, set()).add(m)
                    if roll.winner == "attack":
                        hits.append(_Hit(extra, roll.margin, (m,)))
        return hits

    # -- end of turn -----------------------------------------------------------------------------
    def end_of_turn(self) -> None:
        for cid in self.order():
            s = self.st[cid]
            holder = s.held_by
            if holder is None or not s.active:
                continue
            gone = not self.active(holder)
            there = self.st[holder].at
            apart = (self.enc.board is not None and s.at is not None and there is not None
                     and not geometry.adjacent(self.enc.board, s.at, there))
            if gone or apart:
                self.st[cid] = s.with_(held_by=None, hold=0)
                why = "is out of the fight" if gone else "is no longer next to it"
                self.emit("released", f"{self.name(cid)} is free: {self.name(holder)} {why} (M13)", ("M13",),
                          who=cid, by=holder)
        for hider, foe in self.hidden:
            if not self.active(hider):
                continue
            distracted = any(not self.enemies(a, hider) for a in self.attacked_by.get(foe, ()) if a != hider)
            value = 2 if distracted else 1
            why = f"unseen by {self.name(foe)}" + (" while an ally distracts it" if distracted else "")
            self.grant(hider, Advantage(foe, value, why, "O4", self.n + 1), share=False)
        for cid in self.order():
            s = self.st[cid]
            if s.active and cid in self.caused and cid not in self.suffered and s.minor > 0:
                self.st[cid] = s.with_(minor=s.minor - 1)
                self.emit(
                    "healed",
                    f"{self.name(cid)} caused a loss and suffered none: one minor loss heals (L2)",
                    ("L2",),
                    who=cid,
                    minor=s.minor - 1,
                )
        if self.rules.switch("exit_leaves_conflict") and self.enc.board is None:
            for cid in self.order():
                it = self.intents.get(cid)
                s = self.st[cid]
                if it and it.use == "Exit" and s.active:
                    self.st[cid] = s.with_(fled=True, minor=0)
                    healed = "; all minor losses heal (L2)" if s.minor else ""
                    self.emit("fled", f"{self.name(cid)} leaves the conflict{healed}", ("C5", "L2"), who=cid)
        for cid, s in self.st.items():
            if not s.advantages:
                continue
            keep = tuple(a for a in s.advantages if a.turn is None or a.turn > self.n)
            if keep != s.advantages:
                self.st[cid] = s.with_(advantages=keep)

    def grant(self, cid: CharId, adv: Advantage, share: bool) -> None:
        s = self.st[cid]
        if adv not in s.advantages:
            self.st[cid] = s.with_(advantages=s.advantages + (adv,))
        when = "for the rest of the combat" if adv.turn is None else f"in turn {adv.turn}"
        self.emit(
            "advantage",
            f"{self.name(cid)} gains {adv.value:+d} against {self.name(adv.vs)} {when}: {adv.reason} ({adv.rule})",
            (adv.rule,),
            who=cid,
            vs=adv.vs,
            value=adv.value,
            until=adv.turn,
        )
        if share:
            self.shares.append((cid, adv))


# -- phases ----------------------------------------------------------------------------------------
def _observations(t: _Turn) -> None:
    """P1: Perception, Identify, Lore and Intuition against target numbers (O1, O3); Stealth (O4)."""
    groups: dict[tuple[str, CharId], list[CharId]] = {}
    for cid in t.order():
        it = t.intents.get(cid)
        if it and it.target and t.rules.halves[it.use].act == "observe":
            groups.setdefault((it.use, it.target), []).append(cid)
    for (use, target), members in groups.items():
        foe = t.char(target)
        other = t.rules.halves[use].pair.replace(use, "").strip("/")
        tn = foe.observe_tn.get(use, foe.observe_tn.get(other, t.rules.switch("default_observe_tn")))
        ratings = [(t.rating(m, use, target, None), m) for m in members]
        rating, leader = max(ratings, key=lambda rm: (rm[0].value, -members.index(rm[1])))
        counted = sum(1 for m in members if t.char(m).base(t.rules.halves[use].pair) > 0)
        if len(members) > 1:
            rating = rating.with_(group=t.rules.group_bonus(counted), group_size=counted)
        roll = t.dice.check(rating, tn, t.rng)
        who = ", ".join(t.name(m) for m in members)
        ok = "succeeds" if roll.success else "fails"
        t.emit(
            "check",
            f"{who}: {rating.explain()} vs {foe.name}'s target number {tn} -> {ok}"
            + (f" ({roll.detail})" if roll.detail else ""),
            ("O1", "C1", roll.rule) + (("S7",) if len(members) > 1 else ()),
            who=list(members),
            use=use,
            target=target,
            tn=tn,
            rating=rating.to_dict(),
            success=roll.success,
            excess=roll.margin if roll.success else 0,
        )
        if not roll.success:
            continue
        if use == "Intuition":
            advs = [Advantage(target, 2, f"read {foe.name}'s intentions", "O3", t.n + 1)]
        else:
            foes = [target]
            if use in ("Identify", "Lore") and foe.kind:
                foes += [
                    c.id for c in t.enc.characters
                    if c.kind == foe.kind and c.id != target and t.enemies(c.id, members[0]) and t.active(c.id)
                ]
            advs = [Advantage(f, 1, f"studied with {use}", "O1") for f in foes]
        sharing = any(t.intents[m].share for m in members)
        for m in members:
            for adv in advs:
                t.grant(m, adv, share=sharing)
        t.emit("observed", f"{who} learn{'s' if len(members) == 1 else ''} how to fight {foe.name}", ("O1",),
               who=list(members), target=target)
    _stealth(t)


def _stealth(t: _Turn) -> None:
    """O4: a hider is found by a higher Perception (active searchers grouped, S7; else the foe's
    passive Perception, halved by O2); a tie keeps a motionless hider hidden [house]."""
    for hider in t.order():
        it = t.intents.get(hider)
        if it is None or it.use != "Stealth" or it.target is None:
            continue
        stealth = t.rating(hider, "Stealth", it.target, None)
        searchers = [
            c for c in t.order()
            if t.enemies(c, hider) and (s := t.intents.get(c)) is not None
            and s.use == "Perception" and s.target in (None, hider)
        ]
        if searchers:
            found_by = searchers
            ratings = [t.rating(c, "Perception", hider, None) for c in searchers]
            det = max(ratings, key=lambda r: r.value)
            counted = sum(1 for c in searchers if t.char(c).base("Perception/Etiquette") > 0)
            if len(searchers) > 1:
                det = det.with_(group=t.rules.group_bonus(counted), group_size=counted)
            how = "searching actively"
        else:
            found_by = [it.target]
            det = t.rating(it.target, "Perception", hider, None, halved=True)
            how = "not searching: Perception halved (O2)"
        roll = t.dice.contest(det, stealth, t.rng)
        tie_hides = t.rules.switch("stealth_tie_hidden") and not it.moves
        found = roll.winner == "attack" or (roll.winner == "tie" and not tie_hides)
        names = ", ".join(t.name(c) for c in found_by)
        t.emit(
            "found" if found else "hidden",
            f"{names} ({det.explain()}, {how}) vs {t.name(hider)} ({stealth.explain()}): "
            + (f"{t.name(hider)} is found" if found else f"{t.name(hider)} stays hidden")
            + (" (tie; motionless hider stays hidden)" if roll.winner == "tie" and not found else ""),
            ("O4", "O2", "S7"),
            who=hider,
            searchers=found_by,
            perception=det.to_dict(),
            stealth=stealth.to_dict(),
        )
        if not found:
            t.hidden.append((hider, it.target))


def _movement(t: _Turn) -> None:
    """P2: Exit first, then Acrobatics/Climb, then everyone else (M9); shouts share what was learnt
    (O6); Wonder's slow advance intimidates foes who already bleed (O5). Without a map positions are
    taken as declared; with a map every plan goes through `movement` (M1-M12, E1)."""
    _escapes(t)
    if t.enc.board is not None:
        _board_movement(t)
    for sub in (1, 2, 3) if t.enc.board is None else ():
        for cid in t.order():
            it = t.intents.get(cid)
            if it is None or not t.active(cid) or t.st[cid].held_by is not None:
                continue
            h = t.rules.halves[it.use]
            if (h.sub_phase if h.name != "item" else 3) != sub:
                continue
            dest = it.to if it.to is not None else (it.path[-1] if it.path else None)
            if dest is not None and dest != t.st[cid].at:
                t.st[cid] = t.st[cid].with_(at=dest)
                t.emit("moved", f"{t.name(cid)} moves to {dest}", ("P2", "M9"), who=cid, to=list(dest),
                       sub_phase=sub)
    for cid, adv in t.shares:
        allies = [c for c in t.order() if c != cid and not t.enemies(c, cid) and t.active(c)]
        if allies:
            t.emit("shared", f"{t.name(cid)} shouts what was learnt to {', '.join(t.name(a) for a in allies)}",
                   ("O6", "P2"), who=cid, to=allies)
        for a in allies:
            t.grant(a, adv, share=False)
    for cid in t.order():
        it = t.intents.get(cid)
        if it and it.use == "Wonder" and it.target is None and t.active(cid):
            bleeding = [c for c in t.order() if t.enemies(c, cid) and t.active(c) and t.st[c].losses > 0]
            if not bleeding:
                t.emit("no_effect", f"{t.name(cid)} advances menacingly, but no foe has a loss yet (O5)", ("O5",))
            for foe in bleeding:
                t.grant(cid, Advantage(foe, 1, "intimidating advance", "O5"), share=False)


def _escapes(t: _Turn) -> None:
    """C8: at the start of movement, a held character using Escape breaks the grip when its Escape
    beats the rating that made it; anyone else held stays where it is (M13)."""
    for cid in t.order():
        s, it = t.st[cid], t.intents.get(cid)
        if s.held_by is None or it is None or not t.active(cid):
            continue
        holder = t.name(s.held_by)
        if it.use == "Escape":
            r = t.rating(cid, "Escape", s.held_by, None)
            free = r.value > s.hold
            t.emit("escaped" if free else "stopped",
                   f"{t.name(cid)}: {r.explain()} vs {holder}'s grip {s.hold} -> "
                   + ("breaks free (C8)" if free else "still held: Escape must beat the grip (C8)"),
                   ("C8",), who=cid, at=list(s.at) if s.at is not None else None, rule="C8",
                   reason=f"held by {holder} (C8)", escape=r.to_dict(), hold=s.hold)
            if free:
                t.st[cid] = s.with_(held_by=None, hold=0)
        elif it.moves or (it.use == "Press" and it.target is not None and t.enc.board is not None):
            t.emit("stopped", f"{t.name(cid)} cannot move: held by {holder} (C8)", ("C8",), who=cid,
                   at=list(s.at) if s.at is not None else None, rule="C8", reason=f"held by {holder} (C8)")


def _board_movement(t: _Turn) -> None:
    """P2 on a map: sub-phases Exit, Acrobatics/Climb, everyone else (M9). Sticky zones and
    occupied squares are those at the start of each sub-phase (M6 [house]); plans are cut short
    with the reason; same-square conflicts go to the higher rating, then the lower id (M10);
    hazards strike whoever enters their square without eluding them (E1)."""
    board = t.enc.board
    by_sub: dict[int, list[tuple[CharId, Intent]]] = {}  # who may move in each sub-phase, in declaration order
    for cid in t.order():
        it = t.intents.get(cid)
        if it is not None and (it.moves or (it.use == "Press" and it.target is not None)):  # M7: Press always charges
            h = t.rules.halves[it.use]
            by_sub.setdefault(h.sub_phase if h.name != "item" else 3, []).append((cid, it))
    still = True  # nobody has moved yet this turn: the start-of-turn contexts still say who stands where
    for sub in (1, 2, 3):
        if sub not in by_sub:
            continue
        movers: list[tuple[CharId, movement.Route]] = []
        sticky = {
            cid: it.use for cid, it in t.intents.items()
            if t.rules.halves[it.use].sticky and t.active(cid) and t.st[cid].at is not None
        }
        snapshot = dict(t.st)
        ctxs: dict[str, movement.Context] = {}  # by side: who stands where as this sub-phase begins
        for cid, it in by_sub[sub]:
            now = snapshot[cid]
            if not now.active or now.at is None or now.held_by is not None:  # C8: held fast (logged by _escapes)
                continue
            mover = movement.mover_for(t.enc, snapshot, cid, it.use, it.target, it.item, t.memory)
            side = t.enc.by_id[cid].side
            # who stood where as P2 began: as the turn began (P1 and escapes move nobody)
            plan_ctx = start_context(t.enc, t.state, side, t.memory)
            if side not in ctxs:
                ctxs[side] = movement.context(t.enc, snapshot, side, sticky,
                                              standing=plan_ctx.occupants if still else None)
            ctx = ctxs[side]
            plan = movement.Plan(it.to, tuple((p[0], p[1]) for p in it.path), plan_ctx)
            route = movement.plan_route(board, t.rules, mover, ctx, plan)
            movers.append((cid, route))
        if movers:
            routes = _collisions(t, dict(movers), sub)
            for cid, _ in movers:
                _apply_route(t, cid, routes[cid], sub)
            still = False


def _collisions(t: _Turn, routes: dict[CharId, movement.Route], sub: int) -> dict[CharId, movement.Route]:
    """M10 [house]: nobody ends on an occupied square; in a same-square conflict the higher
    effective rating of the skill used wins, then the lower id; the others stop on their last
    free square."""
    standing: set[XY] | None = None  # squares of those who stay put, worked out on the first clash
    for _ in range(len(routes) + 1):
        ends: dict[tuple[int, int], list[CharId]] = {}
        for cid, r in routes.items():
            ends.setdefault(r.end, []).append(cid)
        clash = [(sq, cids) for sq, cids in ends.items() if len(cids) > 1]
        if not clash:
            break
        for sq, cids in clash:
            # whoever is already standing there keeps it; then the higher rating, then the lower id
            ranked = sorted(
                cids, key=lambda c: (bool(routes[c].steps), -t.rating(c, t.intents[c].use, None, None).value, c)
            )
            winner = ranked[0]
            if standing is None:
                standing = {tuple(s.at) for c, s in t.st.items()  # type: ignore[misc]
                            if s.at is not None and s.active and c not in routes}
            for loser in ranked[1:]:
                r = routes[loser]
                taken = standing | {routes[c].end for c in routes if c != loser}
                steps = list(r.steps)
                while steps and steps[-1].to in taken:
                    steps.pop()
                why = movement.Refusal(
                    "M10", f"{t.name(winner)} takes {sq} first: higher {t.intents[winner].use} or lower id (M10)"
                )
                routes[loser] = movement.Route(r.origin, tuple(steps), why, steps[-1].to if steps else r.origin)
                t.emit("collided", f"{t.name(loser)} and {t.name(winner)} both head for {sq}; "
                       f"{t.name(winner)} gets it, {t.name(loser)} stops short (M10)", ("M10",),
                       who=loser, winner=winner, at=list(sq), sub_phase=sub)
    return routes


def _apply_route(t: _Turn, cid: CharId, route: movement.Route, sub: int) -> None:
    board = t.enc.board
    end = route.end
    if route.steps:
        t.st[cid] = t.st[cid].with_(at=end)
        cost = route.cost
        squares = [list(step.to) for step in route.steps]
        t.emit("moved", f"{t.name(cid)} moves to {end} ({cost} square{'s' if cost != 1 else ''})",
               ("P2", "M9", "M11"), who=cid, to=list(end), route=squares, cost=cost, sub_phase=sub)
        for step in route.jumps:
            t.emit("jumped", f"{t.name(cid)} jumps over {', '.join(str(o) for o in step.over)} to {step.to} (M5)",
                   ("M5",), who=cid, over=[list(o) for o in step.over], to=list(step.to))
    if route.stopped is not None:
        why = route.stopped
        t.emit("stopped", f"{t.name(cid)} stops at {end}: {why.why}", (why.rule,), who=cid,
               at=list(end), rule=why.rule, reason=why.why, sub_phase=sub)
    for step in route.steps if board.hazards else ():
        h = int(board.hazard[step.to[1], step.to[0]])
        if h >= 0 and t.active(cid):
            _hazard(t, cid, step.to, board.hazards[h])
    it = t.intents[cid]
    if it.use == "Exit" and t.active(cid) and t.rules.switch("exit_leaves_conflict"):
        x, y = t.st[cid].at  # type: ignore[misc]
        if x in (0, board.width - 1) or y in (0, board.height - 1):
            s = t.st[cid]
            t.st[cid] = s.with_(fled=True, minor=0)
            healed = "; all minor losses heal (L2)" if s.minor else ""
            t.emit("fled", f"{t.name(cid)} reaches the edge of the map and leaves the conflict{healed}",
                   ("C5", "L2"), who=cid)


def _hazard(t: _Turn, cid: CharId, sq: XY, hz: Hazard) -> None:
    """E1: entering a hazard's square; `elusion.elude` decides (any requirement met: no harm,
    or half with partial elusion)."""
    try:
        reqs = tuple((t.rules.pair_of(skill), need) for skill, need in hz.requirements)
    except RulesError:
        reqs = tuple(hz.requirements)
    res = elude(t.char(cid), reqs, int(hz.harm), t.rules, t.st[cid].major)
    t.emit("hazard", f"{t.name(cid)} enters {hz.text!r} at {sq}: {res.text}", ("E1",), who=cid, at=list(sq),
           eluded=res.exempt or bool(res.by), harm=res.harm, by=res.by)
    if res.harm:
        t.apply([_Hit(cid, res.harm, ())])


def _board_checks(t: _Turn, ranged: bool) -> None:
    """After movement: a ranged attack needs sight (R4) and no aggressive foe next to a Shoot (R2);
    a reach attack needs its target next to it (P4). Failures are `no_effect` events."""
    board = t.enc.board
    if board is None:
        return
    aggressive = set(t.rules.switch("aggressive_skills"))
    for cid, _, target, half in t.attacks:
        if not t.active(cid) or cid in t.failed:
            continue
        if ranged and (not half.ranged or half.phase != "P3"):
            continue
        if not ranged and (not half.reach or half.phase != "P4"):
            continue
        it = t.intents[cid]
        a, b = t.st[cid].at, t.st[target].at
        if a is None or b is None:
            continue
        a, b = _xy(a), _xy(b)
        why, rule = "", ""
        if ranged:
            seen, _, words = geometry.sight(board, a, b)
            if not seen:
                why, rule = words, "R4"
            elif it.use == "Shoot":
                for c in t.order():
                    o = t.intents.get(c)
                    at = t.st[c].at
                    if (o and o.use in aggressive and t.enemies(c, cid) and t.active(c) and at is not None
                            and geometry.adjacent(board, a, _xy(at))):
                        why, rule = f"cannot Shoot next to {t.name(c)}, who uses {o.use} (R2)", "R2"
                        break
        elif not geometry.adjacent(board, a, b):
            why, rule = f"{t.name(target)} is out of reach after movement (P4)", "P4"
        if why:
            t.failed.add(cid)
            t.emit("no_effect", f"{t.name(cid)}: {it.use} on {t.name(target)} fails: {why}", (rule,),
                   who=cid, target=target, rule=rule, reason=why)


def _ranged(t: _Turn) -> None:
    """P3: Wonder intimidation, then Shoot/Throw; each attack its own contest (C4)."""
    _board_checks(t, ranged=True)
    steps = {h.phase_order for _, _, _, h in t.attacks if h.ranged and h.phase == "P3"}
    for step in (1, 2, 3):
        if step not in steps:
            continue  # nobody attacks in this step

        def in_step(h: Half, s: int = step) -> bool:
            return h.ranged and h.phase == "P3" and h.phase_order == s

        groups = t.attack_groups(in_step)
        if groups:
            t.run_attacks(groups, interfere=False)


def _reach(t: _Turn) -> None:
    """P4: Melee/Press, Wrestle/Disarm, Provoke and items by touch; mutual attacks interfere (C3)."""
    _board_checks(t, ranged=False)
    for cid in t.order():
        it = t.intents.get(cid)
        if it and it.use == "item" and t.active(cid):
            on = f" on {t.name(it.target)}" if it.target else ""
            t.emit("item_used", f"{t.name(cid)} uses an item{on}: undefended while doing so (C5)", ("C5", "P4"),
                   who=cid, target=it.target)
    groups = t.attack_groups(lambda h: h.reach and h.phase == "P4")
    if groups:
        t.run_attacks(groups, interfere=True)


PHASES: tuple[tuple[str, Callable[[_Turn], None]], ...] = (
    ("P1", _observations),
    ("P2", _movement),
    ("P3", _ranged),
    ("P4", _reach),
)
