"""The short character form of the set-up (ui/setup.py) and of the game master's change (ui/gm_edit.py).

Real pygame-gui widgets over the side panel, never over the board: a name, a side (typed, or one of
the existing sides by its button), a rating for each skill pair in the rules' order (S1; 0..8, S2;
an empty field is 0) and, for the game master's change during a fight, the losses (L1). The form
only collects text: what is valid is decided by its owner (ui/setup_draft.py, io/gm_changes.py),
whose message the form shows in its own line.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIButton, UILabel, UITextBox, UITextEntryLine, UIWindow

from battlemat.ui import theme

ROW = 28  # pixels of a row of the form
LABEL_W = 118  # a pair's name ("Perception/Etiq...")


@dataclass(frozen=True)
class FormAsk:
    """What the form asks: its title, the pairs and their ratings now, the sides to pick from, the
    name and side typed already; `losses` (minor, major) for a change during a fight (no name or side then)."""

    title: str
    pairs: Sequence[str]
    ratings: Mapping[str, int] = field(default_factory=dict)
    sides: Sequence[str] = ()
    name: str = ""
    side: str = ""
    losses: tuple[int, int] | None = None


def _short(pair: str) -> str:
    return pair if len(pair) <= 15 else pair[:14] + "."


class CharacterForm:
    """The form's widgets in one window (`window`) placed in `area` (the side panel)."""

    def __init__(self, manager: pygame_gui.UIManager, area: pygame.Rect, ask: FormAsk) -> None:
        self.ask = ask
        rect = pygame.Rect(area.x, area.y, area.width, area.height)
        self.window = UIWindow(rect, manager, window_display_title=ask.title, always_on_top=True,
                               object_id=ObjectID("#setup_form"))
        inner = self.window.get_container().get_rect()
        w = inner.width
        y = 6
        self.name: UITextEntryLine | None = None
        self.side: UITextEntryLine | None = None
        self.side_buttons: dict[object, str] = {}
        if ask.losses is None:
            self.name = self._entry(manager, "Name", ask.name, pygame.Rect(0, y, w, ROW), "e.g. Bandit")
            y += ROW + 4
            self.side = self._entry(manager, "Side", ask.side, pygame.Rect(0, y, w, ROW), "existing or new")
            y += ROW + 4
            x = 8
            for s in ask.sides:
                bw = min(w - 16, 18 + 8 * len(s))
                if x + bw > w - 8:
                    x, y = 8, y + ROW
                btn = UIButton(pygame.Rect(x, y, bw, ROW - 4), s, manager, container=self.window,
                               tool_tip_text=f"Side {s}")
                self.side_buttons[btn] = s
                x += bw + 4
            if ask.sides:
                y += ROW
        UILabel(pygame.Rect(8, y, w - 16, ROW - 6), "Ratings by pair: 0..8 (S2), empty = 0", manager,
                container=self.window, object_id=ObjectID("#dim"))
        y += ROW - 4
        self.ratings: dict[str, UITextEntryLine] = {}
        col_w = (w - 12) // 2
        rows = (len(ask.pairs) + 1) // 2
        for i, pair in enumerate(ask.pairs):
            col, row = divmod(i, rows)
            x0, y0 = 6 + col * col_w, y + row * ROW
            UILabel(pygame.Rect(x0, y0, LABEL_W, ROW - 2), _short(pair), manager, container=self.window)
            value = ask.ratings.get(pair, 0)
            self.ratings[pair] = UITextEntryLine(pygame.Rect(x0 + LABEL_W, y0, col_w - LABEL_W - 6, ROW - 2), manager,
                                                 container=self.window, initial_text=str(value) if value else "")
        y += rows * ROW + 4
        self.minor = self.major = None
        if ask.losses is not None:
            half = w // 2 + 30
            self.minor = self._entry(manager, "Minor (L1)", str(ask.losses[0]), pygame.Rect(0, y, half, ROW), "0..2",
                                     label_w=90)
            self.major = self._entry(manager, "Major", str(ask.losses[1]), pygame.Rect(half - 8, y, w - half + 8, ROW),
                                     "", label_w=60)
            y += ROW + 4
        self.message = UITextBox("", pygame.Rect(6, y, w - 12, max(44, inner.height - y - ROW - 16)), manager,
                                 container=self.window)
        self.ok = UIButton(pygame.Rect(w - 196, inner.height - ROW - 8, 90, ROW), "OK", manager, container=self.window)
        self.cancel = UIButton(pygame.Rect(w - 100, inner.height - ROW - 8, 90, ROW), "Cancel", manager,
                               container=self.window)
        (self.name or self.ratings[ask.pairs[0]]).focus()

    def _entry(self, manager: pygame_gui.UIManager, label: str, text: str, place: pygame.Rect, hint: str,
               label_w: int = 50) -> UITextEntryLine:
        """A labelled field in `place` (x, y and the right end of the row, in the window)."""
        x, y, right = place.x, place.y, place.right
        UILabel(pygame.Rect(x + 8, y, label_w, ROW), label, manager, container=self.window)
        return UITextEntryLine(pygame.Rect(x + 8 + label_w, y, right - x - label_w - 16, ROW), manager,
                               container=self.window, initial_text=text, placeholder_text=hint)

    def say(self, words: str, color: theme.Color = theme.BAD) -> None:
        """The form's own message line (a refusal and its fix)."""
        hexc = f"#{color[0]:02x}{color[1]:02x}{color[2]:02x}"
        self.message.set_text(f"<font color='{hexc}'>{html.escape(words, quote=False)}</font>")

    @property
    def said(self) -> str:
        return self.message.html_text

    def answer(self, event: pygame.event.Event) -> str | None:
        """'ok' or 'cancel' for those buttons (Enter in a field is OK); a side's button fills the side."""
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element in (
                self.name, self.side, self.minor, self.major, *self.ratings.values()):
            return "ok"
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return None
        if event.ui_element is self.ok:
            return "ok"
        if event.ui_element is self.cancel:
            return "cancel"
        side = self.side_buttons.get(event.ui_element)
        if side is not None and self.side is not None:
            self.side.set_text(side)
        return None

    def typed(self) -> dict[str, str]:
        """Every field's text by name: 'name', 'side', 'minor', 'major' and each pair."""
        out = {pair: e.get_text() for pair, e in self.ratings.items()}
        for key, entry in (("name", self.name), ("side", self.side), ("minor", self.minor), ("major", self.major)):
            if entry is not None:
                out[key] = entry.get_text()
        return out

    def alive(self) -> bool:
        return self.window.alive()

    def kill(self) -> None:
        if self.window.alive():
            self.window.kill()
