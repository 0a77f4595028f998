"""Screens in a stack (STYLE.md 9): each handles events and draws; one function applies results.

The play screen sits at the bottom; the rules panel, the end-of-combat summary, the file dialog,
"save as" and the confirmation before resolving are pushed on top and pop themselves. A screen
returns an Action instead of touching the stack, so screens stay testable and never reach into
each other.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIButton, UILabel, UISelectionList, UITextBox, UITextEntryLine, UIWindow
from pygame_gui.windows import UIConfirmationDialog, UIFileDialog

from battlemat.core.encounter import Encounter, Outcome
from battlemat.core.rules import Rules
from battlemat.core.state import MatchState
from battlemat.teach.glossary import glossary, glossary_entry
from battlemat.teach.rules_search import Hit, entry_text, search, suggestions
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


@dataclass(frozen=True)
class Swap:
    """The top screen gives way to another (a file dialog whose pick opens a screen of its own)."""

    screen: Screen


Action = Push | Pop | Quit | Swap


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
    elif isinstance(action, Swap):
        if len(stack) > 1:
            stack.pop().close()
        stack.append(action.screen)
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
    """A pygame_gui window over the board: closing it, or Esc (and `close_keys`), pops the screen.

    A pygame_gui dialog that closes itself as OK is pressed posts its answer as an event that
    arrives next frame, so a screen whose window died waits that one frame before it goes."""

    window: UIWindow
    close_keys: tuple[int, ...] = (pygame.K_ESCAPE,)
    _closed = False  # the window closed itself last frame

    def closing(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key in self.close_keys:
            return True
        return event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.window

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        return Pop() if self.closing(event) else None

    def update(self, dt: float) -> Action | None:
        if self.window.alive():
            return None
        if self._closed:
            return Pop()
        self._closed = True
        return None

    def on_draw(self, surface: pygame.Surface) -> None:
        pass

    def close(self) -> None:
        if self.window.alive():
            self.window.kill()


def entry_html(rules: Rules, href: str) -> str | None:
    """One entry of the rules panel: a rule (tag, title, text, house part, current values), a glossary
    word or a house switch, read from the rules data and the glossary (battlemat.teach.rules_search), with
    links to the rules behind it and, for a rule, to the glossary words that cite it."""
    shown = entry_text(href, rules)
    if shown is None:
        return None
    heading, words, related = shown
    kind, _, key = href.partition(":")
    tag = rules.entries[key].tag if kind == "rule" else "house" if kind == "switch" else "glossary"
    color = _hex(theme.RULE_COLOR.get(tag, theme.ACCENT))
    out = [f"<b><font color='{color}'>{html.escape(heading)}</font></b><br>{html.escape(words)}<br>"]
    if kind == "rule":
        values = rules.value_of(key)
        if values:
            vals = "; ".join(f"{html.escape(str(k))}: {html.escape(str(v))}" for k, v in values[:12])
            out.append(f"<font color='{_hex(theme.TEXT_DIM)}'>now: {vals}</font><br>")
        cited = [g for g in glossary() if key in g.rules]
        if cited:
            out.append("<br>Words: " + ", ".join(_link(g.href, g.term) for g in cited) + "<br>")
    elif kind == "term":
        g = glossary_entry(key)
        if g is not None and g.aliases:
            out.append(f"<font color='{_hex(theme.TEXT_DIM)}'>also: {html.escape(', '.join(g.aliases))}</font><br>")
    known = [r for r in related if r in rules.entries and not (kind == "rule" and r == key)]
    if known:
        out.append("<br>Rules: " + "; ".join(f"{_link(f'rule:{r}', r)} {html.escape(rules.entries[r].title)}"
                                             for r in known) + "<br>")
    return "".join(out)


def _link(href: str, words: str) -> str:
    return f"<a href='{html.escape(href)}'>{html.escape(words)}</a>"


def browse_items(rules: Rules) -> list[tuple[str, str]]:
    """(label, href) of everything the panel lists before a search: every rule, then every word."""
    return ([(f"{rid} {e.title}", f"rule:{rid}") for rid, e in rules.entries.items()]
            + [(f"{g.term} (word)", g.href) for g in glossary()])


def hit_label(h: Hit) -> str:
    return {"rule": h.title, "term": f"{h.title} (word)"}.get(h.kind, f"{h.key} (switch)")


class RulesScreen(WindowScreen):
    """F1: search the rules and the glossary. Typing in the field searches (battlemat.teach.rules_search:
    IDs, titles, text, words); picking a hit, or a link in an entry, shows that entry. Opened with
    `show` (a rule ID clicked in the log or on a card) it shows that entry. F1 or Esc closes it."""

    close_keys = (pygame.K_F1, pygame.K_ESCAPE)

    def __init__(self, manager: pygame_gui.UIManager, enc: Encounter, area: pygame.Rect,
                 show: str | None = None) -> None:
        rect = area.inflate(-min(160, area.width // 6), -min(80, area.height // 8))
        self.window = UIWindow(rect, manager, window_display_title="Rules and words (F1 to close) - core rules "
                               "in teal, house rules in violet", resizable=True)
        inner = self.window.get_container().get_rect()
        self.rules = enc.rules
        self.whole = rules_html(enc)
        first = entry_html(self.rules, show) if show else None  # (one layout of the text: it is the slow part)
        self.shown: str | None = show if first is not None else None  # the entry shown (None: the whole table)
        self.field = UITextEntryLine(pygame.Rect(6, 4, inner.width - 12, 32), manager, container=self.window,
                                     placeholder_text="Search: a rule ID or a word (sticky, allowance, cover)",
                                     anchors={"left": "left", "right": "right", "top": "top", "bottom": "top"})
        list_w = max(180, inner.width // 3)
        self.hits_list = UISelectionList(pygame.Rect(6, 40, list_w, inner.height - 46), [], manager,
                                         container=self.window,
                                         anchors={"left": "left", "right": "left", "top": "top", "bottom": "bottom"})
        self.text = UITextBox(first or self.whole, pygame.Rect(list_w + 12, 40, inner.width - list_w - 18,
                                                               inner.height - 46),
                              manager, container=self.window, object_id=ObjectID("#log"),
                              anchors={"left": "left", "right": "right", "top": "top", "bottom": "bottom"})
        self.items: dict[str, str] = {}  # list label -> href
        self.hits: list[Hit] = []
        self.query = ""
        self._list(browse_items(self.rules))
        self.field.focus()

    def _list(self, items: list[tuple[str, str]]) -> None:
        self.items = dict(items)
        self.hits_list.set_item_list([label for label, _ in items])

    def find(self, query: str) -> list[Hit]:
        """Search and list the hits (everything, without a query); the best hit is shown."""
        self.query = query
        self.hits = search(query, self.rules) if query.strip() else []
        self._list([(hit_label(h), h.href) for h in self.hits] if query.strip() else browse_items(self.rules))
        if self.hits:
            self.show(self.hits[0].href)
        elif query.strip():
            close = suggestions(query, self.rules)
            hint = f" Did you mean {' or '.join(close)}?" if close else ""
            self.shown = None
            self.text.set_text(f"Nothing in the rules or the glossary matches "
                               f"<b>{html.escape(query)}</b>.{html.escape(hint)}")
        else:
            self.shown = None
            self.text.set_text(self.whole)
        return self.hits

    def show(self, href: str) -> bool:
        """Show the entry `href` names ('rule:M6', 'term:sticky', 'switch:diagonals')."""
        body = entry_html(self.rules, href)
        if body is None:
            return False
        self.shown = href
        self.text.set_text(body)
        return True

    def update(self, dt: float) -> Action | None:
        """Search what the field holds, once a frame however many keys came (a search lays out text)."""
        if self.window.alive() and self.field.get_text() != self.query:
            self.find(self.field.get_text())
        return super().update(dt)

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and event.ui_element is self.hits_list:
            href = self.items.get(event.text)
            if href:
                self.show(href)
        elif event.type == pygame_gui.UI_TEXT_BOX_LINK_CLICKED and event.ui_element is self.text:
            self.show(event.link_target)
        return Pop() if self.closing(event) else None


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


@dataclass(frozen=True)
class Shortcut:
    """A folder button in the file dialog: the saves, the encounter's folder."""

    label: str
    folder: Path


