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


# -- names as the window shows them (issue 31 item 5) ------------------------------------------------
def display_names(characters: Sequence[Named]) -> dict[str, str]:
    """{character id: what a table calls it}: its name, with its id in brackets where two characters
    of the encounter share the name (case aside), so each row still says which one it is."""
    folded: dict[str, int] = {}
    for c in characters:
        folded[c.name.casefold()] = folded.get(c.name.casefold(), 0) + 1
    return {c.id: f"{c.name} ({c.id})" if folded[c.name.casefold()] > 1 else c.name for c in characters}


def with_article(name: str) -> str:
    """"the Ogre crossbowman" for a name that reads as a common noun (two words or more, the second in
    lower case, or one word in lower case), the name alone for a proper name ("Garran")."""
    words = name.split()
    if not words:
        return name
    common = words[0].islower() or (len(words) > 1 and words[1][:1].islower())
    return f"the {name}" if common else name


class AmbiguousName(LookupError):
    """A typed name that matches no character, or more than one: `candidates` are the (id, name) that
    match (empty: none does)."""

    def __init__(self, text: str, candidates: Sequence[tuple[str, str]]) -> None:
        self.text = text
        self.candidates = list(candidates)
        if candidates:
            listed = ", ".join(f"{name} ({cid})" for cid, name in candidates)
            super().__init__(f"{text!r} could be any of: {listed}; type more of the name, or the id")
        else:
            super().__init__(f"no character {text!r}")


def find_character(characters: Sequence[Named], text: str) -> str:
    """The id of the character `text` names: its id, or its name as the window shows it, case aside,
    or the start of one name (or id) that no other character's begins with. An exact id or name wins
    over a prefix ("Ogre" names a character called Ogre even beside "Ogre leader"). Raises
    AmbiguousName when none matches or several do."""
    typed = text.strip()
    for c in characters:
        if c.id == typed:
            return c.id
    folded = typed.casefold()
    exact = [c for c in characters if c.name.casefold() == folded or c.id.casefold() == folded]
    if len(exact) == 1:
        return exact[0].id
    pool = exact or [c for c in characters
                     if folded and (c.name.casefold().startswith(folded) or c.id.casefold().startswith(folded))]
    if len(pool) == 1:
        return pool[0].id
    raise AmbiguousName(typed, [(c.id, c.name) for c in pool])
