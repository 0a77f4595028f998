"""Screens in a stack (STYLE.md 9): each handles events and draws; one function applies results.

The play screen sits at the bottom; the rules panel, the end-of-combat summary and the file dialog
are pushed on top and pop themselves. A screen returns an Action instead of touching the stack,
so screens stay testable and never reach into each other.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UITextBox, UIWindow
from pygame_gui.windows import UIFileDialog

from battlemat.core.encounter import Encounter, Outcome
from battlemat.core.state import MatchState
from battlemat.ui import theme


class Screen(Protocol):
    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None: ...

    def update(self, dt: float) -> Action | None: ...

    def on_draw(self, surface: pygame.Surface) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Push:
    screen: Screen


@dataclass(frozen=True)
class Pop:
    pass


@dataclass(frozen=True)
class Quit:
    code: int = 0


Action = Push | Pop | Quit


def apply(stack: list[Screen], action: Action | None) -> int | None:
    """Apply a screen's result to the stack; returns an exit code when the app should stop."""
    if action is None:
        return None
    if isinstance(action, Push):
        stack.append(action.screen)
    elif isinstance(action, Pop):
        if len(stack) > 1:
            stack.pop().close()
    elif isinstance(action, Quit):
        return action.code
    return None


def _hex(c: theme.Color) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c[:3])


def rules_html(enc: Encounter) -> str:
    """The rules table for the F1 panel: ID, core/house tag, title, text and current values."""
    rules = enc.rules
    out = []
    for rid, e in rules.entries.items():
        color = _hex(theme.RULE_COLOR.get(e.tag, theme.TEXT))
        out.append(f"<b>{html.escape(rid)}</b> <font color='{color}'>[{html.escape(e.tag)}]</font> "
                   f"<b>{html.escape(e.title)}</b><br>{html.escape(e.text)}<br>")
        values = rules.value_of(rid)
        if values and len(values) <= 12:
            vals = "; ".join(f"{html.escape(str(k))}: {html.escape(str(v))}" for k, v in values)
            out.append(f"<font color='{_hex(theme.TEXT_DIM)}'>now: {vals}</font><br>")
        out.append("<br>")
    out.append(f"<b><font color='{_hex(theme.HOUSE)}'>House switches</font></b> (an encounter's [rules] table "
               "overrides them)<br>")
    for sw in rules.switches.values():
        changed = "" if sw.value == sw.default else f" (default {html.escape(repr(sw.default))})"
        out.append(f"{html.escape(sw.key)} = <b>{html.escape(repr(sw.value))}</b> [{html.escape(sw.rule)}]{changed}"
                   f"<br><font color='{_hex(theme.TEXT_DIM)}'>{html.escape(sw.doc)}</font><br>")
    return "".join(out)


class WindowScreen:
    """A pygame_gui window over the board: closing it, or Esc (and `close_keys`), pops the screen."""

    window: UIWindow
    close_keys: tuple[int, ...] = (pygame.K_ESCAPE,)

    def closing(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key in self.close_keys:
            return True
        return event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.window

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        return Pop() if self.closing(event) else None

    def update(self, dt: float) -> Action | None:
        return None if self.window.alive() else Pop()

    def on_draw(self, surface: pygame.Surface) -> None:
        pass

    def close(self) -> None:
        if self.window.alive():
            self.window.kill()


class RulesScreen(WindowScreen):
    """F1: the rules table over the board; F1 or Esc closes it."""

    close_keys = (pygame.K_F1, pygame.K_ESCAPE)

    def __init__(self, manager: pygame_gui.UIManager, enc: Encounter, area: pygame.Rect) -> None:
        rect = area.inflate(-min(160, area.width // 6), -min(80, area.height // 8))
        self.window = UIWindow(rect, manager, window_display_title="Rules (F1 to close) - core rules in teal, "
                               "house rules in violet", resizable=True)
        inner = self.window.get_container().get_rect()
        self.text = UITextBox(rules_html(enc), pygame.Rect(0, 0, inner.width, inner.height), manager,
                              container=self.window, anchors={"left": "left", "right": "right", "top": "top",
                                                              "bottom": "bottom"})


@dataclass(frozen=True)
class AfterCombat:
    """What the end-of-combat buttons do: play the encounter again, save the game as a replay."""

    play_again: Callable[[], None]
    save_replay: Callable[[], object]


class VictoryScreen(WindowScreen):
    """The end of the combat: who holds the field and what happened to everyone."""

    def __init__(self, manager: pygame_gui.UIManager, enc: Encounter, state: MatchState, result: Outcome,
                 area: pygame.Rect, after: AfterCombat) -> None:
        w, h = min(640, area.width - 40), min(520, area.height - 40)
        rect = pygame.Rect(0, 0, w, h)
        rect.center = area.center
        title = f"{result.winner} win" if result.winner else "Nobody wins"
        self.window = UIWindow(rect, manager, window_display_title=f"Combat over - {title}")
        lines = [f"<b><font color='{_hex(theme.ACCENT)}'>{html.escape(result.reason)}</font></b><br>",
                 f"after {state.turn - 1} turn{'s' if state.turn - 1 != 1 else ''}<br><br>"]
        for side in enc.sides:
            lines.append(f"<b>{html.escape(side)}</b><br>")
            for c in enc.characters:
                if c.side != side:
                    continue
                s = state[c.id]
                status = "defeated" if s.defeated else "fled" if s.fled else "standing"
                color = theme.BAD if s.defeated else theme.ACCENT if s.fled else theme.GOOD
                lines.append(f"&nbsp;&nbsp;{html.escape(c.name)}: <font color='{_hex(color)}'>{status}</font>, "
                             f"{s.minor} minor, {s.major} major<br>")
        inner = self.window.get_container().get_rect()
        self.text = UITextBox("".join(lines), pygame.Rect(0, 0, inner.width, inner.height - 50), manager,
                              container=self.window)
        bw = (inner.width - 30) // 3
        y = inner.height - 44
        self.new = UIButton(pygame.Rect(10, y, bw, 34), "Play again", manager, container=self.window)
        self.save = UIButton(pygame.Rect(15 + bw, y, bw, 34), "Save replay", manager, container=self.window)
        self.view = UIButton(pygame.Rect(20 + 2 * bw, y, bw, 34), "Look at the board", manager, container=self.window)
        self.after = after

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.new:
                self.after.play_again()
                return Pop()
            if event.ui_element is self.save:
                self.after.save_replay()
                return None
            if event.ui_element is self.view:
                return Pop()
        return Pop() if self.closing(event) else None


class FileScreen(WindowScreen):
    """pygame_gui's file dialog; calls back with the picked path, then pops."""

    def __init__(self, manager: pygame_gui.UIManager, area: pygame.Rect, title: str, start: str,
                 on_pick: Callable[[str], None], existing_only: bool = True) -> None:
        w, h = min(700, area.width - 40), min(520, area.height - 40)
        rect = pygame.Rect(0, 0, w, h)
        rect.center = area.center
        self.dialog = self.window = UIFileDialog(rect, manager, window_title=title, initial_file_path=start,
                                                 allow_existing_files_only=existing_only, always_on_top=True)
        self.on_pick = on_pick
        self._closed = False  # the dialog closed itself last frame

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is self.dialog:
            self.on_pick(event.text)
            return Pop()
        return Pop() if self.closing(event) else None

    def update(self, dt: float) -> Action | None:
        """The dialog closes itself as OK is pressed and posts the picked path as an event that arrives
        next frame: this screen waits that one frame for it before it goes."""
        if self.window.alive():
            return None
        if self._closed:
            return Pop()
        self._closed = True
        return None
