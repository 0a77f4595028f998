"""The whole next turn as it would resolve (`battlemat predict`, the window's P): DESIGN, predictions are
resolutions.

The intents known (declared, or visible to the one asking) are played as they are; every character
whose intent is unknown is given the AI's intent (battlemat.ai.Brain, the NPCs' own tactics), and the
turn is resolved by `resolve_turn` itself: the same phases, movement and contests as the real turn.
Diceless with no unknown intent, that is the turn exactly. With dice, or with AI guesses, it is
sampled `samples` times and `Spread` counts how often each character suffered each number of losses
and was defeated.

Nothing of the match is touched: the state is a value, the match's memory is forked
(MatchMemory.fork), the AI's notes are copied, and every sample draws from a random.Random of its
own seeded from (seed, turn, sample), never the match's: a predicted turn changes no later result.
Pure: no pygame, no IO, no clock.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from battlemat.ai import Brain
from battlemat.ai.view import Memory
from battlemat.core.dice import engine
from battlemat.core.encounter import Encounter
from battlemat.core.events import Event
from battlemat.core.intents import Intent
from battlemat.core.memory import MatchMemory
from battlemat.core.resolver import resolve_turn
from battlemat.core.state import MatchState
from battlemat.core.types import CharId

DICE_SAMPLES = 50  # samples of a turn played with dice, unless asked otherwise
GUESS_DRAWS = 10  # the AI's decisions drawn at least, to say how sure each guess is


@dataclass(frozen=True)
class Question:
    """What to predict: the match's `state`, the intents `known`, the characters whose intents are
    unknown (`fill`: the AI guesses them), the dice engine's name and how many samples (diceless and
    without guesses one is the answer). `view` is the state the AI decides on (the window fills in
    arena squares); `seed` seeds the samples' own random generators."""

    enc: Encounter
    state: MatchState
    known: tuple[Intent, ...] = ()
    fill: tuple[CharId, ...] = ()
    dice: str = "none"
    samples: int = 1
    seed: int = 0
    view: MatchState | None = None

    @property
    def exact(self) -> bool:
        """Diceless with every intent known: one resolution is the turn."""
        return self.dice == "none" and not self.fill


@dataclass(frozen=True)
class Sample:
    """One predicted turn: every intent played (known and guessed), its events and the state after."""

    intents: tuple[Intent, ...]
    guessed: tuple[Intent, ...]
    events: tuple[Event, ...]
    state: MatchState


@dataclass(frozen=True)
class Spread:
    """How one character fared over the samples: samples by number of losses suffered, and defeats."""

    losses: Counter[int]
    defeated: int
    fled: int


@dataclass(frozen=True)
class Guess:
    """What the AI may choose for one character whose intent is unknown: each choice in words ('Press
    on Billin', the destination left out) with the draws that chose it, most chosen first, out of
    `draws`; `played` is the choice the predicted turn plays (the first sample's)."""

    who: CharId
    choices: tuple[tuple[str, int], ...]
    draws: int
    played: str


@dataclass(frozen=True)
class TurnPrediction:
    question: Question
    samples: tuple[Sample, ...]
    guesses: tuple[Guess, ...] = ()

    @property
    def first(self) -> Sample:
        """The sample the window draws and the command prints (the only one when exact)."""
        return self.samples[0]

    def spread(self) -> dict[CharId, Spread]:
        """By character in the fight, in encounter order: losses suffered this turn, defeats and flights,
        counted over the samples."""
        q = self.question
        ids = [c.id for c in q.enc.characters if q.state[c.id].active]
        losses: dict[CharId, Counter[int]] = {cid: Counter() for cid in ids}
        defeated: Counter[CharId] = Counter()
        fled: Counter[CharId] = Counter()
        for s in self.samples:
            suffered = suffered_losses(s.events)
            for cid in ids:
                losses[cid][suffered.get(cid, 0)] += 1
                defeated[cid] += s.state[cid].defeated
                fled[cid] += s.state[cid].fled
        return {cid: Spread(losses[cid], defeated[cid], fled[cid]) for cid in ids}


def suffered_losses(events: Sequence[Event]) -> dict[CharId, int]:
    """Losses each character suffered in a turn's events (L1: minor and major alike)."""
    out: dict[CharId, int] = {}
    for ev in events:
        if ev.type == "losses":
            out[ev.data["who"]] = out.get(ev.data["who"], 0) + int(ev.data["n"])
    return out


def predict_turn(q: Question, memory: MatchMemory | None = None, notes: Memory | None = None) -> TurnPrediction:
    """The next turn of `q`, resolved `samples` times (once when exact). `memory` is the match's
    (forked for each sample, never changed); `notes` the AI's notes between turns (copied)."""
    if q.samples < 1:
        raise ValueError("a prediction needs at least one sample")
    n = 1 if q.exact else q.samples
    samples = tuple(_sample(q, i, memory, notes) for i in range(n))
    return TurnPrediction(q, samples, _guesses(q, samples, memory, notes))


