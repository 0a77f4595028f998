"""Key bindings as data: which key does what, so help text and handling never disagree."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

# (key, needs ctrl) -> command
BINDINGS: dict[tuple[int, bool], str] = {
    (pygame.K_RETURN, False): "resolve",
    (pygame.K_KP_ENTER, False): "resolve",
    (pygame.K_z, True): "undo",
    (pygame.K_s, True): "save",
    (pygame.K_o, True): "open",
    (pygame.K_r, True): "replay",
    (pygame.K_DELETE, False): "clear",
    (pygame.K_BACKSPACE, False): "clear",
    (pygame.K_TAB, False): "next",
    (pygame.K_ESCAPE, False): "cancel",
    (pygame.K_F1, False): "rules",
    (pygame.K_F12, False): "shot",
    (pygame.K_g, False): "grid",
    (pygame.K_m, False): "gm",
    (pygame.K_t, False): "step",
    (pygame.K_p, False): "predict",
    (pygame.K_o, False): "teach",  # the teaching overlay (Ctrl+O opens a file)
    (pygame.K_l, False): "legend",
    (pygame.K_v, False): "terrain_view",  # what battlemat understood of the map (check --picture)
    (pygame.K_b, False): "big_log",
    (pygame.K_f, False): "fit",
    (pygame.K_HOME, False): "fit",
    (pygame.K_PLUS, False): "zoom_in",
    (pygame.K_EQUALS, False): "zoom_in",
    (pygame.K_KP_PLUS, False): "zoom_in",
    (pygame.K_MINUS, False): "zoom_out",
    (pygame.K_KP_MINUS, False): "zoom_out",
    (pygame.K_SPACE, False): "advance",
    (pygame.K_LEFTBRACKET, False): "mod_minus",
    (pygame.K_RIGHTBRACKET, False): "mod_plus",
    (pygame.K_h, False): "shout",
    (pygame.K_i, False): "item_kind",
    (pygame.K_RIGHT, True): "advance",
    (pygame.K_PAGEUP, False): "turn_back",  # the line of turns (timeline.py)
    (pygame.K_PAGEDOWN, False): "turn_ahead",
    (pygame.K_END, False): "turn_latest",
    (pygame.K_F2, False): "setup",  # set up by hand before turn 1 (ui/setup.py)
    (pygame.K_e, False): "gm_edit",  # GM mode: change the selected character's ratings or losses (ui/gm_edit.py)
    (pygame.K_p, True): "players",  # the players' window (players_window.py)
    (pygame.K_k, False): "difficulty",  # the NPCs: scripted tactics or the search AI (difficulty.py)
}
# (key, needs ctrl) -> command, with Shift held
SHIFT_BINDINGS: dict[tuple[int, bool], str] = {
    (pygame.K_s, True): "save_as",
}

PAN_KEYS: dict[int, tuple[int, int]] = {
    pygame.K_LEFT: (1, 0), pygame.K_a: (1, 0),
    pygame.K_RIGHT: (-1, 0), pygame.K_d: (-1, 0),
    pygame.K_UP: (0, 1), pygame.K_w: (0, 1),
    pygame.K_DOWN: (0, -1), pygame.K_s: (0, -1),
}
PAN_SPEED = 700.0  # screen pixels per second

DIGITS = (pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5, pygame.K_6, pygame.K_7, pygame.K_8,
          pygame.K_9, pygame.K_0)
KEYPAD = (pygame.K_KP1, pygame.K_KP2, pygame.K_KP3, pygame.K_KP4, pygame.K_KP5, pygame.K_KP6, pygame.K_KP7,
          pygame.K_KP8, pygame.K_KP9, pygame.K_KP0)
# Skill keys come in tiers of ten: the digits, Shift+digits, Ctrl+digits. Slot n is the n-th skill
# half of the rules data, so a key means the same half for every character (`skill_slots`).
SKILL_TIERS: tuple[tuple[int, str, str], ...] = (
    (0, "", ""),
    (pygame.KMOD_SHIFT, "S+", "Shift+"),
    (pygame.KMOD_CTRL, "C+", "Ctrl+"),
)


def _tier(mod: int) -> int | None:
    """Which tier a key press's modifiers select: exactly one of none, Shift or Ctrl."""
    shift, ctrl = bool(mod & pygame.KMOD_SHIFT), bool(mod & pygame.KMOD_CTRL)
    if shift and ctrl:
        return None
    return 2 if ctrl else 1 if shift else 0


def command_for(event: pygame.event.Event) -> str | None:
    ctrl = bool(event.mod & pygame.KMOD_CTRL)
    digit = DIGITS.index(event.key) if event.key in DIGITS else KEYPAD.index(event.key) if event.key in KEYPAD else -1
    if digit >= 0:
        tier = _tier(event.mod)
        return f"skill:{tier * 10 + digit}" if tier is not None else None
    if event.mod & pygame.KMOD_SHIFT and (event.key, ctrl) in SHIFT_BINDINGS:
        return SHIFT_BINDINGS[(event.key, ctrl)]
    return BINDINGS.get((event.key, ctrl))


def skill_slots(halves: Sequence[str]) -> dict[str, int]:
    """{half: slot} in the order the rules data lists the halves; slot 0 is key 1, slot 10 Shift+1,
    slot 20 Ctrl+1. Halves past the last tier have no key."""
    return {h: i for i, h in enumerate(halves) if i < 10 * len(SKILL_TIERS)}


def slot_key(slot: int) -> tuple[int, int]:
    """(pygame key, modifier) that presses a slot (tests and help text)."""
    tier, digit = divmod(slot, 10)
    return DIGITS[digit], SKILL_TIERS[tier][0]


def slot_label(slot: int | None, long: bool = False) -> str:
    """'4', 'S+9' (Shift+9), 'C+3' (Ctrl+3) for a button; `long` spells the modifier out."""
    if slot is None:
        return ""
    tier, digit = divmod(slot, 10)
    _, short, spelled = SKILL_TIERS[tier]
    return f"{spelled if long else short}{(digit + 1) % 10}"


def pan_vector(pressed: pygame.key.ScancodeWrapper, ctrl: bool) -> tuple[int, int]:
    if ctrl:
        return (0, 0)
    dx = dy = 0
    for key, (x, y) in PAN_KEYS.items():
        if pressed[key]:
            dx += x
            dy += y
    return dx, dy


HELP = "Tab: select a character - 1..0, Shift/Ctrl+1..0: skill - click: move or target - Enter: resolve - F1: rules"

# Dragging the selected token to move it (battlemat/ui/drag.py): a press that moves past
# DRAG_THRESHOLD pixels is a drag, not a click.
DRAG_THRESHOLD = 6
WAYPOINT_KEYS = (pygame.K_LSHIFT, pygame.K_RSHIFT)  # pin the square under the pointer as a waypoint
WAYPOINT_BUTTON = 2  # the middle button does the same
UNPIN_KEYS = (pygame.K_BACKSPACE,)  # unpin the last waypoint
CANCEL_DRAG_KEYS = (pygame.K_ESCAPE,)
CANCEL_DRAG_BUTTON = 3  # the right button
DRAG_HELP = ("release: move here - Shift or middle button: waypoint",
             "Backspace: unpin it - Esc or right button: cancel")
