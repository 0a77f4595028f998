"""Short labels of characters: what a token shows and what the `simulate` tables call it.

One function for the window and the tables, so "GS2" on the board is "GS2" in a report. A label is
the initials of the name (a trailing number left out); characters whose initials are the same are
numbered: by the numbers their names end with when those tell them apart ("Goblin spear 1" and
"Goblin spear 2" are GS1 and GS2), otherwise 1, 2, ... in encounter order. A one-word name whose
two letters differ from another label only in case takes three ("Bandit 1" is Ban1 beside "Bandit
archer 1", BA1). Pure: no pygame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


def _words(name: str) -> list[str]:
    return [w for w in name.replace("-", " ").replace("_", " ").split() if w]


def _number(name: str) -> str:
    """The number a name ends with ("Goblin spear 2" -> "2"), or ''."""
    words = _words(name)
    return words[-1] if len(words) > 1 and words[-1].isdigit() else ""


def initials(name: str) -> str:
    """Two letters for a name: the first letters of its first and last words ("Ogre leader" -> "OL"),
    or its first two letters ("Garran" -> "Ga"). A trailing number is left out ("Bandit 2" -> "Ba")."""
    words = _words(name)
    if _number(name):
        words = words[:-1]
    if len(words) >= 2:
        return (words[0][0] + words[-1][0]).upper()
    word = words[0] if words else name
    return word[:2].title() or "?"


def short_labels(names: Sequence[str]) -> list[str]:
    """A label per name, in order: initials, numbered where two or more names share them."""
    bases = [initials(n) for n in names]
    folded: dict[str, set[str]] = {}
    for base in bases:
        folded.setdefault(base.lower(), set()).add(base)
    for i, (name, base) in enumerate(zip(names, bases, strict=True)):
        if len(folded[base.lower()]) > 1 and not base.isupper():  # "Ba" beside "BA": "Ban" reads apart
            words = _words(name)[:-1] if _number(name) else _words(name)
            bases[i] = (words[0] if words else name)[:3].title()
    groups: dict[str, list[int]] = {}
    for i, base in enumerate(bases):
        groups.setdefault(base, []).append(i)
    out = list(bases)
    for base, members in groups.items():
        if len(members) < 2:
            continue
        own = [_number(names[i]) for i in members]
        distinct = all(own) and len(set(own)) == len(own)
        for k, i in enumerate(members, start=1):
            out[i] = f"{base}{own[k - 1] if distinct else k}"
    return out


class Named(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


def labels_by_id(characters: Sequence[Named]) -> dict[str, str]:
    """{character id: label} for an encounter's characters (anything with `id` and `name`)."""
    return dict(zip([c.id for c in characters], short_labels([c.name for c in characters]), strict=True))
