"""Floating cards: a character's sheet on hover, a predicted contest, why a square is refused.

A card is a list of styled lines; `draw_card` places it next to the mouse but always inside the
board view, so it never covers the side panel. A card never takes a click: a click on it is the
board's (its rule IDs aside, which open their rule: aids.py).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from battlemat.core.character import RATING_NAMES, Character
from battlemat.core.encounter import Encounter
from battlemat.core.events import Event
from battlemat.core.rating import Rating
from battlemat.core.state import CharacterState
from battlemat.ui import theme
from battlemat.ui.forecast import AttackForecast


@dataclass(frozen=True)
class Line:
    text: str
    color: theme.Color = theme.TEXT
    bold: bool = False
    size: int = 14


def character_lines(enc: Encounter, c: Character, st: CharacterState, side_color: theme.Color) -> list[Line]:
    lines = [Line(c.name, side_color, True, 17), Line(f"{c.side}" + (f" - {c.kind}" if c.kind else ""), theme.TEXT_DIM)]
    for pair, base in sorted(c.skills.items(), key=lambda kv: -kv[1]):
        if base <= 0:
            continue
        extra = []
        t = c.talent(pair)
        if t:
            extra.append(f"talent {t}")
        extra += [f"{e.name} +{e.bonus}" + (f" ({e.half})" if e.half else "") for e in c.items_of(pair)]
        tail = f"  ({', '.join(extra)})" if extra else ""
        lines.append(Line(f"{pair} {base} {RATING_NAMES.get(base, '')}{tail}"))
    conds = []
    if st.defeated:
        conds.append("defeated")
    if st.fled:
        conds.append("fled")
    conds.append(f"losses: {st.minor} minor, {st.major} major (defeat at {c.defeat_threshold(enc.rules)} major, L3)")
    if c.fragile:
        conds.append("fragile (L4)")
    if c.deadly:
        conds.append("deadly (L4)")
    for w in conds:
        lines.append(Line(w, theme.BAD if "defeated" in w else theme.TEXT_DIM))
    for adv in st.advantages:
        vs = enc.by_id[adv.vs].name if adv.vs in enc.by_id else adv.vs
        when = "rest of combat" if adv.turn is None else f"turn {adv.turn}"
        lines.append(Line(f"{adv.value:+d} vs {vs}: {adv.reason} ({adv.rule}, {when})", theme.GOOD))
    return lines


def rating_lines(who: str, r: Rating, color: theme.Color) -> list[Line]:
    out = [Line(f"{who}: {r.skill} {r.value}", color, True, 15)]
    for label, value, rule in r.parts():
        out.append(Line(f"   {value:+d}  {label}  [{rule}]" if label != "base" else f"   {value}  base  [{rule}]"))
    if r.halved:
        out.append(Line(f"   halved from {r.full} (C5)", theme.TEXT_DIM))
    for note in r.notes:
        out.append(Line(f"   {note}", theme.TEXT_DIM, size=13))
    return out


SECRET_DEFENSE = (
    "its intent is secret; it opposes with (C5):",
    "   Block/Dodge at full rating against the attacker it chose",
    "   half its rating while attacking someone else or busy",
    "   0 while using an item",
)


def forecast_lines(enc: Encounter, p: AttackForecast, dice: str = "none") -> list[Line]:
    """The card of a hovered attack, as the turn resolved with what is known tells it: the group that
    forms after movement (S7) and what meets it, or why the attack comes to nothing; conditional on
    the secret intents it assumed (each stays where it is and does nothing)."""
    f, name = p.found, (lambda cid: enc.by_id[cid].name)
    target = name(p.target)
    lines = [Line("Predicted contest" + (" (conditional)" if p.conditional else ""), theme.ACCENT, True, 16)]
    if p.secret:
        lines.append(Line(f"if {target} stays where it is: its intent is secret", theme.ACCENT, size=13))
    if f.failed is not None:
        lines += _failed_lines(enc, p, f.failed)
    elif f.attack is not None and f.defense is not None:
        group = " + ".join(name(m) for m in f.attackers) + (" (group, S7)" if len(f.attackers) > 1 else "")
        lines += rating_lines(group, f.attack, theme.GOOD)
        if p.secret:
            lines.append(Line(f"{target}: in reach after movement", theme.BAD, True, 15))
            lines += [Line(words, theme.TEXT_DIM, size=13) for words in SECRET_DEFENSE]
        else:
            lines += rating_lines(", ".join(name(m) for m in f.defenders), f.defense, theme.BAD)
            if f.how:
                lines.append(Line(f"   {f.how}", theme.TEXT_DIM, size=13))
    verdict = p.verdict()
    if verdict:
        lines.append(Line(verdict, theme.ACCENT, True))
    others = [name(c) for c in p.assumed if c != p.target]
    if others:
        who = ", ".join(others) if len(others) <= 3 else f"{len(others)} others"
        lines.append(Line(f"assumes {who} (secret intents) stay where they are and do nothing", theme.TEXT_DIM,
                          size=13))
    if dice != "none" and f.failed is None:
        lines.append(Line(f"diceless comparison: with {dice} dice the losses vary (P shows the spread)",
                          theme.TEXT_DIM, size=13))
    return lines


def _failed_lines(enc: Encounter, p: AttackForecast, failed: Event) -> list[Line]:
    """Why the attack comes to nothing, in the event's words; a secret target out of reach after
    movement is flagged: only its coming closer would bring the attack about."""
    target = enc.by_id[p.target].name
    use = str(failed.data.get("use") or "")
    reason = str(failed.data.get("reason") or failed.text)
    rule = str(failed.data.get("rule") or (failed.rules[0] if failed.rules else ""))
    out = [Line(f"{enc.by_id[p.who].name}: {use} on {target} fails", theme.BAD, True, 15),
           Line(f"   {reason}" + (f" [{rule}]" if rule and f"({rule})" not in reason else ""))]
    if p.secret:
        half = enc.rules.halves.get(use)
        out_of_reach = half is not None and half.reach and rule in (half.phase, "C7")
        out.append(Line(f"   unless {target} comes closer" if out_of_reach else f"   unless {target} moves",
                        theme.ACCENT))
    return out


def _fitted(ln: Line, width: int) -> list[pygame.Surface]:
    """One line's text as rendered lines no wider than `width` (words carried to an indented next line)."""
    whole = theme.text(ln.text, ln.size, ln.color, ln.bold)
    if whole.get_width() <= width or " " not in ln.text.strip():
        return [whole]
    indent = ln.text[: len(ln.text) - len(ln.text.lstrip())]
    out, words, current = [], ln.text.split(), indent
    for w in words:
        trial = f"{current} {w}" if current.strip() else f"{current}{w}"
        if current.strip() and theme.font(ln.size, ln.bold).size(trial)[0] > width:
            out.append(theme.text(current, ln.size, ln.color, ln.bold))
            current = f"{indent}    {w}"
        else:
            current = trial
    out.append(theme.text(current, ln.size, ln.color, ln.bold))
    return out