def _guess(q: Question, i: int, mem: MatchMemory, notes: Memory | None) -> tuple[Intent, ...]:
    """The AI's decision number `i` for the unknown characters, from its own stream seeded by (seed,
    turn, i): it sees the state (as `q.view`) and never the intents declared by anyone."""
    if not q.fill:
        return ()
    brain = Brain(q.enc, mem)
    if notes is not None:
        brain.memory = _copy_notes(notes)
    ai_rng = random.Random(f"battlemat predict ai {q.seed} {q.state.turn} {i}")
    return tuple(brain.decide(q.view or q.state, ai_rng, [c for c in q.fill if q.state[c].active]))


def _guesses(q: Question, samples: Sequence[Sample], memory: MatchMemory | None,
             notes: Memory | None) -> tuple[Guess, ...]:
    """Per unknown character, how the AI's decisions spread over GUESS_DRAWS draws or the samples,
    whichever are more (draw i is sample i's guess: the first is the one the turn plays)."""
    who = [c.id for c in q.enc.characters if c.id in q.fill and q.state[c.id].active]
    if not who:
        return ()
    draws = [s.guessed for s in samples]
    for i in range(len(draws), GUESS_DRAWS):
        draws.append(_guess(q, i, memory.fork() if memory is not None else MatchMemory(q.enc), notes))
    out = []
    for cid in who:
        words = [next((intent_words(q.enc, it) for it in d if it.who == cid), "idle") for d in draws]
        chosen = Counter(words)
        ranked = sorted(chosen, key=lambda w: (-chosen[w], words.index(w)))
        out.append(Guess(cid, tuple((w, chosen[w]) for w in ranked), len(draws), words[0]))
    return tuple(out)


def intent_words(enc: Encounter, it: Intent) -> str:
    """'Press on Billin', 'Block', 'item (potion)': what an intent does, without where it goes."""
    words = it.use + (f" ({it.item})" if enc.rules.halves[it.use].act == "item" else "")
    if it.target:
        words += f" on {enc.by_id[it.target].name}"
    return words


def guess_line(enc: Encounter, g: Guess) -> str:
    """'Ogre leader: Press on Billin (6 of 10), Melee on Farran (3 of 10), Block (1 of 10); the turn
    plays Melee on Farran' (which one the predicted turn plays, when there is more than one)."""
    line = f"{enc.by_id[g.who].name}: " + ", ".join(f"{w} ({k} of {g.draws})" for w, k in g.choices)
    return line + (f"; the turn plays {g.played}" if len(g.choices) > 1 else "")


def _sample(q: Question, i: int, memory: MatchMemory | None, notes: Memory | None) -> Sample:
    mem = memory.fork() if memory is not None else MatchMemory(q.enc)
    guessed = _guess(q, i, mem, notes)
    by_who = {it.who: it for it in (*q.known, *guessed)}
    intents = tuple(by_who[c.id] for c in q.enc.characters if c.id in by_who and q.state[c.id].active)
    dice_rng = random.Random(f"battlemat predict dice {q.seed} {q.state.turn} {i}")
    result = resolve_turn(q.enc, q.state, intents, dice_rng, engine(q.dice), mem)
    return Sample(intents, guessed, result.events, result.state)


def _copy_notes(notes: Memory) -> Memory:
    """The AI's notes, each container copied: what a guess decides stays out of the match's AI."""
    return Memory(**{f.name: copy.copy(getattr(notes, f.name)) for f in dataclasses.fields(notes)})


def guess_lines(enc: Encounter, pred: TurnPrediction) -> list[str]:
    """A heading and one line per guessed character, most chosen first ('Ogre leader: Press on Billin
    (6 of 10), Block (4 of 10)'), as the window's card and `battlemat predict` both say it."""
    if not pred.guesses:
        return []
    n = pred.guesses[0].draws
    return [f"guessed by the AI (its choices over {n} draws of its own stream, never from declared intents):",
            *(guess_line(enc, g) for g in pred.guesses)]


def spread_lines(enc: Encounter, pred: TurnPrediction) -> list[str]:
    """One line per character that may suffer losses or fall: 'Garran: 0 losses 40%, 2 losses 60%;
    defeated 10%' (over the samples)."""
    n = len(pred.samples)
    lines = []
    for cid, sp in pred.spread().items():
        if set(sp.losses) == {0} and not sp.defeated and not sp.fled:
            continue
        parts = [f"{k} loss{'es' if k != 1 else ''} {_pct(v, n)}" for k, v in sorted(sp.losses.items())]
        tail = (f"; defeated {_pct(sp.defeated, n)}" if sp.defeated else "") + (
            f"; fled {_pct(sp.fled, n)}" if sp.fled else "")
        lines.append(f"{enc.by_id[cid].name}: {', '.join(parts)}{tail}")
    return lines


def _pct(k: int, n: int) -> str:
    return f"{round(100 * k / n)}%"
