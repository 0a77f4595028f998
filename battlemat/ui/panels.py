"""The pygame_gui widgets around the board: top bar, skill buttons, intents list, log.

`Layout` of the window is computed from its size alone (`frame_rects`), so panels never overlap at
1280x800 or 1920x1080 and a resize just rebuilds the widgets. Panels hold no game state: the play
screen tells them what to show.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import pygame
import pygame_gui
from pygame_gui.core import ObjectID, UIContainer
from pygame_gui.elements import UIButton, UILabel, UISelectionList, UITextBox

from battlemat.core.events import Event
from battlemat.log import house_mark
from battlemat.ui import theme

TOP_H = 44
STATUS_H = 26
HOTKEYS = "1234567890"


@dataclass(frozen=True)
class Frame:
    """Screen rectangles of the window's parts."""

    top: pygame.Rect
    board: pygame.Rect
    status: pygame.Rect
    side: pygame.Rect
    scale: float


def frame_rects(w: int, h: int) -> Frame:
    scale = 1.0 if w < 1600 else 1.15
    side_w = max(340, min(480, round(w * 0.29)))
    top = pygame.Rect(0, 0, w, TOP_H)
    side = pygame.Rect(w - side_w, TOP_H, side_w, h - TOP_H)
    board = pygame.Rect(0, TOP_H, w - side_w, h - TOP_H - STATUS_H)
    status = pygame.Rect(0, h - STATUS_H, w - side_w, STATUS_H)
    return Frame(top, board, status, side, scale)


HELP_HTML = (
    "<b>Declare</b>: Tab or click one of your tokens, then a skill (keys 1..0 or the buttons: "
    "squares of movement, phase, rating). Click a foe to target it, a shaded square to move there; "
    "the route is the one the resolver will take.<br>"
    "<b>Explain</b>: hover a square to see why it is refused (rule ID), a foe to see the predicted "
    "contest, any token for its sheet. F1 lists every rule, core or house.<br>"
    "<b>Resolve</b>: Enter plays P1-P4. T turns on step mode (Space: next event), Esc skips. "
    "P predicts the turn as ghosts on the map (the AI guesses unknown intents); P or Esc clears it.<br>"
    "<b>Adjust</b>: [ and ] give the intent a GM situational -1/+1 (S6), H shouts what it learns (O6), "
    "I cycles an item's kind (M1), Shift+click adds a Melee secondary target (C7).<br>"
    "<b>Keys</b>: Ctrl+Z undo, Del clear, M GM mode (NPC intents), G grid, F fit, wheel or +/- zoom, "
    "drag or WASD/arrows pan, F12 screenshot, Ctrl+S save, Ctrl+Shift+S save as, Ctrl+O open, Ctrl+R replay.<br>"
    "<b>Turns</b>: PgUp / PgDn go a turn back / ahead, End to the latest, or click the timeline under "
    "the board; a turn declared differently in the past branches into a new save."
)

TOP_BUTTONS = (
    ("open", "Open", "Open an encounter or a save (Ctrl+O)"),
    ("save", "Save", "Save this game (Ctrl+S; Ctrl+Shift+S saves under a name)"),
    ("replay", "Replay", "Replay a save turn by turn (Ctrl+R)"),
    ("grid", "Grid", "Show or hide the grid (G)"),
    ("gm", "GM mode", "Show and edit the NPCs' secret intents (M)"),
    ("step", "Step", "Step mode: one event per key press while resolving (T)"),
    ("predict", "Predict P", "Play the turn as ghosts on the map: the AI guesses unknown intents (P)"),
    ("fit", "Fit", "Fit the map to the window (F)"),
    ("rules", "Rules F1", "The rules table with core/house tags (F1)"),
    ("shot", "Shot F12", "Save a screenshot (F12)"),
)


