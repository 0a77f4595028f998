"""Resolution engines behind one interface (rules D1, D2, D3).

Every engine answers two questions with an injected `random.Random` (never the global one):
an uncontested check against a target number (C1) and a contest between two ratings (C2).
The answer is a `Roll` whose `margin` is in battlemat's currency: losses for the loser.

Engines are registered by name (`engines()`); `engine(name)` returns one. Alternative engines
from the other rules texts (D3) are listed in `battlemat.core.engines` (ALTERNATIVES). Their
answer, `Roll`, lives in `battlemat.core.roll`, which the engines import (so they never import
this module, which imports them).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from battlemat.core.engines import ALTERNATIVES
from battlemat.core.rating import Rating
from battlemat.core.roll import Roll as Roll  # (where it always was for the readers: one name, two doors)


def faces(rng: random.Random, sides: int, count: int) -> list[int]:
    """`count` faces of a die with `sides` sides, uniform by rejection on `getrandbits`: the draws
    `rng.randint(1, sides)` makes on CPython, so a seed keeps its results, without the cost of a
    call through randint and randrange per die (a simulated batch rolls millions of them)."""
    k, bits = sides.bit_length(), rng.getrandbits
    out = []
    for _ in range(count):
        r = bits(k)
        while r >= sides:
            r = bits(k)
        out.append(r + 1)
    return out


class DiceEngine(Protocol):
    @property
    def name(self) -> str: ...

    def check(self, rating: Rating, target: int, rng: random.Random) -> Roll:
        """Uncontested use against a target number (C1)."""
        ...

    def contest(self, attack: Rating, defense: Rating, rng: random.Random) -> Roll:
        """Contested use (C2); `margin` is the losses the lower side suffers."""
        ...


class Diceless:
    """Rule D1: compare numbers. Higher wins by the difference; equal is a tie."""

    name = "none"

    def check(self, rating: Rating, target: int, rng: random.Random) -> Roll:
        ok = rating.value >= target
        return Roll(
            "attack" if ok else "defense",
            rating.value - target if ok else target - rating.value,
            rating.value,
            target,
            rule="D1",  # the event cites C1 (uncontested) itself
        )

    def contest(self, attack: Rating, defense: Rating, rng: random.Random) -> Roll:
        a, d = attack.value, defense.value
        if a > d:  # the event cites C2 (contested) itself
            return Roll("attack", a - d, a, d, rule="D1")
        if d > a:
            return Roll("defense", d - a, a, d, rule="D1")
        return Roll("tie", 0, a, d, rule="D1")


@dataclass(frozen=True)
class SumDice:
    """Rule D2: roll as many dice as the rating; the excess divided by (sides/2 + 1), rounded
    down, is the true excess. Success when the total is at least the opposing total."""

    sides: int

    @property
    def name(self) -> str:
        return f"d{self.sides}"

    @property
    def divisor(self) -> int:
        return self.sides // 2 + 1

    def roll(self, count: int, rng: random.Random) -> list[int]:
        return faces(rng, self.sides, count)

    def true_excess(self, excess: int) -> int:
        """D2: (26 - 14) // 5 = 2 with d8s (the text's '= 3' contradicts its own rounding)."""
        return max(0, excess) // self.divisor

    def check(self, rating: Rating, target: int, rng: random.Random) -> Roll:
        mine, theirs = self.roll(rating.value, rng), self.roll(target, rng)
        a, d = sum(mine), sum(theirs)
        detail = f"{rating.value}{self.name} {mine}={a} vs {target}{self.name} {theirs}={d}"
        if a >= d:
            return Roll("attack", self.true_excess(a - d), a, d, detail, rule="D2")
        return Roll("defense", self.true_excess(d - a), a, d, detail, rule="D2")

    def contest(self, attack: Rating, defense: Rating, rng: random.Random) -> Roll:
        # roll(), name, divisor and true_excess written out: a simulated batch makes millions of contests
        sides, av, dv = self.sides, attack.value, defense.value
        mine, theirs = faces(rng, sides, av), faces(rng, sides, dv)
        a, d = sum(mine), sum(theirs)
        div = sides // 2 + 1
        detail = f"{av}d{sides} {mine}={a} vs {dv}d{sides} {theirs}={d}, excess / {div}"
        if a > d:
            return Roll("attack", (a - d) // div, a, d, detail, "D2")
        if d > a:
            return Roll("defense", (d - a) // div, a, d, detail, "D2")
        return Roll("tie", 0, a, d, detail, "D2")


BUILT_IN: Mapping[str, Callable[[], DiceEngine]] = MappingProxyType({
    "none": Diceless,
    "d6": lambda: SumDice(6),
    "d8": lambda: SumDice(8),
    "d10": lambda: SumDice(10),
})  # D1, D2


def engines() -> dict[str, Callable[[], DiceEngine]]:
    """Every engine by name: the built-in ones and the alternatives of D3 (battlemat.core.engines)."""
    return {**BUILT_IN, **{factory.name: factory for factory in ALTERNATIVES}}


def engine_names() -> list[str]:
    return sorted(engines())


def engine(name: str) -> DiceEngine:
    """The engine called `name`; raises KeyError with the known names otherwise."""
    known = engines()
    try:
        return known[name]()
    except KeyError:
        raise KeyError(f"unknown dice engine {name!r}; known: {', '.join(sorted(known))}") from None
