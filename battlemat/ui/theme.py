"""One palette and one font family for everything the window draws (tokens, overlays, panels).

The pygame_gui theme is generated from the same colours so hand-drawn parts and widgets match.
Fonts are the Noto Sans files pygame_gui ships, so text looks the same on every machine.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from pathlib import Path
from typing import Any

import pygame

Color = tuple[int, int, int] | tuple[int, int, int, int]

BG = (24, 26, 32)
PANEL = (34, 37, 46)
PANEL_EDGE = (62, 67, 82)
TEXT = (228, 230, 236)
TEXT_DIM = (150, 156, 170)
ACCENT = (242, 184, 75)  # selection, banners
GOOD = (96, 200, 120)
BAD = (232, 86, 86)
INFO = (110, 170, 240)
HOUSE = (205, 140, 235)  # house-rule tags
CORE = (120, 200, 215)  # core-rule tags
REACH = (90, 170, 255, 70)
REACH_EDGE = (120, 190, 255, 200)
ROUTE = (255, 232, 120)
REFUSED = (232, 86, 86, 90)
BAND_COLORS = ((120, 230, 140), (250, 210, 90))
STICKY = (255, 140, 40, 45)  # M6: the squares next to a sticky foe
STICKY_EDGE = (255, 150, 50, 230)
SIGHT_COVER = (250, 200, 60)  # R4: a line of sight through cover
LEVEL_TEXT = (255, 246, 220)  # M12: the level number in a square's corner
GRID = (0, 0, 0, 70)
HATCH = (40, 30, 20, 130)
PIT = (10, 8, 6, 90)
COVER = (110, 200, 255, 200)
ARENA_A = (72, 86, 70)
ARENA_B = (66, 80, 64)
WALL = (22, 18, 16)  # a wall between squares: dark, with a light edge so it shows on dark maps too (M1)
WALL_EDGE = (224, 214, 192)
DOOR_COLOURS = {"open": (104, 206, 120), "closed": (184, 118, 54), "locked": (218, 66, 58)}  # by state (M4)
LOCK = (250, 212, 84)  # a locked door's padlock

SIDE_COLORS: tuple[tuple[int, int, int], ...] = (
    (70, 130, 230),  # first side (PCs): blue
    (215, 75, 70),  # red
    (90, 185, 110),  # green
    (215, 160, 60),  # amber
    (160, 100, 210),  # violet
)

RULE_COLOR = {"core": CORE, "house": HOUSE}


def side_color(index: int) -> tuple[int, int, int]:
    return SIDE_COLORS[index % len(SIDE_COLORS)]


def _font_file(bold: bool) -> Path:
    name = "NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf"
    return Path(str(resources.files("pygame_gui.data").joinpath(name)))


@functools.cache
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """Cached fonts: creating a Font per frame is the classic pygame slowdown."""
    try:
        return pygame.font.Font(str(_font_file(bold)), size)
    except (OSError, FileNotFoundError):
        return pygame.font.Font(None, size + 4)


@functools.lru_cache(maxsize=1024)
def text(words: str, size: int, color: Color = TEXT, bold: bool = False) -> pygame.Surface:
    """Rendered text, cached: labels repeat every frame."""
    return font(size, bold).render(words, True, color)


def ellipsized(words: str, face: pygame.font.Font, width: int) -> str:
    """`words` as they fit in `width` pixels of `face`: whole, or cut and ended by an ellipsis."""
    if face.size(words)[0] <= width:
        return words
    cut = words
    while cut and face.size(cut.rstrip(" -") + "\u2026")[0] > width:
        cut = cut[:-1]
    return cut.rstrip(" -") + "\u2026"


def forget_fonts() -> None:
    """Drop cached fonts and labels (they die with pygame.quit; a new window makes new ones)."""
    font.cache_clear()
    text.cache_clear()


def gui_theme(scale: float = 1.0) -> dict[str, Any]:
    """A pygame_gui theme in our palette (written to a temp file by the app)."""

    def hexc(c: Color) -> str:
        return "#{:02x}{:02x}{:02x}".format(*c[:3])

    size = str(max(12, round(14 * scale)))
    base_font = {"name": "noto_sans", "size": size, "bold": "0", "italic": "0"}
    return {
        "defaults": {
            "colours": {
                "normal_bg": hexc((52, 57, 70)),
                "hovered_bg": hexc((70, 77, 95)),
                "disabled_bg": hexc((40, 42, 50)),
                "selected_bg": hexc((120, 92, 40)),
                "active_bg": hexc((120, 92, 40)),
                "dark_bg": hexc(PANEL),
                "normal_text": hexc(TEXT),
                "hovered_text": hexc((255, 255, 255)),
                "selected_text": hexc((255, 255, 255)),
                "disabled_text": hexc((110, 114, 126)),
                "text_cursor": hexc(TEXT),
                "normal_border": hexc(PANEL_EDGE),
                "hovered_border": hexc(ACCENT),
                "selected_border": hexc(ACCENT),
                "active_border": hexc(ACCENT),
                "disabled_border": hexc((50, 52, 60)),
                "link_text": hexc(INFO),
                "link_hover": hexc(ACCENT),
                "link_selected": hexc(ACCENT),
            },
            "font": base_font,
            "misc": {"shape": "rounded_rectangle", "shape_corner_radius": "4", "border_width": "1"},
        },
        "text_box": {"font": {**base_font, "size": str(max(11, round(13 * scale)))},
                     "colours": {"dark_bg": hexc((28, 30, 38))}},
        "@skill": {"font": {**base_font, "size": str(max(12, round(13 * scale)))},
                   "misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": "6"}},
        "#toptitle": {"font": {**base_font, "size": str(round(18 * scale)), "bold": "1"},
                      "misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": "8"}},
        "selection_list.@selection_list_item": {
            "misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": "8"}},
        "#title": {"font": {**base_font, "size": str(round(18 * scale)), "bold": "1"}},
        "#heading": {"font": {**base_font, "size": str(round(15 * scale)), "bold": "1"},
                     "colours": {"normal_text": hexc(ACCENT)}},
        "#dim": {"colours": {"normal_text": hexc(TEXT_DIM)}},
        # the log: rule IDs are links (hover: the rule's text), in the core-rule colour
        "#log": {"colours": {"link_text": hexc(CORE), "link_hover": hexc(ACCENT), "link_selected": hexc(ACCENT)},
                 "misc": {"link_normal_underline": "0", "link_hover_underline": "1"}},
        "#logfilter_up": {"misc": {"expand_direction": "up"}},
        "#logfilter_down": {"misc": {"expand_direction": "down"}},
        "tool_tip": {"misc": {"wrap_width": "380"}, "colours": {"dark_bg": hexc((20, 22, 28))}},
    }


def write_theme(path: Path, scale: float = 1.0) -> Path:
    path.write_text(json.dumps(gui_theme(scale)))
    return path
