"""The pygame_gui widgets around the board: top bar, skill buttons, intents list, log.

`Layout` of the window is computed from its size alone (`frame_rects`), so panels never overlap or
clip from 1000x640 to 3840x2160 (tests/test_ui_table.py) and a resize just rebuilds the widgets.
Panels hold no game state: the play screen tells them what to show.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace

import pygame
import pygame_gui
from pygame_gui.core import ObjectID, UIContainer, UIElement
from pygame_gui.core.text.line_break_layout_rect import LineBreakLayoutRect
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UISelectionList, UITextBox

from battlemat.core.events import Event
from battlemat.core.rules import Rules
from battlemat.log import house_mark
from battlemat.ui import theme
from battlemat.ui.logbook import Entry, LogBook, event_entries, note_entry, raw_entry

TOP_H = 44  # one row of the top bar: the title and the buttons beside it
TOP_ROW2 = 36  # the buttons' own row, when the title and the buttons do not fit on one
STATUS_H = 26
TITLE_MIN = 300  # the title's room beside the buttons before they move to a row of their own
BUTTON_PAD = 20  # a top button's width beyond its label's
DOCK_MIN, DOCK_MAX = 250, 340  # the dock column beside the board (the legend, the predicted turn)
STRIP_H = 68  # the timeline's strip under the board (timeline.HEIGHT and its margins)


@dataclass(frozen=True)
class Frame:
    """Screen rectangles of the window's parts. `stage` is the area left of the side panel between
    the top bar and the status line; the board view takes what the docked parts leave of it: the
    dock column on its left (the legend, the predicted turn: `dock`, empty when nothing is docked)
    and the timeline's strip under it (`strip`). Nothing is drawn over the board but what belongs
    to a square or a token (a hover card, a warning)."""

    top: pygame.Rect
    board: pygame.Rect
    status: pygame.Rect
    side: pygame.Rect
    scale: float
    stage: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    dock: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    strip: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))

    def docked(self, dock: bool, strip: bool) -> Frame:
        """This frame with the dock column and the timeline's strip taken from the stage (or not)."""
        st = self.stage
        dw = max(DOCK_MIN, min(DOCK_MAX, round(st.width * 0.26))) if dock else 0
        sh = STRIP_H if strip else 0
        board = pygame.Rect(st.x + dw, st.y, st.width - dw, st.height - sh)
        return replace(self, board=board, dock=pygame.Rect(st.x, st.y, dw, st.height),
                       strip=pygame.Rect(board.x, board.bottom, board.width, sh))


def button_widths(scale: float) -> list[int]:
    """Each top button's width: its label's, in the widgets' font (theme.gui_theme), and a margin."""
    size = max(12, round(14 * scale))
    if not pygame.font.get_init():  # (a layout asked before any window: the fonts measure all the same)
        pygame.font.init()
    return [theme.font(size).size(label)[0] + BUTTON_PAD for _, label, _ in TOP_BUTTONS]


def top_height(w: int, scale: float) -> int:
    """One row when the title keeps TITLE_MIN pixels beside the buttons, else a row for each."""
    need = sum(button_widths(scale)) + 4 * len(TOP_BUTTONS) + 8
    return TOP_H if need + TITLE_MIN <= w else TOP_H + TOP_ROW2


def frame_rects(w: int, h: int, scale: float | None = None) -> Frame:
    """The side panel takes 30% of the width, so a wider window gives the log longer lines. `scale`:
    the widgets' font scale (the window's theme is made once, for the size it opened at)."""
    scale = scale if scale is not None else 1.0 if w < 1600 else 1.15
    side_w = max(340, round(w * 0.3))
    top_h = top_height(w, scale)
    top = pygame.Rect(0, 0, w, top_h)
    side = pygame.Rect(w - side_w, top_h, side_w, h - top_h)
    board = pygame.Rect(0, top_h, w - side_w, h - top_h - STATUS_H)
    status = pygame.Rect(0, h - STATUS_H, w - side_w, STATUS_H)
    return Frame(top, board, status, side, scale, stage=board.copy())


