"""The answer of a dice engine (rules D1, D2, D3): who won a check or a contest, and by how much.

Its own module so that the engines (battlemat.core.engines) and the registry that lists them
(battlemat.core.dice) both import it without importing each other.
"""

from __future__ import annotations

from typing import NamedTuple


class Roll(NamedTuple):
    """The outcome of a check or a contest (a named tuple: a turn rolls a few, made in C).

    winner: "attack" (the acting side reached its goal), "defense" (the opposing side or the
    target number held), or "tie" (nobody gains; C3's "equal" case).
    margin: losses the loser suffers (>= 0), or the excess of a successful check (C1).
    """

    winner: str
    margin: int
    attack_total: int
    defense_total: int
    detail: str = ""  # dice faces and engine-specific words, for the log
    rule: str = "D1"

    @property
    def success(self) -> bool:
        return self.winner == "attack"
