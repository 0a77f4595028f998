"""What a declared use does, asked of the rules data's flags, never of a skill's name (STYLE 14).

The resolver, the AI and the window ask these questions; each is answered once, here, from the
flags of `battlemat/data/rules.toml` (`charges`, `sticky`, `engaged_forbids`, `grips`, `searches`,
the `aggressive_skills` switch...). A copy of the rules data with every skill renamed plays the same
game (tests/test_rules_by_flag.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from battlemat.core.intents import Intent
from battlemat.core.rules import Half, Rules
from battlemat.core.types import CharId


def charges(rules: Rules, use: str) -> bool:
    """M7: whether `use` moves in as straight a line as it can toward its target (no waypoints)."""
    half = rules.halves.get(use)
    return half is not None and half.charges


def charge_picks_square(rules: Rules, use: str, target: CharId | None) -> bool:
    """M7: a targeted charge moves toward its target to a square it picks itself: no square or path
    is declared for it."""
    return target is not None and charges(rules, use)


def aims_at_target(rules: Rules, use: str) -> bool:
    """M7, M8: whether the squares `use` may move to follow from where its target stands (a charge
    toward it, holding ground against it), so a new target asks for its squares again."""
    half = rules.halves.get(use)
    return half is not None and (half.charges or half.holds_ground)


def moves(rules: Rules, intent: Intent, on_map: bool) -> bool:
    """M1, M7: whether this intent changes square this turn: a declared square or path, or, on a
    map, a targeted charge (a charge always moves)."""
    return intent.moves or (on_map and charge_picks_square(rules, intent.use, intent.target))


def flees(rules: Rules, intent: Intent) -> bool:
    """C5: whether this intent flees the conflict: a fleeing half (Exit) used without a target (with
    one it pursues instead, `pursues`)."""
    half = rules.halves.get(intent.use)
    return half is not None and half.act == "flee" and not pursues(rules, intent)


def pursues(rules: Rules, intent: Intent) -> bool:
    """C5, text line 75: whether this intent uses its half's second use, stopping its target's own
    flight (an Exit with a target): the pursuer does not flee."""
    half = rules.halves.get(intent.use)
    return half is not None and half.stops_flight and intent.target is not None


def takes_target(rules: Rules, use: str) -> bool:
    """Whether `use` acts on a character it names: an attack (P3, P4), an observation or a hider's foe
    (P1, O1-O4), a Block or Dodge's chosen attacker (C5), an item used on someone, a charge's or a
    provocation's foe (M7, M8), an Exit stopping a runner (C5), racial magic (`may_target`). A half that
    only moves or acts on no one (`act = "none"` in the rules data: Acrobatics, Escape, the crafts...)
    takes none: a target on it is refused (validate)."""
    half = rules.halves.get(use)
    return half is None or half_takes_target(half)


def half_takes_target(half: Half) -> bool:
    """`takes_target` of a half's rules data."""
    return half.act != "none" or half.charges or half.holds_ground or half.stops_flight or half.may_target


def is_sticky(rules: Rules, use: str) -> bool:
    """M6: whether an adjacent opponent of a character using `use` cannot move away from it."""
    half = rules.halves.get(use)
    return half is not None and half.sticky


def sticky_uses(rules: Rules, intents: Mapping[CharId, Intent]) -> dict[CharId, str]:
    """M6: who among the declared intents makes its neighbours stick, with the half it uses."""
    return {cid: it.use for cid, it in intents.items() if is_sticky(rules, it.use)}


def is_aggressive(rules: Rules, use: str) -> bool:
    """R2: whether a character using `use` is 'aggressive' to an adjacent opponent, which may then
    not use a half that `engaged_forbids` (the `aggressive_skills` switch [house])."""
    return use in rules.switch_strs("aggressive_skills")


def aggressive_halves(rules: Rules) -> tuple[str, ...]:
    """R2: the halves the rules data makes aggressive, in the rules data's order."""
    return tuple(h for h in rules.halves if is_aggressive(rules, h))


def engaged_forbids(rules: Rules, use: str) -> bool:
    """R2: whether `use` is impossible next to an aggressive opponent (Shoot is; Throw is not)."""
    return rules.halves[use].engaged_forbids


def grips(rules: Rules, use: str) -> bool:
    """M13: whether a success with `use` grabs its target, and a foe already held may be thrown."""
    half = rules.halves.get(use)
    return half is not None and half.grips


def searches(rules: Rules, use: str) -> bool:
    """O4: whether `use` searches for hiders (it needs no target, and it is what finds them)."""
    half = rules.halves.get(use)
    return half is not None and half.searches


def searching_half(rules: Rules) -> Half:
    """O2, O4: the half that finds hiders, actively or, halved, passively (the one flagged `searches`)."""
    found = [h for h in rules.halves.values() if h.searches]
    if len(found) != 1:
        raise ValueError(f"the rules data needs exactly one half with searches = true, found {len(found)}")
    return found[0]
