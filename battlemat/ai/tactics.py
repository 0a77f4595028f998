"""NPC tactics: pure policies that turn a View into one Intent (the same door as the UI).

Chosen per character by `ai =` in the encounter. Each tactic is a plain function; `TACTICS` maps
names to them. A tactic may return None (stand idle). Whatever it returns is checked by the
resolver's `validate_intent` before use (battlemat.ai.decide), so an illegal idea never reaches play.

- brawler: closes in; Press when it can charge, Melee when already adjacent (Melee is sticky, M6);
  next to a foe whose blows beat its own (with its allies' group bonus), Block or Dodge when that
  holds the foe (C2, C5), and the log's AI note says so. It gangs up: it strikes the foe its allies
  already strike where their group does not beat it without it (S7: three on one win where pairs
  tie), with their half (a Melee walk to join a Melee group; next to a foe that allies may charge, the
  charge's Press), so one foe meets one group, not a Press group and a Melee group. Out of reach, it
  charges a foe that may meet it this turn where its Press beats its guard (every move comes before
  any blow, P2, P4); otherwise it closes in behind Block or Dodge.
- archer (battlemat.ai.archery): keeps its distance and shoots what it sees (R1, R4), joining the foe
  allies already shoot at (one group, S7); when a foe could end next to it this turn (a Shoot would
  fail, R2) and its Throw is weaker than its Shoot (S5), it shoots from a safe square a step away or
  backs off out of reach; otherwise it throws; when engaged it backs off, throws or steps away.
- skirmisher: hides first (Stealth, O4), provokes chargers (Provoke +2 vs Press, S8), flanks (R5).
- guardian: holds the foe nearest its weakest ally with sticky Melee; strikes a foe next to it (with
  Press where S8 gives it the edge over the Melee an engaged foe mostly uses); else
  closes in on the foe nearest its weakest ally: a charge where it ends next to it (M7), else
  behind Block (a cautious one holds its ground, and says so); on its post at a choke point, while
  its allies shoot and no foe shoots back, it holds the choke; without a map it blocks its
  strongest foe.
- coward: runs (Exit to the map's edge, C5) with a major loss or when its side is outmatched; until
  then it fights like a brawler but never leads a lone charge.
- observer: opens with Perception or Lore on the strongest foe and shouts it (O1, O6), stepping
  toward it, then brawls; the study waits while it could strike a blow or a shooter sees it (the
  +1 is not worth a turn under fire), and it brawls meanwhile.
- scripted: follows the character's `script` steps (e.g. the Lizard: Melee until its prey has a major
  loss, then one Press, then Melee again).
- default: archer when its Shoot beats its Melee/Press, brawler otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from battlemat.ai.archery import archer_play
from battlemat.ai.ground import away, flee_square, toward
from battlemat.ai.view import View
from battlemat.core.character import Character
from battlemat.core.intents import Intent
from battlemat.core.movement import grid, level_changes_near
from battlemat.core.types import XY

Tactic = Callable[[View], Intent | None]


def brawler(v: View) -> Intent | None:
    foe = _gang_target(v) or v.nearest(v.enemies())
    if foe is None:
        return None
    melee, press = v.my("Melee"), v.my("Press")
    if max(melee, press) == 0:
        return _best_any(v, foe)
    if v.board is not None:
        if v.adjacent(v.me, foe):
            guard = _stand_off(v, foe)
            if guard is not None:
                return Intent(v.me.id, guard, foe.id)
            joined = _group_half(v, foe, ("Melee", "Press"))
            if joined is not None:
                return Intent(v.me.id, joined, foe.id)  # S7: the same half on the same foe makes a group
            if _chargers_may_join(v, foe):
                return Intent(v.me.id, _strike_back(v), foe.id)  # S7: the half a charge will bring
            sticky = v.memory.last_target.get(v.me.id) == foe.id and v.rng.random() < 0.7
            use = "Melee" if melee > press or (melee == press and sticky) or press == 0 else "Press"
            return Intent(v.me.id, use, foe.id)
        if _stand_off(v, foe) is not None:
            return _advance(v, foe)  # no charge into blows that beat mine: close in behind the guard
        walk = _melee_join(v, foe)
        if walk is not None:
            return Intent(v.me.id, "Melee", foe.id, to=walk)  # S7: allies strike it with Melee
        near = v.distance(v.me, foe) <= v.allowance("Press") + 1
        if press > 0 and near and v.charge_reaches(foe) and v.rng.random() < 0.85:
            return Intent(v.me.id, "Press", foe.id)  # M7: the charge finds its own line
        if _may_meet(v, foe):
            return _charge(v, foe)
        return _advance(v, foe)
    # Without a map everyone is in reach: charge a fresh foe, then mostly stand and trade blows (sticky).
    engaged = v.memory.last_target.get(v.me.id) == foe.id
    use = "Melee" if (engaged and melee >= press and v.rng.random() < 0.7) or press == 0 else "Press"
    return Intent(v.me.id, use, foe.id)


def _may_meet(v: View, foe: Character) -> bool:
    """Whether to charge `foe` though it is out of reach now: it may come at me this turn (my charge and
    its own move together cover the way between us), and my Press beats my guard. The reach phase
    comes after all movement (P2, P4): a foe that steps up is struck where it stops, and one that
    strikes me while I charge it meets my Press at full rating in one contest (C3), where a Block
    would meet it at a weaker one (C5). A cautious character keeps its guard."""
    return (v.risk != "cautious" and v.my("Press") > v.my(_guard(v))
            and v.allowance("Press") + max(0, v.engage_reach(foe)) >= v.distance(v.me, foe) - 1)


def _gang_target(v: View) -> Character | None:
    """The foe allies already strike this turn (with Melee or Press) that I can strike too (next to
    me, or a charge or a Melee walk ends next to it), where their group does not beat it without me:
    joining makes one group at the best member's rating plus a larger group bonus (S7), where a blow
    at another foe would stand alone (three on one win where pairs tie). A group that already beats
    its foe needs no more: I choose as usual. With a foe next to me, only foes next to me (M6: a
    sticky foe holds me). None with the spread style, without a map, or where allies strike nobody."""
    if v.focus == "spread" or v.board is None:
        return None
    aimed = v.memory.aimed_with
    mine = max(v.my("Melee"), v.my("Press"))
    bonus = v.enc.rules.group_bonus

    def striking(f: Character) -> int:
        return aimed.get((f.id, "Melee"), 0) + aimed.get((f.id, "Press"), 0)

    foes = [f for f in v.enemies() if (n := striking(f)) and mine + bonus(n) <= v.strength(f)[1]]
    if not foes:
        return None
    near = [f for f in v.enemies() if v.adjacent(v.me, f)]
    if near:
        pool = [f for f in foes if f in near]
    else:
        pool = [f for f in foes if (v.my("Press") > 0 and v.charge_reaches(f))
                or _melee_join(v, f, any_half=True) is not None]
    if not pool:
        return None
    return max(pool, key=lambda f: (striking(f), v.state[f.id].losses, -v.enc.ids.index(f.id)))


def _melee_join(v: View, foe: Character, *, any_half: bool = False) -> XY | None:
    """A square next to `foe` a Melee walk reaches this turn, where allies strike `foe` with Melee more
    than with Press (S7: one half, one group; a charge would be a group of its own) or `any_half`."""
    if v.my("Melee") == 0 or v.board is None:
        return None
    aimed = v.memory.aimed_with
    if not any_half and aimed.get((foe.id, "Melee"), 0) <= aimed.get((foe.id, "Press"), 0):
        return None
    goal = v.at(foe)
    if goal is None:
        return None
    spots = [(v.walk_to(sq, goal), c, sq) for sq, c in v.destinations("Melee", foe.id).items()]
    spots = [p for p in spots if p[0] == 1]
    return min(spots)[2] if spots else None


def _chargers_may_join(v: View, foe: Character) -> bool:
    """Whether an ally not yet next to `foe` could charge it this turn (a Press, M7: within its move
    and a step): then the half to strike with is the charge's, so they make one group (S7)."""
    ranged, reach, _ = v.strength(foe)
    if v.my("Press") == 0 or ranged > reach:
        return False  # a shooter is held with sticky Melee (M6): a Press lets it step away and shoot
    return any(not v.adjacent(a, foe) and v.rating(a, "Press") > 0
               and v.distance(a, foe) <= v.table.allowance(a.id, "Press") + 1 for a in v.allies())


