"""Lesson mode of the play window (`battlemat learn NAME`, issue 19).

The learner plays a lesson's steps through the normal window: selecting, skill keys, clicks and
Enter. `LessonSession` is the session with the lesson's gate on the one door (`declare`): a
declaration that is not the step's is refused with the reason and the expected intent, the NPCs
declare the step's scripted intents, and after the turn the step's events are picked as pointers
(battlemat.teach.tutor). `LessonScreen` adds the lesson panel under the board (step text, step k of n,
Next and Retry) and draws the pointers on the map: the squares and tokens each event concerns,
numbered, with the rule ID and title from the rules data; the panel gives each one line.
"""

from __future__ import annotations

import html
from dataclasses import replace
from typing import Any

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIButton, UIPanel, UITextBox

from battlemat.core.errors import IllegalIntent
from battlemat.core.events import Event
from battlemat.core.intents import Intent
from battlemat.core.types import CharId
from battlemat.teach.tutor import Lesson, Pointer, Step, judge, pointers, unfinished
from battlemat.ui import overlays, theme
from battlemat.ui.cards import Line
from battlemat.ui.context import Selection, Services
from battlemat.ui.play import PlayScreen
from battlemat.ui.screens import Action
from battlemat.ui.session import Session, Where
from battlemat.ui.timeline import Timeline, TimeTravel

PANEL_H = 190  # pixels of the lesson panel under the board
POINTER = (255, 214, 90)  # the colour of the squares and tokens a pointer highlights


class LessonSession(Session):
    """A session that plays one lesson, step by step (step k is turn k + 1)."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.step_index = 0
        self.pointers: tuple[Pointer, ...] = ()
        self.hint = ""  # why the last declaration was not the step's, and what it asks
        super().__init__(lesson.encounter_file, pc_sides=lesson.sides, enc=lesson.enc)

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.step_index]

    @property
    def played(self) -> bool:
        """Whether this step's turn has been played (Next goes on)."""
        return self.turn > self.step_index + 1

    @property
    def complete(self) -> bool:
        return self.played and self.step_index == len(self.lesson.steps) - 1

    def asks_if_idle(self, cid: CharId) -> bool:
        """Never: the characters outside the step stay idle as the lesson wrote it, and Enter on a
        step still waiting for one of its own says what it waits for (resolve)."""
        return False

    def declare_npcs(self, rng: Any = None) -> None:
        """The NPCs declare the step's scripted intents (a lesson plays the same every time)."""
        if self.played or self.outcome().over:
            return
        for it in self.step.npcs:
            if self.state[it.who].active:
                self.declared[it.who] = it

    def declare(self, intent: Intent) -> Intent:
        """The lesson's gate, then the rules' (Session.declare: validate_intent)."""
        if self.played:
            raise IllegalIntent(intent.who, "this step is played: Next goes on, Retry plays it again")
        if not self.is_pc(intent.who):
            raise IllegalIntent(intent.who, "the lesson declares for the NPCs")
        refusal = judge(self.enc, self.step, intent)
        if refusal is not None:
            self.hint = f"{self.enc.by_id[intent.who].name}: {refusal.reason}"
            raise IllegalIntent(intent.who, refusal.reason)
        self.hint = ""
        return super().declare(intent)

    def resolve(self, intents: tuple[Intent, ...] | None = None) -> tuple[Event, ...]:
        """Play the step's turn once everything it asks for is declared; then pick its pointers."""
        first = self.step.whos[0] if self.step.whos else ""
        if self.played:
            raise IllegalIntent(first, "this step is played: Next goes on, Retry plays it again")
        waiting = unfinished(self.enc, self.step, self.declared)
        if waiting is not None:
            self.hint = f"This step waits for {waiting[1]}"
            raise IllegalIntent(waiting[0], f"this step waits for {waiting[1]}")
        events = super().resolve(intents)
        self.pointers = pointers(self.enc, self.step, events, self.position)
        return events

    def next_step(self) -> bool:
        """Go on to the next step; False when there is none (or this one is not played yet)."""
        if not self.played or self.complete:
            return False
        self.step_index += 1
        self.pointers, self.hint = (), ""
        self.declared, self.undo_stack = {}, []
        self.declare_npcs()
        return True

    def retry(self, from_start: bool = False) -> None:
        """Back to the start of this step (or of the lesson): the turns before it are replayed."""
        if from_start:
            self.step_index = 0
        self.go_to(self.step_index + 1)
        self.future = []
        self.pointers, self.hint = (), ""
        self.declared, self.undo_stack = {}, []
        self.declare_npcs()


