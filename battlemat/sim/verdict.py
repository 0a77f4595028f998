"""The lab's answer in the game master's words: one line per side, and what "undecided" was.

`simulate` ends with these lines, made from the same numbers its tables print (the runs' results,
never the printed text):

    deadly for the watch: it wins 1.5% (0.4% - 5.2%), and loses all 5 of its characters in 90% of fights,
    most by turn 5

The difficulty word comes from the side's win rate and its 95% Wilson interval (sim.stats.wilson),
and it is the most cautious word the interval allows: the word of the interval's end nearest 50%.
An undecided combat counts half a win in the word (as a drawn game scores half in chess): a fight that
nobody wins is neither deadly nor trivial for a side, so 100% stalemate is "even" for both, and the
line says how much was undecided. With no undecided combat the word is the win rate's.

    deadly   the side wins under 10% even at the hopeful end of the interval (high < 10%)
    hard     high < 40%
    even     the interval reaches 40% - 60%, or holds 50%
    easy     low > 60%
    trivial  low > 90%

Why on the interval and not on the rate alone: a small batch must not claim more than it shows. 0 wins
in 20 runs (0% - 16.1%) is "hard"; 0 in 40 (0% - 8.8%) is "deadly". The bands are symmetric, so in a
fight of two sides with no undecided combat "deadly" for one is "trivial" for the other, and "hard"
is "easy". Why these numbers: a game master runs a fight once; under 1 in 10 it is a fight the side
should expect to lose (a total party kill to plan for), from 4 in 10 to 6 in 10 it could go either way,
and above 9 in 10 the side should expect to win whatever the dice do.

"loses K of its N characters in P% of fights, most by turn T": K is the most characters the side loses
(defeated; a character that flees gets away) in at least half the fights, P the share of fights where
it loses K or more, T the turn by which the K-th of them has fallen in at least half of those fights.

A side can be played by more than one AI (the search AI against the scripted tactics, issue 31 items
1-3): `side_verdict` takes one or more (label, results) for a side, all on the same seeds, and says
the word and the numbers of each, so the line shows what competent play changes. A caller with a
second batch for a side (e.g. `simulate --ai watch=search` beside the tactics' batch) passes
`[("tactics", mine), ("search", theirs)]`; with a single play no label is shown.

"undecided" is broken down (`undecided_line`): the turn cap with the sides still fighting; a stalemate
(the turn cap after QUIET_TURNS turns in which nobody took a loss: neither side harms the other), with
why, read from one stalemated run played again (sim.runlog.trace_run: a side with no attack rated
above 0, one that never attacked, whose attacks never got through and against what); and the combats
that ended with no side left standing (everyone fled, or the last fell together).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from battlemat.core.encounter import Encounter
from battlemat.core.events import Contest
from battlemat.labels import display_names
from battlemat.sim.runlog import trace_run
from battlemat.sim.runner import RunResult
from battlemat.sim.stats import wilson

# (upper bound, word): the word of a rate below the bound. Documented in the module docstring,
# the README ("What the verdict says") and the glossary (`battlemat rules verdict`).
BANDS = ((0.10, "deadly"), (0.40, "hard"), (0.60, "even"), (0.90, "easy"), (math.inf, "trivial"))
# A capped combat whose last QUIET_TURNS turns dealt no loss to anyone is a stalemate.
QUIET_TURNS = 10


def band(rate: float) -> str:
    """The word of a win rate (BANDS); 40% and 60% themselves are even."""
    if rate < BANDS[0][0]:
        return "deadly"
    if rate < BANDS[1][0]:
        return "hard"
    if rate <= BANDS[2][0]:
        return "even"
    if rate <= BANDS[3][0]:
        return "easy"
    return "trivial"


def difficulty(low: float, high: float) -> str:
    """The most cautious word the interval [low, high] allows: its end nearest 50% decides."""
    if high < 0.5:
        return band(high)
    if low > 0.5:
        return band(low)
    return "even"


@dataclass(frozen=True)
class Outlook:
    """One side's numbers over a batch, as the verdict says them."""

    side: str
    runs: int
    wins: int
    low: float
    high: float
    characters: int
    lost: int  # K: the most characters it loses in at least half the fights (0: none in most)
    lost_share: float  # the share of fights where it loses K or more (K = 0: where it loses none)
    by_turn: int | None  # the turn by which the K-th has fallen in at least half of those fights
    fled_share: float  # the share of fights in which at least one of its characters fled

    @property
    def rate(self) -> float:
        return self.wins / self.runs if self.runs else 0.0

    undecided: int = 0  # combats no side won
    all_fled_share: float = 0.0  # the share of fights in which every one of its characters fled

    @property
    def word(self) -> str:
        """difficulty() of the side's score: a win 1, an undecided combat 1/2, a loss 0 (its win rate's
        interval when every combat was decided)."""
        if not self.undecided:
            return difficulty(self.low, self.high)
        return difficulty(*wilson(self.wins + self.undecided / 2, self.runs))


