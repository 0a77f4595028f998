"""The game master's changes of a character during a fight: a rating (S2) or the losses (L1), between turns.

As the game master's door changes (io/saves.py `gm_doors`): the change is made before a turn is
resolved, the match changes (a rating: its encounter's character; losses: its state), the log gets
a line marked as the game master's (a `gm_change` event with `gm`), and a save keeps the change
(`"gm": [{"turn": 3, "who": "bandit", "what": "Melee/Press", "value": 4}]`) so a replay makes it
again before the same turn. The core's values are used as they are: a changed rating is a new
`Encounter` with the character replaced (ratings never change inside a match, S1-S5), and the
match gets a fresh memory for it (`core.memory.remember`), its dice and state untouched.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from battlemat.core.character import RATING_NAMES
from battlemat.core.encounter import Encounter
from battlemat.core.events import Event
from battlemat.core.match import Match
from battlemat.core.memory import remember
from battlemat.core.state import MatchState
from battlemat.io.errors import LoadError
from battlemat.io.limits import MAX_DOOR_CHANGES
from battlemat.io.names import shown

LOSSES = ("minor", "major")
MAX_MINOR = 2  # L1: a third minor loss becomes a major one
TOP_RATING = max(RATING_NAMES)  # S2


@dataclass(frozen=True)
class GmChange:
    """Before turn `turn`, `who`'s `what` (a skill pair, "minor" or "major") is set to `value`."""

    turn: int
    who: str
    what: str
    value: int

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "who": self.who, "what": self.what, "value": self.value}


def change_problem(enc: Encounter, state: MatchState, change: GmChange) -> str | None:
    """Why `change` cannot be made on this encounter and state (None: it can): an unknown character
    or pair, a rating outside 0..8 (S2), minor losses outside 0..2 (L1), major losses below 0."""
    if change.who not in enc.by_id:
        return f"no character {change.who!r}"
    c = enc.by_id[change.who]
    if change.what in LOSSES:
        top = MAX_MINOR if change.what == "minor" else c.defeat_threshold(enc.rules)
        if not 0 <= change.value <= top:
            rule = "L1" if change.what == "minor" else "L3: defeated at"
            return f"{c.name}'s {change.what} losses run 0..{top} ({rule} {top}), found {change.value}"
        return None
    if change.what not in enc.rules.pairs:
        return f"no skill pair {change.what!r} (S1: {', '.join(enc.rules.pairs)})"
    if not 0 <= change.value <= TOP_RATING:
        return f"{change.what}: a rating is a whole number 0..{TOP_RATING} (S2), found {change.value}"
    return None


def gm_changes(match: Match, changes: Sequence[GmChange], turn: int) -> list[Event]:
    """Make the game master's changes of `turn` on `match` (between its turns) and log each; returns
    the events. A change that no longer fits (edited by hand) is skipped: `from_data` checks the rest."""
    out = []
    for change in changes:
        if change.turn != turn or change_problem(match.encounter, match.state, change) is not None:
            continue
        enc = match.encounter
        c = enc.by_id[change.who]
        if change.what in LOSSES:
            st = match.state[c.id]
            before = getattr(st, change.what)
            new = st.with_(**{change.what: change.value})
            if change.what == "major":  # L3: defeated at the threshold, back in the fight below it
                new = new.with_(defeated=change.value >= c.defeat_threshold(enc.rules))
            match.state = match.state.replace_chars({**match.state.chars, c.id: new})
            words = f"GM sets {c.name}'s {change.what} losses to {change.value} (were {before})"
            rules: tuple[str, ...] = ("L1", "L3")
        else:
            before = c.base(change.what)
            skills = {p: v for p, v in {**c.skills, change.what: change.value}.items() if v}
            new_char = dataclasses.replace(c, skills=MappingProxyType(skills))
            match.encounter = dataclasses.replace(
                enc, characters=tuple(new_char if x.id == c.id else x for x in enc.characters))
            match.memory = remember(None, match.encounter)  # what it worked out of the old ratings is gone
            words = f"GM sets {c.name}'s {change.what} to {change.value} (was {before})"
            rules = ("S2",)
        ev = Event("gm_change", turn, "declare", words, rules,
                   MappingProxyType({"who": c.id, "what": change.what, "value": change.value, "before": before,
                                     "gm": True}))
        match.log.append(ev)
        out.append(ev)
    return out


def from_data(value: Any, turns: int, bad: Callable[[str, str, str], None]) -> tuple[GmChange, ...]:
    """The changes of a save's "gm" list, each checked for its shape (whether they fit the encounter
    is checked when the save is opened); `bad(place, message, fix)` collects the problems."""
    example = '"gm": [{"turn": 3, "who": "bandit", "what": "Melee/Press", "value": 4}]'
    if not isinstance(value, list) or len(value) > MAX_DOOR_CHANGES:
        bad("gm", f"gm is a list of at most {MAX_DOOR_CHANGES} changes, found {shown(value)}", f"write {example}")
        return ()
    out = []
    for i, d in enumerate(value):
        place = f"gm[{i}]"
        if not isinstance(d, dict) or set(d) != {"turn", "who", "what", "value"}:
            bad(place, f"a GM change is {{turn, who, what, value}}, found {shown(d)}", f"write {example}")
            continue
        turn, who, what, v = d["turn"], d["who"], d["what"], d["value"]
        if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= turns + 1:
            bad(f"{place}.turn", f"a change is made before a turn from 1 to {turns + 1}, found {shown(turn)}",
                "restore a good copy, or remove the change")
        elif not (isinstance(who, str) and who and isinstance(what, str) and what):
            bad(place, "who and what are text (a character's id; a skill pair, minor or major)", f"write {example}")
        elif isinstance(v, bool) or not isinstance(v, int):
            bad(f"{place}.value", f"a value is a whole number, found {shown(v)}", "restore a good copy")
        else:
            out.append(GmChange(turn, who, what, v))
    return tuple(sorted(out, key=lambda c: c.turn))


def check_changes(changes: Sequence[GmChange], enc: Encounter, file: str) -> None:
    """Every change a save holds fits its encounter (a character it has, a pair of its rules, a value in
    range), or a LoadError naming the change in the save and the fix."""
    start = enc.initial_state()
    for i, change in enumerate(changes):
        problem = change_problem(enc, start, change)
        if problem is not None:
            raise LoadError.one(file, f"gm[{i}]", f"the game master's change does not fit the encounter: {problem}",
                                "restore a good copy of the save, or the encounter the game was played with")