class LessonPanel:
    """Under the board: the lesson's title, step k of n, what to try, what happened, Next and Retry."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect) -> None:
        self.rect = rect
        self.panel = UIPanel(rect, manager=manager, object_id=ObjectID("#lesson"))
        bw = 110
        inner_w = rect.width - 6
        self.text = UITextBox("", pygame.Rect(4, 4, inner_w - bw - 16, rect.height - 14), manager,
                              container=self.panel)
        x = inner_w - bw - 6
        self.next = UIButton(pygame.Rect(x, 8, bw, 36), "Next", manager, container=self.panel,
                             tool_tip_text="Go on to the next step once this one is played")
        self.retry = UIButton(pygame.Rect(x, 50, bw, 32), "Retry", manager, container=self.panel,
                              tool_tip_text="Play this step again from its start")
        self.restart = UIButton(pygame.Rect(x, 88, bw, 32), "Restart", manager, container=self.panel,
                                tool_tip_text="Start the lesson again from its first step")
        self.epoch = 0
        self.shown = ""

    def show(self, words: str, can_next: bool, next_label: str) -> None:
        if words != self.shown:
            self.shown = words
            self.text.set_text(words)
            self.epoch += 1
        if self.next.text != next_label:
            self.next.set_text(next_label)
            self.epoch += 1
        if can_next != self.next.is_enabled:
            self.next.enable() if can_next else self.next.disable()
            self.epoch += 1

    def kill(self) -> None:
        self.panel.kill()


def _hex(c: theme.Color) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c[:3])


def panel_html(session: LessonSession) -> str:
    """The panel's words: lesson and step, the step's text and the last refusal's hint; once played,
    the author's after-text and each pointer's event (as its tag says) with its rule line from the rules
    data, numbered as on the map."""
    lesson, k, n = session.lesson, session.step_index + 1, len(session.lesson.steps)
    head = (f"<b>{html.escape(lesson.title)}</b>  <font color='{_hex(theme.TEXT_DIM)}'>step {k} of {n}"
            f"{' - lesson complete' if session.complete else ''}</font><br>")
    if not session.played:
        hint = f"<font color='{_hex(theme.ACCENT)}'>{html.escape(session.hint)}</font><br>" if session.hint else ""
        return head + f"{html.escape(session.step.text)}<br>{hint}"
    after = session.step.after
    body = f"<font color='{_hex(theme.GOOD)}'>{html.escape(after)}</font><br>" if after else ""
    for i, p in enumerate(session.pointers, 1):  # what happened, as its tag says, and the rule behind it
        body += (f"<font color='{_hex(POINTER)}'><b>{i}</b></font> {html.escape(p.label)}: "
                 f"<font color='{_hex(theme.CORE)}'>{html.escape(p.line)}</font><br>")
    return head + body


LESSON_HELP = (
    "<b>A lesson</b>: the panel under the board says what to try. Tab or click your character, press "
    "the skill's key (or its button), click the target, then the square; Enter plays the step.<br>"
    "<b>Why</b>: hover a square to see why it is refused, a foe for the predicted contest; once the step "
    "has played, hover a numbered tag for its rule. F1 searches the rules.<br>"
    "<b>Next</b> goes on, <b>Retry</b> plays the step again, <b>Restart</b> the whole lesson.")
TAG_SIZE = 14  # points of a pointer tag's words


def tag_surface(words: str, width: int) -> pygame.Surface:
    """A pointer tag's words on as many lines as `width` pixels need (a label is never cut)."""
    face = theme.font(TAG_SIZE, True)
    lines: list[str] = []
    for word in words.split(" "):
        if lines and face.size(f"{lines[-1]} {word}")[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    rendered = [theme.text(ln, TAG_SIZE, (20, 20, 24), bold=True) for ln in lines]
    out = pygame.Surface((max(r.get_width() for r in rendered), sum(r.get_height() for r in rendered)),
                         pygame.SRCALPHA)
    y = 0
    for r in rendered:
        out.blit(r, (0, y))
        y += r.get_height()
    return out


class LessonScreen(PlayScreen):
    """The play screen in lesson mode: the learner declares for its side only (the lesson declares for
    the NPCs), no timeline (a lesson moves by its steps)."""

    def __init__(self, session: LessonSession, services: Services, size: tuple[int, int]) -> None:
        self.lesson_panel: LessonPanel | None = None
        self.pointer_tags: list[tuple[pygame.Rect, Pointer]] = []  # where each pointer's tag was drawn
        super().__init__(session, services, size)
        self.ctx.gm_mode = False
        self.ctx.gm_edits = False
        self.aids.legend = False  # the small boards would sit under it; the pointers explain instead (L shows it)
        self.dock()  # the board takes the legend's column back, and shows the lesson's small map large
        self.ctx.cam.fit(self.ctx.art.width, self.ctx.art.height)
        self.refresh_panels()
        self._step_status()

    @property
    def session(self) -> LessonSession:
        s = self.ctx.session
        assert isinstance(s, LessonSession)
        return s

    def new_timeline(self) -> Timeline:
        return NoTimeline()

    def time_travel(self) -> TimeTravel:
        return LessonTime(self.ctx, self.timeline, self._log_intro)

    def _log_intro(self) -> None:
        """The log starts with the lesson and its goal, not a game's notes (whose intents are secret,
        whether the map marks walls): the lesson's author drew the board and declares for the NPCs."""
        side = self.ctx.side
        assert side is not None
        lesson = self.session.lesson
        side.log_text(f"{lesson.title}: {lesson.goal}", theme.TEXT)

    # -- layout --------------------------------------------------------------------------------
    def dock(self) -> None:
        """As the play screen's; and the lesson's small map is fitted again to what the docked parts
        leave (the legend's column comes and goes with L), so none of it is hidden."""
        before = self.ctx.frame
        super().dock()
        if self.ctx.frame != before:
            self.ctx.cam.fit(self.ctx.art.width, self.ctx.art.height)

    def resize(self, size: tuple[int, int]) -> None:
        """The play screen's layout with the board shortened by the lesson panel, which sits under it."""
        super().resize(size)
        ctx = self.ctx
        b = ctx.frame.stage
        stage = pygame.Rect(b.x, b.y, b.width, max(120, b.height - PANEL_H))
        ctx.frame = replace(ctx.frame, stage=stage, board=stage.copy())  # the docked parts share what is left
        self.dock()
        view = ctx.frame.board  # (the view as docked, even when docking changed nothing)
        ctx.cam.set_view(view.x, view.y, view.width, view.height)
        ctx.cam.fit(ctx.art.width, ctx.art.height)
        if self.lesson_panel is not None:
            self.lesson_panel.kill()
        self.lesson_panel = LessonPanel(self.manager, pygame.Rect(b.x, stage.bottom, b.width, b.bottom - stage.bottom))
        assert ctx.side is not None
        ctx.side.help.set_text(LESSON_HELP)  # what a lesson needs, not every key of the game
        self.refresh_lesson()

    @property
    def ui_epoch(self) -> tuple[int, ...]:
        panel = self.lesson_panel
        return (*super().ui_epoch, id(panel), panel.epoch if panel is not None else 0)

    def refresh_lesson(self) -> None:
        s = self.session
        if self.lesson_panel is None:
            return
        last = s.step_index == len(s.lesson.steps) - 1
        self.lesson_panel.show(panel_html(s), s.played and not s.complete and self.ctx.player is None,
                               "Done" if last and s.played else "Next")

    def _step_status(self) -> None:
        s = self.session
        self.ctx.set_status(f"Lesson step {s.step_index + 1} of {len(s.lesson.steps)}: {s.step.text}", theme.TEXT)

    # -- the lesson's controls ------------------------------------------------------------------
    def next_step(self) -> None:
        if self.ctx.player is not None:
            return
        if self.session.next_step():
            self.ctx.sel = Selection()
            self._step_status()
        elif self.session.complete:
            self.ctx.set_status(f"Lesson complete: {self.session.lesson.title}. Restart plays it again.", theme.GOOD)
        self.refresh_panels()

    def retry(self, from_start: bool = False) -> None:
        if self.ctx.player is not None:
            return
        self.session.retry(from_start)
        self.time.relog()  # the log as it stood at the start of the step
        self.ctx.sel = Selection()
        self.ctx.ghost = None
        self.ctx.victory_shown = False
        self._step_status()
        self.refresh_panels()

    def restart(self) -> None:
        """Play again (the victory screen's button): the lesson from its first step."""
        self.retry(from_start=True)

    def refresh_panels(self) -> None:
        super().refresh_panels()
        s, top = self.session, self.ctx.top
        if top is not None:  # the lesson, not the encounter's title and a turn number (the panel gives the step)
            top.set_title(s.lesson.title)
        self.refresh_lesson()

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        panel = self.lesson_panel
        if event.type == pygame_gui.UI_BUTTON_PRESSED and panel is not None:
            if event.ui_element is panel.next:
                self.next_step()
                return None
            if event.ui_element is panel.retry:
                self.retry()
                return None
            if event.ui_element is panel.restart:
                self.retry(from_start=True)
                return None
        return super().on_event(event, consumed)

    def resolve_now(self) -> None:
        super().resolve_now()
        self.refresh_lesson()  # a refused Enter says in the panel what the step waits for

    def _finish_turn(self) -> Action | None:
        self.ctx.victory_shown = True  # a lesson's last step may end the combat: the panel says it is complete
        action = super()._finish_turn()
        s = self.session
        if s.pointers:
            rules = ", ".join(dict.fromkeys(p.rule for p in s.pointers))
            self.ctx.set_status(f"Step {s.step_index + 1} played: the marks on the map show the rules behind it "
                            f"({rules}). Next goes on.", theme.GOOD)
        self.refresh_lesson()
        return action

    # -- the pointers on the map ----------------------------------------------------------------
    def on_draw(self, surface: pygame.Surface) -> None:
        super().on_draw(surface)
        if self.ctx.player is not None:
            return
        clip = surface.get_clip()
        surface.set_clip(self.ctx.frame.board)
        if self.session.played:
            self.draw_pointers(surface, self.session.pointers)
        else:
            self.draw_goals(surface)
        surface.set_clip(clip)

    def draw_goals(self, surface: pygame.Surface) -> None:
        """The squares the step asks the learner to move to, dashed, until one of them is declared."""
        s = self.session
        for w in s.step.wants:
            it = s.declared.get(w.who)
            for sq in w.to or ():
                if it is not None and it.to is not None and tuple(it.to) == sq:
                    continue
                poly = [self.ctx.cam.to_screen(*p) for p in self.ctx.layout.polygon(sq)]
                for a, b in zip(poly, poly[1:] + poly[:1], strict=True):
                    overlays.dashed_line(surface, theme.ACCENT, a, b, 3, 8)
                x, y = self.ctx.cam.to_screen(*self.ctx.layout.center(sq))
                tag = theme.text("here", 12, theme.ACCENT, bold=True)
                surface.blit(tag, tag.get_rect(center=(round(x), round(y))))

    def draw_pointers(self, surface: pygame.Surface, shown: tuple[Pointer, ...]) -> None:
        """Each pointer's squares outlined, its tokens ringed, and a numbered tag naming the event in a
        few words with its rule ID ("Ogre's Melee did nothing: Kwirt is out of reach after movement
        (P4)") above its square (the end of a move, else the first it names); a tag that would cover
        another moves up (or down at the top of the board), and none is cut at the board's edge.
        Hovering a tag shows the rule's line (the rules data's) and the event's words in a card."""
        lay, cam = self.ctx.layout, self.ctx.cam
        zoom_cell = lay.cell * cam.zoom
        placed: list[pygame.Rect] = []
        hovered: Pointer | None = None
        for i, p in enumerate(shown, 1):
            self._draw_sight_of(surface, p.event)
            for sq in p.squares:
                overlays.square_outline(surface, cam, lay, sq, POINTER, 3)
            for cid in p.tokens:
                at = self.session.position(cid)
                if at is not None:
                    x, y = cam.to_screen(*lay.center(at))
                    pygame.draw.circle(surface, POINTER, (round(x), round(y)), round(zoom_cell * 0.5), 2)
            if not p.squares:
                continue
            anchor = p.squares[-1] if p.event.type in ("moved", "jumped", "thrown") else p.squares[0]
            x, y = cam.to_screen(*lay.center(anchor))
            board = self.ctx.frame.board
            tag = tag_surface(f"{i}  {p.label or p.event.text}  ({p.rule})", board.width - 16)
            box = tag.get_rect(midbottom=(round(x), round(y - zoom_cell * 0.5 - 4))).inflate(10, 6)
            box.clamp_ip(board)  # never cut at the board's edge: wrapped to its width, then kept inside
            step = -(box.height + 3)
            while any(box.colliderect(r) for r in placed):
                box.move_ip(0, step)
                if box.top < board.top:  # no room above: try below the anchor instead
                    box.top, step = round(y + zoom_cell * 0.5 + 4), box.height + 3
                    if box.bottom > board.bottom:
                        break
                if box.bottom > board.bottom:
                    break
            box.clamp_ip(board)  # (rather over another tag than cut)
            placed.append(box)
            pygame.draw.rect(surface, POINTER, box, border_radius=4)
            pygame.draw.rect(surface, (60, 50, 20), box, 1, border_radius=4)
            surface.blit(tag, tag.get_rect(center=box.center))
            if box.collidepoint(self.ctx.mouse):
                hovered = p
        self.pointer_tags = list(zip(placed, (p for p in shown if p.squares), strict=True))
        if hovered is not None:  # a tag under the pointer opens its rule's line and the event
            lines = [Line(hovered.line, theme.CORE, True), Line(hovered.event.text, theme.TEXT_DIM)]
            self.ctx.cards.draw(surface, lines, self.ctx.mouse, self.ctx.frame.board)

    def _draw_sight_of(self, surface: pygame.Surface, ev: Event) -> None:
        """A ranged contest's lines of sight, as the hover card draws them (R4: amber through cover)."""
        attack = ev.data.get("attack")
        skill = attack.get("skill") if isinstance(attack, dict) else None
        halves = self.ctx.enc.rules.halves
        if ev.type != "contest" or not isinstance(skill, str) or skill not in halves or not halves[skill].ranged:
            return
        for a in ev.data.get("attackers", ()):
            for d in ev.data.get("defenders", ()):
                pa, pd = self.session.position(a), self.session.position(d)
                if pa is not None and pd is not None:
                    overlays.draw_sight(surface, self.ctx.cam, self.ctx.layout, pa, pd, self.session.board)

    def looks(self) -> tuple[object, ...]:
        s = self.session
        return (*super().looks(), s.step_index, s.pointers)


class NoTimeline(Timeline):
    """A lesson's timeline: never shown, so the board keeps the strip a game gives it."""

    @staticmethod
    def shown(where: Where) -> bool:
        return False


class LessonTime(TimeTravel):
    """No timeline in a lesson: it moves by its steps (Retry, Restart), not by rewinding turns."""

    def scrub(self, event: pygame.event.Event, consumed: bool = False) -> bool:
        return False

    def draw(self, surface: pygame.Surface) -> None:
        pass

    def go_to_turn(self, turn: int, log: bool = True) -> None:
        self.ctx.set_status("In a lesson, Retry plays this step again and Restart the whole lesson.", theme.ACCENT)
