"""Key bindings as data: which key does what, so help text and handling never disagree."""

from __future__ import annotations

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

SKILL_KEYS = (pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5, pygame.K_6, pygame.K_7, pygame.K_8,
              pygame.K_9, pygame.K_0)


def command_for(event: pygame.event.Event) -> str | None:
    ctrl = bool(event.mod & pygame.KMOD_CTRL)
    if event.key in SKILL_KEYS and not ctrl:
        return f"skill:{SKILL_KEYS.index(event.key)}"
    if event.mod & pygame.KMOD_SHIFT and (event.key, ctrl) in SHIFT_BINDINGS:
        return SHIFT_BINDINGS[(event.key, ctrl)]
    return BINDINGS.get((event.key, ctrl))


def pan_vector(pressed: pygame.key.ScancodeWrapper, ctrl: bool) -> tuple[int, int]:
    if ctrl:
        return (0, 0)
    dx = dy = 0
    for key, (x, y) in PAN_KEYS.items():
        if pressed[key]:
            dx += x
            dy += y
    return dx, dy


HELP = "Tab: select a character - 1..0: skill - click: move or target - Enter: resolve - F1: rules"

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
