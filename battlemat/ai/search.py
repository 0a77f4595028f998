"""The search AI (`ai = "search"`): a portfolio greedy search on the real rules, after Churchill and
Buro (2013, "Portfolio greedy search and simulation for large-scale combat in StarCraft").

For one side's decision (Brain.decide calls `improve` for the side's characters whose `ai` is "search"):
1. The scripted joint choice is the start: the side's own characters as their tactics chose (a
   searching character plays its base tactic: `ai = "search"` is `default`, "search:archer" is
   `archer`; `--ai SIDE=search` keeps each character's own tactic as its base), and the foes as a
   model of them: their own tactics on the state alone, through a Brain of their own (P1: the foes'
   declared intents are never read; they are not even made yet).
2. Each searching character's candidates (the portfolio): what FOCUSED tactics propose with the focus
   style (`focus = "focus"`: the foe its allies aim at most, with the half they use, so a group forms,
   S7), what every tactic of tactics.TACTICS and the greedy baseline proposes from its View, and
   RANDOM_SAMPLES legal random intents (baselines.random_intent), in that order, each made legal as the
   Brain makes any idea legal (validate_intent), repeats dropped. The tactics see the squares its
   allies chose and the foes they aim at (with which half) in the joint choice as it stands.
3. One character at a time (in the encounter's order, starting turn by turn with the next one, so
   that a budget that ends early leaves a different character on its tactic's idea each turn) takes
   the candidate whose evaluation scores best against the others' current choices (the foes' included:
   they keep the model's choice), if it beats the current choice by more than MARGIN: the search
   leaves the scripted choice only for a clear reason (a tactic's plan that pays off beyond the
   play-out, a guard holding its choke, is worth a small doubt). Passes repeat while one changes
   something and the budget lasts.
An evaluation resolves the turn (`resolve_turn` on the same state, the match's memory forked: nothing
of the match changes) and plays PLAYOUT more turns with every side on its tactics, and scores the mean
of `value` over the states after each of those turns (a state where the fight is over counts for the
turns left): a turn's gain now and what it leads to both count, and a win sooner beats a win later.
With dice, the turns are resolved diceless (D1: ratings compared): the course the dice scatter around,
the same for every candidate, so two candidates differ by their choices, never by their luck. Two
samples of the dice on common random numbers, in the same turns, were too noisy to tell candidates
apart: on the art gallery with d6 (arena, 20 seeds) the ogres' search ended better than their tactics
on 10 seeds and worse on 9 with them, 14 and 5 on the diceless course; the watch 10/10 and 9/10.

The budget is a number of evaluated turns per searching character and decision (BUDGET diceless,
DICE_BUDGET with dice; each resolve_turn counts, the play-out's too), spent by the side's searching
characters together: the same choices whatever the machine's load, so a simulated batch repeats
exactly for a seed.
`think_ms` adds a wall-clock cap per searching character, for the window only (it makes the choice depend on
speed): the whole decision (Brain.decide: the tactics' ideas, the foes' model and the search) has
`think_ms` for each searching character, and the search stops before a step (an evaluation, a
character's candidates) as slow as its slowest so far, or the last decision's slowest, would pass it.
The search's own draws (random candidates, the foes' model, play-outs) are seeded from the side and
the state (`seed_of`), never from the AI's stream: a side's choice does not depend on the order the
sides decide in, nor on how many draws the other side's tactics made (P1: secrets stay secret; the
search reads only the notes as they were before anyone declared: Brain.before).

`value` (from the deciding side's point of view; documented weights in `Weights`):
  + for each foe still fighting: its losses (MINOR each minor, MAJOR each major, L1); for each foe out
    of the fight: DEFEATED if defeated, FLED if fled, whatever losses it had (a character that left
    heals its minor losses, L2: counting them would make fleeing look cheap);
  - the same for each of the side's own characters (one that gets away costs half a defeat: it can
    fight another day, and the arena ranks a side that fled above one defeated);
  + WIN if the side holds the field, - WIN if a foe side does, less half of it for the share of the side's
    characters out of the fight that got away (a side that runs loses the field but lives to fight: the
    arena ranks it above one defeated; without this, staying in a lost fight a few more turns looks
    better than leaving now, since the play-out ends before the defeat it leads to);
  + position, for each own character still fighting with a square: a shooter (best ranged attack above
    its best reach attack) gains SIGHT if it sees a foe (R4) and loses COVERED_BY per foe shooter that
    sees it; any other loses APPROACH per square of walking to the nearest foe (capped at 20).
"""

from __future__ import annotations