def _guard(v: View) -> str:
    """The defence to raise: Block, or Dodge where it is the stronger half (C5)."""
    return "Block" if v.my("Block") >= v.my("Dodge") else "Dodge"


def _group_half(v: View, foe: Character, halves: tuple[str, ...]) -> str | None:
    """The half of `halves` allies already aim at `foe` with this turn (most of them), if I have it
    and it is not far below my best: joining them makes one group at the best member's rating plus
    the group bonus (S7), where a half of my own would stand alone."""
    best = max(v.my(h) for h in halves)
    counts = [(v.memory.aimed_with.get((foe.id, h), 0), h) for h in halves if v.my(h) > 0]
    n, half = max(counts, default=(0, ""))
    if n == 0 or v.my(half) + 1 < best:
        return None
    return half


def _stand_off(v: View, foe: Character) -> str | None:
    """The guard to raise against `foe` next to me when trading blows can only cost me: its best reach
    attack beats my best one even with the group bonus of the allies beside it (S7; the difference
    is my losses, C2), while my Block or Dodge, named on it at full rating, holds it (C5: a defence
    inflicts nothing, so it costs nothing either). A cautious character also guards where blows
    would be even (C3: equal reach attacks hurt nobody); a reckless one never does. The log's AI note
    says why it holds back."""
    if v.risk == "reckless":
        return None
    theirs = v.strength(foe)[1]
    allies = v.allies_next_to(foe)
    mine = max(v.my("Melee"), v.my("Press")) + v.enc.rules.group_bonus(allies + 1)
    guard = _guard(v)
    held = v.my(guard)
    if held < theirs or held <= mine:
        return None
    if mine < theirs or (v.risk == "cautious" and mine == theirs):
        v.note = (f"outmatched by {foe.name} (its {theirs} against my {mine}): {guard} at {held} "
                  "keeps me from losses (C5)")
        return guard
    return None


