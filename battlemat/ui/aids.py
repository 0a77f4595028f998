"""What helps a table read the play screen: the status line follows the pointer, rule IDs explain
themselves on hover, the legend says what the map shows, levels and hazards are drawn where they
are, and a skill key means the same skill half for everyone.

A part of the play screen and a layer of its board view (`boardview.Layer`), so it can draw under
the plans (levels, sticky zones), over them (warnings, the legend) and hold a card still under the
pointer. Everything it says comes from the rules data
(`rules.entries`, `rules.switches`, the halves' order), the movement code (sticky foes) and
`battlemat.core.elusion.elude`, the resolver's own test of a hazard (E1).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import pygame
from pygame_gui.elements import UITooltip

from battlemat.core import movement, uses
from battlemat.core.board import Hazard
from battlemat.core.elusion import Elusion, elude
from battlemat.core.events import Event
from battlemat.core.types import XY, CharId
from battlemat.labels import labels_by_id
from battlemat.log import describe_intent, event_words, hazard_name
from battlemat.ui import cards, overlays, theme, walls_view
from battlemat.ui import input as keys
from battlemat.ui.boardview import BoardView, Layer
from battlemat.ui.cards import ShownCard
from battlemat.ui.context import PlayContext
from battlemat.ui.declaring import Declaring
from battlemat.ui.logbook import RULE_ID, rule_tip
from battlemat.ui.teaching import Teaching
from battlemat.ui.terrain_view import TerrainView
from battlemat.ui.timeline import Timeline

GRACE = 0.6  # seconds a card stays where it was after the pointer leaves its token, to be reached
CARD_PAD = (10, 8)  # where cards.draw_card starts its text inside the card (left, top)


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


class Aids(Layer):
    """The play screen's reading aids: a layer of the board (levels and sticky zones under the plans,
    hazard warnings over them, the legend over the board, a card held still under the pointer) and
    the status line that follows the pointer."""

    def __init__(self, ctx: PlayContext, board: BoardView, declaring: Declaring, teaching: Teaching,
                 strip: Timeline) -> None:
        self.ctx = ctx
        self.board = board
        self.declaring = declaring
        self.teaching = teaching
        self.strip = strip  # the timeline's strip: the legend stands above it
        self.legend = True
        self.subject: object = None  # what the pointer was on last frame
        self.tip: UITooltip | None = None
        self.tip_html: str | None = None
        self.legend_spots: list[tuple[pygame.Rect, overlays.LegendRow]] = []  # where the legend's rows are
        self.dock_card: pygame.Rect | None = None  # where the predicted turn's summary was drawn (the dock)
        self.sticky: tuple[object, overlays.RegionFill] | None = None
        self.marks: tuple[object, list[overlays.LegendRow]] | None = None
        self.levels: overlays.LevelNumbers | None = None
        self.legend_art = overlays.Legend()
        self.terrain_view = TerrainView()  # V: the terrain battlemat understood (check --picture)

    @property
    def card(self) -> ShownCard | None:
        """The card shown last, which holds still while the pointer is on it."""
        return self.ctx.cards.card

    # -- commands ------------------------------------------------------------------------------
    def commands(self) -> dict[str, Callable[[], None]]:
        return {"legend": self.toggle_legend, "big_log": self.toggle_big_log, "log_newest": self.toggle_newest,
                "terrain_view": lambda: self.ctx.set_status(self.terrain_view.toggle())}

    def toggle_legend(self) -> None:
        self.legend = not self.legend
        if self.ctx.top is not None:
            self.ctx.top.set_toggle("legend", self.legend)
        self.ctx.set_status("Legend shown (L hides it)." if self.legend else "Legend hidden (L shows it).")

    def toggle_big_log(self) -> None:
        side = self.ctx.side
        if side is not None:
            side.toggle_big()
            self.ctx.set_status("Big log: the skills stay on their keys; B makes it small." if side.view.big
                                else "Log back under the skills.")

    def toggle_newest(self) -> None:
        if self.ctx.side is not None:
            self.ctx.side.toggle_newest()

    # -- skill keys (the same half for every character) -----------------------------------------
    def skill_slots(self) -> dict[str, int]:
        return keys.skill_slots(list(self.ctx.enc.rules.halves))

    def skill_key_label(self, half: str, long: bool = False) -> str:
        return keys.slot_label(self.skill_slots().get(half), long)

    def skill_by_slot(self, slot: int) -> None:
        """A skill key: slot `slot` is the same half of the rules data for everyone; a character
        without a rating in it is told so."""
        ctx = self.ctx
        who = ctx.sel.who
        halves = list(ctx.enc.rules.halves)
        if who is None or ctx.player is not None or slot >= len(halves):
            return
        half = halves[slot]
        if half in ctx.skills_of(who):
            self.declaring.choose_skill(half)
        else:
            pair = ctx.enc.rules.halves[half].pair
            ctx.set_status(f"{keys.slot_label(slot, True)} is {half}: {ctx.enc.by_id[who].name} has no rating "
                           f"in {pair}.", theme.ACCENT)

    # -- the log's cast and words ---------------------------------------------------------------
    def log_words(self, ev: Event) -> str:
        return event_words(ev, self.ctx.session.board)

    def panel_cast(self) -> None:
        """Tell the panels who is in the game (the log's filter, its links) and the legend's state."""
        ctx = self.ctx
        if ctx.side is not None:
            labels = labels_by_id(ctx.enc.characters)
            view = ctx.side.view
            view.ids = frozenset(labels)
            view.names = {c.id: c.name for c in ctx.enc.characters}
            view.rules = ctx.enc.rules
            view.words = self.log_words
            ctx.side.set_cast([(c.id, f"{labels[c.id]} {c.name}") for c in ctx.enc.characters])
            if ctx.player is None:
                ctx.side.settle()  # a turn played newest first: the whole log again
        if ctx.top is not None:
            ctx.top.set_toggle("legend", self.legend)

    # -- the pointer ---------------------------------------------------------------------------
    def follow_pointer(self) -> None:
        """Each frame: what is under the pointer. When that changes, the status line says what it is
        (a message from an action stays until the pointer moves on); a rule ID shows its rule."""
        subject, words, tip = self._pointed()
        if subject != self.subject:
            self.subject = subject
            if words:
                self.ctx.set_status(words[:300], theme.TEXT)
        self._show_tip(tip)

    def _pointed(self) -> tuple[object, str | None, str | None]:
        """(what the pointer is on, words for the status line, HTML of a rule tip)."""
        ctx = self.ctx
        pos = ctx.mouse
        if ctx.frame.dock.collidepoint(pos):
            for rect, row in self.legend_spots:
                if rect.collidepoint(pos):
                    return self._rule_said(("legend", row.words), row.words, row.rule)
            return ("dock",), None, None
        if ctx.frame.board.collidepoint(pos):
            return self._pointed_on_board(pos)
        if ctx.side is not None and ctx.frame.side.collidepoint(pos):
            href = ctx.side.hovered_link()
            if href:
                tip = rule_tip(ctx.enc.rules, href)
                return ("link", href), tip[1] if tip else href, tip[0] if tip else None
            words = ctx.side.hovered_words(pos)
            if words:
                return ("widget", words), words, None
            line = ctx.side.log_line_at(pos)
            if line:
                return ("log", line), line, None
            return ("side",), None, None
        if ctx.top is not None and ctx.frame.top.collidepoint(pos):
            if ctx.top.title.get_abs_rect().collidepoint(pos) and ctx.top.full_title:
                return ("title",), ctx.top.full_title, None  # the whole title, however narrow the window
            for btn in ctx.top.buttons.values():
                if btn.get_abs_rect().collidepoint(pos):
                    return ("top", btn.text), f"{btn.text}: {btn.tool_tip_text}", None
        return None, None, None

    def _pointed_on_board(self, pos: tuple[int, int]) -> tuple[object, str | None, str | None]:
        card = self.card
        if card is not None and card.held and card.rect.collidepoint(pos):
            rid = card_rule_at(card, pos, self.ctx.enc.rules.entries)
            if rid:
                return self._rule_said(("card", rid), "", rid)
            return ("card",), None, None
        if self.ctx.player is None:
            tok = self.board.token_under(pos)
            if tok is not None:
                return ("token", tok), self.token_words(tok), None
            sq = self.board.square_under(pos)
            if sq is not None:
                return ("square", sq), self.board.square_words(sq), None
        return ("board",), None, None

    def _rule_said(self, subject: object, words: str, rid: str) -> tuple[object, str | None, str | None]:
        tip = rule_tip(self.ctx.enc.rules, f"rule:{rid}") if rid else None
        if tip is None:
            return subject, words or None, None
        return subject, (f"{words} ({rid}) - " if words else "") + tip[1], tip[0]

    def token_words(self, cid: CharId) -> str:
        """The status line over a token: who, which label, losses, its intent where this side may know it."""
        ctx = self.ctx
        c = ctx.enc.by_id[cid]
        st = ctx.display_states()[cid]
        label = labels_by_id(ctx.enc.characters)[cid]
        state = " - defeated" if st.defeated else " - fled" if st.fled else ""
        words = f"{c.name} [{label}], {c.side}: {st.minor} minor, {st.major} major losses{state}"
        it = ctx.session.declared.get(cid)
        if it is not None and ctx.visible_intent(cid):
            words += f" - intent: {describe_intent(ctx.enc, it)}"
        elif not ctx.visible_intent(cid):
            words += " - intent secret (M: GM mode)"
        return words

    def _show_tip(self, tip: str | None) -> None:
        if tip == self.tip_html:
            return
        if self.tip is not None:
            self.tip.kill()
            self.tip = None
        self.tip_html = tip
        if tip:
            self.tip = UITooltip(tip, (0, 18), self.ctx.manager, wrap_width=380)
            self.tip.find_valid_position(pygame.math.Vector2(self.ctx.mouse))

    def aid_rule_at(self, pos: tuple[int, int]) -> str | None:
        """The rule ID of the legend row or of the held card's line under a screen point (a click there
        opens its entry in the rules panel; anywhere else on a card, a click is the board's)."""
        for rect, row in self.legend_spots:
            if rect.collidepoint(pos):
                return row.rule or None
        card = self.card
        if card is not None and card.held and card.rect.collidepoint(pos):
            return card_rule_at(card, pos, self.ctx.enc.rules.entries)
        return None

    # -- cards that hold still under the pointer (the board's hover) ------------------------------
    def hover(self, surface: pygame.Surface) -> bool:
        """The held card, while the pointer is on it, instead of the board's hover."""
        cm = self.ctx.cards
        card = cm.card
        if card is not None and (card.held or time.monotonic() - card.at < GRACE) \
                and card.rect.collidepoint(self.ctx.mouse) and not self._token_beneath(card):
            card.held = True  # the pointer reached the card: it stays while the pointer is on it
            cards.draw_card(surface, card.lines, card.anchor, card.bounds, card.max_width)
            return True
        cm.drawn = None
        return False

    def _token_beneath(self, card: ShownCard) -> bool:
        """Whether the pointer on a card is over a token the card covers (and not on a rule ID of the
        card): the token's hover wins and the card gives way, so a card never hides the foe about to
        be clicked."""
        pos = self.ctx.mouse
        return self.board.token_under(pos) is not None and \
            card_rule_at(card, pos, self.ctx.enc.rules.entries) is None

    def after_hover(self, surface: pygame.Surface) -> None:
        """Hazards on the hovered route; the card drawn by the board's hover is the one to hold, or
        the last one stays a moment on its way to the pointer."""
        self._warn_hovered_route(surface)
        cm = self.ctx.cards
        card = cm.card
        if cm.drawn is not None:
            cm.card = cm.drawn
        elif card is not None and not card.held and time.monotonic() - card.at < GRACE:
            cards.draw_card(surface, card.lines, card.anchor, card.bounds, card.max_width)  # on its way to it
        else:
            cm.card = None

    # -- drawing under and over the plans ---------------------------------------------------------
    def under_plans(self, surface: pygame.Surface) -> None:
        ctx = self.ctx
        if ctx.art.show_marks:
            if self.levels is None or self.levels.lay is not ctx.layout:
                self.levels = overlays.LevelNumbers(ctx.layout)
            self.levels.draw(surface, ctx.cam)
        self.terrain_view.draw(surface, ctx.cam, ctx.session.board, ctx.layout)
        zone = self.sticky_zone()
        if zone is not None:
            zone.draw(surface, ctx.cam)

    def over_plans(self, surface: pygame.Surface) -> None:
        ctx = self.ctx
        d = ctx.sel.draft
        if ctx.player is None and d is not None and ctx.sel.who is not None and d.path:
            for w in self.route_warnings(ctx.sel.who, d.use, tuple(d.path)):
                self._draw_warning(surface, w)

    def over_board(self, surface: pygame.Surface) -> None:
        """The dock column beside the board (panels.Frame.dock): the predicted turn's summary at its
        top (P, prediction.py), the legend at its bottom. Never over the board; when both do not fit,
        the summary keeps at least half the column and the legend shows what is left of its top rows."""
        ctx = self.ctx
        self.legend_spots = []
        self.dock_card = None
        dock = ctx.frame.dock
        if not dock.width:
            return
        clip = surface.get_clip()
        surface.set_clip(dock)
        surface.fill(theme.BG, dock)
        pygame.draw.line(surface, theme.PANEL_EDGE, dock.topright, (dock.right, dock.bottom - 1))
        room = dock.inflate(-12, -12)
        rows = self.legend_rows() if self.legend else []
        legend_h = self.legend_art.height_of(rows, room.width) if rows else 0
        free_top = room.top
        g = ctx.ghost
        if g is not None and ctx.player is None:
            bottom = max(room.top + room.height // 2, room.bottom - legend_h - 6)
            area = pygame.Rect(room.x, room.y, room.width, bottom - room.y)
            self.dock_card = cards.draw_card(surface, g.card, (area.x - 18, area.y - 18), area, area.width)
            free_top = self.dock_card.bottom + 6
        if self.legend:
            surface.set_clip(pygame.Rect(dock.x, free_top, dock.width, max(0, dock.bottom - free_top)))
            if rows:
                self.legend_spots = [(r, row) for r, row in self.legend_art.draw(
                    surface, rows, (room.x, room.bottom), room.width) if r.top >= free_top]
            else:
                surface.blit(theme.text("Legend (L): nothing marked here", 13, theme.TEXT_DIM),
                             (room.x + 4, room.bottom - 20))
        surface.set_clip(clip)

    def sticky_zone(self) -> overlays.RegionFill | None:
        """M6: the squares next to the foes whose known intents are sticky, while the selected mover's
        skill does not let it leave them (the movement context the reach is made with)."""
        ctx = self.ctx
        d, who = ctx.sel.draft, ctx.sel.who
        if d is None or who is None or ctx.player is not None or ctx.enc.rules.halves[d.use].unstuck:
            return None
        visible = {c: it for c, it in ctx.session.declared.items() if ctx.visible_intent(c) and c != who}
        mctx = movement.context(ctx.enc, ctx.session.chars_view(), ctx.enc.by_id[who].side,
                                uses.sticky_uses(ctx.enc.rules, visible), who=who)
        foes = tuple(sorted(f.at for f in mctx.sticky))
        if not foes:
            return None
        board = ctx.session.board
        key = (id(ctx.layout), id(board), foes)
        if self.sticky is None or self.sticky[0] != key:
            self.sticky = (key, overlays.sticky_fill(ctx.layout, foes, board))
        return self.sticky[1]

    # -- hazards on a route (E1) ------------------------------------------------------------------
    def route_warnings(self, who: CharId, use: str, squares: Sequence[XY]) -> list[HazardWarning]:
        """The hazards a route enters, each with what `elude` (the resolver's test, E1 with O2) says of
        this mover using this half."""
        board = self.ctx.session.board
        if not board.hazards:
            return []
        char = self.ctx.enc.by_id[who]
        major = self.ctx.session.state[who].major
        out = []
        for x, y in squares:
            sq = (int(x), int(y))
            hz = board.hazard_at(sq) if board.inside(sq) else None
            if hz is not None:
                out.append(HazardWarning(sq, hz, hazard_name(board, sq) or "hazard",
                                         elude(char, hz, self.ctx.enc.rules, major, use)))
        return out

    def _warn_hovered_route(self, surface: pygame.Surface) -> None:
        """The route under the pointer warns of the hazards it enters, on the map and in the status line."""
        ctx = self.ctx
        d, who = ctx.sel.draft, ctx.sel.who
        if d is None or who is None or ctx.player is not None:
            return
        hover = self.board.square_under(ctx.mouse)
        rc = self.declaring.current_reach()
        charging = uses.charge_picks_square(ctx.enc.rules, d.use, d.target)  # M7: the charge picks its square
        if rc is None or hover is None or not rc.can_end(hover) or charging:
            return
        warnings = self.route_warnings(who, d.use, rc.route_to(hover).squares)
        for w in warnings:
            self._draw_warning(surface, w)
        if warnings:
            name = ctx.enc.by_id[who].name
            ctx.set_status(f"{hover}: reachable, through " + "; ".join(w.words(name) for w in warnings),
                           theme.GOOD if all(not w.result.harm for w in warnings) else theme.BAD)

    def _draw_warning(self, surface: pygame.Surface, w: HazardWarning) -> None:
        cam, lay = self.ctx.cam, self.ctx.layout
        x, y = cam.to_screen(*lay.center(w.at))
        top = y - lay.th * cam.zoom * 0.5
        overlays.square_outline(surface, cam, lay, w.at, theme.GOOD if not w.result.harm else theme.BAD, 2)
        overlays.draw_tag(surface, (x, top), w.tag(), theme.GOOD if not w.result.harm else theme.BAD,
                          self.ctx.frame.board)

    # -- the legend ------------------------------------------------------------------------------
    def legend_rows(self) -> list[overlays.LegendRow]:
        """What is on the map now: the declaring overlays in view, then the terrain marks this map has."""
        ctx = self.ctx
        Row = overlays.LegendRow
        rows: list[overlays.LegendRow] = []
        d, who = ctx.sel.draft, ctx.sel.who
        if d is not None and ctx.player is None:
            if ctx.preview.fill is not None and who is not None:
                rows.append(Row("fill", f"{ctx.enc.by_id[who].name} can end here", "M1", theme.REACH))
            if ctx.preview.refused is not None and ctx.preview.refused.squares:
                rows.append(Row("fill", "cannot end here: hover it for why", "", theme.REFUSED))
            rows.append(Row("route", "route the resolver will take", "", theme.ROUTE))
            if self.sticky is not None and self.sticky_zone() is not None:
                rows.append(Row("zone", "next to a sticky foe", "M6", theme.STICKY))
            half = ctx.enc.rules.halves[d.use]
            if half.ranged:
                rows.append(Row("sight", "sight: clear, cover, blocked", "R4"))
            bands = ctx.preview.bands if half.range_per_rating else None
            if bands is not None:
                for (label, _, colour), rule in zip(bands.bands, bands.rules, strict=True):
                    rows.append(Row("band", label, rule, colour))
        if any(it.to is not None for c, it in ctx.session.declared.items() if ctx.visible_intent(c)):
            rows.append(Row("declared", "a declared move", "", theme.ACCENT))
        rows += self.teaching.legend()
        rows += self.terrain_view.legend_rows(ctx.session.board, ctx.layout)
        if not self.terrain_view.on:  # (the terrain view counts them)
            rows += walls_view.legend_rows(ctx.session.board, ctx.gm_mode)
        if ctx.art.show_marks:
            rows += self._mark_rows()
        return rows

    def _mark_rows(self) -> list[overlays.LegendRow]:
        """The terrain marks this board has, found once per board."""
        b = self.ctx.session.board
        if self.marks is None or self.marks[0] is not b:
            Row = overlays.LegendRow
            have = [
                (bool(b.difficult.any()), Row("hatch", "difficult terrain", "M4")),
                (bool(b.difficult_dirs.any()), Row("chevron", "difficult going this way", "M4")),
                (bool(b.pit.any()), Row("pit", "pit", "M5")),
                (bool(b.cover.any()), Row("low_wall" if self.ctx.art.arena else "cover", "cover", "R4")),
                (bool(b.hazards), Row("hazard", "hazard: hover it", "E1")),
                (bool(b.level.any()), Row("level", "level, lighter when higher", "M12")),
            ]
            self.marks = (b, [row for present, row in have if present])
        return self.marks[1]


def card_rule_spots(card: ShownCard, known: Collection[str]) -> list[tuple[str, pygame.Rect]]:
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


def card_rule_at(card: ShownCard, pos: tuple[int, int], known: Collection[str]) -> str | None:
    """The rule ID under a screen point on a card, among the `known` IDs of the rules data."""
    return next((rid for rid, r in card_rule_spots(card, known) if r.collidepoint(pos)), None)
