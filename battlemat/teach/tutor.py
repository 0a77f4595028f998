"""The tutor of a lesson: steps over a small encounter that the learner plays in the window (issue 19).

A lesson is data (battlemat.io.lessons reads it into `Lesson`, `Step`, `Want` and `Point` values).
This module judges a declaration against a step, and picks the events a step points at with the
squares and tokens they concern and the rule behind each, whose words come from the rules data
(never restated here). `load_lesson` reads a lesson file and plays it through once as written, so a
lesson the rules refuse, that ends the combat early or points at nothing never reaches a learner.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from battlemat.core.encounter import Encounter
from battlemat.core.errors import BattlematError, IllegalIntent
from battlemat.core.events import Event
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.core.rules import Rules
from battlemat.core.types import XY, CharId
from battlemat.io.errors import LoadError, Problem
from battlemat.io.lessons import Lesson, Point, Step, Want, read_lesson
from battlemat.teach.rule_cases import cited_rules

__all__ = ["Lesson", "Point", "Pointer", "Refusal", "Step", "Want", "event_label", "judge", "load_lesson", "pointers",
           "unfinished"]


@dataclass(frozen=True)
class Refusal:
    """Why a declaration is not the step's, and whether it is on the way there (`partial`: the right
    character and skill, a target or square still to click)."""

    reason: str
    partial: bool = False


@dataclass(frozen=True)
class Pointer:
    """An event pointed at on the map: the rule behind it with its one line from the rules data, the
    squares and the tokens it concerns."""

    event: Event
    rule: str
    line: str
    squares: tuple[XY, ...]
    tokens: tuple[CharId, ...]
    label: str = ""  # the event in a few words, for its tag on the map (event_label)


def _names(enc: Encounter, cid: CharId | None) -> str:
    return enc.by_id[cid].name if cid is not None and cid in enc.by_id else str(cid)


def want_words(enc: Encounter, w: Want) -> str:
    """'Kwirt: Dodge, to (5, 2)' - the expected intent as the hint of a refusal."""
    words = f"{_names(enc, w.who)}: {' or '.join(w.use)}"
    if w.target:
        words += f" on {_names(enc, w.target)}"
    if w.to:
        words += ", to " + " or ".join(str(tuple(s)) for s in w.to[:3]) + (" ..." if len(w.to) > 3 else "")
    return words


def _fits(w: Want, it: Intent) -> bool:
    return (it.use in w.use and (w.target is None or it.target == w.target)
            and (w.to is None or (it.to is not None and tuple(it.to) in w.to)))


def judge(enc: Encounter, step: Step, it: Intent) -> Refusal | None:
    """None when `it` is one of the step's acceptable intents; else why not, with the expected one."""
    mine = [w for w in step.wants if w.who == it.who]
    if not mine:
        asked = ", ".join(_names(enc, c) for c in step.whos) or "nobody"
        return Refusal(f"this step is not about {_names(enc, it.who)}; it asks for {asked}")
    if any(_fits(w, it) for w in mine):
        return None
    hint = "; or ".join(want_words(enc, w) for w in mine)
    same_use = [w for w in mine if it.use in w.use]
    if not same_use:
        return Refusal(f"this step asks for {hint}, not {it.use}")
    for w in same_use:
        if w.target is not None and it.target is None:
            return Refusal(f"now click {_names(enc, w.target)} (expected: {hint})", partial=True)
        if w.target is not None and it.target != w.target:
            return Refusal(f"this step asks for {hint}, not a target of {_names(enc, it.target)}")
    for w in same_use:
        if w.to is not None and it.to is None:
            squares = " or ".join(str(tuple(s)) for s in w.to[:3])
            return Refusal(f"now click the square {squares} (expected: {hint})", partial=True)
    return Refusal(f"this step asks for {hint}, not to {tuple(it.to) if it.to else 'stay'}")


def unfinished(enc: Encounter, step: Step, declared: Mapping[CharId, Intent]) -> tuple[CharId, str] | None:
    """The first character the step still waits for, with what it asks of it; None when all are set."""
    for who in step.whos:
        it = declared.get(who)
        if it is None or judge(enc, step, it) is not None:
            return who, "; or ".join(want_words(enc, w) for w in step.wants if w.who == who)
    return None


