"""The set-up screen: a bare map (`python main.py MAP.tmx`) or an encounter before turn 1 (F2), set up
by hand as on any tabletop.

Pushed over the play screen, whose board shows the draft (ui/setup_draft.py) with its own renderer:
click a free square, then New opens the short form (ui/setup_form.py) and places the character there;
drag a token to another square; Copy adds a copy beside the chosen character ("Bandit 2"), Remove takes
it away. Each refusal (a wall, a taken square, an empty name, a rating out of 0..8) is one message in
the panel and the status line. Save writes an encounter file (a file dialog with a typed path, as
Open; never over the map; io/encounter_writer.py); Play saves first when needed, then plays the saved
file as `battlemat play FILE` would. The panel lies over the side panel, never over the board.
"""

from __future__ import annotations

import html
from typing import Any, Protocol

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIButton, UILabel, UISelectionList, UITextBox, UIWindow

from battlemat.core.errors import BattlematError
from battlemat.core.types import XY, CharId
from battlemat.io.encounter import load_encounter
from battlemat.io.userfile import read_user_text
from battlemat.ui import theme
from battlemat.ui.context import MovePreview, PlayContext, Selection
from battlemat.ui.files import autosave_for
from battlemat.ui.screens import Action, FileAsk, FileScreen, Pop, Push, Shortcut
from battlemat.ui.session import Session
from battlemat.ui.setup_draft import Draft, SetupError, bare_map, is_map
from battlemat.ui.setup_form import CharacterForm, FormAsk

VIEW_BUTTONS = ("grid", "fit", "legend", "rules", "shot")  # top-bar buttons that work during the set-up
SETUP_HELP = "Set-up: click a free square, then New - drag a token to move it - Save writes the encounter"
MAX_ORIGINAL = 1 << 20  # bytes of an encounter file read back to keep its comments (io.limits has 256 KB)


class _Panel(UIWindow):
    """The set-up's window: its close button asks the set-up to leave (`SetupScreen.leave`), which
    decides what becomes of the draft, instead of killing the window under it."""

    asked_close = False

    def on_close_window_button_pressed(self) -> None:
        self.asked_close = True


class PlayLike(Protocol):
    """What the set-up asks of the play screen under it."""

    ctx: PlayContext
    manager: pygame_gui.UIManager
    board: Any  # its BoardView: token_under, square_under

    def load_session(self, session: Session, pending: Any = None) -> None: ...

    def refresh_panels(self) -> None: ...

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None: ...

    def command(self, cmd: str) -> Action | None: ...


def draft_of(session: Session) -> Draft:
    """The draft of a session before turn 1: its encounter (characters of an encounter without a map
    stand where its arena put them), its board, and the encounter file's text to keep its comments."""
    import dataclasses  # noqa: PLC0415 - start-up time: only for an encounter without a map

    enc = session.enc
    if enc.board is None:
        enc = dataclasses.replace(enc, characters=tuple(dataclasses.replace(c, at=session.position(c.id))
                                                        for c in enc.characters))
    original = None if is_map(session.path) else read_user_text(session.path, MAX_ORIGINAL, "encounter",
                                                                "keep the encounter under 1 MB")
    return Draft(enc, session.board, session.path, original)


def open_setup(play: PlayLike) -> Action | None:
    """F2: the set-up of the encounter on the play screen, before turn 1 only (later, GM mode's E
    changes a rating or losses as the game master's change)."""
    s = play.ctx.session
    if s.turn != 1 or s.line:
        play.ctx.set_status("Set-up is before turn 1 (go back with PgUp, or open the encounter again); during a "
                            "fight, GM mode's E changes a character's ratings or losses", theme.ACCENT)
        return None
    return Push(SetupScreen(play, draft_of(s)))


def open_map_setup(play: PlayLike, path: str) -> Action | None:
    """Open (Ctrl+O) on a map: the bare map in place of the game, and its set-up; a map that cannot be
    read or drawn is one message and the game stays as it was."""
    try:
        enc = bare_map(path)
        play.load_session(Session(path, enc=enc, autosave=autosave_for(play.ctx.services.save_dir, path)))
    except (BattlematError, OSError) as exc:
        play.ctx.set_status(f"Cannot open {path}: {str(exc).splitlines()[0]}", theme.BAD)
        return None
    return Push(SetupScreen(play, draft_of(play.ctx.session)))