def draw_card(screen: pygame.Surface, lines: Sequence[Line], anchor: tuple[int, int], bounds: pygame.Rect,
              max_width: int = 420) -> pygame.Rect:
    surfaces = [s for ln in lines for s in _fitted(ln, max_width - 20)]
    w = min(max_width, max((s.get_width() for s in surfaces), default=0)) + 20
    h = min(sum(s.get_height() + 1 for s in surfaces) + 16, bounds.height)  # longer: cut at the bottom
    rect = pygame.Rect(anchor[0] + 18, anchor[1] + 18, w, h)
    if rect.right > bounds.right:
        rect.right = anchor[0] - 12
    if rect.bottom > bounds.bottom:
        rect.bottom = bounds.bottom - 4
    rect.clamp_ip(bounds)
    bg = pygame.Surface(rect.size, pygame.SRCALPHA)
    bg.fill((20, 22, 28, 235))
    screen.blit(bg, rect)
    pygame.draw.rect(screen, theme.PANEL_EDGE, rect, 1, border_radius=4)
    y = rect.top + 8
    clip = screen.get_clip()
    screen.set_clip(rect.inflate(-4, -4))
    for s in surfaces:
        screen.blit(s, (rect.left + 10, y))
        y += s.get_height() + 1
    screen.set_clip(clip)
    return rect


@dataclass
class ShownCard:
    """A card drawn this frame or held under the pointer: what and where, and when it was drawn."""

    lines: list[Line]
    anchor: tuple[int, int]
    bounds: pygame.Rect
    max_width: int
    rect: pygame.Rect
    at: float
    held: bool = False


@dataclass
class CardMemory:
    """The cards of the board: the one drawn by this frame's hover (`drawn`) and the one shown last,
    which may hold still under the pointer (`card`, battlemat.ui.aids), so its rule IDs can be hovered."""

    card: ShownCard | None = None
    drawn: ShownCard | None = None

    def draw(self, surface: pygame.Surface, lines: Sequence[Line], anchor: tuple[int, int], bounds: pygame.Rect,
             max_width: int = 420) -> pygame.Rect:
        """draw_card, remembered: the pointer may move onto the card to hover its rule IDs."""
        rect = draw_card(surface, lines, anchor, bounds, max_width)
        self.drawn = ShownCard(list(lines), anchor, bounds.copy(), max_width, rect, time.monotonic())
        return rect