def outlook(enc: Encounter, side: str, results: Sequence[RunResult]) -> Outlook:
    """The side's Outlook from the runs' results (RunResult fields: winner, chars, defeat_turn)."""
    mine = [c.id for c in enc.characters if c.side == side]
    n = len(results)
    wins = sum(r.winner == side for r in results)
    low, high = wilson(wins, n)
    falls = [sorted(r.defeat_turn[cid] for cid in mine if r.chars[cid].defeated and cid in r.defeat_turn)
             for r in results]
    lost = max((k for k in range(1, len(mine) + 1) if sum(len(f) >= k for f in falls) * 2 >= n), default=0)
    if lost == 0:
        share = sum(not f for f in falls) / n if n else 0.0
        by_turn = None
    else:
        kth = sorted(f[lost - 1] for f in falls if len(f) >= lost)
        share = len(kth) / n
        by_turn = kth[math.ceil(len(kth) / 2) - 1]
    fled = sum(any(r.chars[cid].fled for cid in mine) for r in results) / n if n else 0.0
    all_fled = sum(all(r.chars[cid].fled for cid in mine) for r in results) / n if n and mine else 0.0
    return Outlook(side, n, wins, low, high, len(mine), lost, share, by_turn, fled,
                   sum(r.winner is None for r in results), all_fled)


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _numbers(o: Outlook) -> str:
    out = f"it wins {_pct(o.rate)} ({_pct(o.low)} - {_pct(o.high)})"
    if o.undecided:
        out += f" with {o.undecided / o.runs:.0%} undecided"
    out += ", and "
    if o.lost == 0:
        what = "keeps its only character" if o.characters == 1 else f"loses none of its {o.characters} characters"
        out += f"{what} in {o.lost_share:.0%} of fights"
    else:
        if o.lost == o.characters == 1:
            out += "loses its only character"
        elif o.lost == o.characters:
            out += f"loses all {o.characters} of its characters"
        else:
            out += f"loses at least {o.lost} of its {o.characters} characters"
        out += f" in {o.lost_share:.0%} of fights, most by turn {o.by_turn}"
    if o.fled_share > 0 and o.characters == 1:
        out += f"; its character flees in {o.fled_share:.0%}"
    elif o.fled_share > 0 and o.all_fled_share == o.fled_share:
        out += f"; all {o.characters} of its characters flee in {o.fled_share:.0%}"
    elif o.fled_share > 0:
        out += f"; at least one of its characters flees in {o.fled_share:.0%}"
        if o.all_fled_share:
            out += f" (all {o.characters} in {o.all_fled_share:.0%})"
    return out


def side_verdict(side: str, plays: Sequence[tuple[str, Outlook]]) -> str:
    """One line for `side`: its difficulty word and numbers for each (label, Outlook) it was played with.
    One play: "deadly for the watch: it wins ..."; several: "deadly for the watch with tactics: it
    wins ...; hard with search: it wins ..."."""
    if not plays:
        raise ValueError(f"no results for side {side!r}")
    if len(plays) == 1:
        o = plays[0][1]
        return f"{o.word} for the {side}: {_numbers(o)}"
    parts = []
    for i, (label, o) in enumerate(plays):
        who = f"for the {side} " if i == 0 else ""
        parts.append(f"{o.word} {who}with {label}: {_numbers(o)}")
    return "; ".join(parts)


def verdict_lines(enc: Encounter, plays: Sequence[tuple[str, Sequence[RunResult]]]) -> list[str]:
    """A line per side, each side played by every (label, results) in `plays` (one batch per AI;
    a batch that leaves a side's AI as it was counts for every side)."""
    return [side_verdict(side, [(label, outlook(enc, side, rs)) for label, rs in plays]) for side in enc.sides]


# -- undecided -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Undecided:
    """The undecided combats by kind (run indices, in run order)."""

    capped: tuple[int, ...]  # the turn cap, the sides still harming each other
    stalemate: tuple[int, ...]  # the turn cap after QUIET_TURNS turns without a loss
    fled: tuple[int, ...]  # ended with no side standing, someone's last characters fleeing
    fell: tuple[int, ...]  # ended with no side standing, the last defeated together

    @property
    def total(self) -> int:
        return len(self.capped) + len(self.stalemate) + len(self.fled) + len(self.fell)


def quiet(r: RunResult, turns: int = QUIET_TURNS) -> bool:
    """No side took a loss in the run's last `turns` turns (it lasted at least that long)."""
    rows = list(r.side_losses.values())
    return r.turns >= turns and all(sum(losses[-turns:]) == 0 for losses in rows)


def undecided(results: Sequence[RunResult], quiet_turns: int = QUIET_TURNS) -> Undecided:
    capped: list[int] = []
    stale: list[int] = []
    fled: list[int] = []
    fell: list[int] = []
    for r in results:
        if r.winner is not None:
            continue
        if r.capped:
            (stale if quiet(r, quiet_turns) else capped).append(r.index)
        elif any(c.fled for c in r.chars.values()):
            fled.append(r.index)
        else:
            fell.append(r.index)
    return Undecided(tuple(capped), tuple(stale), tuple(fled), tuple(fell))