import copy
import dataclasses
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from battlemat.ai import tactics
from battlemat.ai.baselines import greedy, random_intent
from battlemat.ai.table import Facts, Table
from battlemat.ai.view import Memory, View
from battlemat.core.dice import DiceEngine, engine
from battlemat.core.encounter import Encounter, outcome
from battlemat.core.errors import IllegalIntent
from battlemat.core.intents import Intent
from battlemat.core.memory import MatchMemory
from battlemat.core.resolver import resolve_turn
from battlemat.core.state import MatchState
from battlemat.core.types import CharId

SEARCH = "search"
NONE = "none"  # the diceless engine (D1): how the search resolves the turns it looks at
THINK_MS = 50.0  # the window's cap per searching NPC character (ui/difficulty.py, `play --think-ms`)
BUDGET = 12  # evaluated turns per searching character, each decision, diceless (simulate, arena, predict)
DICE_BUDGET = 24  # ... with dice (the same turns two samples of the dice used to take)
PLAYOUT = 2  # scripted turns played after the candidate's turn
RANDOM_SAMPLES = 2  # legal random intents among each character's candidates
FOCUSED = ("brawler", "default", "skirmisher")  # tactics also asked with the focus style (candidates first)
PASSES = 3  # at most this many rounds over the side's searching characters
MARGIN = 1.0  # a candidate must beat the current choice by more than this (a minor loss's worth)

# The portfolio: every scripted tactic (scripted needs a script: its idea is then default's) and greedy.
PORTFOLIO: Mapping[str, tactics.Tactic] = {**tactics.TACTICS, "greedy": greedy}


def parse(ai: str) -> tuple[bool, str]:
    """Whether an `ai` value asks for the search, and the base tactic: "search" -> (True, "default"),
    "search:archer" -> (True, "archer"), "brawler" -> (False, "brawler"), "" -> (False, "default")."""
    if ai == SEARCH or ai.startswith(SEARCH + ":"):
        return True, ai[len(SEARCH) + 1:] or "default"
    return False, ai or "default"


