"""The teaching overlay on the play screen (O, or the Teach button): for tables with new players, every
NPC's declared intent written on the map, the squares it threatens, and numbered phase badges (P1-P4)
saying when each part of it resolves. It shows what is otherwise secret, as GM mode does.

A part of the play screen and a layer of its board view (`boardview.Layer`): its contents are
`teaching_marks.teaching_layer`'s (the resolver's route, reach and sight code, the rules data's phases); this
module only draws them, under the tokens (threats, routes, arrows) and over them (badges, the card).
"""

from __future__ import annotations

import pygame

from battlemat.core.rules import PHASES
from battlemat.ui import cards, overlays, theme
from battlemat.ui.boardview import Layer
from battlemat.ui.cards import Line
from battlemat.ui.context import PlayContext
from battlemat.ui.teaching_marks import IntentMark, TeachingLayer, teaching_layer
from battlemat.ui.timeline import Timeline

REACH_THREAT = (232, 86, 86, 80)  # squares a reach attack strikes in P4
RANGED_THREAT = (250, 150, 60, 60)  # squares in a shot's unpenalized range and sight
# the phases' discs, in the rules' order (P1 to P4): cool to hot as the turn comes to blows
PHASE_COLOURS = dict(zip(PHASES, ((150, 200, 255), (255, 232, 120), (250, 170, 90), (240, 100, 100)), strict=True))


