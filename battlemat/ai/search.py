"""The search AI (`ai = "search"`): a portfolio greedy search on the real rules, after Churchill and
Buro (2013, "Portfolio greedy search and simulation for large-scale combat in StarCraft").

For one side's decision (Brain.decide calls `improve` for the side's characters whose `ai` is "search"):
1. The scripted joint choice is the start: the side's own characters as their tactics chose (a
   searching character plays its base tactic: `ai = "search"` is `default`, "search:archer" is
   `archer`; `--ai SIDE=search` keeps each character's own tactic as its base), and the foes as a
   model of them: their own tactics on the state alone, through a Brain of their own (P1: the foes'
   declared intents are never read; they are not even made yet).
2. Each searching character's candidates (the portfolio): what every tactic of tactics.TACTICS and the
   greedy baseline proposes from its View, and RANDOM_SAMPLES legal random intents (baselines.random_intent),
   each made legal as the Brain makes any idea legal (validate_intent), repeats dropped.
3. One character at a time (in the encounter's order, starting turn by turn with the next one, so
   that a budget that ends early leaves a different character on its tactic's idea each turn) takes
   the candidate whose evaluation scores best against the others' current choices (the foes' included:
   they keep the model's choice); ties keep the current choice, so the search never leaves the
   scripted choice without a reason. Passes repeat while one changes something and the budget lasts.
An evaluation resolves the turn (`resolve_turn` on the same state, the match's memory forked: nothing
of the match changes) and plays PLAYOUT more turns with every side on its tactics, then scores the
state reached (`value`). With dice, DICE_SAMPLES samples are averaged, on common random numbers: the
k-th sample of every candidate rolls from the same seeded random.Random, so two candidates differ by
their choices, not by their luck. Diceless, one sample is the turn exactly.

The budget is a number of evaluated turns per searching character, dice sample and decision (BUDGET;
each resolve_turn counts, the play-out's too), spent by the side's searching characters together: the
same choices whatever the machine's load, so a simulated batch repeats exactly for a seed.
`think_ms` adds a wall-clock cap per searching character, for the window only (it makes the choice depend on
speed).
The search's own draws (random candidates, the foes' model, play-outs) are seeded from the side and
the state (`seed_of`), never from the AI's stream: a side's choice does not depend on the order the
sides decide in, nor on how many draws the other side's tactics made (P1: secrets stay secret; the
search reads only the notes as they were before anyone declared: Brain.before).

`value` (from the deciding side's point of view; documented weights in `Weights`):
  + for each foe: losses it has (minor 1, major MAJOR each), DEFEATED if defeated, FLED if fled;
  - the same for each of the side's own characters (a character that gets away costs less than one
    defeated: the arena ranks fled above defeated);
  + WIN if the side holds the field, - WIN if a foe side does;
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
from typing import Protocol

from battlemat.ai import tactics
from battlemat.ai.baselines import greedy, random_intent
from battlemat.ai.table import Facts, Table
from battlemat.ai.view import Memory, View
from battlemat.core.dice import DiceEngine
from battlemat.core.encounter import Encounter, outcome
from battlemat.core.errors import IllegalIntent
from battlemat.core.intents import Intent
from battlemat.core.memory import MatchMemory
from battlemat.core.resolver import resolve_turn
from battlemat.core.state import MatchState
from battlemat.core.types import CharId

SEARCH = "search"
BUDGET = 12  # evaluated turns per searching character and dice sample, each decision (simulate, arena, predict)
PLAYOUT = 1  # scripted turns played after the candidate's turn
DICE_SAMPLES = 2  # samples per evaluation with dice (one diceless)
RANDOM_SAMPLES = 2  # legal random intents among each character's candidates
PASSES = 3  # at most this many rounds over the side's searching characters

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
    defeated: float = 8.0
    fled: float = 5.0
    win: float = 30.0
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
        harm = w.minor * st.minor + w.major * st.major + (w.defeated if st.defeated else 0.0) + (
            w.fled if st.fled else 0.0)
        total += -harm if c.side == side else harm
    out = outcome(enc, state)
    if out.over and out.winner is not None:
        total += w.win if out.winner == side else -w.win
    if out.over or enc.board is None:
        return total
    table = Table(state, side, known, facts)
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
    budget: int  # evaluated turns per searching character and dice sample
    think_ms: float | None  # the window's time cap per searching character

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
    def __init__(self, brain: Decider, state: MatchState, seed: int, budget: int, think_ms: float | None) -> None:
        self.brain, self.state, self.seed = brain, state, seed
        self.enc = brain.enc
        self.budget, self.used = budget, 0
        self.deadline = None if think_ms is None else time.perf_counter() + think_ms / 1000.0
        self.samples = 1 if brain.dice.name == "none" else DICE_SAMPLES
        self.order = [c.id for c in self.enc.characters]

    def room(self) -> bool:
        """Whether one more evaluation fits in the budget (and the window's time cap)."""
        if self.used + self.samples * (1 + PLAYOUT) > self.budget:
            return False
        return self.deadline is None or time.perf_counter() < self.deadline

    def evaluate(self, joint: Mapping[CharId, Intent], side: str) -> float:
        intents = [joint[c] for c in self.order if c in joint]
        total = 0.0
        for k in range(self.samples):
            mem = self.brain.known.fork()
            try:
                st = resolve_turn(self.enc, self.state, intents, random.Random(f"{self.seed} dice {k} 0"),
                                  self.brain.dice, mem).state
            except IllegalIntent:  # (two choices legal alone may not be together)
                self.used += 1
                return float("-inf")
            self.used += 1
            play = self.brain.model(mem)
            play.facts = self.brain.facts  # (the match's figures: the same in a fork)
            play.memory = copy_notes(self.brain.before)
            for t in range(1, PLAYOUT + 1):
                if outcome(self.enc, st).over:
                    break
                its = play.decide(st, random.Random(f"{self.seed} play {k} {t}"))
                st = resolve_turn(self.enc, st, its, random.Random(f"{self.seed} dice {k} {t}"),
                                  self.brain.dice, mem).state
                self.used += 1
            total += value(self.enc, st, side, mem, self.brain.facts)
        return total / self.samples

    def candidates(self, cid: CharId, side: str, current: Mapping[CharId, Intent]) -> list[Intent]:
        """The portfolio's intents for `cid`, legal and each once, its current choice first."""
        table = Table(self.state, side, self.brain.known, self.brain.facts)
        me = self.enc.by_id[cid]
        rng = random.Random(f"{self.seed} candidates {cid}")
        notes = copy_notes(self.brain.before)
        notes.new_turn(set(notes.standing))
        notes.side(side)
        for other, it in current.items():  # the squares allies chose (never the foes')
            if other != cid and self.enc.by_id[other].side == side and it.to is not None:
                notes.claimed.add(tuple(it.to))  # type: ignore[arg-type]
        out: list[Intent] = [current[cid]] if cid in current else []
        ideas = [tactic(View(table, me, rng, copy_notes(notes))) for tactic in PORTFOLIO.values()]
        ideas += [random_intent(View(table, me, rng, notes)) for _ in range(RANDOM_SAMPLES)]
        for idea in ideas:
            intent = self.brain.legal(self.state, idea)
            if intent is not None and intent not in out:
                out.append(intent)
        return out


def improve(brain: Decider, state: MatchState, side: str, chosen: Mapping[CharId, Intent],
            who: Sequence[CharId]) -> Found:
    """The portfolio greedy search for `side` (the module's docstring): `chosen` are the side's intents
    as its tactics chose them, `who` the side's searching characters; `brain.model(memory)` is a Brain
    on tactics alone (the foes' model, the play-outs); every draw is seeded by `seed_of`."""
    samples = 1 if brain.dice.name == "none" else DICE_SAMPLES
    search = _Search(brain, state, seed_of(state, side), brain.budget * samples * len(who),
                     None if brain.think_ms is None else brain.think_ms * len(who))
    foes = [c.id for c in brain.enc.characters if c.side != side and state[c.id].active]
    model = brain.model(brain.known.fork())
    model.memory = copy_notes(brain.before)
    guessed = model.decide(state, random.Random(f"{search.seed} model"), foes)
    current: dict[CharId, Intent] = {**{it.who: it for it in guessed}, **chosen}
    best = start = search.evaluate(current, side) if search.room() else 0.0
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
                ideas[cid] = search.candidates(cid, side, current)
            for cand in ideas[cid]:
                if cand == current[cid]:
                    continue
                if not search.room():
                    break
                got = search.evaluate({**current, cid: cand}, side)
                if got > best + 1e-9:
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
    return Found({cid: current[cid] for cid in who if cid in current}, notes, search.used)


def _words(it: Intent) -> str:
    return f"{it.use}{' on ' + it.target if it.target else ''}{f' to {tuple(it.to)}' if it.to is not None else ''}"