def _danger(v: View, f: Character) -> tuple[int, int]:
    """How hard `f` can hit me this turn: its ranged rating if it sees me, its reach rating if it
    can close in (a charge of 3 and a step), else nothing (R1, R4, M1); then its threat."""
    ranged, reach, threat = v.strength(f)
    best = 0
    if ranged and v.sees(f, v.me)[0]:
        best = ranged
    if reach and v.distance(f, v.me) <= 4 and reach > best:
        best = reach
    return best, threat


def _most_dangerous(v: View) -> Character:
    return max(v.enemies(), key=lambda f: _danger(v, f))  # the first declared of equals (foes keep that order)


def _advance(v: View, foe: Character) -> Intent | None:
    """Out of reach this turn: close in behind Block or Dodge (3 squares, full rating against the
    most dangerous foe, C5), or with the best-moving attack if it cannot defend."""
    guard = _guard(v)
    if v.my("Press") > 0 and (v.risk == "reckless" or (v.my(guard) == 0 and v.my("Press") >= v.my("Climb"))):
        return _charge(v, foe)
    climb = toward(v, "Climb", foe) if v.board is not None and _climb_may_help(v, guard) else None
    walk = toward(v, guard, foe) if v.my(guard) > 0 else None
    goal = v.at(foe)
    if climb is not None and goal is not None and (
        walk is None or v.walk_to(climb, goal) < v.walk_to(walk, goal)
    ):
        return Intent(v.me.id, "Climb", to=climb)  # the way up or down is a climb (M12)
    if v.my(guard) > 0:
        watch = _most_dangerous(v)
        if walk is None:
            v.note = (f"no free square gets closer to {foe.name} this turn (the way is blocked or taken): "
                      f"{guard} in place against {watch.name}")
        return Intent(v.me.id, guard, watch.id, to=walk)
    return _charge(v, foe)  # no guard to speak of: charge anyway


def _charge(v: View, foe: Character) -> Intent:
    """A Press at `foe` (M7: the charge finds its own line), where one that falls short still closes
    in; where its straight line gets no nearer (a wall between, the way round through a door: M1),
    a walk toward it with Melee instead."""
    if v.board is not None and toward(v, "Press", foe) is None:
        walk = toward(v, "Melee", foe) if v.my("Melee") > 0 else None
        if walk is not None:
            return Intent(v.me.id, "Melee", foe.id, to=walk)
    return Intent(v.me.id, "Press", foe.id)