class Teaching(Layer):
    """The play screen's teaching overlay."""

    def __init__(self, ctx: PlayContext, strip: Timeline) -> None:
        self.ctx = ctx
        self.strip = strip  # the timeline's strip: the overlay's card stands above it
        self.on = False
        self.key: object = None  # what the layer was made from
        self.layer: TeachingLayer | None = None
        self.fills: list[overlays.RegionFill] = []

    def toggle(self) -> None:
        self.on = not self.on
        if self.ctx.top is not None:
            self.ctx.top.set_toggle("teach", self.on)
        self.ctx.set_status("Teaching overlay: every NPC's intent, the squares it threatens, and its phases P1-P4 "
                            "(O hides it)." if self.on else "Teaching overlay hidden (O shows it).", theme.TEXT)

    def now(self) -> TeachingLayer | None:
        """The overlay's contents for this turn's declarations (made again when they change), or None
        while it is off."""
        if not self.on:
            return None
        s, lay = self.ctx.session, self.ctx.layout
        key = (id(s), id(s.state), tuple(s.declared.items()), id(lay))
        if key != self.key:
            npcs = [c.id for c in self.ctx.enc.characters if not s.is_pc(c.id)]
            layer = teaching_layer(self.ctx.enc, s.board, s.chars_view(), s.declared, npcs, s.match.memory)
            self.layer, self.key = layer, key
            self.fills = [overlays.RegionFill(lay, m.threatened, REACH_THREAT, REACH_THREAT[:3])
                          if m.threat_kind == "reach" else overlays.RegionFill(lay, m.threatened, RANGED_THREAT)
                          for m in layer.marks if m.threatened]  # (a wide ranged area unoutlined: it stays quiet)
            self.fills.sort(key=lambda f: -len(f.squares))  # the wide ranged areas under the reach zones
        return self.layer

    def legend(self) -> list[overlays.LegendRow]:
        """The legend's rows for the overlay, while it shows (only the kinds of threat on the map)."""
        layer = self.now() if self.ctx.player is None else None
        if layer is None:
            return []
        Row = overlays.LegendRow
        rule = {m.threat_kind: m.threat_rule for m in layer.marks}
        rows = []
        if "reach" in rule:
            rows.append(Row("fill", "an NPC's reach attack strikes here", rule["reach"], REACH_THREAT))
        if "ranged" in rule:
            rows.append(Row("fill", "in an NPC's range and sight", rule["ranged"], RANGED_THREAT))
        rows.append(Row("fill", f"{PHASES[0]}-{PHASES[-1]} disc: the phase it resolves in", "",
                        PHASE_COLOURS[PHASES[1]]))
        return rows

    # -- drawing ---------------------------------------------------------------------------------
    def under_plans(self, surface: pygame.Surface) -> None:
        layer = self.now() if self.ctx.player is None else None
        if layer is not None:
            for fill in self.fills:
                fill.draw(surface, self.ctx.cam)
            for m in layer.marks:
                self._draw_intent(surface, m)

    def _draw_intent(self, surface: pygame.Surface, m: IntentMark) -> None:
        if self.ctx.visible_intent(m.who) and self.ctx.ghost is None:
            return  # GM mode: the board draws this intent already (BoardView.draw_plans)
        lay, cam = self.ctx.layout, self.ctx.cam
        color = self.ctx.color_of(m.who)
        if m.route:
            overlays.draw_route(surface, cam, lay, overlays.RouteShape(m.start, m.route), color)
        if m.target_at is not None and m.target_at != m.end:
            a, b = cam.to_screen(*lay.center(m.end)), cam.to_screen(*lay.center(m.target_at))
            attacks = self.ctx.enc.rules.halves[self.ctx.session.declared[m.who].use].act == "attack"
            overlays.arrow(surface, a, b, overlays.Pen(color, 2, 10, shorten=lay.cell * 0.4 * cam.zoom,
                                                       dashed=not attacks))  # dashed: it watches, not strikes

    def over_board(self, surface: pygame.Surface) -> None:
        """The phase badges and the overlay's card, over the board."""
        layer = self.now() if self.ctx.player is None else None
        if layer is None:
            return
        clip = surface.get_clip()
        surface.set_clip(self.ctx.frame.board)
        lay, cam = self.ctx.layout, self.ctx.cam
        for m in layer.marks:
            end = cam.to_screen(*lay.center(m.end))
            for n, badge in enumerate(m.badges):
                at = cam.to_screen(*lay.center(badge.at))
                if badge.at != m.end:  # an attack: on its arrow, a third of the way to the target
                    at = (end[0] + (at[0] - end[0]) / 3, end[1] + (at[1] - end[1]) / 3)
                elif n and m.badges[n - 1].at == m.end:  # a second badge on the same square: beside the first
                    at = (at[0] + lay.cell * cam.zoom * 0.45, at[1])
                self._draw_badge(surface, badge.phase, (round(at[0]), round(at[1])))
        area = self.ctx.frame.board  # (the strip of turns is docked under it: panels.Frame)
        cards.draw_card(surface, self.lines(layer), area.bottomright, area,
                        max_width=min(560, area.width * 3 // 5))
        surface.set_clip(clip)

    def _draw_badge(self, surface: pygame.Surface, phase: str, at: tuple[int, int]) -> None:
        """A phase number in a disc, centred on a screen point."""
        r = max(9, round(self.ctx.layout.cell * self.ctx.cam.zoom * 0.2))
        pygame.draw.circle(surface, (16, 16, 20), at, r + 2)
        pygame.draw.circle(surface, PHASE_COLOURS.get(phase, theme.TEXT), at, r)
        label = theme.text(phase, max(11, round(r * 1.05)), (16, 16, 20), True)
        surface.blit(label, label.get_rect(center=at))

    def lines(self, layer: TeachingLayer) -> list[Line]:
        """The overlay's card: the phase order, then a line per NPC: its phases in order, its intent,
        what it threatens."""
        order = ", ".join(f"{name} {words}" for name, words in layer.order)
        lines = [Line("Teaching overlay (O): what the NPCs declared", theme.ACCENT, True, 14),
                 Line(f"Phases: {order}", theme.TEXT_DIM, size=13)]
        if not layer.marks:
            lines.append(Line("No NPC has declared an intent this turn.", theme.TEXT_DIM, size=13))
        for m in layer.marks:
            phases = " ".join(dict.fromkeys(b.phase for b in m.badges))
            threat = f" - threatens {len(m.threatened)} sq ({m.threat_rule})" if m.threatened else ""
            lines.append(Line(f"{phases}  {m.words}{threat}", self.ctx.color_of(m.who), False, 13))
        return lines
