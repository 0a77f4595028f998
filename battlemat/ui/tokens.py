"""Character tokens: side colour, initials, name, loss pips, defeated/fled state, selection ring.

Label surfaces are cached by text (theme.text), so drawing a dozen tokens costs a few blits.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import pygame

from battlemat.core.character import Character
from battlemat.core.state import CharacterState
from battlemat.labels import initials
from battlemat.ui import theme
from battlemat.ui.camera import Camera


@dataclass(frozen=True)
class TokenLook:
    char: Character
    color: tuple[int, int, int]
    state: CharacterState
    pos: tuple[float, float]  # map pixels
    selected: bool = False
    hovered: bool = False
    target: bool = False
    has_intent: bool = False
    label: str = ""  # the short label (battlemat.labels: numbered where initials repeat); "" = initials
    defeat_at: int = 2  # L3: the major losses that defeat it (Character.defeat_threshold)


def label_of(t: TokenLook) -> str:
    return t.label or initials(t.char.name)


NAMES_FROM = 24  # token radius (px) from which every token shows its name; smaller ones on hover only


def radius(cell: float, zoom: float) -> int:
    return max(8, round(cell * 0.38 * zoom))


_SPRITES: dict[tuple[object, ...], tuple[pygame.Surface, tuple[int, int]]] = {}


def forget_sprites() -> None:
    """Drop the cached token pictures (they die with pygame.quit; a new window makes new ones)."""
    _SPRITES.clear()


def pulse(now: float) -> int:
    """How far the selection ring stands out at time `now` (whole pixels: the window draws a new
    frame for the ring only when this changes)."""
    return 3 + round(2 * (1 + math.sin(now * 5)))


def draw_token(screen: pygame.Surface, cam: Camera, cell: float, t: TokenLook, now: float) -> None:
    """One cached sprite per look (state, hover, zoom), plus the pulsing selection ring."""
    cx, cy = cam.to_screen(*t.pos)
    r = radius(cell, cam.zoom)
    if t.selected:
        pygame.draw.circle(screen, theme.ACCENT, (cx, cy), r + pulse(now), 3)
    st = t.state
    named = r >= NAMES_FROM or t.hovered or t.selected or t.target
    key = (t.char.id, t.char.name, label_of(t), t.color, st.minor, st.major, st.defeated, st.fled,
           t.hovered and not t.selected, t.target, t.has_intent, r, named)
    hit = _SPRITES.get(key)
    if hit is None:
        if len(_SPRITES) > 512:
            _SPRITES.clear()
        hit = _render(t, r, named)
        _SPRITES[key] = hit
    sprite, (ox, oy) = hit
    screen.blit(sprite, (round(cx) - ox, round(cy) - oy))


def _render(t: TokenLook, r: int, named: bool) -> tuple[pygame.Surface, tuple[int, int]]:
    name = theme.text(t.char.name + (" (fled)" if t.state.fled else ""), max(12, min(15, r // 2 + 4))) \
        if named else None
    half_w = max(r + 10, (name.get_width() // 2 + 6) if name else 0, (2 + t.defeat_at) * 5 + 4)
    top = r + 14
    bottom = r + 6 + (name.get_height() + 4 if name else 0)
    surf = pygame.Surface((2 * half_w, top + bottom), pygame.SRCALPHA)
    cx, cy = half_w, top
    gone = not t.state.active
    fill = tuple(int(v * 0.35 + 60) for v in t.color) if gone else t.color
    pygame.draw.circle(surf, (0, 0, 0, 150), (cx + 2, cy + 3), r)  # shadow
    if t.hovered:
        pygame.draw.circle(surf, (255, 255, 255), (cx, cy), r + 3, 2)
    if t.target:
        pygame.draw.circle(surf, theme.BAD, (cx, cy), r + 5, 2)
    pygame.draw.circle(surf, fill, (cx, cy), r)
    pygame.draw.circle(surf, (15, 15, 20), (cx, cy), r, 2)
    label = _label(label_of(t), r)
    surf.blit(label, label.get_rect(center=(cx, cy)))
    if t.has_intent and not gone:
        pygame.draw.circle(surf, theme.GOOD, (cx + r * 0.72, cy - r * 0.72), max(3, r // 5))
    if t.state.defeated:
        k = r * 0.8
        pygame.draw.line(surf, theme.BAD, (cx - k, cy - k), (cx + k, cy + k), 4)
        pygame.draw.line(surf, theme.BAD, (cx - k, cy + k), (cx + k, cy - k), 4)
    _pips(surf, cx, cy - r - 7, t, r)
    if name is not None:
        box = name.get_rect(midtop=(cx, cy + r + 3)).inflate(8, 2)
        pygame.draw.rect(surf, (10, 12, 16, 170), box, border_radius=3)
        surf.blit(name, name.get_rect(center=box.center))
    return surf, (cx, cy)


def _label(words: str, r: int) -> pygame.Surface:
    """The token's label, as large as fits inside its circle ("GS12" shrinks, "Ga" does not)."""
    size = max(10, round(r * 0.9))
    label = theme.text(words, size, (255, 255, 255), True)
    while label.get_width() > 1.75 * r and size > 8:
        size -= 1
        label = theme.text(words, size, (255, 255, 255), True)
    return label


def _pips(screen: pygame.Surface, cx: float, y: float, t: TokenLook, r: int) -> None:
    """Two minor-loss pips (amber) then the major losses to defeat (red), filled when taken (L1, L3)."""
    majors = t.defeat_at
    total = 2 + majors
    w = 9 if r >= 14 else 6
    x0 = cx - total * w / 2 + w / 2
    for i in range(total):
        minor = i < 2
        taken = (i < t.state.minor) if minor else (i - 2 < t.state.major)
        color = ((250, 200, 60) if minor else theme.BAD) if taken else (40, 42, 50)
        rect = pygame.Rect(0, 0, w - 2, w - 2)
        rect.center = (round(x0 + i * w), round(y))
        pygame.draw.rect(screen, color, rect, border_radius=2)
        pygame.draw.rect(screen, (10, 10, 12), rect, 1, border_radius=2)


def draw_tokens(screen: pygame.Surface, cam: Camera, cell: float, looks: list[TokenLook], now: float) -> None:
    clip = screen.get_clip()
    screen.set_clip(pygame.Rect(cam.view_x, cam.view_y, cam.view_w, cam.view_h))
    for t in sorted(looks, key=lambda t: (t.state.active, t.selected, t.pos[1])):
        draw_token(screen, cam, cell, t, now)
    screen.set_clip(clip)


def token_at(cam: Camera, cell: float, looks: Mapping[str, tuple[float, float]], sx: float, sy: float) -> str | None:
    """The character whose token is under a screen point (nearest centre within its radius)."""
    r = radius(cell, cam.zoom)
    best: tuple[float, str] | None = None
    for cid, pos in looks.items():
        px, py = cam.to_screen(*pos)
        d = (px - sx) ** 2 + (py - sy) ** 2
        if d <= (r + 2) ** 2 and (best is None or d < best[0]):
            best = (d, cid)
    return best[1] if best else None