# -- pointing at events ------------------------------------------------------------------------------
def rule_line(rules: Rules, rid: str) -> str:
    """'M6 Sticky: a character using Melee or Wrestle ...' - the rule's title and first sentence, as
    the rules data words them."""
    entry = rules.entries.get(rid)
    if entry is None:
        return rid
    first = entry.text.split(". ")[0].rstrip(".")
    return f"{rid} {entry.title}: {first}."


def concerned(ev: Event) -> tuple[CharId, ...]:
    """The characters an event is about, from its data (actor first)."""
    out: list[CharId] = []
    for key in ("who", "attackers", "by", "target", "defenders", "vs", "searchers"):
        v = ev.data.get(key)
        for cid in (v if isinstance(v, (list, tuple)) else [v]):
            if isinstance(cid, str) and cid not in out:
                out.append(cid)
    return tuple(out)


def _squares_in(ev: Event) -> list[XY]:
    out: list[XY] = []
    for key in ("route", "over", "to", "at"):
        v: Any = ev.data.get(key)
        if not isinstance(v, (list, tuple)) or not v:
            continue
        items = v if isinstance(v[0], (list, tuple)) else [v]
        for sq in items:
            if isinstance(sq, (list, tuple)) and len(sq) == 2 and tuple(sq) not in out:
                out.append((int(sq[0]), int(sq[1])))
    return out


def actors(ev: Event) -> tuple[CharId, ...]:
    """Who an event is about first: its `who` (the mover, the one who suffers), else its attackers."""
    for key in ("who", "attackers"):
        v = ev.data.get(key)
        if v:
            return tuple(c for c in (v if isinstance(v, (list, tuple)) else [v]) if isinstance(c, str))
    return ()


def event_rules(ev: Event) -> set[str]:
    """The rules an event cites: its own and those inside its rating breakdowns (a cover penalty R4,
    a study's advantage O1), as rule cases count them (battlemat.teach.rule_cases.cited_rules)."""
    return set(ev.rules) | cited_rules([ev])


def matches(p: Point, ev: Event) -> bool:
    """Whether `ev` is one the point names; a phase ID (P1-P4) as the rule matches the events of that
    phase, which cite the rules of their outcome rather than their phase."""
    return (ev.type == p.type and (p.who is None or p.who in actors(ev))
            and (p.rule is None or p.rule == ev.phase or p.rule in event_rules(ev)))


def pointers(enc: Encounter, step: Step, events: Sequence[Event],
             where: Callable[[CharId], XY | None]) -> tuple[Pointer, ...]:
    """The step's events to point at, in the order they happened: each with its rule and one line
    from the rules data, the event in a few words (event_label), the squares it names (route, jump,
    stop) and the squares of its characters
    (`where`: after the turn)."""
    rules = enc.rules
    out: list[Pointer] = []
    for ev in events:
        p = next((p for p in step.points if matches(p, ev)), None)
        if p is None:
            continue
        rule = p.rule or (ev.rules[0] if ev.rules else "")
        tokens = concerned(ev)
        squares = _squares_in(ev) + [sq for sq in (where(c) for c in tokens) if sq is not None]
        out.append(Pointer(ev, rule, rule_line(rules, rule), tuple(dict.fromkeys(squares)), tokens,
                           event_label(enc, ev, rule)))
    return tuple(out)


# -- an event in a few words: what a pointer's tag says ----------------------------------------------
def _who(enc: Encounter, v: object) -> str:
    ids = v if isinstance(v, (list, tuple)) else [v]
    return ", ".join(_names(enc, c) for c in ids if isinstance(c, str))


def _without_rule(words: str) -> str:
    """'Kwirt is out of reach after movement (P4)' -> 'Kwirt is out of reach after movement'."""
    head, sep, tail = words.rstrip().rpartition(" (")
    return head if sep and tail.endswith(")") and len(tail) <= 5 else words


def _part(rating: object, rule: str) -> str:
    """The part of a recorded rating that `rule` gives ('-1 cover on the line (1)'), or ''."""
    if not isinstance(rating, dict):
        return ""
    for key in ("situational", "adjustments"):
        for m in rating.get(key) or ():
            if isinstance(m, dict) and m.get("rule") == rule:
                return f"{int(m['value']):+d} {_without_rule(str(m['reason']))}"
    return ""