class SetupScreen:
    """The set-up over the play screen: its panel, the form when open, and the board's clicks and drags."""

    def __init__(self, play: PlayLike, draft: Draft) -> None:
        self.play = play
        self.ctx = play.ctx
        self.manager = play.manager
        self.draft = draft
        self.square: XY | None = None  # the square clicked, where New places a character
        self.chosen: CharId | None = None
        self.held: CharId | None = None  # a token being dragged
        self.pointer = (0, 0)
        self.form: CharacterForm | None = None
        self.finished = False
        self.play_after_save = False
        self.dropping = False  # Esc asked once to leave with changes not saved
        area = self.ctx.frame.side
        self.before = self.ctx.session  # the game as it was, for leaving without saving
        self.window = _Panel(pygame.Rect(area.x, area.y, area.width, area.height), self.manager,
                             window_display_title="Set-up (Esc leaves)", object_id=ObjectID("#setup"))
        inner = self.window.get_container().get_rect()
        w, h = inner.width, inner.height
        self.info = UILabel(pygame.Rect(8, 4, w - 16, 24), "", self.manager, container=self.window,
                            object_id=ObjectID("#dim"))
        bw = (w - 24) // 3
        names = ("New", "Copy", "Remove", "Save", "Play")
        self.buttons: dict[str, UIButton] = {}
        for i, label in enumerate(names):
            row, col = divmod(i, 3)
            self.buttons[label] = UIButton(pygame.Rect(8 + col * (bw + 4), 32 + row * 34, bw, 30), label,
                                           self.manager, container=self.window,
                                           tool_tip_text=_TIPS[label])
        self.list = UISelectionList(pygame.Rect(8, 104, w - 16, max(80, h // 2 - 110)), [], self.manager,
                                    container=self.window)
        top = 104 + max(80, h // 2 - 110) + 6
        self.message = UITextBox("", pygame.Rect(8, top, w - 16, h - top - 8), self.manager, container=self.window)
        self.labels: dict[str, CharId] = {}
        self._listed()
        tokens = draft.open_tokens()
        named = ", ".join(f"{t} {list(sq)}" for t, sq in tokens.items())
        self.say(SETUP_HELP + (f". The map's tokens name {named}: New with that name (no square needed) places "
                               "it there" if tokens else ""), theme.TEXT)

    # -- what the panel shows ------------------------------------------------------------------
    def say(self, words: str, color: theme.Color = theme.BAD) -> None:
        hexc = f"#{color[0]:02x}{color[1]:02x}{color[2]:02x}"
        self.message.set_text(f"<font color='{hexc}'>{html.escape(words, quote=False)}</font>")
        self.ctx.set_status(words, color)

    @property
    def said(self) -> str:
        return self.message.html_text

    def _listed(self) -> None:
        d = self.draft
        self.labels = {f"{c.name} ({c.side}) at {list(c.at) if c.at else '-'}": c.id for c in d.characters}
        self.list.set_item_list(list(self.labels))
        where = f"square {list(self.square)}" if self.square else "no square chosen"
        saved = f" - saved as {d.saved.name}" if d.saved and not d.dirty else " - not saved" if d.dirty else ""
        self.info.set_text(f"{len(d.characters)} characters, {where}{saved}")

    def _changed(self) -> None:
        """Show the draft on the play screen: a session of it (the board, its tokens, the NPCs' plans)."""
        self.dropping = False
        old = self.ctx.session
        enc = self.draft.enc
        sides = tuple(s for s in old.pc_sides if s in enc.sides)
        session = Session(old.path, seed=old.match.seed, dice=old.dice_override, pc_sides=sides,
                          autosave=old.autosave_path, enc=enc)
        if session.arena is not None or old.arena is not None:  # an arena grows with its characters: drawn anew
            self.play.load_session(session)
        else:  # the same map: the camera stays where the game master put it
            ctx = self.ctx
            ctx.session, ctx.sel, ctx.preview, ctx.ghost, ctx.idle = session, Selection(), MovePreview(), None, ()
            self.play.refresh_panels()
        self._listed()

    # -- edits ---------------------------------------------------------------------------------
    def new(self) -> None:
        d = self.draft
        like = d.enc.by_id.get(self.chosen) if self.chosen else None
        sides = d.enc.sides
        ask = FormAsk(f"New character at {list(self.square) if self.square else '(click a square)'}",
                      d.enc.rules.pairs, dict(like.skills) if like else {}, sides,
                      side=like.side if like else (sides[0] if sides else ""))
        self._open_form(ask)

    def _open_form(self, ask: FormAsk) -> None:
        if self.form is not None:
            self.form.kill()
        self.form = CharacterForm(self.manager, self.ctx.frame.side, ask)

    def _form_ok(self) -> None:
        form = self.form
        assert form is not None
        typed = form.typed()
        try:
            c = self.draft.new_character(typed.get("name", ""), typed.get("side", ""), typed, self.square)
        except SetupError as exc:
            form.say(str(exc))
            self.ctx.set_status(str(exc), theme.BAD)
            return
        form.kill()
        self.form = None
        self.chosen, self.square = c.id, None
        self._changed()
        problems = c.new_pc_problems()  # S4, for the game master's information: an NPC need not be one
        pc = "a legal new PC (S4)" if not problems else f"as a new PC (S4) it {'; '.join(problems)}"
        self.say(f"{c.name} ({c.side}) placed at {list(c.at) if c.at else '-'}: {pc}", theme.GOOD)

    def _nobody_chosen(self) -> bool:
        if self.chosen is None:
            self.say("Choose a character first (click its token or its row)")
        return self.chosen is None

    def copy(self) -> None:
        if self._nobody_chosen() or self.chosen is None:
            return
        try:
            c = self.draft.copy(self.chosen)
        except SetupError as exc:
            self.say(str(exc))
            return
        self.chosen = c.id
        self._changed()
        self.say(f"{c.name} added at {list(c.at) if c.at else '-'}", theme.GOOD)

    def remove(self) -> None:
        if self._nobody_chosen() or self.chosen is None:
            return
        name = self.draft.enc.by_id[self.chosen].name
        self.draft.remove(self.chosen)
        self.chosen = None
        self._changed()
        self.say(f"{name} removed", theme.GOOD)

    def move(self, cid: CharId, sq: XY) -> None:
        try:
            self.draft.move(cid, sq)
        except SetupError as exc:
            self.say(str(exc))
            return
        self._changed()
        self.say(f"{self.draft.enc.by_id[cid].name} now starts at {list(sq)}", theme.GOOD)

    # -- files -----------------------------------------------------------------------------------
    def save_dialog(self, then_play: bool = False) -> Action:
        d = self.draft
        self.play_after_save = then_play
        folder = d.source.parent.resolve()
        name = d.saved.name if d.saved else f"{d.source.stem}-setup.toml"
        shortcuts = (Shortcut("Map's folder", folder), Shortcut("Saves", self.ctx.services.save_dir))
        ask = FileAsk("Save the encounter as (.toml)", str(folder / name), shortcuts, frozenset({".toml"}),
                      existing_only=False)
        return Push(FileScreen(self.manager, self.ctx.frame.board, ask, self.save_to))

    def save_to(self, path: str) -> None:
        """Write the draft at `path` (the file dialog's pick); the play screen's game then names it."""
        try:
            written = self.draft.save(path)
        except (BattlematError, OSError) as exc:
            self.say(f"Not saved: {exc}")
            return
        self._listed()
        self.say(f"Saved {written}", theme.GOOD)
        if self.play_after_save:
            self.finished = True

    def start(self) -> Action | None:
        """Play: the set-up saved (asked for first when it is not), then the saved file opened to play."""
        d = self.draft
        if not d.characters:
            self.say("Place at least one character first (click a square, then New)")
            return None
        if d.dirty or d.saved is None:
            return self.save_dialog(then_play=True)
        self.finished = True
        return None

    def _play_saved(self) -> None:
        saved = self.draft.saved
        assert saved is not None
        old = self.ctx.session
        try:
            enc = load_encounter(saved)
            sides = tuple(s for s in old.pc_sides if s in enc.sides)
            session = Session(saved, seed=enc.seed, dice=old.dice_override, pc_sides=sides,
                              autosave=autosave_for(self.ctx.services.save_dir, saved), enc=enc)
        except BattlematError as exc:
            self.say(f"Cannot play {saved.name}: {exc}")
            self.finished = False
            return
        self.play.load_session(session)
        self.ctx.set_status(f"Playing {saved}: turn 1", theme.GOOD)

    # -- the screen --------------------------------------------------------------------------------
    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if self.form is not None and (answer := self.form.answer(event)) is not None:
            if answer == "ok":
                self._form_ok()
            else:
                self.form.kill()
                self.form = None
            return None
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self._button(event.ui_element)
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and event.ui_element is self.list:
            self.chosen = self.labels.get(event.text)
            return None
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return self.leave()
        if event.type == pygame.KEYDOWN and event.key == pygame.K_DELETE and not consumed:
            self.remove()
            return None
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F12:
            return self.play.on_event(event, consumed)
        if event.type == pygame.MOUSEWHEEL:
            return self.play.on_event(event, consumed)
        if event.type == pygame.MOUSEMOTION:
            self.pointer = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not consumed:
            self._press(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.held is not None:
            held, self.held = self.held, None
            sq = self.play.board.square_under(event.pos)
            if sq is not None and sq != self.draft.position(held):
                self.move(held, sq)
        return None

    def _press(self, pos: tuple[int, int]) -> None:
        if not self.ctx.frame.board.collidepoint(pos):
            return
        tok = self.play.board.token_under(pos)
        if tok is not None:
            self.chosen = self.held = tok
            c = self.draft.enc.by_id[tok]
            self.say(f"{c.name} chosen: drag it to another square, or Copy / Remove", theme.TEXT)
            return
        sq = self.play.board.square_under(pos)
        if sq is None:
            return
        problem = self.draft.square_problem(sq)
        self.square, self.chosen = sq, None
        self._listed()
        if problem is not None:
            self.say(f"Nobody can be placed there: {problem}")
        else:
            self.say(f"Square {list(sq)} chosen: New places a character there", theme.TEXT)
        if self.form is not None and self.form.ask.losses is None:
            self.form.window.set_display_title(f"New character at {list(sq)}")

    def _button(self, element: object) -> Action | None:
        b = self.buttons
        if element is b["New"]:
            self.new()
        elif element is b["Copy"]:
            self.copy()
        elif element is b["Remove"]:
            self.remove()
        elif element is b["Save"]:
            return self.save_dialog()
        elif element is b["Play"]:
            return self.start()
        else:
            return self.forward(element)
        return None

    def leave(self) -> Action | None:
        """Esc or the window's close button: the form closes first. Changes not saved are dropped only
        when asked twice (the game goes back to what it was: nothing is played that no file holds);
        a set-up saved elsewhere plays the saved file; otherwise the set-up just ends (F2 opens it again)."""
        if self.form is not None and self.form.alive():
            self.form.kill()
            self.form = None
            return None
        d = self.draft
        if d.dirty and not self.dropping:
            self.dropping = True
            self.say("Changes not saved: Save them, or Esc (or close) again to drop them", theme.ACCENT)
            return None
        if not d.dirty and d.saved is not None and d.saved != d.source:
            self.finished = True
            return None
        if d.dirty:
            self.play.load_session(self.before)
            self.ctx.set_status("Set-up left: the changes not saved are dropped", theme.ACCENT)
        return Pop()

    def forward(self, element: object) -> Action | None:
        """A button of the top bar: the views (grid, fit, legend, rules, screenshot) work as in play;
        the rest wait for the set-up to end."""
        top = self.ctx.top
        key = next((k for k, b in (top.buttons.items() if top is not None else ()) if b is element), None)
        if key is None:
            return None
        if key in VIEW_BUTTONS:
            return self.play.command(key)
        self.say("Leave the set-up first (Esc): it places characters, the game comes after", theme.ACCENT)
        return None

    def update(self, dt: float) -> Action | None:
        if self.window.asked_close:
            self.window.asked_close = False
            return self.leave()
        if self.form is not None and not self.form.alive():  # closed by its own button
            self.form = None
        if self.ctx.top is not None:  # (not "combat over": nobody is on the map yet)
            self.ctx.top.set_title(f"{self.draft.enc.title}  -  set-up")
        if self.finished:
            self.finished = False
            self._play_saved()
            return Pop()
        return None

    def on_draw(self, surface: pygame.Surface) -> None:
        """Rings on the chosen square (green when free, red when not) and under a dragged token's pointer."""
        ctx = self.ctx
        clip = surface.get_clip()
        surface.set_clip(ctx.frame.board)
        r = max(6, round(ctx.layout.cell * ctx.cam.zoom / 2))
        marks = []
        if self.square is not None:
            marks.append((self.square, self.draft.square_problem(self.square) is None))
        if self.held is not None:
            sq = self.play.board.square_under(self.pointer)
            if sq is not None:
                marks.append((sq, self.draft.square_problem(sq, moving=self.held) is None))
        if self.chosen is not None and (at := self.draft.position(self.chosen)) is not None:
            marks.append((at, True))
        for sq, ok in marks:
            x, y = ctx.cam.to_screen(*ctx.layout.center(sq))
            pygame.draw.circle(surface, theme.GOOD if ok else theme.BAD, (round(x), round(y)), r, 3)
        for sq in self.draft.open_tokens().values():  # a token naming nobody yet: a dim ring on its square
            x, y = ctx.cam.to_screen(*ctx.layout.center(sq))
            pygame.draw.circle(surface, theme.TEXT_DIM, (round(x), round(y)), r, 1)
        surface.set_clip(clip)

    def close(self) -> None:
        if self.form is not None:
            self.form.kill()
        if self.window.alive():
            self.window.kill()


_TIPS = {
    "New": "A character from a short form, on the square clicked last",
    "Copy": "A copy of the chosen character beside it, with a name of its own (Bandit 2)",
    "Remove": "Take the chosen character off the map",
    "Save": "Write the set-up as an encounter file (.toml)",
    "Play": "Save if needed, then play the saved encounter from turn 1",
}