def _climb_may_help(v: View, guard: str) -> bool:
    """Whether a Climb could beat walking behind the guard this turn: only where the ground changes
    level within its reach (M12). On one level a Climb goes nowhere the guard cannot (same terrain
    rules, no farther, and sticky zones hold it where they let Block and Dodge go, M6), so the
    search is skipped and the choice is the same."""
    at = v.at(v.me)
    if at is None or v.my(guard) == 0 or v.allowance("Climb") > v.allowance(guard):
        return True
    r = v.allowance("Climb") + 1  # a step moves at most one square each way (hex maps too)
    return level_changes_near(v.board, at, r)


def archer(v: View) -> Intent | None:
    foes = v.enemies()
    if not foes:
        return None
    if v.my("Shoot") == 0 and v.my("Throw") == 0:
        return brawler(v)
    return archer_play(v, foes)  # battlemat.ai.archery: shoot, and back off rather than throw weaker


def skirmisher(v: View) -> Intent | None:
    foe = v.nearest(v.enemies())
    if foe is None:
        return None
    if v.my("Stealth") >= 3 and v.me.id not in v.memory.opened and not v.adjacent(v.me, foe) and not _under_fire(v):
        v.memory.opened.add(v.me.id)
        return Intent(v.me.id, "Stealth", foe.id)
    if v.my("Provoke") > 0 and v.rating(foe, "Press") >= v.rating(foe, "Melee") and v.adjacent(v.me, foe):
        return Intent(v.me.id, "Provoke", foe.id)
    flank = _flank_square(v, foe)
    if flank is not None:
        use = "Press" if v.my("Press") >= v.my("Melee") else "Melee"
        return Intent(v.me.id, use, foe.id, to=flank)
    return brawler(v)


def _flank_square(v: View, foe: Character) -> XY | None:
    """R5: a reachable square next to `foe` opposite an ally already next to it."""
    goal = v.at(foe)
    if v.board is None or goal is None:
        return None
    dests = v.destinations("Press", foe.id)
    for ally in v.allies():
        pa = v.at(ally)
        if pa is None or not v.adjacent(ally, foe):
            continue
        opposite = (2 * goal[0] - pa[0], 2 * goal[1] - pa[1])
        if opposite in dests:
            return opposite
    return None


def guardian(v: View) -> Intent | None:
    foes = v.enemies()
    if not foes:
        return None
    allies = v.allies()
    if allies:
        weakest = max(allies, key=lambda a: (v.state[a.id].losses, -v.enc.ids.index(a.id)))
        menacing = [f for f in foes if v.adjacent(f, weakest)]
        if menacing and v.my("Melee") > 0:
            foe = max(menacing, key=v.threat)
            return Intent(v.me.id, "Melee", foe.id, to=None if v.adjacent(v.me, foe) else toward(v, "Melee", foe))
    foe = _most_dangerous(v)
    block = _guard(v)
    if v.my(block) == 0:
        return brawler(v)
    if v.board is None:
        return Intent(v.me.id, block, foe.id)  # without a map there is no ground to hold or cross
    near = [f for f in foes if v.adjacent(v.me, f)]
    if near and max(v.my("Melee"), v.my("Press")) > 0:
        return Intent(v.me.id, _strike_back(v), max(near, key=v.threat).id)  # held: strike back
    if v.risk == "cautious" and allies:
        v.note = f"guardian (cautious): holds its ground by its allies, Block on {foe.name}"
        return Intent(v.me.id, block, foe.id)
    fire = _fire_balance(v, allies, foes)
    if fire is not None and v.risk != "reckless":
        v.note = (f"guardian: holds the choke point (foes reach it from one square only) while its side "
                  f"shoots ({fire[0]}) and no foe shoots back: they must come to it (R1, R4); {block} on {foe.name}")
        return Intent(v.me.id, block, foe.id)
    # Nobody to hold yet: walk (behind the Block) toward the foe nearest the weakest ally
    ward = max(allies, key=lambda a: v.state[a.id].losses) if allies else v.me
    at = v.at(ward)
    def walk(f: Character) -> int:
        there = v.at(f)
        return v.walk_to(at, there) if at is not None and there is not None and v.board is not None else 0

    prey = min(foes, key=lambda f: (walk(f), v.enc.ids.index(f.id)))
    if v.board is not None and not v.adjacent(v.me, prey):
        if v.my("Press") > 0 and _stand_off(v, prey) is None and v.charge_reaches(prey):
            return Intent(v.me.id, "Press", prey.id)  # M7: a charge that ends next to it holds it as well
        return _advance(v, prey)
    return Intent(v.me.id, _strike_back(v), prey.id)


