"""NPC and simulation tactics: `Brain(encounter, match.memory).decide(state, rng)` -> one legal Intent each.

Pure: the encounter, the state and the match's own random.Random come in; intents go out through the
same door as the UI's (validate_intent). A character whose `ai` is "search" (or "search:TACTIC")
starts from its base tactic's idea, then its side's searching characters improve on the side's joint
choice by a portfolio search on the real rules (battlemat.ai.search), within a budget of evaluated
turns. Each decision works the state out once per side
(battlemat.ai.table.Table: positions, sight, walking distances, reach, ratings as they stand) and
every character of the side reads that table. A tactic's idea that the rules refuse is retried without its
destination, then dropped (the character stays idle) — never passed on illegal.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from battlemat.ai import search, tactics
from battlemat.ai.baselines import greedy, random_intent
from battlemat.ai.table import Facts, Table
from battlemat.ai.view import Memory, View
from battlemat.core.dice import DiceEngine, engine
from battlemat.core.encounter import Encounter
from battlemat.core.errors import IllegalIntent
from battlemat.core.intents import Intent
from battlemat.core.memory import MatchMemory, remember
from battlemat.core.resolver import validate_intent
from battlemat.core.state import MatchState
from battlemat.core.types import CharId

__all__ = ["TACTICS", "Brain", "ai_stream"]

# Every policy by its name in an encounter's `ai =`: the scripted tactics, then the arena's baselines.
TACTICS: Mapping[str, tactics.Tactic] = MappingProxyType(
    {**tactics.TACTICS, "random": random_intent, "greedy": greedy})


def ai_stream(seed: int) -> random.Random:
    """The AI's own random stream for the match with `seed`, apart from the dice's (Match.rng): a
    change of tactics never re-rolls a die of a simulated batch, and a replay needs only the intents."""
    return random.Random(f"battlemat ai {seed}")


class Brain:
    """The AI of one match: tactics per character plus their memory between turns. `known` is the
    match's memory (Match.memory), shared with the resolver's checks of the intents the AI makes;
    without it the AI keeps one of its own."""

    def __init__(self, enc: Encounter, known: MatchMemory | None = None, dice: DiceEngine | None = None, *,
                 scripted: bool = False, budget: int = search.BUDGET, think_ms: float | None = None) -> None:
        self.enc = enc
        # the search (characters with ai = "search"): it resolves turns with the match's dice engine
        # (default: the encounter's), within `budget` evaluated turns per searching character and dice
        # sample and, for the window, `think_ms` per searching character; `scripted`: every character plays its
        # base tactic (the search's own models)
        self.dice = dice if dice is not None else engine(enc.dice)
        self.scripted, self.budget, self.think_ms = scripted, budget, think_ms
        self.step_s = 0.0  # the window's: the slowest step of the last decision's search
        # every character of these sides searches too, as with `--ai SIDE=search`, on the match's own
        # encounter (the window's K key: ui/difficulty.py)
        self.search_sides: frozenset[str] = frozenset()
        self.known = remember(known, enc)
        self.memory = Memory()
        self.before = self.memory  # (the search's notes: Memory as the decision began, before any side declared)
        self.facts = Facts(self.known)  # each character's figures for the match, read by every turn's tables
        # Why each character held back in the last decision (idle, defending in place, a plan the
        # rules refused): the simulator's log shows them as `ai_note` lines
        self.notes: dict[CharId, str] = {}

    def tactic_name(self, cid: CharId) -> str:
        """The tactic that makes `cid`'s first idea (a searching character's base tactic)."""
        return search.parse(self.enc.by_id[cid].ai)[1]

    def searches(self, cid: CharId) -> bool:
        """Whether `cid`'s choice is improved by the search (its `ai`, or its side in `search_sides`)."""
        me = self.enc.by_id[cid]
        return search.parse(me.ai)[0] or me.side in self.search_sides

    def decide(self, state: MatchState, rng: random.Random, who: Iterable[CharId] | None = None) -> list[Intent]:
        began = time.perf_counter() if self.think_ms is not None else 0.0  # (the window's cap counts it all)
        ids = [c.id for c in self.enc.characters] if who is None else list(who)
        out: list[Intent] = []
        self.memory.new_turn({s.at for s in state.chars.values() if s.at is not None and s.active})
        self.notes = {}
        if not self.scripted and any(self.searches(cid) for cid in ids):
            self.before = search.copy_notes(self.memory)  # the notes as the decision begins: nobody declared yet
        tables: dict[str, Table] = {}  # each side's table of the turn, read by all its characters
        for cid in ids:
            if not state[cid].active:
                continue
            me = self.enc.by_id[cid]
            self.memory.side(me.side)  # (what its allies declared so far, never its foes)
            table = tables.get(me.side)
            if table is None:
                table = tables[me.side] = Table(state, me.side, self.known, self.facts)
            view = View(table, me, rng, self.memory)
            idea = TACTICS[self.tactic_name(cid)](view)
            intent, refused = self._legal(state, idea)
            if refused:
                self.notes[cid] = refused
            elif view.note:
                self.notes[cid] = view.note
            elif intent is None:
                self.notes[cid] = f"{self.tactic_name(cid)}: nothing to do"
            if intent is not None:
                out.append(intent)
                if intent.to is not None:
                    self.memory.claimed.add(tuple(intent.to))  # type: ignore[arg-type]
                if intent.target and self.enc.rules.halves[intent.use].act == "attack":
                    self.memory.last_target[cid] = intent.target
                    self.memory.aimed[intent.target] = self.memory.aimed.get(intent.target, 0) + 1
                    key = (intent.target, intent.use)
                    self.memory.aimed_with[key] = self.memory.aimed_with.get(key, 0) + 1
        if not self.scripted:
            out = self._search(state, out, ids, began)
        return out

    def _search(self, state: MatchState, out: list[Intent], ids: list[CharId], began: float) -> list[Intent]:
        """The intents with each side's searching characters' choices improved (battlemat.ai.search);
        with the window's cap, the search stops so that the decision begun at `began` takes about
        `think_ms` per searching character at most (a step already begun runs to its end)."""
        by_side: dict[str, list[CharId]] = {}
        for cid in ids:
            me = self.enc.by_id[cid]
            if state[cid].active and self.searches(cid):
                by_side.setdefault(me.side, []).append(cid)
        if not by_side:
            return out
        searchers = sum(len(who) for who in by_side.values())
        deadline = None if self.think_ms is None else began + self.think_ms * searchers / 1000.0
        for side, who in by_side.items():
            chosen = {it.who: it for it in out if self.enc.by_id[it.who].side == side}
            found = search.improve(self, state, side, chosen, who, deadline)
            self.notes.update(found.notes)
            out = [it for it in out if it.who not in found.intents] + list(found.intents.values())
            for cid in found.notes:  # (a changed choice: the foe it aims at now)
                it = found.intents[cid]
                if it.target and self.enc.rules.halves[it.use].act == "attack":
                    self.memory.last_target[cid] = it.target
        order = {c.id: i for i, c in enumerate(self.enc.characters)}
        return sorted(out, key=lambda it: order[it.who])

    def model(self, known: MatchMemory) -> Brain:
        """A Brain on tactics alone, on `known` (a fork): the search's model of the foes and its play-outs."""
        return Brain(self.enc, known, self.dice, scripted=True)

    def legal(self, state: MatchState, idea: Intent | None) -> Intent | None:
        """The idea as a legal intent (as `decide` makes one), or None."""
        return self._legal(state, idea)[0]

    def _legal(self, state: MatchState, idea: Intent | None) -> tuple[Intent | None, str]:
        """The idea as a legal intent (without its destination if only that was refused), and why
        the rules refused it ('' if they did not)."""
        if idea is None:
            return None, ""
        try:
            return validate_intent(self.enc, state, idea, fresh=True, memory=self.known), ""  # (made just now)
        except IllegalIntent as exc:
            why = f"planned {idea.use}{' on ' + idea.target if idea.target else ''}, refused: {exc}"
        if idea.to is not None or idea.path:
            still = Intent(idea.who, idea.use, idea.target, idea.also, idea.modifiers, share=idea.share, item=idea.item)
            try:
                return validate_intent(self.enc, state, still, fresh=True, memory=self.known), ""
            except IllegalIntent:
                return None, why
        return None, why
