"""Names and values as messages show them: a misspelt name gets its close match as the fix, and a
value from a file is shown short (a 5,000-digit number or a megabyte of text cannot become a message,
and Python refuses to print an int of more than 4,300 digits at all).

The same words whether the name was written in an encounter, a save or on the command line.
"""

from __future__ import annotations

import difflib
import reprlib
from collections.abc import Iterable
from typing import Any

from battlemat.core.dice import engine_names


def did_you_mean(name: object, known: Iterable[str]) -> str:
    """'did you mean 'd6'? ' when `name` is close to one of `known` (case aside), else ''."""
    if not isinstance(name, str) or not name:
        return ""
    choices = list(known)
    by_lower = {k.lower(): k for k in choices}
    if name.strip().lower() in by_lower:
        return f"did you mean {by_lower[name.strip().lower()]!r}? "
    close = difflib.get_close_matches(name.lower(), list(by_lower), n=1, cutoff=0.5)
    return f"did you mean {by_lower[close[0]]!r}? " if close else ""


# Every `ai =` an encounter may name (battlemat.ai.TACTICS, and the search AI: battlemat.ai.search)
AI_NAMES = ("brawler", "archer", "skirmisher", "guardian", "coward", "observer", "scripted", "default",
            "random", "greedy", "search")


def ai_known(ai: str) -> bool:
    """A tactic's name, or the search AI on one ("search:archer": battlemat.ai.search)."""
    return ai in AI_NAMES or ai.startswith("search:") and ai[len("search:"):] in AI_NAMES[:-1]


def unknown_name(what: str, name: object, known: Iterable[str]) -> tuple[str, str]:
    """(message, fix) for a name that is none of `known`."""
    choices = list(known)
    return f"unknown {what} {name!r}", f"{did_you_mean(name, choices)}use one of: {', '.join(choices)}"


def dice_problem(name: object) -> tuple[str, str] | None:
    """None for a known dice engine; else (message, fix) with the close match."""
    known = engine_names()
    if isinstance(name, str) and name in known:
        return None
    return unknown_name("dice", name, known)


class _Short(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 2
        self.maxstring = 60
        self.maxother = 40
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = 6

    def repr_int(self, x: int, level: int) -> str:
        if -(10**15) < x < 10**15:
            return repr(x)
        digits = int(x.bit_length() * 0.30103) + 1
        return f"{'-' if x < 0 else ''}<a number of about {digits} digits>"

    def repr_str(self, x: str, level: int) -> str:
        return repr(x) if len(x) <= self.maxstring else repr(x[: self.maxstring - 3]) + "..."


_SHORT = _Short()


def shown(value: Any) -> str:
    """`value` as a message shows it: repr, shortened; never raises."""
    try:
        return _SHORT.repr(value)
    except (ValueError, TypeError, RecursionError):  # a value whose repr fails must not hide its message
        return f"a {type(value).__name__}"