def undecided_line(enc: Encounter, results: Sequence[RunResult], max_turns: int, why: str = "",
                   quiet_turns: int = QUIET_TURNS) -> str | None:
    """"undecided in 12% of fights: ..." with each kind and, for a stalemate, `why`
    (stalemate_why); None when every combat was decided."""
    u = undecided(results, quiet_turns)
    if not u.total:
        return None
    n = len(results)
    parts = []
    if u.capped:
        parts.append(f"{len(u.capped)} reached the turn cap ({max_turns}) still fighting")
    if u.stalemate:
        text = (f"{len(u.stalemate)} stalemate: nobody took a loss in the last {quiet_turns} turns before "
                f"the turn cap")
        parts.append(f"{text} ({why})" if why else text)
    if u.fled:
        parts.append(f"{len(u.fled)} ended with everyone fled or fallen, someone's last characters fleeing")
    if u.fell:
        parts.append(f"{len(u.fell)} ended with the last of every side falling in the same turn")
    return f"undecided in {u.total / n:.1%} of fights ({u.total} of {n}): " + "; ".join(parts)


def stalemate_why(enc: Encounter, index: int, batch_seed: int, dice: str | None, max_turns: int,
                  quiet_turns: int = QUIET_TURNS) -> str:
    """Why neither side harmed the other in stalemated run `index`, from its last `quiet_turns` turns
    played again (sim.runlog.trace_run): per side, whether its standing characters declared an attack
    at all (a half whose rules data says `act = "attack"`) and what they did instead, or, when they
    did, its best attack in a contest and what held it."""
    result, turns = trace_run(enc, index, batch_seed, dice, max_turns)
    names = display_names(enc.characters)
    standing = [cid for cid in enc.ids if not result.chars[cid].defeated and not result.chars[cid].fled]
    uses: dict[str, Counter[str]] = {cid: Counter() for cid in standing}
    best: dict[str, tuple[int, str]] = {}  # side -> (its best attack in a contest, in words)
    for intents, _notes, events, _after in turns[-quiet_turns:]:
        declared = {it.who: it.use for it in intents}
        for cid in standing:
            uses[cid][declared.get(cid, "nothing")] += 1
        for ev in events:
            if ev.type == "contest":
                _best_attack(enc, Contest.of(ev), names, best)
    parts = []
    for side in enc.sides:
        here = [cid for cid in standing if enc.by_id[cid].side == side]
        if not here:
            continue
        did = ", ".join(f"{names.get(cid, cid)} {_most(uses[cid])}" for cid in here)
        if not any(_can_attack(enc, cid) for cid in here):
            parts.append(f"the {side} have no attack rated above 0 ({did})")
        elif not any(_attacks(enc, use) for cid in here for use in uses[cid]):
            parts.append(f"the {side} never attacked ({did})")
        elif side in best:
            parts.append(f"{_of_side(side)} attacks never got through ({did}; best: {best[side][1]})")
        else:
            parts.append(f"{_of_side(side)} attacks never came to a contest ({did})")
    return f"run {index}: " + "; ".join(parts)


def _can_attack(enc: Encounter, cid: str) -> bool:
    """Whether the character has a half that attacks (`act = "attack"`) with a base rating above 0 (S2)."""
    c = enc.by_id[cid]
    return any(h.act == "attack" and c.base(h.pair) > 0 for h in enc.rules.halves.values())


def _attacks(enc: Encounter, use: str) -> bool:
    half = enc.rules.halves.get(use)
    return half is not None and half.act == "attack"


def _best_attack(enc: Encounter, c: Contest, names: dict[str, str], best: dict[str, tuple[int, str]]) -> None:
    """Keep, per side, its best attacking rating in contest `c` (an attacker's, or a defender's who
    opposed with an attack of its own, C3) and what opposed it."""
    for mine, theirs, rating, other in ((c.attackers, c.defenders, c.attack, c.defense),
                                        (c.defenders, c.attackers, c.defense, c.attack)):
        if not mine or mine[0] not in enc.by_id or not _attacks(enc, rating.skill):
            continue
        side = enc.by_id[mine[0]].side
        if side in best and best[side][0] >= rating.value:
            continue
        against = names.get(theirs[0], theirs[0]) if theirs else "nobody"
        best[side] = (rating.value, f"{names.get(mine[0], mine[0])}'s {rating.skill} {rating.value} against "
                                    f"{against}'s {other.skill} {other.value}")


def _of_side(side: str) -> str:
    """"the watch's", "the ogres'"."""
    return f"the {side}'" if side.endswith("s") else f"the {side}'s"


def _most(uses: Counter[str]) -> str:
    """What a character did in the quiet turns: "used Block every turn", "used Block 6 of 10 turns"."""
    if not uses:
        return "did nothing"
    use, k = uses.most_common(1)[0]
    total = sum(uses.values())
    verb = "did nothing" if use == "nothing" else f"used {use}"
    return f"{verb} every turn" if k == total else f"{verb} {k} of {total} turns"
