"""The play screen: the board, declaring a turn, explanations, resolving with animation.

It owns the Session (the match and this turn's declarations) and turns input into intents through
`Session.declare`, which validates them with the resolver (one door). Everything shown on the board
while declaring comes from the same code the resolver runs: Reach/Route (movement), sight
(geometry), and the turn resolved with what is known for the hover forecast and the P preview (ghost).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryLine

from battlemat.core.encounter import Encounter
from battlemat.core.errors import BattlematError, IllegalIntent
from battlemat.core.intents import Intent
from battlemat.core.rating import standing
from battlemat.types import CharId
from battlemat.ui import input as keys
from battlemat.ui import theme
from battlemat.ui.aids import Aids
from battlemat.ui.animation import Player
from battlemat.ui.boardview import BoardView
from battlemat.ui.camera import Camera
from battlemat.ui.declaring import Declaring, takes_target
from battlemat.ui.drag import Dragging
from battlemat.ui.ghost import Predicting
from battlemat.ui.idle import AskIdle
from battlemat.ui.layout import Layout
from battlemat.ui.panels import Frame, Sidebar, TopBar, frame_rects
from battlemat.ui.preview import allowance_of
from battlemat.ui.renderer import MapArt, build_art
from battlemat.ui.screens import (
    Action,
    AfterCombat,
    FileAsk,
    FileScreen,
    Push,
    RulesScreen,
    SaveAsScreen,
    Shortcut,
    VictoryScreen,
)
from battlemat.ui.session import Session, describe_intent
from battlemat.ui.state import Preview, Selection
from battlemat.ui.teaching import Teaching
from battlemat.ui.timeline import Timeline, TimeTravel
from battlemat.ui.tokens import pulse

# While a turn plays back only these commands act; the rest wait for the turn to end.
PLAYBACK_COMMANDS = frozenset({"cancel", "advance", "shot", "rules", "grid", "fit", "zoom_in", "zoom_out", "step",
                               "legend", "big_log", "log_newest", "teach"})
ADJUST_COMMANDS = ("mod_minus", "mod_plus", "shout", "item_kind")  # GM touches on the draft (Declaring.adjust)
STEP_KEYS = (pygame.K_SPACE, pygame.K_RIGHT, pygame.K_n)  # step mode: the next event


@dataclass
class Services:
    """What the play screen asks of the app: screenshots and where files go."""

    save_dir: Path
    screenshot: Callable[[Path | None], Path]
    manager: pygame_gui.UIManager


class PlayScreen(Aids, Teaching, Declaring, BoardView, TimeTravel, AskIdle, Predicting, Dragging):
    """The bottom screen of the stack: widgets, input, resolving with playback, files."""

    def __init__(self, session: Session, services: Services, size: tuple[int, int]) -> None:
        self.services = services
        self.manager = services.manager
        self.cam = Camera()
        self.sel = Selection()
        self.preview = Preview()
        self.gm_mode = False
        self.step_mode = False
        self.player: Player | None = None
        self.timeline = Timeline()  # the turns of the line, under the board (timeline.py)
        self.idle: tuple[CharId, ...] = ()  # PCs left without intent when Resolve asked (idle.py)
        self.status = keys.HELP
        self.status_color: theme.Color = theme.TEXT_DIM
        self.mouse = (0, 0)
        self.drag_from: tuple[int, int] | None = None
        self.dragging = False
        self.victory_shown = False
        self.art_frames = 0  # tile animation frames shown so far (each is a new look)
        self.frame: Frame = frame_rects(*size)
        self.top: TopBar | None = None
        self.side: Sidebar | None = None
        self.init_predicting()
        self.init_aids()
        self.init_teaching()
        self.load_session(session)
        self.resize(size)

    # -- setup ---------------------------------------------------------------------------------
    def load_session(self, session: Session, pending: list[tuple[Intent, ...]] | None = None) -> None:
        map_file = (session.path.parent / session.enc.map) if session.has_map and session.enc.map else None
        art = build_art(session.board, map_file)  # first: a map it cannot draw leaves the game as it was
        self.session = session
        self.layout = Layout(session.board)
        self.art: MapArt = art
        self.sel = Selection()
        self.preview = Preview()
        self.player = None
        if pending is not None:
            session.future = list(pending)
        self.idle = ()
        self.ghost = None
        self.victory_shown = False
        self.cam.fit(self.art.width, self.art.height)
        if self.side is not None:
            self.side.clear_log()
            self._log_intro()
        self._fill_from_replay()

    def resize(self, size: tuple[int, int]) -> None:
        """(Re)build the widgets for a window size; panels are laid out from the size alone."""
        if self.top is not None:
            self.top.panel.kill()
        kept = (self.side.book, self.side.view) if self.side is not None else (None, None)  # the log, as shown
        if self.side is not None:
            self.side.panel.kill()
        self.frame = frame_rects(*size)
        self.manager.set_window_resolution(size)
        self.top = TopBar(self.manager, self.frame.top)
        self.side = Sidebar(self.manager, self.frame.side, *kept)
        b = self.frame.board
        self.cam.set_view(b.x, b.y, b.width, b.height)
        self.cam.fit(self.art.width, self.art.height)  # a new window size shows the whole map again
        if not self.side.book.entries:
            self._log_intro()
        self.top.set_toggle("grid", self.art.show_grid)
        self.refresh_panels()

    def _log_intro(self) -> None:
        assert self.side is not None
        enc = self.session.enc
        self.side.log_text(f"{enc.title}: {', '.join(enc.sides)}. You play {', '.join(self.session.pc_sides)}; "
                           "the others declare in secret (M shows them).", theme.TEXT)
        if not self.session.has_map:
            self.side.log_text("No map: an open arena; positions are taken as declared.")

    @property
    def ui_epoch(self) -> tuple[int, ...]:
        """Changes whenever this screen changed a widget (see App._draw_ui)."""
        return (id(self.side), self.side.epoch if self.side else 0, id(self.top), self.top.epoch if self.top else 0)

    # -- panels --------------------------------------------------------------------------------
    def refresh_panels(self) -> None:
        """Tell the widgets what to show; they keep no game state of their own."""
        if self.side is None or self.top is None:
            return
        self.panel_cast()
        s = self.session
        self.top.set_title(f"{s.enc.title}  -  {s.where().title()}")
        self.top.set_toggle("gm", self.gm_mode)
        self.top.set_toggle("step", self.step_mode)
        self.top.set_toggle("grid", self.art.show_grid)
        self.top.set_toggle("predict", self.ghost is not None)
        self.top.set_toggle("teach", self.teaching.on)
        who = self.sel.who
        if who is None:
            self.side.who.set_text("No one selected")
            self.side.hint.set_text("Tab or click a token; Enter resolves the turn")
            self.side.set_skills(("none",), [])
        else:
            c = s.enc.by_id[who]
            st = s.state[who]
            self.side.who.set_text(f"{c.name}  ({c.side})")
            self.side.hint.set_text(f"losses {st.minor} minor, {st.major} major - skill: allowance, phase, rating")
            entries = []
            chosen = self.sel.draft.use if self.sel.draft else None
            for half in self.skills_of(who):  # each with its key: the same half's key for everyone
                words, tip = skill_words(s.enc, who, half, st.major)
                hk, spelled = self.skill_key_label(half), self.skill_key_label(half, long=True)
                entries.append((half, f"{hk} {words}", f"{tip}; key {spelled}" if spelled else tip,
                                half == chosen))
            self.side.set_skills((who, s.turn, st.major), entries)
        rows = []
        for c in s.enc.characters:
            it = s.declared.get(c.id)
            if not s.state[c.id].active:
                continue
            if not self.visible_intent(c.id):
                rows.append((c.id, f"{c.name}: (secret)"))  # even idleness is a secret (P)
            elif it is None:
                rows.append((c.id, f"{c.name}: (idle)"))
            else:
                rows.append((c.id, describe_intent(s.enc, it)))
        self.side.set_intents(rows)

    # -- resolving -----------------------------------------------------------------------------
    @property
    def pending(self) -> list[tuple[Intent, ...]]:
        """Recorded turns still ahead (a replay, a rewound game): the session's."""
        return self.session.future

    @pending.setter
    def pending(self, turns: list[tuple[Intent, ...]]) -> None:
        self.session.future = list(turns)

    def resolve(self) -> Action | None:
        """Enter: play the turn, after asking when player characters have no intent (idle.py)."""
        if self.player is not None:
            return None
        if self.session.outcome().over:
            self.set_status("The combat is over. Open another encounter (Ctrl+O) or play again.", theme.ACCENT)
            return None
        return self.ask_or_resolve()

    def resolve_now(self) -> None:
        s = self.session
        if self.player is not None or s.outcome().over:
            return
        self.idle = ()
        positions = self.positions()
        states = dict(s.state.chars)
        try:
            events = s.resolve()  # at a recorded turn (replay, rewound) a changed intent branches
        except IllegalIntent as exc:
            self.set_status(f"Refused: {self.enc.by_id[exc.who].name if exc.who in self.enc.by_id else exc.who} - "
                            f"{exc.reason}" + (f" [{exc.rule}]" if exc.rule else ""), theme.BAD)
            return
        except BattlematError as exc:
            self.set_status(f"Cannot resolve: {exc}", theme.BAD)
            return
        except OSError as exc:
            self.set_status(f"Turn played, but the autosave failed: {exc}", theme.BAD)
            events = s.last_events
        self.sel = Selection()
        self.preview = Preview()
        self.ghost = None  # the predicted turn is played: its ghosts go
        self.player = Player(events, dict(positions), states, self.layout.center, s.enc.rules,
                             step_mode=self.step_mode)
        self.set_status("Resolving... Esc skips to the end" + (", Space steps" if self.step_mode else ""), theme.TEXT)
        self.refresh_panels()

    def _fill_from_replay(self) -> None:
        """The session declares a recorded turn's intents itself; say what Enter does with them."""
        if self.pending:
            self.set_status(*self.turn_status())

    def _finish_turn(self) -> Action | None:
        self.player = None
        self._fill_from_replay()
        self.refresh_panels()
        result = self.session.outcome()
        if result.over and not self.victory_shown:
            self.victory_shown = True
            return Push(VictoryScreen(self.manager, self.enc, self.session.state, result, self.frame.board,
                                      AfterCombat(self.restart, self.save_game)))
        if not self.pending:
            self.set_status(*self.turn_status())
        return None

    # -- files ---------------------------------------------------------------------------------
    def restart(self) -> None:
        s = self.session
        autosave = autosave_for(self.services.save_dir, s.path) if s.autosave_path else None  # not a branch's
        self.load_session(Session(s.path, seed=s.match.seed, dice=s.dice_override, pc_sides=s.pc_sides,
                                  autosave=autosave))
        self.refresh_panels()

    def save_game(self, path: Path | None = None) -> Path | None:
        from battlemat.io.saves import write_save

        target = path or self.services.save_dir / f"{self.session.path.stem}-{time.strftime('%Y%m%d-%H%M%S')}.json"
        try:
            write_save(self.session.to_save(), target)
        except OSError as exc:
            self.set_status(f"Could not save {target}: {exc}", theme.BAD)
            return None
        self.set_status(f"Saved {target}", theme.GOOD)
        return target

    def open_path(self, path: str, replay: bool = False) -> None:
        from battlemat.io.saves import read_save

        autosave = self.session.autosave_path
        try:
            if path.endswith(".json"):
                save = read_save(path)
                session, pending = Session.from_save(save, path, replay=replay,
                                                     autosave=autosave_for(self.services.save_dir, save.encounter))
                self.load_session(session, pending)
            else:
                session = Session(path, autosave=autosave_for(self.services.save_dir, path) if autosave else None)
                self.load_session(session)
        except (BattlematError, OSError) as exc:
            self.set_status(f"Cannot open {path}: {str(exc).splitlines()[0]}", theme.BAD)
            if self.side is not None:
                self.side.log_text(str(exc), theme.BAD)
            return
        self.refresh_panels()
        if session.note:
            self.set_status(f"Opened {path}, but {session.note}.", theme.ACCENT)
        elif not replay:
            self.set_status(f"Opened {path}", theme.GOOD)

    def file_dialog(self, title: str, on_pick: Callable[[str], None], saves: bool = False) -> Action:
        """The file dialog, starting in the save folder (`saves`) or the encounter's, with a button
        for each of them."""
        enc_dir = self.session.path.parent.resolve()
        save_dir = self.services.save_dir
        try:
            save_dir.mkdir(parents=True, exist_ok=True)
        except OSError:
            saves = False  # an unwritable save folder: start beside the encounter
        shortcuts = (Shortcut("Saves", save_dir), Shortcut("Encounter's folder", enc_dir))
        suffixes = frozenset({".json"}) if saves else frozenset({".toml", ".json"})
        ask = FileAsk(title, str(save_dir if saves else enc_dir) + "/", shortcuts, suffixes)
        return Push(FileScreen(self.manager, self.frame.board, ask, on_pick))

    def save_as(self) -> Action:
        """Ctrl+Shift+S: a save under a typed name, in the save folder."""
        def write(target: Path) -> str | None:
            return None if self.save_game(target) else self.status

        suggested = f"{self.session.path.stem}-turn{self.session.turn}"
        return Push(SaveAsScreen(self.manager, self.frame.board, self.services.save_dir, suggested, write))

    # -- events --------------------------------------------------------------------------------
    def command(self, cmd: str) -> Action | None:
        """One command from a key, a button or the mouse (input.BINDINGS names them)."""
        if cmd.startswith("skill:"):
            self._skill_by_index(int(cmd.split(":")[1]))
            return None
        if self.player is not None and cmd not in PLAYBACK_COMMANDS:
            return None
        handler = self._commands().get(cmd)
        return handler() if handler is not None else None

    def _commands(self) -> dict[str, Callable[[], Action | None]]:
        """Command name -> what it does (a table rather than a chain of ifs)."""
        return {
            **{cmd: partial(self.adjust, cmd) for cmd in ADJUST_COMMANDS},
            **self.aid_commands(),
            "resolve": self.resolve,
            "undo": self.undo,
            "clear": self.clear,
            "next": lambda: self.cycle(-1 if pygame.key.get_mods() & pygame.KMOD_SHIFT else 1),
            "cancel": self.cancel,
            "advance": self.advance,
            "rules": self.open_rules,
            "shot": self.shot,
            "grid": self.toggle_grid,
            "gm": self.toggle_gm,
            "step": self.toggle_step,
            "predict": self.toggle_predict,
            "teach": self.toggle_teaching,
            "fit": lambda: self.cam.fit(self.art.width, self.art.height),
            "zoom_in": partial(self.cam.zoom_at, 1),
            "zoom_out": partial(self.cam.zoom_at, -1),
            "save": self.save,
            "save_as": self.save_as,
            "open": lambda: self.file_dialog("Open an encounter (.toml) or a save (.json)", self.open_path),
            "replay": lambda: self.file_dialog("Replay a save (.json)", lambda p: self.open_path(p, replay=True),
                                               saves=True),
            "turn_back": partial(self.step_turn, -1),
            "turn_ahead": partial(self.step_turn, 1),
            "turn_latest": self.latest_turn,
        }

    def open_rules(self, href: str | None = None) -> Action:
        """The rules panel (F1): searching the rules and the glossary, showing `href`'s entry if given
        ('rule:M6' from a link in the log or a rule ID clicked on a card or the legend)."""
        return Push(RulesScreen(self.manager, self.enc, self.frame.board, show=href))

    def _skill_by_index(self, i: int) -> None:
        """Skill keys: slot i is the i-th half of the rules data, for every character (Aids.skill_by_slot)."""
        self.skill_by_slot(i)

    def cancel(self) -> None:
        """Esc / right click: finish the playback, drop an undeclared draft, or deselect."""
        if self.player is not None:
            if self.side is not None:
                self.side.log_events(self.player.finish())
        elif self.ghost is not None:
            self.clear_ghost()
        elif self.sel.draft is not None and self.sel.who not in self.session.declared:
            self.sel.draft = None
        else:
            self.sel = Selection()
        self.refresh_panels()

    def advance(self) -> None:
        if self.player is not None:
            self.player.advance()

    def shot(self) -> None:
        path = self.services.screenshot(None)
        self.set_status(f"Screenshot saved: {path}", theme.GOOD)

    def save(self) -> None:
        self.save_game()

    def toggle_grid(self) -> None:
        self.art.show_grid = not self.art.show_grid
        self.art.invalidate()
        self.refresh_panels()

    def toggle_gm(self) -> None:
        self.gm_mode = not self.gm_mode
        if not self.gm_mode and self.sel.who and not self.session.is_pc(self.sel.who):
            self.sel = Selection()
        self.set_status("GM mode: NPC intents shown and editable." if self.gm_mode else "GM mode off.", theme.TEXT)
        self.refresh_panels()

    def toggle_step(self) -> None:
        self.step_mode = not self.step_mode
        if self.player is not None:
            self.player.step_mode = self.step_mode
            self.player.waiting = False
        self.set_status("Step mode: one event per Space while resolving." if self.step_mode else "Step mode off.",
                        theme.TEXT)
        self.refresh_panels()

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if self.scrub(event, consumed):  # the timeline under the board (timeline.py)
            return None
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self._button(event.ui_element)
        if event.type == pygame_gui.UI_TEXT_BOX_LINK_CLICKED and self.side is not None \
                and event.ui_element is self.side.log:
            return self.open_rules(event.link_target)  # a rule ID or a house switch in the log
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION:
            self._intent_picked(event)
            return None
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and self.side is not None:
            self.side.filter_picked(event.ui_element, getattr(event, "selected_option_id", None))
            return None
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        if event.type == pygame.MOUSEMOTION:
            self._mouse_motion(event, consumed)
        elif event.type in (pygame.MOUSEWHEEL, pygame.MOUSEBUTTONDOWN):
            self._mouse_press(event, consumed)
        elif event.type == pygame.MOUSEBUTTONUP:
            return self._mouse_release(event)
        return None

    def _intent_picked(self, event: pygame.event.Event) -> None:
        """A row of the declared-intents list: select that character if this side controls it."""
        if self.side is None or event.ui_element is not self.side.intents:
            return
        text = getattr(event, "text", None)
        cid = next((c for c, w in self._intent_rows() if w == text), None)
        if cid is not None and self.controllable(cid):
            self.select(cid)

    def _key(self, event: pygame.event.Event) -> Action | None:
        if self.drag_key(event.key):
            return None
        if self.player is not None and self.player.waiting and event.key in STEP_KEYS:
            self.player.advance()
            return None
        cmd = keys.command_for(event)
        return self.command(cmd) if cmd else None

    def _mouse_motion(self, event: pygame.event.Event, consumed: bool) -> None:
        """Hover, and panning by dragging the board (past a few pixels, so a click stays a click)."""
        self.mouse = event.pos
        if self.drag_motion(event.pos) or self.drag_from is None or consumed:
            return
        if self.dragging or abs(event.pos[0] - self.drag_from[0]) + abs(event.pos[1] - self.drag_from[1]) > 6:
            self.dragging = True
            self.cam.pan(*event.rel)

    def _mouse_press(self, event: pygame.event.Event, consumed: bool) -> None:
        """The wheel zooms at the pointer; a button press on the board may start a drag or a click."""
        board = self.frame.board
        if event.type == pygame.MOUSEWHEEL:
            if board.collidepoint(self.mouse) and not consumed:
                self.cam.zoom_at(1 if event.y > 0 else -1, *self.mouse)
            return
        if self.drag_button(event.button):
            return
        if board.collidepoint(event.pos) and not consumed:
            self.mouse = event.pos
            if event.button == 1 and self.drag_press(event.pos):
                return  # the selected token: a drag to move it, or a click
            if event.button in (1, 2, 3):
                self.drag_from = event.pos
                self.dragging = False

    def _mouse_release(self, event: pygame.event.Event) -> Action | None:
        """A release that was no drag is a click: left picks (or opens a rule ID clicked on a card or
        the legend), right cancels."""
        if event.button == 1 and self.drag_release(event.pos):
            return None
        if self.drag_from is None:
            return None
        was_drag = self.dragging
        self.drag_from, self.dragging = None, False
        if not was_drag and self.frame.board.collidepoint(event.pos):
            self.mouse = event.pos
            if event.button == 1:
                rid = self.aid_rule_at(event.pos) if self.player is None else None
                if rid:
                    return self.open_rules(f"rule:{rid}")
                self.click(event.pos)
            elif event.button == 3:
                self.command("cancel")
        return None

    def _intent_rows(self) -> list[tuple[CharId, str]]:
        return list(self.side.rows) if self.side is not None else []

    def _button(self, element: Any) -> Action | None:
        assert self.top is not None and self.side is not None
        for key, btn in self.top.buttons.items():
            if element is btn:
                return self.command({"rules": "rules", "shot": "shot"}.get(key, key))
        half = self.side.skill_of(element)
        if half is not None:
            self.choose_skill(half)
            return None
        if element is self.side.resolve:
            return self.command("resolve")
        if element is self.side.undo:
            return self.command("undo")
        if element is self.side.clear:
            return self.command("clear")
        log_cmd = self.side.button(element)
        return self.command(log_cmd) if log_cmd else None

    def click(self, pos: tuple[int, int]) -> None:
        if self.player is not None or self.on_aid(pos):  # the legend and a held card are not the board
            return
        tok = self.token_under(pos)
        who = self.sel.who
        if tok is not None and who is not None and tok != who and self.sel.draft is not None:
            enemy = self.enc.by_id[tok].side != self.enc.by_id[who].side
            half = self.enc.rules.halves[self.sel.draft.use]
            if (enemy or not self.controllable(tok)) and takes_target(half):
                if not self.session.state[tok].active:
                    return
                if pygame.key.get_mods() & pygame.KMOD_SHIFT and self.sel.draft.target is not None:
                    self.add_secondary(tok)
                else:
                    self.set_target(tok)
                return
        if tok is not None and tok != who:
            self.select(tok)
            return
        sq = self.square_under(pos)
        if sq is not None and self.sel.draft is not None:
            self.set_destination(sq)
        elif tok is None and sq is not None and self.sel.who is None:
            self.set_status(self.square_words(sq))

    # -- per frame -----------------------------------------------------------------------------
    def on_draw(self, surface: pygame.Surface) -> None:
        super().on_draw(surface)  # the board (boardview.py)
        self.draw_idle(surface)
        self.draw_timeline(surface)

    def update(self, dt: float) -> Action | None:
        dx, dy = keys.pan_vector(pygame.key.get_pressed(), bool(pygame.key.get_mods() & pygame.KMOD_CTRL))
        typing = any(isinstance(e, UITextEntryLine) for e in (self.manager.get_focus_set() or ()))
        if (dx or dy) and not typing:  # not while typing a file name
            self.cam.pan(dx * keys.PAN_SPEED * dt, dy * keys.PAN_SPEED * dt)
        if self.art.advance(dt * 1000):  # water ripples, torches flicker: Tiled's tile animations
            self.art_frames += 1
        self.follow_pointer()  # the status line says what the pointer is on
        if self.player is not None:
            started = self.player.update(dt)
            if started and self.side is not None:
                self.side.log_events(started)
            if self.player.done:
                return self._finish_turn()
        return None

    def draw_plans(self, surface: pygame.Surface) -> None:
        """While a token is dragged the ruler shows the route the drop would declare; the board's own
        route to the pointer is left out (the pointer is hidden from it), the declared one stays."""
        if not self.token_dragged():
            super().draw_plans(surface)
            return
        pointer, self.mouse = self.mouse, (-1, -1)
        try:
            super().draw_plans(surface)
        finally:
            self.mouse = pointer
        self.draw_ruler(surface)

    def draw_hover(self, surface: pygame.Surface, hover_tok: CharId | None) -> None:
        if not self.draw_drag_hover(surface):  # the ruler's card while dragging, a refused drop's reason
            super().draw_hover(surface, hover_tok)

    def moving(self) -> bool:
        """Whether the board moves by itself, so that every frame is drawn (a turn playing back)."""
        return self.player is not None

    def looks(self) -> tuple[object, ...]:
        """What the board shows, as values cheap to make and compare: the app draws a frame when an
        event came or this changed (a selection made by a command, a tile animation...). The
        selection ring's pulse is apart (`ring`): it changes only its own small square of the screen."""
        c, s = self.cam, self.session
        return ((c.x, c.y, c.zoom, c.view_x, c.view_y, c.view_w, c.view_h), self.mouse, self.frame.board,
                self.sel.who, self.sel.draft, tuple(s.declared.items()), s.state, self.gm_mode, self.step_mode,
                self.status, self.status_color, self.art, self.art.show_grid, self.art_frames, self.drag_looks(),
                self.ghost, self.idle, len(s.future), self.teaching.on)

    def ring(self) -> tuple[int, pygame.Rect] | None:
        """The selection ring's pulse now and the screen area it covers (inside the board), if any."""
        who = self.sel.who
        if who is None or self.player is not None or (at := self.session.position(who)) is None:
            return None
        from battlemat.ui.tokens import radius

        x, y = self.cam.to_screen(*self.layout.center(at))
        r = radius(self.layout.cell, self.cam.zoom) + pulse(0.0) + 8  # the widest ring, and its width
        return pulse(time.monotonic()), pygame.Rect(round(x) - r, round(y) - r, 2 * r, 2 * r).clip(self.frame.board)

    def close(self) -> None:
        pass


