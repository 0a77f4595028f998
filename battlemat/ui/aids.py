"""What helps a table read the play screen: the status line follows the pointer, rule IDs explain
themselves on hover, the legend says what the map shows, levels and hazards are drawn where they
are, and a skill key means the same skill half for everyone.

A part of the play screen like `Declaring` and `BoardView` (a mixin over `ScreenState`), placed
before `BoardView` so it can draw under the plans (levels, sticky zones), over them (warnings,
the legend) and hold a card still under the pointer. Everything it says comes from the rules data
(`rules.entries`, `rules.switches`, the halves' order), the movement code (sticky foes) and
`battlemat.core.elusion.elude`, the resolver's own test of a hazard (E1).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UITooltip

from battlemat.core import movement
from battlemat.core.board import Hazard
from battlemat.core.elusion import Elusion, elude
from battlemat.core.events import Event
from battlemat.labels import labels_by_id
from battlemat.log import event_words, hazard_name
from battlemat.types import XY, CharId
from battlemat.ui import cards, overlays, theme
from battlemat.ui import input as keys
from battlemat.ui.cards import Line
from battlemat.ui.logbook import RULE_ID, rule_tip
from battlemat.ui.preview import sticky_uses
from battlemat.ui.session import describe_intent
from battlemat.ui.state import ScreenState

GRACE = 0.6  # seconds a card stays where it was after the pointer leaves its token, to be reached
CARD_PAD = (10, 8)  # where cards.draw_card starts its text inside the card (left, top)


@dataclass
class ShownCard:
    """A card drawn this frame or held under the pointer: what and where, and when it was drawn."""

    lines: list[Line]
    anchor: tuple[int, int]
    bounds: pygame.Rect
    max_width: int
    rect: pygame.Rect
    at: float
    held: bool = False


@dataclass
class AidsState:
    legend: bool = True
    subject: object = None  # what the pointer was on last frame
    tip: UITooltip | None = None
    tip_html: str | None = None
    card: ShownCard | None = None
    drawn: ShownCard | None = None  # the card drawn by this frame's hover, if any
    legend_rows: list[tuple[pygame.Rect, overlays.LegendRow]] = field(default_factory=list)
    sticky: tuple[object, overlays.RegionFill] | None = None
    marks: tuple[object, list[overlays.LegendRow]] | None = None
    levels: overlays.LevelNumbers | None = None
    legend_art: overlays.Legend = field(default_factory=overlays.Legend)


@dataclass(frozen=True)
class HazardWarning:
    """A hazard a route enters (E1), and what `elude` says of the mover there."""

    at: XY
    hazard: Hazard
    name: str
    result: Elusion

    def tag(self) -> str:
        need = overlays.requirement_words(self.hazard.text)
        head = f"{self.name}: harm {self.hazard.harm} unless {need}"
        return f"{head} - eludes" if not self.result.harm else f"{head} - takes {self.result.harm}"

    def words(self, who: str) -> str:
        need = overlays.requirement_words(self.hazard.text)
        r = self.result
        if not r.harm:
            verdict = f"{who} eludes it ({r.by})"
        elif r.by:
            verdict = f"{who} partly eludes it ({r.by}): {r.harm} loss(es)"
        else:
            verdict = f"{who} cannot elude it: {r.harm} loss(es)"
        if r.halved:
            verdict += ", Perception halved: not searching (O2)"
        return f"{self.name} at {self.at}: harm {self.hazard.harm} unless {need} - {verdict} (E1)"


class Aids(ScreenState):
    """The play screen's reading aids."""

    aids: AidsState
    manager: pygame_gui.UIManager
    side: Any
    top: Any

    def init_aids(self) -> None:
        self.aids = AidsState()

    # -- commands ------------------------------------------------------------------------------
    def aid_commands(self) -> dict[str, Callable[[], Any]]:
        return {"legend": self.toggle_legend, "big_log": self.toggle_big_log, "log_newest": self.toggle_newest}

    def toggle_legend(self) -> None:
        self.aids.legend = not self.aids.legend
        if self.top is not None:
            self.top.set_toggle("legend", self.aids.legend)
        self.set_status("Legend shown (L hides it)." if self.aids.legend else "Legend hidden (L shows it).")

    def toggle_big_log(self) -> None:
        if self.side is not None:
            self.side.toggle_big()
            self.set_status("Big log: the skills stay on their keys; B makes it small." if self.side.view.big
                            else "Log back under the skills.")

    def toggle_newest(self) -> None:
        if self.side is not None:
            self.side.toggle_newest()

    # -- skill keys (the same half for every character) -----------------------------------------
    def skill_slots(self) -> dict[str, int]:
        return keys.skill_slots(list(self.enc.rules.halves))

    def skill_key_label(self, half: str, long: bool = False) -> str:
        return keys.slot_label(self.skill_slots().get(half), long)

    def skill_by_slot(self, slot: int) -> None:
        """A skill key: slot `slot` is the same half of the rules data for everyone; a character
        without a rating in it is told so."""
        who = self.sel.who
        halves = list(self.enc.rules.halves)
        if who is None or self.player is not None or slot >= len(halves):
            return
        half = halves[slot]
        if half in self.skills_of(who):
            self.choose_skill(half)  # type: ignore[attr-defined]  # Declaring's
        else:
            pair = self.enc.rules.halves[half].pair
            self.set_status(f"{keys.slot_label(slot, True)} is {half}: {self.enc.by_id[who].name} has no rating "
                            f"in {pair}.", theme.ACCENT)

    # -- the log's cast and words ---------------------------------------------------------------
    def log_words(self, ev: Event) -> str:
        return event_words(ev, self.session.board)

    def panel_cast(self) -> None:
        """Tell the panels who is in the game (the log's filter, its links) and the legend's state."""
        if self.side is not None:
            labels = labels_by_id(self.enc.characters)
            view = self.side.view
            view.ids = frozenset(labels)
            view.rules = self.enc.rules
            view.words = self.log_words
            self.side.set_cast([(c.id, f"{labels[c.id]} {c.name}") for c in self.enc.characters])
            if self.player is None:
                self.side.settle()  # a turn played newest first: the whole log again
        if self.top is not None:
            self.top.set_toggle("legend", self.aids.legend)

    # -- the pointer ---------------------------------------------------------------------------
    def follow_pointer(self) -> None:
        """Each frame: what is under the pointer. When that changes, the status line says what it is
        (a message from an action stays until the pointer moves on); a rule ID shows its rule."""
        subject, words, tip = self._pointed()
        if subject != self.aids.subject:
            self.aids.subject = subject
            if words:
                self.set_status(words[:300], theme.TEXT)
        self._show_tip(tip)

    def _pointed(self) -> tuple[object, str | None, str | None]:
        """(what the pointer is on, words for the status line, HTML of a rule tip)."""
        pos = self.mouse
        if self.frame.board.collidepoint(pos):
            return self._pointed_on_board(pos)
        if self.side is not None and self.frame.side.collidepoint(pos):
            href = self.side.hovered_link()
            if href:
                tip = rule_tip(self.enc.rules, href)
                return ("link", href), tip[1] if tip else href, tip[0] if tip else None
            words = self.side.hovered_words(pos)
            if words:
                return ("widget", words), words, None
            line = self.side.log_line_at(pos)
            if line:
                return ("log", line), line, None
            return ("side",), None, None
        if self.top is not None and self.frame.top.collidepoint(pos):
            for btn in self.top.buttons.values():
                if btn.get_abs_rect().collidepoint(pos):
                    return ("top", btn.text), f"{btn.text}: {btn.tool_tip_text}", None
        return None, None, None

    def _pointed_on_board(self, pos: tuple[int, int]) -> tuple[object, str | None, str | None]:
        for rect, row in self.aids.legend_rows:
            if rect.collidepoint(pos):
                return self._rule_said(("legend", row.words), row.words, row.rule)
        card = self.aids.card
        if card is not None and card.held and card.rect.collidepoint(pos):
            rid = card_rule_at(card, pos, self.enc.rules.entries)
            if rid:
                return self._rule_said(("card", rid), "", rid)
            return ("card",), None, None
        if self.player is None:
            tok = self.token_under(pos)  # type: ignore[attr-defined]  # BoardView's
            if tok is not None:
                return ("token", tok), self.token_words(tok), None
            sq = self.square_under(pos)  # type: ignore[attr-defined]  # BoardView's
            if sq is not None:
                return ("square", sq), self.square_words(sq), None
        return ("board",), None, None

    def square_words(self, sq: XY) -> str:
        """A square's terrain in words, a hazard by its name on the map first."""
        words = super().square_words(sq)  # type: ignore[misc]  # BoardView's
        name = hazard_name(self.session.board, sq)
        return f"{sq}: the {name} - {words.split(': ', 1)[-1]}" if name else words

    def _rule_said(self, subject: object, words: str, rid: str) -> tuple[object, str | None, str | None]:
        tip = rule_tip(self.enc.rules, f"rule:{rid}") if rid else None
        if tip is None:
            return subject, words or None, None
        return subject, (f"{words} ({rid}) - " if words else "") + tip[1], tip[0]

    def token_words(self, cid: CharId) -> str:
        """The status line over a token: who, which label, losses, its intent where this side may know it."""
        c = self.enc.by_id[cid]
        st = self.display_states()[cid]
        label = labels_by_id(self.enc.characters)[cid]
        state = " - defeated" if st.defeated else " - fled" if st.fled else ""
        words = f"{c.name} [{label}], {c.side}: {st.minor} minor, {st.major} major losses{state}"
        it = self.session.declared.get(cid)
        if it is not None and self.visible_intent(cid):
            words += f" - intent: {describe_intent(self.enc, it)}"
        elif not self.visible_intent(cid):
            words += " - intent secret (M: GM mode)"
        return words

    def _show_tip(self, tip: str | None) -> None:
        a = self.aids
        if tip == a.tip_html:
            return
        if a.tip is not None:
            a.tip.kill()
            a.tip = None
        a.tip_html = tip
        if tip:
            a.tip = UITooltip(tip, (0, 18), self.manager, wrap_width=380)
            a.tip.find_valid_position(pygame.math.Vector2(self.mouse))

    def aid_rule_at(self, pos: tuple[int, int]) -> str | None:
        """The rule ID of the legend row or of the held card's line under a screen point (a click there
        opens its entry in the rules panel)."""
        for rect, row in self.aids.legend_rows:
            if rect.collidepoint(pos):
                return row.rule or None
        card = self.aids.card
        if card is not None and card.held and card.rect.collidepoint(pos):
            return card_rule_at(card, pos, self.enc.rules.entries)
        return None

    def on_aid(self, pos: tuple[int, int]) -> bool:
        """Whether a screen point is on the legend or a held card: a click there is not a board click."""
        card = self.aids.card
        return any(r.collidepoint(pos) for r, _ in self.aids.legend_rows) or (
            card is not None and card.held and card.rect.collidepoint(pos))

    # -- cards that hold still under the pointer -------------------------------------------------
    def draw_card(self, surface: pygame.Surface, lines: Sequence[Line], anchor: tuple[int, int],
                  bounds: pygame.Rect, max_width: int = 420) -> pygame.Rect:
        """cards.draw_card, remembered: the pointer may move onto the card to hover its rule IDs."""
        rect = cards.draw_card(surface, lines, anchor, bounds, max_width)
        self.aids.drawn = ShownCard(list(lines), anchor, bounds.copy(), max_width, rect, time.monotonic())
        return rect

    def draw_hover(self, surface: pygame.Surface, hover_tok: CharId | None) -> None:
        a = self.aids
        card = a.card
        now = time.monotonic()
        if card is not None and (card.held or now - card.at < GRACE) and card.rect.collidepoint(self.mouse):
            card.held = True  # the pointer reached the card: it stays while the pointer is on it
            cards.draw_card(surface, card.lines, card.anchor, card.bounds, card.max_width)
            return
        a.drawn = None
        super().draw_hover(surface, hover_tok)  # type: ignore[misc]  # BoardView's
        self._warn_hovered_route(surface)
        if a.drawn is not None:
            a.card = a.drawn
        elif card is not None and not card.held and now - card.at < GRACE:
            cards.draw_card(surface, card.lines, card.anchor, card.bounds, card.max_width)  # on its way to it
        else:
            a.card = None

    # -- drawing under and over the plans ---------------------------------------------------------
    def draw_plans(self, surface: pygame.Surface) -> None:
        if self.art.show_marks:
            if self.aids.levels is None or self.aids.levels.lay is not self.layout:
                self.aids.levels = overlays.LevelNumbers(self.layout)
            self.aids.levels.draw(surface, self.cam)
        zone = self.sticky_zone()
        if zone is not None:
            zone.draw(surface, self.cam)
        super().draw_plans(surface)  # type: ignore[misc]  # BoardView's
        d = self.sel.draft
        if self.player is None and d is not None and self.sel.who is not None and d.path:
            for w in self.route_warnings(self.sel.who, d.use, tuple(d.path)):
                self._draw_warning(surface, w)

    def on_draw(self, surface: pygame.Surface) -> None:
        super().on_draw(surface)  # type: ignore[misc]  # BoardView's
        self.aids.legend_rows = []
        if self.aids.legend:
            clip = surface.get_clip()
            surface.set_clip(self.frame.board)
            b = self.frame.board
            bottom = b.bottom - 8
            timeline = getattr(self, "timeline", None)  # the strip of turns under the board (timeline.py)
            if timeline is not None and timeline.shown(self.session.where()):
                timeline.place(b)
                bottom = timeline.rect.top - 6
            self.aids.legend_rows = self.aids.legend_art.draw(surface, self.legend_rows(), (b.x + 8, bottom))
            surface.set_clip(clip)

    def sticky_zone(self) -> overlays.RegionFill | None:
        """M6: the squares next to the foes whose known intents are sticky, while the selected mover's
        skill does not let it leave them (the movement context the reach is made with)."""
        d, who = self.sel.draft, self.sel.who
        if d is None or who is None or self.player is not None or self.enc.rules.halves[d.use].unstuck:
            return None
        visible = {c: it for c, it in self.session.declared.items() if self.visible_intent(c) and c != who}
        ctx = movement.context(self.enc, self.session.chars_view(), self.enc.by_id[who].side,
                               sticky_uses(self.enc, visible), who=who)
        foes = tuple(sorted(f.at for f in ctx.sticky))
        if not foes:
            return None
        key = (id(self.layout), foes)
        if self.aids.sticky is None or self.aids.sticky[0] != key:
            self.aids.sticky = (key, overlays.sticky_fill(self.layout, foes))
        return self.aids.sticky[1]

    # -- hazards on a route (E1) ------------------------------------------------------------------
    def route_warnings(self, who: CharId, use: str, squares: Sequence[XY]) -> list[HazardWarning]:
        """The hazards a route enters, each with what `elude` (the resolver's test, E1 with O2) says of
        this mover using this half."""
        board = self.session.board
        if not board.hazards:
            return []
        char = self.enc.by_id[who]
        major = self.session.state[who].major
        out = []
        for x, y in squares:
            sq = (int(x), int(y))
            hz = board.hazard_at(sq) if board.inside(sq) else None
            if hz is not None:
                out.append(HazardWarning(sq, hz, hazard_name(board, sq) or "hazard",
                                   elude(char, hz, self.enc.rules, major, use)))
        return out

    def _warn_hovered_route(self, surface: pygame.Surface) -> None:
        """The route under the pointer warns of the hazards it enters, on the map and in the status line."""
        d, who = self.sel.draft, self.sel.who
        if d is None or who is None or self.player is not None:
            return
        hover = self.square_under(self.mouse)  # type: ignore[attr-defined]  # BoardView's
        rc = self.current_reach()
        charging = bool(d.target) and self.enc.rules.halves[d.use].charges  # M7: the charge picks its square
        if rc is None or hover is None or not rc.can_end(hover) or charging:
            return
        warnings = self.route_warnings(who, d.use, rc.route_to(hover).squares)
        for w in warnings:
            self._draw_warning(surface, w)
        if warnings:
            name = self.enc.by_id[who].name
            self.set_status(f"{hover}: reachable, through " + "; ".join(w.words(name) for w in warnings),
                            theme.GOOD if all(not w.result.harm for w in warnings) else theme.BAD)

    def _draw_warning(self, surface: pygame.Surface, w: HazardWarning) -> None:
        x, y = self.cam.to_screen(*self.layout.center(w.at))
        top = y - self.layout.th * self.cam.zoom * 0.5
        overlays.square_outline(surface, self.cam, self.layout, w.at,
                                theme.GOOD if not w.result.harm else theme.BAD, 2)
        overlays.draw_tag(surface, (x, top), w.tag(), theme.GOOD if not w.result.harm else theme.BAD,
                          self.frame.board)

    # -- the legend ------------------------------------------------------------------------------
    def legend_rows(self) -> list[overlays.LegendRow]:
        """What is on the map now: the declaring overlays in view, then the terrain marks this map has."""
        Row = overlays.LegendRow
        rows: list[overlays.LegendRow] = []
        d = self.sel.draft
        if d is not None and self.player is None:
            if self.preview.fill is not None:
                rows.append(Row("fill", f"{self.enc.by_id[self.sel.who].name} can end here", "M1", theme.REACH))
            if self.preview.refused is not None and self.preview.refused.squares:
                rows.append(Row("fill", "cannot end here: hover it for why", "", theme.REFUSED))
            rows.append(Row("route", "route the resolver will take", "", theme.ROUTE))
            if self.aids.sticky is not None and self.sticky_zone() is not None:
                rows.append(Row("zone", "next to a sticky foe", "M6", theme.STICKY))
            half = self.enc.rules.halves[d.use]
            if half.ranged:
                rows.append(Row("sight", "sight: clear, cover, blocked", "R4"))
            bands = self.preview.bands if half.range_per_rating else None
            if bands is not None:
                for (label, _, colour), rule in zip(bands.bands, bands.rules, strict=True):
                    rows.append(Row("band", label, rule, colour))
        if any(it.to is not None for c, it in self.session.declared.items() if self.visible_intent(c)):
            rows.append(Row("declared", "a declared move", "", theme.ACCENT))
        rows += self.teaching_legend()
        if self.art.show_marks:
            rows += self._mark_rows()
        return rows

    def _mark_rows(self) -> list[overlays.LegendRow]:
        """The terrain marks this board has, found once per board."""
        b = self.session.board
        if self.aids.marks is None or self.aids.marks[0] is not b:
            Row = overlays.LegendRow
            have = [
                (bool(b.difficult.any()), Row("hatch", "difficult terrain", "M4")),
                (bool(b.difficult_dirs.any()), Row("chevron", "difficult going this way", "M4")),
                (bool(b.pit.any()), Row("pit", "pit", "M5")),
                (bool(b.cover.any()), Row("cover", "cover", "R4")),
                (bool(b.hazards), Row("hazard", "hazard: hover it", "E1")),
                (bool(b.level.any()), Row("level", "level, lighter when higher", "M12")),
            ]
            self.aids.marks = (b, [row for present, row in have if present])
        return self.aids.marks[1]


def card_rule_spots(card: ShownCard, known: Any) -> list[tuple[str, pygame.Rect]]:
    """Where each rule ID of the rules data (`known`) stands on a card drawn by cards.draw_card (its
    lines laid out from CARD_PAD, one under the other), as screen rectangles."""
    x0, y = card.rect.left + CARD_PAD[0], card.rect.top + CARD_PAD[1]
    out = []
    for ln in card.lines:
        h = theme.text(ln.text, ln.size, ln.color, ln.bold).get_height()
        font = theme.font(ln.size, ln.bold)
        for m in RULE_ID.finditer(ln.text):
            if m.group(1) in known:
                left = x0 + font.size(ln.text[: m.start(1)])[0]
                out.append((m.group(1), pygame.Rect(left, y, font.size(m.group(1))[0], h)))
        y += h + 1
    return out


def card_rule_at(card: ShownCard, pos: tuple[int, int], known: Any) -> str | None:
    """The rule ID under a screen point on a card, among the `known` IDs of the rules data."""
    return next((rid for rid, r in card_rule_spots(card, known) if r.collidepoint(pos)), None)