def _fire_balance(v: View, allies: list[Character], foes: list[Character]) -> tuple[int, int] | None:
    """On its post (the square it started on), at a choke point (foes can come at me from one square
    only, `_front`) and out of the foes' shots (R1, R4): the ranged ratings of my allies that see a
    foe, and the foes' (0), where my allies shoot: time is on my side, so a guardian holds the choke
    and lets the foes come to it one at a time. None otherwise: off its post, on open ground or under
    fire, a guardian that waits only gives the foes time (measured: holding there made the goblins of
    the bridge and the bandits of the forest ambush fare worse)."""
    if v.board is None or v.at(v.me) != v.me.at or _front(v, foes) > 1:
        return None
    mine = [v.me, *allies]
    theirs = sum(v.strength(f)[0] for f in foes
                 if v.strength(f)[0] > 0 and any(v.sees(f, a)[0] for a in mine))
    ours = sum(v.strength(a)[0] for a in allies
               if v.strength(a)[0] > 0 and any(v.sees(a, f)[0] for f in foes))
    return (ours, theirs) if ours > 0 and theirs == 0 else None


def _front(v: View, foes: list[Character]) -> int:
    """How many squares next to me a foe could stand on to strike me, on the foes' side of me: the
    enterable ones (M1, M5) nearer the foes by walking than my own square (walls, pits, levels count)."""
    here = v.at(v.me)
    if here is None:
        return 0
    spots = [at for f in foes if (at := v.at(f)) is not None]

    def near(sq: XY) -> int:
        return min((v.walk_to(sq, at) for at in spots), default=0)

    gr = grid(v.board, v.enc.rules.switch_str("diagonals"))
    mine = near(here)
    return sum(1 for sq in map(gr.sq, gr.zone(here)) if v.board.enterable(sq) and near(sq) < mine)


def _strike_back(v: View) -> str:
    """The half to strike a foe next to me with: Press where it is no weaker than Melee and the rules
    give it the edge over a Melee (S8: a foe engaged with me mostly fights with sticky Melee, M6),
    else Melee."""
    melee, press = v.my("Melee"), v.my("Press")
    if press > 0 and press + v.enc.rules.matchup("Press", "Melee") > melee:
        return "Press"
    return "Melee" if melee > 0 else "Press"


def coward(v: View) -> Intent | None:
    """Runs (Exit toward the map's edge, C5) once hurt or when its side is outmatched; until then it
    fights like a brawler but never leads a charge: it strikes a foe next to it or one its allies
    strike, and otherwise closes in behind its guard."""
    foes = v.enemies()
    if not foes:
        return None
    why = _reason_to_run(v, foes)
    if why:
        v.note = f"coward: {why}: runs for the map's edge (C5)"
        return Intent(v.me.id, "Exit", to=flee_square(v, foes))
    choice = brawler(v)
    if (choice is not None and choice.use == "Press" and choice.target and v.board is not None
            and not v.adjacent(v.me, v.enc.by_id[choice.target]) and not v.memory.aimed.get(choice.target)):
        return _advance(v, v.enc.by_id[choice.target])  # no lone charge: behind the guard (C5)
    return choice


def _reason_to_run(v: View, foes: list[Character]) -> str:
    """Why a coward should run now, '' if not: a major loss (L1), or foes whose best attacks add up to
    more than half again its side's. (A fragile one, L4, that ran at its first loss made its side win
    less often with d6 dice in the forest ambush: 24% against 30% on the same seeds; it stays.)"""
    if v.st.major > 0:
        return "a major loss"
    ours = sum(v.threat(c) for c in [v.me, *v.allies()])
    theirs = sum(v.threat(f) for f in foes)
    if 2 * theirs > 3 * ours:
        return f"outmatched (the foes' attacks add up to {theirs} against its side's {ours})"
    return ""