HELP_HTML = (
    "<b>Declare</b>: Tab or click one of your tokens, then a skill (its key or its button: "
    "squares of movement, phase, rating). Click a foe to target it, a shaded square to move there; "
    "the route is the one the resolver will take.<br>"
    "<b>Explain</b>: hover a square to see why it is refused (rule ID), a foe to see the predicted "
    "contest, any token for its sheet; a rule ID in the log, the legend or a card (move onto the card) "
    "for its text, core or house; click it to open it. F1 searches the rules and the glossary of words.<br>"
    "<b>Resolve</b>: Enter plays P1-P4. T turns on step mode (Space: next event), Esc skips. "
    "P predicts the turn as ghosts on the map (the AI guesses unknown intents); P or Esc clears it. "
    "O shows every NPC's intent, the squares it threatens and its phases (teaching overlay).<br>"
    "<b>Adjust</b>: [ and ] give the intent a GM situational -1/+1 (S6), H shouts what it learns (O6), "
    "I cycles an item's kind (M1), Shift+click adds a Melee secondary target (C7).<br>"
    "<b>Set up</b>: F2 before turn 1 places, drags, copies and removes characters and saves the encounter; "
    "in GM mode E changes the selected character's ratings or losses (logged as the GM's).<br>"
    "<b>Keys</b>: Ctrl+Z undo, Del clear, M GM mode (NPC intents), G grid, F fit, L legend, "
    "V the terrain battlemat understood, B big log, "
    "K the NPCs' play: scripted tactics or the search AI, "
    "wheel or +/- zoom, drag or WASD/arrows pan, F12 screenshot, Ctrl+S save, Ctrl+Shift+S save as, "
    "Ctrl+O open, Ctrl+R replay, Ctrl+P the players' window (F11 in it: full screen).<br>"
    "<b>Skill keys</b> are the same for everyone, in the rules' order: 1..0, then Shift+1..0 (S+), "
    "then Ctrl+1..0 (C+); each button shows its key.<br>"
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
    ("teach", "Teach O", "Teaching overlay: every NPC's intent, the squares it threatens, its phases P1-P4 (O)"),
    ("fit", "Fit", "Fit the map to the window (F)"),
    ("legend", "Legend", "What the colours and marks on the map mean (L)"),
    ("rules", "Rules F1", "The rules table with core/house tags (F1)"),
    ("shot", "Shot F12", "Save a screenshot (F12)"),
    ("players", "Players", "The players' window: the board as the table's side knows it, fog of war included; "
     "F11 in it for full screen (Ctrl+P)"),
)


class TopBar:
    """The title and the buttons: each button as wide as its label; when the title would be left
    less than TITLE_MIN pixels, the buttons take a row of their own under it (`top_height`). A title
    wider than its room ends in an ellipsis; the whole title is `full_title` (the status line says
    it when the pointer is on the title)."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect, scale: float = 1.0) -> None:
        # An invisible container: the play screen paints the opaque background itself, which
        # costs a fill instead of an alpha blit of a window-wide panel every frame.
        self.panel = UIContainer(rect, manager)
        self.buttons: dict[str, UIButton] = {}
        self.epoch = 0  # bumped on every change we make, so the app knows when to redraw the panels
        self.scale = scale
        self.full_title = ""
        widths = button_widths(scale)
        two_rows = rect.height > TOP_H
        row_w = sum(widths) + 4 * len(widths)
        x = 8 if two_rows else rect.width - row_w - 6
        y, bh = (TOP_H - 4, TOP_ROW2 - 8) if two_rows else (6, TOP_H - 16)
        title_w = rect.width - 16 if two_rows else x - 16
        self.title = UILabel(pygame.Rect(8, 4, title_w, TOP_H - 12), "", manager,
                             container=self.panel, object_id=ObjectID("#toptitle"))
        for (key, label, tip), bw in zip(TOP_BUTTONS, widths, strict=True):
            self.buttons[key] = UIButton(pygame.Rect(x, y, bw, bh), label, manager,
                                         container=self.panel, tool_tip_text=tip)
            x += bw + 4

    def title_room(self) -> int:
        """Pixels the title's words may take (the label's width less its padding, #toptitle)."""
        return self.title.rect.width - 2 * 8 - 4

    def set_title(self, words: str) -> None:
        if words == self.full_title:
            return
        self.full_title = words
        shown = theme.ellipsized(words, theme.font(round(18 * self.scale), True), self.title_room())
        if self.title.text != shown:
            self.title.set_text(shown)
        self.epoch += 1

    def set_toggle(self, key: str, on: bool) -> None:
        b = self.buttons[key]
        if on != b.is_selected:
            b.select() if on else b.unselect()
            self.epoch += 1


