"""Losses and leaving the fight (rules L1-L4, C5, L2): where a contest's outcome lands on a character."""

from __future__ import annotations

from collections.abc import Iterable

from battlemat.core.events import Losses, words
from battlemat.core.resolver.record import house
from battlemat.core.resolver.turn import Hit, Turn
from battlemat.core.types import CharId


def land(t: Turn, hits: Iterable[Hit]) -> None:
    """Land a step's losses together (simultaneity within a step) and check defeat (L1-L4)."""
    for hit in hits:
        if hit.losses <= 0 or not t.active(hit.victim):
            continue
        s = t.st[hit.victim]
        minor, major = s.minor, s.major
        for _ in range(hit.losses):  # L1: the first two are minor, the rest major
            if minor < 2:
                minor += 1
            else:
                major += 1
        deadly = s.deadly_losses + (hit.losses if any(t.char(x).deadly for x in hit.sources) else 0)
        t.st[hit.victim] = s.with_(minor=minor, major=major, deadly_losses=deadly, suffered=s.suffered + hit.losses)
        t.suffered.add(hit.victim)
        t.caused.update(hit.sources)
        lost = Losses(hit.victim, hit.losses, hit.sources, minor, major, minor - s.minor, major - s.major)
        t.emit_payload(lost, words(_losses_words, lost, t.name(hit.victim), tuple(map(t.name, hit.sources))),
                       ("C2", "L1"))
        _defeat(t, hit.victim, deadly)


def _losses_words(lost: Losses, name: str, sources: tuple[str, ...]) -> str:
    """A hit's losses in plain words, from its payload and the names of the victim and its sources."""
    by = ", ".join(sources) or "the hazard"
    return (f"{name} suffers {lost.n} loss{'es' if lost.n != 1 else ''} from {by}, "
            f"{_split(lost.new_minor, lost.new_major)} (now {lost.minor} minor, {lost.major} major) (L1)")


def _split(minor: int, major: int) -> str:
    """L1: how one hit's losses divide into minor and major: 'minor', 'both major', '1 minor and 2 major'."""
    n = minor + major
    if minor and major:
        return f"{minor} minor and {major} major"
    kind = "minor" if minor else "major"
    return kind if n == 1 else f"both {kind}" if n == 2 else f"all {kind}"


def _defeat(t: Turn, cid: CharId, deadly: int) -> None:
    """L3: defeated at 2 major losses (more with Wrestle talent); L4: fragile foes, and a PC struck by a
    deadly foe, after a set number of losses suffered in the combat ("after suffering two losses", text
    lines 430-431: a lasting count, `CharacterState.suffered`, so a loss healed still counts)."""
    victim, s = t.char(cid), t.st[cid]
    limit = t.rules.switch_int("deadly_defeats_after")
    why, rule = "", "L3"
    if victim.fragile and s.suffered >= limit:
        why, rule = f"fragile: {s.suffered} losses (L4)", "L4"
    elif deadly and s.suffered >= limit:
        why, rule = f"struck by a deadly foe: {s.suffered} losses (L4)", "L4"
    elif s.major >= victim.defeat_threshold(t.rules):
        tough = t.rules.talent_pair("toughness")
        extra = victim.talent(tough)
        why = f"{s.major} major losses (L3" + (f", +{extra} from {tough.split('/')[0]} talent" if extra else "") + ")"
    if why:
        t.st[cid] = s.with_(defeated=True)
        t.emit("defeated", f"{victim.name} is defeated: {why}", (rule,), who=cid,
               **(house(t, "switch.deadly_defeats_after") if rule == "L4" else {}))


def _kept_words(name: str, minor: int, why: str) -> str:
    return f"{name} keeps {minor} minor loss{'es' if minor != 1 else ''}: {why}, so none heals (L2)"


def leave_conflict(t: Turn, cid: CharId, how: str) -> None:
    """C5: an Exit user leaves the conflict; L2: all its minor losses heal."""
    s = t.st[cid]
    t.st[cid] = s.with_(fled=True, minor=0)
    healed = "; all minor losses heal (L2)" if s.minor else ""
    t.emit("fled", f"{t.name(cid)} {how}{healed}", ("C5", "L2"), who=cid, **house(t, "switch.exit_leaves_conflict"))


def heal(t: Turn) -> set[CharId]:
    """L2: one minor loss heals for each character that caused a loss this turn and suffered none.
    Returns who healed."""
    healed: set[CharId] = set()
    for cid in t.order():
        s = t.st[cid]
        if s.active and cid in t.caused and cid not in t.suffered and s.minor > 0:
            t.st[cid] = s.with_(minor=s.minor - 1)
            healed.add(cid)
            t.emit(
                "healed",
                words("{} caused a loss and suffered none: one minor loss heals (L2)".format, t.name(cid)),
                ("L2",),
                who=cid,
                minor=s.minor - 1,
            )
    return healed


def not_healed(t: Turn, healed: set[CharId]) -> None:
    """L2: everyone still in the fight who keeps minor losses and healed none this turn, and why: those
    who came into the turn with minor losses, and those who caused a loss (what heals one). A character
    hurt for the first time this turn and causing nothing is left out: nobody expects it to heal."""
    for cid in t.order():
        s = t.st[cid]
        caused, suffered = cid in t.caused, cid in t.suffered
        if not s.active or s.minor <= 0 or cid in healed or not (caused or t.state[cid].minor > 0):
            continue
        if caused:
            why = "it caused a loss but also suffered some this turn"
        elif suffered:
            why = "it caused no loss and suffered some this turn"
        else:
            why = "it caused no loss this turn"
        t.emit(
            "not_healed",
            words(_kept_words, t.name(cid), s.minor, why),
            ("L2",),
            who=cid,
            minor=s.minor,
            caused=caused,
            suffered=suffered,
        )