def _contest_label(enc: Encounter, ev: Event, rule: str) -> str:
    d = ev.data
    att, dfn = d.get("attack") or {}, d.get("defense") or {}
    a, b = _who(enc, d.get("attackers")), _who(enc, d.get("defenders"))
    part = _part(att, rule) or _part(dfn, rule)
    group = len(d.get("attackers") or ()) > 1
    won = {"attack": f"{'the group' if group else a} wins by {d.get('margin')}",
           "defense": f"{b} holds by {d.get('margin')}", "tie": "a tie"}.get(str(d.get("winner")), "")
    totals = d.get("totals") or ["?", "?"]
    return ((f"{a} together: " if group else f"{a}'s ") + f"{att.get('skill', '')} {totals[0]}"
            + (f" ({part})" if part else "")
            + f" vs {b}'s {dfn.get('skill', '')} {totals[1]}: {won}")


def event_label(enc: Encounter, ev: Event, rule: str = "") -> str:
    """What happened, in a few words, for a pointer's tag: "Ogre's Melee did nothing: Kwirt is out of
    reach after movement", "Arva's Shoot 2 (-1 cover on the line) vs Bandit 2's Dodge 2: a tie";
    the rule (`rule`) picks the part of a contest's ratings to name. Other events say their own words."""
    d = ev.data
    who = _who(enc, d.get("who"))
    if ev.type == "moved":
        return f"{who} moves {d.get('cost')} squares to {tuple(d['to'])}" if d.get("to") else ev.text
    if ev.type == "stopped":
        return f"{who} is stopped at {tuple(d['at'])}: {_without_rule(str(d.get('reason', '')))}" if d.get("at") \
            else _without_rule(ev.text)
    if ev.type == "no_effect" and d.get("who") and d.get("use"):
        return f"{who}'s {d['use']} did nothing: {_without_rule(str(d.get('reason', '')))}"
    if ev.type == "contest" and d.get("attackers"):
        return _contest_label(enc, ev, rule)
    if ev.type == "losses":
        n = int(d.get("n", 0))
        by = f" from {_who(enc, d['by'])}" if d.get("by") else ""
        return f"{who} suffers {n} loss{'es' if n != 1 else ''}{by}"
    if ev.type == "defeated":
        return f"{who} is defeated"
    return _without_rule(ev.text)


# -- a lesson file, played through once ----------------------------------------------------------------
def load_lesson(path: str | Path) -> Lesson:
    """Read, check and play through a lesson file. Raises LoadError listing every problem found."""
    lesson = read_lesson(path)
    problems = play_through(lesson)
    if problems:
        raise LoadError(problems)
    return lesson


def play_through(lesson: Lesson) -> list[Problem]:
    """Play every step with its first expected intent per character: the rules must accept it, the
    combat must last to the last step, and each pointer must find its event. The problems found."""
    file = str(lesson.file)
    match = Match(lesson.enc)  # the lesson's seed and dice (read_lesson sets them on its encounter)
    problems: list[Problem] = []
    for i, step in enumerate(lesson.steps):
        place = f"step[{i}]"
        if match.outcome().over:
            return [*problems, Problem(file, place, f"the combat is over before this step ({match.outcome().reason})",
                                       "end the lesson earlier, or change the steps before it")]
        firsts = [next(w for w in step.wants if w.who == who).example() for who in step.whos]
        try:
            events = match.play((*firsts, *step.npcs))
        except IllegalIntent as exc:
            part = "expect" if any(it.who == exc.who for it in firsts) else "npc"
            return [*problems, Problem(file, f"{place}.{part}", f"the rules refuse {exc.who}'s intent: {exc.reason}"
                                       + (f" ({exc.rule})" if exc.rule else ""),
                                       "change the intent (battlemat reach shows the squares)")]
        except BattlematError as exc:
            return [*problems, Problem(file, place, f"the step cannot be played: {exc}", "change its intents")]
        problems += [Problem(file, f"{place}.point[{j}]", f"no {p.type} event" + (f" of {p.who}" if p.who else "")
                             + (f" citing {p.rule}" if p.rule else "") + " when the step is played as expected",
                             "point at an event the turn has (`battlemat resolve --json` lists them)")
                     for j, p in enumerate(step.points) if not any(matches(p, ev) for ev in events)]
    return problems