def observer(v: View) -> Intent | None:
    foes = v.enemies()
    if not foes:
        return None
    if v.me.id not in v.memory.opened and not _blow_to_strike(v, foes) and not _under_fire(v):
        v.memory.opened.add(v.me.id)
        strongest = max(foes, key=lambda f: (v.threat(f), -v.enc.ids.index(f.id)))
        use = "Perception" if v.my("Perception") >= v.my("Lore") else "Lore"
        if v.my(use) > 0:
            return Intent(v.me.id, use, strongest.id, share=True, to=toward(v, use, strongest))
    return default(v)


def _blow_to_strike(v: View, foes: list[Character]) -> bool:
    """Whether an attack could land this turn: a foe next to me, or one a charge reaches (M7)."""
    if v.board is None:
        return False  # without a map the observation costs no approach: it always opens
    if max(v.my("Melee"), v.my("Press")) == 0:
        return False
    return any(v.adjacent(v.me, f) or (v.my("Press") > 0 and v.charge_reaches(f)) for f in foes)


def _under_fire(v: View) -> bool:
    """Whether a foe that shoots or throws sees me (R1, R4)."""
    return v.board is not None and any(v.strength(f)[0] > 0 and v.sees(f, v.me)[0] for f in v.enemies())


def scripted(v: View) -> Intent | None:
    """Follow the character's script; each step is (use, until, turns). Conditions are read from
    the state: target_major (the prey has a major loss), target_defeated, own_major."""
    steps = v.me.script
    if not steps:
        return default(v)
    i = min(v.memory.step.get(v.me.id, 0), len(steps) - 1)
    while True:
        step = steps[i]
        done_turns = v.memory.step_turns.get(v.me.id, 0)
        foe_id = step.target or v.memory.last_target.get(v.me.id)
        foe = v.enc.by_id.get(foe_id) if foe_id else None
        if foe is None or not v.state[foe.id].active:
            foe = v.nearest(v.enemies())
        if foe is None:
            return None
        finished = (step.turns and done_turns >= step.turns) or _met(v, step.until, foe)
        if finished and i < len(steps) - 1:
            i += 1
            v.memory.step[v.me.id] = i
            v.memory.step_turns[v.me.id] = 0
            continue
        break
    v.memory.step_turns[v.me.id] = v.memory.step_turns.get(v.me.id, 0) + 1
    half = v.enc.rules.halves[step.use]
    if half.act in ("attack", "observe", "hide", "defend"):
        return Intent(v.me.id, step.use, foe.id, to=toward(v, step.use, foe))
    return Intent(v.me.id, step.use)


def _met(v: View, until: str, foe: Character) -> bool:
    if until == "target_major":
        return v.state[foe.id].major > 0
    if until == "target_defeated":
        return not v.state[foe.id].active
    if until == "own_major":
        return v.st.major > 0
    return False


def _best_any(v: View, foe: Character) -> Intent | None:
    options = [(v.my(h), h) for h in ("Melee", "Press", "Wrestle", "Shoot", "Throw", "Provoke", "Wonder")]
    rating, half = max(options)
    reach = v.enc.rules.halves[half].reach
    if rating > 0 and reach and v.board is not None and not v.adjacent(v.me, foe):
        return _advance(v, foe)  # a reach skill (Provoke, Wrestle...) needs the foe next to it first
    if rating == 0:  # nothing to fight with: flee if it can, else cover up
        if v.my("Exit") > 0:
            return Intent(v.me.id, "Exit", to=away(v, "Exit", v.enemies()))
        block = _guard(v)
        v.note = ("no skill to fight with and no Exit: covers up" if v.my(block)
                  else "no skill to fight, defend or flee with")
        return Intent(v.me.id, block, foe.id) if v.my(block) else None
    return Intent(v.me.id, half, foe.id, to=toward(v, half, foe))


def default(v: View) -> Intent | None:
    if max(v.my("Shoot"), v.my("Throw")) > max(v.my("Melee"), v.my("Press")):
        return archer(v)
    return brawler(v)


TACTICS: Mapping[str, Tactic] = MappingProxyType({
    "brawler": brawler,
    "archer": archer,
    "skirmisher": skirmisher,
    "guardian": guardian,
    "coward": coward,
    "observer": observer,
    "scripted": scripted,
    "default": default,
})  # the baselines (`random`, `greedy`) join them in battlemat.ai.TACTICS
