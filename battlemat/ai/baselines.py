"""Baselines the arena measures the tactics against (`battlemat arena`): pure policies like the tactics.

- random: a random skill half the character has, on a random foe, to a random reachable square.
- greedy: attack the nearest foe with the best attack it has: shoot what it sees, strike what is
  next to it, else charge the nearest (Press, M7) or walk at it with Melee.
"""

from __future__ import annotations

from battlemat.ai.ground import toward
from battlemat.ai.view import View
from battlemat.core.intents import Intent

_ACTS = ("attack", "defend", "observe", "hide", "flee", "none")


def random_intent(v: View) -> Intent | None:
    foes = v.enemies()
    if not foes:
        return None
    halves = [h for h, half in v.enc.rules.halves.items() if half.act in _ACTS and v.my(h) > 0]
    if not halves:
        return None
    use = halves[int(v.rng.random() * len(halves))]
    foe = foes[int(v.rng.random() * len(foes))]
    act = v.enc.rules.halves[use].act
    target = foe.id if act in ("attack", "defend", "observe", "hide") else None
    to = None
    if v.board is not None and v.rng.random() < 0.5:
        dests = sorted(v.destinations(use, target))
        if dests:
            to = dests[int(v.rng.random() * len(dests))]
    return Intent(v.me.id, use, target, to=to)


def greedy(v: View) -> Intent | None:
    foes = v.enemies()
    if not foes:
        return None
    foe = min(foes, key=lambda f: (v.distance(v.me, f), v.enc.ids.index(f.id)))
    ranged = max(("Shoot", "Throw"), key=v.my)
    reach = max(("Melee", "Press"), key=v.my)
    if v.my(ranged) > v.my(reach) and v.sees(v.me, foe)[0]:
        return Intent(v.me.id, ranged, foe.id)
    if v.adjacent(v.me, foe) or v.my(reach) == 0:
        return Intent(v.me.id, reach if v.my(reach) else ranged, foe.id)
    if v.my("Press") > 0:
        return Intent(v.me.id, "Press", foe.id)  # a charge that falls short still closes in (M7)
    return Intent(v.me.id, "Melee", foe.id, to=toward(v, "Melee", foe))