class ShortcutFileDialog(UIFileDialog):
    """pygame_gui's file dialog with buttons that jump to a folder (bottom left, beside OK)."""

    def __init__(self, rect: pygame.Rect, manager: pygame_gui.UIManager, shortcuts: Sequence[Shortcut],
                 ask: FileAsk) -> None:
        super().__init__(rect, manager, window_title=ask.title, initial_file_path=ask.start,
                         allowed_suffixes=set(ask.suffixes) if ask.suffixes else None,
                         allow_existing_files_only=ask.existing_only, always_on_top=True)
        self.shortcuts: list[tuple[UIButton, Path]] = []
        x = 10
        for sc in shortcuts:
            width = min(200, 24 + 8 * len(sc.label))
            btn = UIButton(pygame.Rect(x, -40, width, 30), sc.label, manager, container=self,
                           tool_tip_text=str(sc.folder),
                           anchors={"left": "left", "right": "left", "top": "bottom", "bottom": "bottom"})
            self.shortcuts.append((btn, sc.folder))
            x += width + 6

    def process_event(self, event: pygame.event.Event) -> bool:
        handled = super().process_event(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for btn, folder in self.shortcuts:
                if event.ui_element is btn:
                    self.go_to(folder)
        return handled

    def go_to(self, folder: Path) -> None:
        """Show `folder` (as the dialog's own parent and home buttons do)."""
        self._change_directory_path(Path(folder))

    @property
    def folder(self) -> Path:
        return Path(self.current_directory_path)


@dataclass(frozen=True)
class FileAsk:
    """What a file dialog asks for: its title, the folder (or file) it starts at, folder shortcuts,
    the file name endings it lists."""

    title: str
    start: str
    shortcuts: Sequence[Shortcut] = ()
    suffixes: frozenset[str] | None = None
    existing_only: bool = True


class FileScreen(WindowScreen):
    """pygame_gui's file dialog, with folder shortcuts; calls back with the picked path, then pops (or
    gives way to the screen the pick opens, when the callback returns one to push)."""

    def __init__(self, manager: pygame_gui.UIManager, area: pygame.Rect, ask: FileAsk,
                 on_pick: Callable[[str], Action | None]) -> None:
        w, h = min(700, area.width - 40), min(520, area.height - 40)
        rect = pygame.Rect(0, 0, w, h)
        rect.center = area.center
        self.dialog = self.window = ShortcutFileDialog(
            rect, manager, ask.shortcuts, ask)
        self.on_pick = on_pick

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is self.dialog:
            opened = self.on_pick(event.text)
            return Swap(opened.screen) if isinstance(opened, Push) else Pop()
        return Pop() if self.closing(event) else None


def save_target(folder: Path, name: str) -> Path | None:
    """The file a typed name means: in `folder` unless it is a path of its own, `.json` added.
    None for an empty name."""
    name = name.strip()
    if not name or name in (".", ".."):
        return None
    p = Path(name).expanduser()
    if p.suffix.lower() != ".json":
        p = p.with_name(p.name + ".json")
    return p if p.is_absolute() else folder / p


class SaveAsScreen(WindowScreen):
    """Ctrl+Shift+S: a name for the save, typed in the field (Enter or Save writes it; a name that
    exists asks once more before it is replaced)."""

    def __init__(self, manager: pygame_gui.UIManager, area: pygame.Rect, folder: Path, suggested: str,
                 on_save: Callable[[Path], str | None]) -> None:
        w, h = min(560, area.width - 40), 190
        rect = pygame.Rect(0, 0, w, h)
        rect.center = area.center
        self.window = UIWindow(rect, manager, window_display_title="Save as", always_on_top=True)
        inner = self.window.get_container().get_rect()
        self.folder = folder
        where = str(folder)
        room = (inner.width - 20) // 8 - 24  # characters the label can show beside its words
        if len(where) > room:
            where = "..." + where[-room:]
        self.info = UILabel(pygame.Rect(10, 8, inner.width - 20, 24), f"Name of the save, in {where}:", manager,
                            container=self.window, object_id=ObjectID("#dim"))
        self.entry = UITextEntryLine(pygame.Rect(10, 36, inner.width - 20, 34), manager, container=self.window,
                                     initial_text=suggested)
        self.entry.focus()
        self.entry.select_range = [0, len(suggested)]  # typing replaces the suggestion
        self.entry.edit_position = len(suggested)
        self.ok = UIButton(pygame.Rect(inner.width - 220, inner.height - 44, 100, 34), "Save", manager,
                           container=self.window)
        self.cancel = UIButton(pygame.Rect(inner.width - 112, inner.height - 44, 100, 34), "Cancel", manager,
                               container=self.window)
        self.on_save = on_save
        self._replace: Path | None = None  # a file that exists, confirmed by a second Save

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.cancel:
            return Pop()
        if (event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.ok) or \
                (event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.entry):
            return self.submit()
        return Pop() if self.closing(event) else None

    def submit(self) -> Action | None:
        target = save_target(self.folder, self.entry.get_text())
        if target is None:
            self.info.set_text("Type a name for the save first.")
            return None
        if target.exists() and target != self._replace:
            self._replace = target
            self.info.set_text(f"{target.name} exists: Save again to replace it.")
            return None
        problem = self.on_save(target)
        if problem:
            self.info.set_text(problem)
            return None
        return Pop()


@dataclass(frozen=True)
class Question:
    """A yes-or-no before an action: the window's title, the question (pygame_gui HTML), the words
    on the button that does it."""

    title: str
    html: str
    action: str = "OK"


class ConfirmScreen(WindowScreen):
    """A question before an action (pygame_gui's confirmation dialog): OK or Enter does it, Cancel
    or Esc calls `on_cancel` instead."""

    def __init__(self, manager: pygame_gui.UIManager, area: pygame.Rect, question: Question,
                 on_confirm: Callable[[], None], on_cancel: Callable[[], None]) -> None:
        w, h = min(480, area.width - 40), min(260, area.height - 40)
        rect = pygame.Rect(0, 0, w, h)
        rect.center = area.center
        self.dialog = self.window = UIConfirmationDialog(rect, question.html, manager, window_title=question.title,
                                                         action_short_name=question.action, always_on_top=True)
        self.on_confirm = on_confirm
        self.on_cancel = on_cancel
        self.answered = False

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        confirmed = (event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED and event.ui_element is self.dialog)
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            confirmed = True
        if confirmed and not self.answered:
            self.answered = True
            self.on_confirm()
            return Pop()
        return Pop() if self.closing(event) else None

    def close(self) -> None:
        if not self.answered:
            self.answered = True
            self.on_cancel()
        super().close()