class Sidebar:
    """Selected character, its skill buttons, the declared intents, the controls and the log.

    The log can take the whole panel below the character's name (`big`, key B), show one
    character's lines (the filter above it) and put the newest turn on top. It is kept as entries
    (battlemat.ui.logbook), so it is drawn again in any of those ways, and after a resize."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect, book: LogBook | None = None,
                 view: LogView | None = None, scale: float = 1.0) -> None:
        self.manager = manager
        self.scale = scale
        self.rect = rect
        self.panel = UIContainer(rect, manager)
        self.view = view or LogView()
        self.book = book if book is not None else LogBook()
        w = rect.width - 16
        self.who = UILabel(pygame.Rect(8, 4, w, 30), "No one selected", manager, container=self.panel,
                           object_id=ObjectID("#title"))
        self.hint = UILabel(pygame.Rect(8, 32, w, 20), "Tab or click a token to select", manager,
                            container=self.panel, object_id=ObjectID("#dim"))
        short = rect.height < 720  # a short window: tighter skill rows and intents list, so the log keeps lines
        self.skill_top = 56
        self.skill_h = 24 if short else 28
        self.skill_gap = 2 if short else 4
        self.skill_cols = 2
        self.skill_rows = 9
        self.skill_buttons: list[tuple[str, UIButton]] = []
        y = self.skill_top + self.skill_rows * (self.skill_h + self.skill_gap) + 4
        self.help = UITextBox(HELP_HTML, pygame.Rect(8, self.skill_top, w, y - self.skill_top - 6), manager,
                              container=self.panel)
        self.intents_heading = UILabel(pygame.Rect(8, y, w, 26), "Declared intents", manager, container=self.panel,
                                       object_id=ObjectID("#heading"))
        y += 28
        list_h = max(66 if short else 96, min(190, (rect.height - y) // 3))
        self.intents = UISelectionList(pygame.Rect(8, y, w, list_h), [], manager, container=self.panel)
        y += list_h + 6
        bw = (w - 8) // 3
        self.clear = UIButton(pygame.Rect(8, y, bw, 30), "Clear (Del)", manager, container=self.panel,
                              tool_tip_text="Remove the selected character's intent")
        self.undo = UIButton(pygame.Rect(12 + bw, y, bw, 30), "Undo (Ctrl+Z)", manager, container=self.panel,
                             tool_tip_text="Take back the last declaration (Ctrl+Z)")
        self.resolve = UIButton(pygame.Rect(16 + 2 * bw, y, w - 2 * bw - 8, 30), "Resolve (Enter)", manager,
                                container=self.panel, tool_tip_text="Play the turn: P1 to P4 (rule P)")
        self.log_top = y + 38  # the log's heading row when the log is not big
        self.declaring = [self.help, self.intents_heading, self.intents, self.clear, self.undo, self.resolve]
        self.log_heading = UILabel(pygame.Rect(8, self.log_top, 40, 26), "Log", manager, container=self.panel,
                                   object_id=ObjectID("#heading"))
        self.newest = UIButton(pygame.Rect(0, 0, 1, 1), "Newest first", manager, container=self.panel,
                               tool_tip_text="Show the newest turn at the top of the log")
        self.big = UIButton(pygame.Rect(0, 0, 1, 1), "Big (B)", manager, container=self.panel,
                            tool_tip_text="Let the log fill the panel (B); skills stay on their keys")
        self.log = UITextBox("", pygame.Rect(8, self.log_top + 28, w, 10), manager, container=self.panel,
                             object_id=ObjectID("#log"))
        self.cast: tuple[tuple[str, str], ...] = ()  # (id, "GS1 Goblin spear 1") for the filter
        self.filter: UIDropDownMenu | None = None
        self._intent_keys: list[str] = []
        self.epoch = 0  # bumped on every change we make, so the app knows when to redraw the panels
        self.rows: list[tuple[str, str]] = []
        self._skill_key: tuple[object, ...] = ()
        self._skills_shown = False
        self._partial = False  # only the newest turn is shown (while it plays, newest first)
        self._place()
        self._render_log()

    # -- layout --------------------------------------------------------------------------------
    def _log_rows(self) -> tuple[int, int]:
        """(top of the log's heading row, top of the log) as the log is big or not."""
        top = self.skill_top if self.view.big else self.log_top
        return top, top + 30

    def _place(self) -> None:
        """Put the log's widgets where its size says, and hide what a big log covers."""
        w = self.rect.width - 16
        top, box = self._log_rows()
        for widget in self.declaring:
            widget.hide() if self.view.big else widget.show()
        if self.view.big or self._skills_shown:
            self.help.hide()
        for _, btn in self.skill_buttons:
            btn.hide() if self.view.big else btn.show()
        nw, bw = 104, 70
        self.log_heading.set_relative_position((8, top))
        self.newest.set_relative_position((8 + w - nw - bw - 4, top))
        self.newest.set_dimensions((nw, 26))
        self.big.set_relative_position((8 + w - bw, top))
        self.big.set_dimensions((bw, 26))
        for btn, on in ((self.newest, self.view.newest_first), (self.big, self.view.big)):
            btn.select() if on else btn.unselect()
        self.log.set_relative_position((8, box))
        self.log.set_dimensions((w, self.rect.height - box - 8))
        self._make_filter()
        self.epoch += 1

    def _make_filter(self) -> None:
        """The drop-down that picks whose lines the log shows (it opens upward at the bottom)."""
        if self.filter is not None:
            self.filter.kill()
        w = self.rect.width - 16
        top, _ = self._log_rows()
        left, right = 8 + 44, 8 + w - 104 - 70 - 8
        options = [(EVERYONE, "")] + [(words, cid) for cid, words in self.cast]
        chosen = next((o for o in options if o[1] == (self.view.who or "")), options[0])
        direction = "#logfilter_down" if self.view.big else "#logfilter_up"
        self.filter = UIDropDownMenu(list[str | tuple[str, str]](options), chosen,
                                     pygame.Rect(left, top, max(60, right - left), 26), self.manager,
                                     container=self.panel, object_id=ObjectID(direction, "@logfilter"),
                                     expansion_height_limit=max(120, self.rect.height // 2))

    def set_cast(self, cast: list[tuple[str, str]]) -> None:
        """The characters the filter offers: (id, words). The filter is rebuilt only when they change."""
        if tuple(cast) != self.cast:
            self.cast = tuple(cast)
            if self.view.who is not None and self.view.who not in dict(self.cast):
                self.view.who = None
                self._render_log()
            self._make_filter()
            self.epoch += 1

    # -- log view ------------------------------------------------------------------------------
    def toggle_big(self) -> None:
        self.view.big = not self.view.big
        self._place()
        self._render_log()

    def toggle_newest(self) -> None:
        self.view.newest_first = not self.view.newest_first
        self._place()
        self._render_log()

    def show_only(self, who: str | None) -> None:
        """Show one character's lines (None: everyone's)."""
        if who != self.view.who:
            self.view.who = who or None
            self._render_log()
            self.epoch += 1

    def filter_picked(self, element: object, option_id: str | None) -> bool:
        """A choice in the log's filter; True if it was ours."""
        if element is not self.filter:
            return False
        self.show_only(option_id or None)
        return True

    def button(self, element: object) -> str | None:
        """The command of one of the log's buttons, if `element` is one."""
        return {id(self.newest): "log_newest", id(self.big): "big_log"}.get(id(element))

    # -- skills --------------------------------------------------------------------------------
    def set_skills(self, key: tuple[object, ...], entries: list[tuple[str, str, str, bool]]) -> None:
        """entries: (half, label, tooltip, chosen). Rebuilt only when `key` changes; without
        entries the help text takes their place."""
        self.epoch += 1
        self._skills_shown = bool(entries)
        if entries or self.view.big:
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
            rect = pygame.Rect(8 + c * (bw + 4), self.skill_top + r * (self.skill_h + self.skill_gap), bw, self.skill_h)
            btn = UIButton(rect, self.fitted_label(label, bw), self.manager, container=self.panel, tool_tip_text=tip,
                           object_id=ObjectID("#skill", "@skill"))
            if chosen:
                btn.select()
            if self.view.big:
                btn.hide()
            self.skill_buttons.append((half, btn))

    def fitted_label(self, label: str, width: int) -> str:
        """A skill button's label as it fits its button (the @skill font and padding, theme.py): whole,
        then without 'sq', then cut with an ellipsis (the tooltip and the status line say it all)."""
        face = theme.font(max(12, round(13 * self.scale)))
        room = width - 2 * 6 - 4
        if face.size(label)[0] <= room:
            return label
        return theme.ellipsized(label.replace(" sq \u00b7", " \u00b7"), face, room)

    def set_hint(self, words: str) -> None:
        """The line under the selected character's name, cut to the panel's width."""
        self.hint.set_text(theme.ellipsized(words, theme.font(max(12, round(14 * self.scale))),
                                            self.hint.rect.width - 8))

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
    def log_events(self, events: list[Event], ids: Collection[str] = (), rules: Rules | None = None,
                   words: Callable[[Event], str] | None = None) -> None:
        """Log events: their words (`words`, default the event's own), rule IDs as links to the rules
        data (`rules`) and the characters they are about (among `ids`), for the filter."""
        rules = rules or self.view.rules
        ids = ids or self.view.ids
        words = words or self.view.words
        if rules is None:
            self.add([raw_entry(event_html(ev)) for ev in events if event_html(ev)])
            return
        self.add(event_entries(events, ids, rules, words, self.view.names))

    def log_text(self, words: str, color: theme.Color = theme.TEXT_DIM) -> None:
        self.add([note_entry(words, color)])

    def append(self, chunk: str) -> None:
        """Raw HTML from elsewhere, shown to everyone."""
        self.add([raw_entry(chunk)])

    def add(self, entries: list[Entry | None]) -> None:
        new = self.book.add(entries)
        if not new:
            return
        self.epoch += 1
        if self.view.who is None and not self.view.newest_first:
            self.log.append_html_text("".join(e.html for e in new))  # the common case: no redraw of it all
            self._to_end()
        elif self.view.newest_first:
            # Laying out the whole log costs about a millisecond an entry: while a turn plays, only
            # its own lines are shown on top, and `settle` brings the rest back when it is over.
            self._render_log(newest_only=True)
        else:
            self._render_log()

    def settle(self) -> None:
        """Show the whole log again if only the newest turn was shown (see `add`)."""
        if self._partial:
            self._render_log()

    def restore(self, chunks: LogBook | list[str]) -> None:
        self.book = chunks if isinstance(chunks, LogBook) else LogBook(raw_entry(c) for c in chunks)
        self._render_log()

    def clear_log(self) -> None:
        self.book = LogBook()
        self._render_log()

    def _render_log(self, newest_only: bool = False) -> None:
        self.epoch += 1
        self._partial = newest_only
        self.log.set_text(self.book.render(self.view.who, self.view.newest_first, dict(self.cast), newest_only))
        self._to_end()

    @property
    def log_html(self) -> list[str]:
        return [e.html for e in self.book.entries]

    @property
    def log_plain(self) -> str:
        """The log's words, without markup (all of it, whatever the filter shows)."""
        return self.book.plain()

    def _to_end(self) -> None:
        """Keep the newest line in view: at the bottom, or the top when the newest turn is first."""
        bar = self.log.scroll_bar
        if bar is not None:
            bar.set_scroll_from_start_percentage(0.0 if self.view.newest_first else 1.0)

    # -- what the pointer is on ----------------------------------------------------------------
    def hovered_link(self) -> str | None:
        """The href of the log link under the pointer ('rule:M4', 'switch:diagonals'), if any."""
        if not self.log.visible:
            return None
        return next((c.href for c in self.log.link_hover_chunks if c.is_hovered), None)

    def log_line_at(self, pos: tuple[int, int]) -> str | None:
        """The words of the log line (the whole entry, wrapped rows joined) under a screen point."""
        box = self.log
        if not box.visible or not box.rect.collidepoint(pos) or box.text_box_layout is None:
            return None
        if box.scroll_bar is not None and box.scroll_bar.rect.collidepoint(pos):
            return None
        x0, y0 = box.get_text_layout_top_left()
        shift = box.scroll_bar.start_percentage * box.text_box_layout.layout_rect.height if box.scroll_bar else 0
        y = pos[1] - y0 + shift
        rows = box.text_box_layout.layout_rows
        at = next((i for i, row in enumerate(rows) if row.top <= y < row.bottom), None)
        if at is None:
            return None

        def ends(i: int) -> bool:
            return any(isinstance(item, LineBreakLayoutRect) for item in rows[i].items)

        first = at
        while first > 0 and not ends(first - 1):
            first -= 1
        last = at
        while last < len(rows) - 1 and not ends(last):
            last += 1
        words = "".join(getattr(item, "text", "") for i in range(first, last + 1) for item in rows[i].items
                        if not isinstance(item, LineBreakLayoutRect))
        return " ".join(words.split()) or None

    def hovered_words(self, pos: tuple[int, int]) -> str | None:
        """What the button or intents row of this panel under a screen point does or says (a chosen
        skill's button is not 'hovered' for pygame_gui, so the point decides)."""
        def on(el: UIElement) -> bool:
            return bool(getattr(el, "visible", False)) and el.get_abs_rect().collidepoint(pos)

        for _, btn in self.skill_buttons:
            if on(btn):
                return f"{btn.text.strip()} - {btn.tool_tip_text}" if btn.tool_tip_text else btn.text
        for btn in (self.clear, self.undo, self.resolve, self.newest, self.big):
            if on(btn):
                return f"{btn.text}: {btn.tool_tip_text}" if btn.tool_tip_text else btn.text
        if self.filter is not None and on(self.filter):
            return "Log: show the lines of one character, or of everyone"
        if self.intents.visible:
            for item in self.intents.item_list:
                el = item.get("button_element")
                if el is not None and on(el):
                    return f"{item['text']} - click to select"
        return None


EVERYONE = "Everyone"


@dataclass
class LogView:
    """How the log is shown (kept across a resize): whose lines, newest turn first, big; and what its
    entries are made with (the characters' ids, the rules data, the words of an event)."""

    who: str | None = None
    newest_first: bool = False
    big: bool = False
    ids: frozenset[str] = field(default=frozenset(), repr=False)
    names: Mapping[str, str] = field(default_factory=dict, repr=False)  # id -> name, for grouped lines
    rules: Rules | None = field(default=None, repr=False)
    words: Callable[[Event], str] = field(default=lambda ev: ev.text, repr=False)


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
