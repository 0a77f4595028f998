"""Floating cards: a character's sheet on hover, a predicted contest, why a square is refused.

A card is a list of styled lines; `draw_card` places it next to the mouse but always inside the
board view, so it never covers the side panel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from battlemat.core.character import RATING_NAMES, Character
from battlemat.core.encounter import Encounter
from battlemat.core.rating import Rating
from battlemat.core.state import CharacterState
from battlemat.ui import theme
from battlemat.ui.predict import Prediction


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
        bonus, item = c.equipment_bonus(pair)
        if bonus:
            extra.append(f"{item} +{bonus}")
        tail = f"  ({', '.join(extra)})" if extra else ""
        lines.append(Line(f"{pair} {base} {RATING_NAMES.get(base, '')}{tail}"))
    conds = []
    if st.defeated:
        conds.append("defeated")
    if st.fled:
        conds.append("fled")
    conds.append(f"losses: {st.minor} minor, {st.major} major (defeat at {c.defeat_threshold()} major, L3)")
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


def prediction_lines(attacker: str, defender: str, p: Prediction, secret: bool = False) -> list[Line]:
    lines = [Line("Predicted contest", theme.ACCENT, True, 16)]
    lines += rating_lines(attacker, p.attack, theme.GOOD)
    if secret:
        lines.append(Line(f"{defender}:", theme.BAD, True, 15))
        lines += [Line(words, theme.TEXT_DIM, size=13) for words in SECRET_DEFENSE]
    elif p.defense is not None:
        lines += rating_lines(defender, p.defense, theme.BAD)
        if p.how:
            lines.append(Line(f"   {p.how}", theme.TEXT_DIM, size=13))
        lines.append(Line(p.verdict(), theme.ACCENT, True))
    return lines


def draw_card(screen: pygame.Surface, lines: Sequence[Line], anchor: tuple[int, int], bounds: pygame.Rect,
              max_width: int = 420) -> pygame.Rect:
    surfaces = [theme.text(ln.text, ln.size, ln.color, ln.bold) for ln in lines]
    w = min(max_width, max((s.get_width() for s in surfaces), default=0)) + 20
    h = sum(s.get_height() + 1 for s in surfaces) + 16
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