class TopBar:
    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect) -> None:
        # An invisible container: the play screen paints the opaque background itself, which
        # costs a fill instead of an alpha blit of a window-wide panel every frame.
        self.panel = UIContainer(rect, manager)
        self.buttons: dict[str, UIButton] = {}
        self.epoch = 0  # bumped on every change we make, so the app knows when to redraw the panels
        bw = 86
        x = rect.width - len(TOP_BUTTONS) * (bw + 4) - 6
        self.title = UILabel(pygame.Rect(8, 4, max(120, x - 16), rect.height - 12), "", manager,
                             container=self.panel, object_id=ObjectID("#toptitle"))
        for key, label, tip in TOP_BUTTONS:
            self.buttons[key] = UIButton(pygame.Rect(x, 6, bw, rect.height - 16), label, manager,
                                         container=self.panel, tool_tip_text=tip)
            x += bw + 4

    def set_title(self, words: str) -> None:
        if self.title.text != words:
            self.title.set_text(words)
            self.epoch += 1

    def set_toggle(self, key: str, on: bool) -> None:
        b = self.buttons[key]
        if on != b.is_selected:
            b.select() if on else b.unselect()
            self.epoch += 1


class Sidebar:
    """Selected character, its skill buttons, the declared intents, the controls and the log."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect) -> None:
        self.manager = manager
        self.rect = rect
        self.panel = UIContainer(rect, manager)
        w = rect.width - 16
        self.who = UILabel(pygame.Rect(8, 4, w, 30), "No one selected", manager, container=self.panel,
                           object_id=ObjectID("#title"))
        self.hint = UILabel(pygame.Rect(8, 32, w, 20), "Tab or click a token to select", manager,
                            container=self.panel, object_id=ObjectID("#dim"))
        self.skill_top = 56
        self.skill_h = 28
        self.skill_cols = 2
        self.skill_rows = 9
        self.skill_buttons: list[tuple[str, UIButton]] = []
        y = self.skill_top + self.skill_rows * (self.skill_h + 4) + 4
        self.help = UITextBox(HELP_HTML, pygame.Rect(8, self.skill_top, w, y - self.skill_top - 6), manager,
                              container=self.panel)
        UILabel(pygame.Rect(8, y, w, 26), "Declared intents", manager, container=self.panel,
                object_id=ObjectID("#heading"))
        y += 28
        list_h = max(96, min(190, (rect.height - y) // 3))
        self.intents = UISelectionList(pygame.Rect(8, y, w, list_h), [], manager, container=self.panel)
        y += list_h + 6
        bw = (w - 8) // 3
        self.clear = UIButton(pygame.Rect(8, y, bw, 30), "Clear (Del)", manager, container=self.panel,
                              tool_tip_text="Remove the selected character's intent")
        self.undo = UIButton(pygame.Rect(12 + bw, y, bw, 30), "Undo (Ctrl+Z)", manager, container=self.panel)
        self.resolve = UIButton(pygame.Rect(16 + 2 * bw, y, w - 2 * bw - 8, 30), "Resolve (Enter)", manager,
                                container=self.panel, tool_tip_text="Play the turn: P1 to P4 (rule P)")
        y += 38
        UILabel(pygame.Rect(8, y, w, 26), "Log", manager, container=self.panel, object_id=ObjectID("#heading"))
        y += 28
        self.log = UITextBox("", pygame.Rect(8, y, w, rect.height - y - 8), manager, container=self.panel)
        self._intent_keys: list[str] = []
        self.log_html: list[str] = []
        self.epoch = 0  # bumped on every change we make, so the app knows when to redraw the panels
        self.rows: list[tuple[str, str]] = []
        self._skill_key: tuple[object, ...] = ()

    # -- skills --------------------------------------------------------------------------------
    def set_skills(self, key: tuple[object, ...], entries: list[tuple[str, str, str, bool]]) -> None:
        """entries: (half, label, tooltip, chosen). Rebuilt only when `key` changes; without
        entries the help text takes their place."""
        self.epoch += 1
        if entries:
            self.help.hide()
        else:
            self.help.show()
        if key == self._skill_key:
            for half, btn in self.skill_buttons:
                chosen = next((c for h, _, _, c in entries if h == half), False)
                btn.select() if chosen else btn.unselect()
            return
        self._skill_key = key
        for _, btn in self.skill_buttons:
            btn.kill()
        self.skill_buttons = []
        w = self.rect.width - 16
        cols = self.skill_cols
        bw = (w - (cols - 1) * 4) // cols
        for i, (half, label, tip, chosen) in enumerate(entries[: cols * self.skill_rows]):
            r, c = divmod(i, cols)
            rect = pygame.Rect(8 + c * (bw + 4), self.skill_top + r * (self.skill_h + 4), bw, self.skill_h)
            btn = UIButton(rect, label, self.manager, container=self.panel, tool_tip_text=tip,
                           object_id=ObjectID("#skill", "@skill"))
            if chosen:
                btn.select()
            self.skill_buttons.append((half, btn))

    def skill_of(self, element: object) -> str | None:
        return next((h for h, b in self.skill_buttons if b is element), None)

    # -- intents -------------------------------------------------------------------------------
    def set_intents(self, rows: list[tuple[str, str]]) -> None:
        """rows: (character id, words)."""
        keys = [words for _, words in rows]
        self.rows = list(rows)
        self.epoch += 1
        if keys != self._intent_keys:
            self._intent_keys = keys
            self.intents.set_item_list(list[str | tuple[str, str]](keys))

    # -- log -----------------------------------------------------------------------------------
    def log_events(self, events: list[Event]) -> None:
        chunks = [event_html(ev) for ev in events]
        chunks = [c for c in chunks if c]
        if chunks:
            self.append("".join(chunks))

    def log_text(self, words: str, color: theme.Color = theme.TEXT_DIM) -> None:
        self.append(f"<font color='{_hex(color)}'>{html.escape(words)}</font><br>")

    def append(self, chunk: str) -> None:
        """pygame_gui does not keep appended text in html_text, so the panel keeps its own copy
        (to rebuild the log after a resize)."""
        self.epoch += 1
        self.log_html.append(chunk)
        self.log.append_html_text(chunk)
        self._to_bottom()

    def restore(self, chunks: list[str]) -> None:
        self.epoch += 1
        self.log_html = list(chunks)
        self.log.set_text("".join(chunks))
        self._to_bottom()

    def clear_log(self) -> None:
        self.epoch += 1
        self.log_html = []
        self.log.set_text("")

    @property
    def log_plain(self) -> str:
        return "".join(self.log_html)

    def _to_bottom(self) -> None:
        """Keep the newest line in view, like a terminal."""
        bar = self.log.scroll_bar
        if bar is not None:
            bar.set_scroll_from_start_percentage(1.0)


def paint_frame(surface: pygame.Surface, frame: Frame) -> None:
    """The opaque backgrounds of the top bar and the side panel, under the widgets."""
    surface.fill(theme.PANEL, frame.top)
    surface.fill(theme.PANEL, frame.side)
    pygame.draw.line(surface, theme.PANEL_EDGE, frame.top.bottomleft, frame.top.bottomright)
    pygame.draw.line(surface, theme.PANEL_EDGE, frame.side.topleft, frame.side.bottomleft)


def _hex(c: theme.Color) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c[:3])


def event_html(ev: Event) -> str:
    """One log line per event, in plain words (Event.text) with its rule IDs."""
    if ev.type == "turn_end":
        return ""
    text = html.escape(ev.text)
    rules = ""
    if ev.rules and ev.type not in ("turn_start", "phase"):
        ids = ", ".join(dict.fromkeys(ev.rules))
        rules = f" <font color='{_hex(theme.CORE)}'>[{html.escape(ids)}]</font>"
    if ev.type == "turn_start":
        return f"<br><b><font color='{_hex(theme.ACCENT)}'>== Turn {ev.turn} ==</font></b><br>"
    if ev.type == "phase":
        return f"<b><font color='{_hex(theme.INFO)}'>{text}</font></b><br>"
    color = {"losses": theme.BAD, "defeated": theme.BAD, "healed": theme.GOOD, "advantage": theme.GOOD,
             "fled": theme.ACCENT, "intent": theme.TEXT_DIM}.get(ev.type, theme.TEXT)
    body = f"<font color='{_hex(color)}'>{text}</font>"
    if ev.type == "defeated":
        body = f"<b>{body}</b>"
    mark = house_mark(ev)  # the house rules that decided it, as the resolver read them from the rules data
    if mark:
        rules += f" <font color='{_hex(theme.HOUSE)}'>{html.escape(mark)}</font>"
    return f"{body}{rules}<br>"