def autosave_for(save_dir: Path, encounter: str | Path) -> Path:
    return save_dir / f"autosave-{Path(encounter).stem}.json"


def skill_words(enc: Encounter, who: CharId, half: str, major: int) -> tuple[str, str]:
    """(label, tooltip) of one skill button: allowance (M1-M3, from the movement code), phase (P)
    and rating, each as the rules data and the core give them."""
    c = enc.by_id[who]
    h = enc.rules.halves[half]
    mv = allowance_of(enc, who, half, major)
    moving = allowance_of(enc, who, half, major, moving_shot=True) if h.moving_allowance else mv
    moves = f"{mv}/{moving}" if moving != mv else str(mv)  # M1: Shoot may move at -1
    if h.act == "item":
        kinds = list(enc.rules.item_move.items())
        needs = ", ".join(f"{n} if it needs {k}" if i == 0 else f"{n} if {k}" for i, (k, n) in enumerate(kinds[1:]))
        return (f"{half} \u00b7 {moves} sq \u00b7 {h.phase} \u00b7 r0",
                f"Use an item: move {kinds[0][1]} ({needs}); {h.defense} (C5)")
    rating = standing(enc.rules, c, half, major)  # the effective rating as it stands (text line 15)
    return (f"{half} \u00b7 {moves} sq \u00b7 {h.phase} \u00b7 r{rating}",
            f"{half}: moves {mv} square(s) (M1), acts in {h.phase} (rule P), "
            f"rating {rating} (base {c.base(h.pair)} with equipment, talent and major losses: S2-S5, L5)")