def searching(ai: str) -> str:
    """`ai` played by the search, with the tactic it had as its base ("archer" -> "search:archer")."""
    return ai if parse(ai)[0] else f"{SEARCH}:{ai}" if ai else SEARCH


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights (see the module's docstring)."""

    minor: float = 1.0
    major: float = 2.0
    defeated: float = 14.0  # out of the fight, whatever its losses (a defeat: 2 minor and 2 major, and 8 more)
    fled: float = 7.0  # ... got away: half a defeat, whatever its losses (they heal, L2)
    win: float = 30.0
    projected: float = 1.0  # share of WIN a fight not over yet gives by the square law
    sight: float = 0.5
    covered_by: float = 0.25
    approach: float = 0.1


WEIGHTS = Weights()


def value(enc: Encounter, state: MatchState, side: str, known: MatchMemory, facts: Facts | None = None,
          w: Weights = WEIGHTS) -> float:
    """How good `state` is for `side` (the module's docstring says how it is counted)."""
    total = 0.0
    for c in enc.characters:
        st = state[c.id]
        harm = w.defeated if st.defeated else w.fled if st.fled else w.minor * st.minor + w.major * st.major
        total += -harm if c.side == side else harm
    out = outcome(enc, state)
    if out.over and out.winner is not None:
        total += w.win if out.winner == side else -w.win * (1.0 - 0.5 * _got_away(enc, state, side))
    if out.over:
        return total
    table = Table(state, side, known, facts)
    mine = sum(table.strength(c.id)[2] for c in table.friends) ** 2
    theirs = sum(table.strength(f.id)[2] for f in table.foes) ** 2
    if mine + theirs:
        total += w.projected * w.win * (mine - theirs) / (mine + theirs)
    if enc.board is None:
        return total
    for c in table.friends:
        if table.at[c.id] is None:
            continue
        ranged, reach, _ = table.strength(c.id)
        if ranged > reach:
            total += w.sight if any(table.sees(c.id, f.id)[0] for f in table.foes) else 0.0
            total -= w.covered_by * sum(1 for f, _ in table.shooters() if table.sees(f.id, c.id)[0])
        elif table.foes:
            total -= w.approach * min(20, min(table.distance(c.id, f.id) for f in table.foes))
    return total


def _got_away(enc: Encounter, state: MatchState, side: str) -> float:
    """The share of `side`'s characters out of the fight that fled rather than fell (0 when none is out)."""
    out = [state[c.id] for c in enc.characters if c.side == side and not state[c.id].active]
    return sum(1 for st in out if st.fled) / len(out) if out else 0.0


def seed_of(state: MatchState, side: str) -> int:
    """The search's seed for `side` deciding on `state`: from the turn and where and how everyone stands."""
    text = f"battlemat search {side} {state.turn} " + " ".join(
        f"{cid}:{st.at}:{st.minor}:{st.major}:{st.defeated:d}:{st.fled:d}" for cid, st in sorted(state.chars.items()))
    return random.Random(text).getrandbits(64)


class Decider(Protocol):
    """What the search needs of the Brain (battlemat.ai.Brain; passed in, not imported: no cycle)."""

    enc: Encounter
    known: MatchMemory
    memory: Memory
    before: Memory  # its notes as the decision began: no side has declared anything yet (P1)
    facts: Facts
    dice: DiceEngine
    budget: int  # evaluated turns per searching character diceless (with dice: DICE_BUDGET / BUDGET times more)
    think_ms: float | None  # the window's time cap per searching character
    step_s: float  # the window's: the slowest step of the last decision's search (the cap's first guess)

    def model(self, known: MatchMemory) -> Decider:
        """A Brain on tactics alone on `known` (a fork): the foes' model and the play-outs."""

    def decide(self, state: MatchState, rng: random.Random, who: Sequence[CharId] | None = None) -> list[Intent]: ...

    def legal(self, state: MatchState, idea: Intent | None) -> Intent | None: ...


@dataclass
class Found:
    """What the search chose for each searching character, and why (the log's AI notes)."""

    intents: dict[CharId, Intent]
    notes: dict[CharId, str]
    evaluated: int  # turns resolved


def copy_notes(notes: Memory) -> Memory:
    """The AI's notes with each container copied: what a model or a candidate decides stays out."""
    return Memory(**{f.name: copy.copy(getattr(notes, f.name)) for f in dataclasses.fields(notes)})


class _Search:
    def __init__(self, brain: Decider, state: MatchState, seed: int, budget: int, think_ms: float | None,
                 deadline: float | None = None) -> None:
        self.brain, self.state, self.seed = brain, state, seed
        self.enc = brain.enc
        self.budget, self.used = budget, 0
        # the cap: the decision's own deadline (Brain.decide counts its tactics' time too), or this call's
        self.deadline = None if think_ms is None else (
            deadline if deadline is not None else time.perf_counter() + think_ms / 1000.0)
        # seconds of the slowest step so far (an evaluation, a character's candidates); the last
        # decision's guards the first step
        self.slowest = 0.0 if think_ms is None else brain.step_s
        self.measured = 0.0  # ... of the steps this search took (what the next decision's guard starts from)
        self.dice = brain.dice if brain.dice.name == NONE else engine(NONE)  # (the course without luck)
        self.order = [c.id for c in self.enc.characters]

    def room(self) -> bool:
        """Whether one more evaluation fits in the budget (and the window's time cap)."""
        if self.used + 1 + PLAYOUT > self.budget:
            return False
        return self.deadline is None or time.perf_counter() + self.slowest < self.deadline

    def timed(self, start: float) -> None:
        """Note a step begun at `start` (perf_counter): the time cap stops before a step would pass it."""
        if self.deadline is not None:
            took = time.perf_counter() - start
            self.slowest, self.measured = max(self.slowest, took), max(self.measured, took)

    def evaluate(self, joint: Mapping[CharId, Intent], side: str) -> float:
        """The mean of `value` over the states after the turn of `joint` and each of PLAYOUT scripted turns."""
        intents = [joint[c] for c in self.order if c in joint]
        mem = self.brain.known.fork()
        self.used += 1
        try:
            st = resolve_turn(self.enc, self.state, intents, random.Random(f"{self.seed} dice 0"), self.dice, mem).state
        except IllegalIntent:  # (two choices legal alone may not be together)
            return float("-inf")
        seen = [value(self.enc, st, side, mem, self.brain.facts)]
        play = self.brain.model(mem)
        play.facts = self.brain.facts  # (the match's figures: the same in a fork)
        play.memory = copy_notes(self.brain.before)
        for t in range(1, PLAYOUT + 1):
            if outcome(self.enc, st).over:
                break
            its = play.decide(st, random.Random(f"{self.seed} play {t}"))
            st = resolve_turn(self.enc, st, its, random.Random(f"{self.seed} dice {t}"), self.dice, mem).state
            self.used += 1
            seen.append(value(self.enc, st, side, mem, self.brain.facts))
        seen += seen[-1:] * (PLAYOUT + 1 - len(seen))  # (over: the end counts for the turns left)
        return sum(seen) / len(seen)

    def candidates(self, cid: CharId, side: str, current: Mapping[CharId, Intent]) -> list[Intent]:
        """The portfolio's intents for `cid`, legal and each once, its current choice first."""
        table = Table(self.state, side, self.brain.known, self.brain.facts)
        me = self.enc.by_id[cid]
        rng = random.Random(f"{self.seed} candidates {cid}")
        notes = copy_notes(self.brain.before)
        notes.new_turn(set(notes.standing))
        notes.side(side)
        for other, it in current.items():  # what allies chose (never the foes'): squares, foes aimed at
            if other == cid or self.enc.by_id[other].side != side:
                continue
            if it.to is not None:
                notes.claimed.add(tuple(it.to))  # type: ignore[arg-type]
            if it.target and self.enc.rules.halves[it.use].act == "attack":
                notes.aimed[it.target] = notes.aimed.get(it.target, 0) + 1
                notes.aimed_with[it.target, it.use] = notes.aimed_with.get((it.target, it.use), 0) + 1
        out: list[Intent] = [current[cid]] if cid in current else []
        focused = dataclasses.replace(me, style=MappingProxyType({**me.style, "focus": "focus"}))
        ideas = [PORTFOLIO[name](View(table, focused, rng, copy_notes(notes))) for name in FOCUSED]
        ideas += [tactic(View(table, me, rng, copy_notes(notes))) for tactic in PORTFOLIO.values()]
        ideas += [random_intent(View(table, me, rng, notes)) for _ in range(RANDOM_SAMPLES)]
        for idea in ideas:
            intent = self.brain.legal(self.state, idea)
            if intent is not None and intent not in out:
                out.append(intent)
        return out


def improve(brain: Decider, state: MatchState, side: str, chosen: Mapping[CharId, Intent],
            who: Sequence[CharId], deadline: float | None = None) -> Found:
    """The portfolio greedy search for `side` (the module's docstring): `chosen` are the side's intents
    as its tactics chose them, `who` the side's searching characters; `brain.model(memory)` is a Brain
    on tactics alone (the foes' model, the play-outs); every draw is seeded by `seed_of`. Under the
    window's cap (`brain.think_ms`), `deadline` (perf_counter) is when the whole decision must be done;
    None: `think_ms` per character of `who` from now."""
    per = brain.budget if brain.dice.name == NONE else brain.budget * DICE_BUDGET // BUDGET
    search = _Search(brain, state, seed_of(state, side), per * len(who),
                     None if brain.think_ms is None else brain.think_ms * len(who), deadline)
    foes = [c.id for c in brain.enc.characters if c.side != side and state[c.id].active]
    model = brain.model(brain.known.fork())
    model.memory = copy_notes(brain.before)
    guessed = model.decide(state, random.Random(f"{search.seed} model"), foes)
    current: dict[CharId, Intent] = {**{it.who: it for it in guessed}, **chosen}
    best = start = 0.0
    if search.room():
        began = time.perf_counter()
        best = start = search.evaluate(current, side)
        search.timed(began)
    changed: set[CharId] = set()
    ideas: dict[CharId, list[Intent]] = {}
    # the budget may end before the last character's turn: who goes first changes turn by turn
    turn = state.turn % max(1, len(who))
    order = [*who[turn:], *who[:turn]]
    for _ in range(PASSES):
        moved = False
        for cid in order:
            if not search.room():
                break
            if cid not in ideas:  # (made once a decision, with the allies' choices as they stand then)
                began = time.perf_counter()
                ideas[cid] = search.candidates(cid, side, current)
                search.timed(began)
            for cand in ideas[cid]:
                if cand == current[cid]:
                    continue
                if not search.room():
                    break
                began = time.perf_counter()
                got = search.evaluate({**current, cid: cand}, side)
                search.timed(began)
                if got > best + MARGIN:
                    best, current[cid], moved = got, cand, True
                    changed.add(cid)
        if not moved or not search.room():
            break
    notes = {}
    for cid in who:
        if cid in changed:
            notes[cid] = (f"search: chose {_words(current[cid])} over its tactic's "
                          f"{_words(chosen[cid]) if cid in chosen else 'idling'} ({best:+.1f} against {start:+.1f}, "
                          f"{search.used} turns evaluated)")
    if search.deadline is not None:  # (a search that took no step leaves no guard: one slow step never stops them all)
        brain.step_s = search.measured
    return Found({cid: current[cid] for cid in who if cid in current}, notes, search.used)


def _words(it: Intent) -> str:
    return f"{it.use}{' on ' + it.target if it.target else ''}{f' to {tuple(it.to)}' if it.to is not None else ''}"
