"""Declaring a turn: select, pick a skill, target, move, GM touches, undo - and the preview.

Input becomes intents only through `Session.declare`, which validates them with the resolver
(one door, STYLE.md 7). The reach, route and range bands shown while declaring come from the same
movement code the resolver runs, so what the player sees is what will happen.
"""

from __future__ import annotations

from dataclasses import replace

from battlemat.core import uses
from battlemat.core.encounter import Encounter
from battlemat.core.errors import IllegalIntent
from battlemat.core.intents import Intent
from battlemat.core.movement import Reach
from battlemat.core.ranges import bands
from battlemat.core.rating import Modifier, standing
from battlemat.core.rules import Half
from battlemat.core.types import XY, CharId
from battlemat.log import describe_intent
from battlemat.ui import overlays, theme
from battlemat.ui.context import MovePreview, PlayContext, Selection
from battlemat.ui.move_preview import allowance_of, reach_for, refusal_text


def takes_target(half: Half) -> bool:
    """Whether clicking another side's token sets this half's target. Every act of the rules data
    names someone (attack, defend, flee, observe, hide, item) but "none" (Acrobatics, Escape...): the
    rules' own answer (`uses.takes_target`, which refuses a target on the others)."""
    return uses.half_takes_target(half)


class Declaring:
    """The play screen's declaring part: the selection, its draft intent and the move preview."""

    def __init__(self, ctx: PlayContext) -> None:
        self.ctx = ctx

    def select(self, cid: CharId | None) -> None:
        if cid is not None and not self.ctx.controllable(cid):
            self.ctx.set_status(f"{self.ctx.enc.by_id[cid].name} is an NPC: turn on GM mode (M) to see and edit "
                                "its intent.")
            return
        existing = self.ctx.session.declared.get(cid) if cid else None
        self.ctx.sel = Selection(cid, existing)
        if cid:
            self.ctx.set_status(f"{self.ctx.enc.by_id[cid].name}: pick a skill (its key or its button).", theme.TEXT)
        self.ctx.refresh()

    def cycle(self, step: int = 1) -> None:
        ids = [c for c in self.ctx.session.active() if self.ctx.controllable(c)]
        if not ids:
            return
        if self.ctx.sel.who in ids:
            i = (ids.index(self.ctx.sel.who) + step) % len(ids)
        else:
            i = 0
        self.select(ids[i])

    def choose_skill(self, half: str) -> None:
        who = self.ctx.sel.who
        if who is None:
            self.ctx.set_status("Select a character first (Tab or click its token).", theme.ACCENT)
            return
        old = self.ctx.sel.draft
        target = old.target if old is not None else None
        if not uses.takes_target(self.ctx.enc.rules, half):  # a half that acts on nobody keeps no target (validate)
            target = None
        self.ctx.sel.draft = Intent(who, half, target, item="simple")
        self.commit()

    def set_target(self, cid: CharId) -> None:
        d = self.ctx.sel.draft
        if d is None:
            return
        if uses.aims_at_target(self.ctx.enc.rules, d.use):  # their squares depend on the target (M7, M8)
            self.ctx.sel.draft = replace(d, target=cid, to=None, path=())
        else:
            self.ctx.sel.draft = replace(d, target=cid)
        self.commit()

    def set_destination(self, sq: XY) -> None:
        d = self.ctx.sel.draft
        if d is None or self.ctx.sel.who is None:
            return
        here = self.ctx.session.position(self.ctx.sel.who)
        rc = self.current_reach()
        if sq == here:
            self.ctx.sel.draft = replace(d, to=None, path=())
        elif rc is None:
            self.ctx.sel.draft = replace(d, to=sq, path=())
        elif rc.can_end(sq):
            self.ctx.sel.draft = replace(d, to=sq, path=tuple(rc.route_to(sq).squares))
        else:
            rule, why = refusal_text(rc.why_not(sq))
            self.ctx.set_status(f"Cannot end on {sq}: {why} [{rule}]", theme.BAD)
            return
        self.commit()

    def commit(self) -> None:
        """Declare the draft if the rules accept it; otherwise say what is missing."""
        d = self.ctx.sel.draft
        if d is None:
            return
        if uses.charge_picks_square(self.ctx.enc.rules, d.use, d.target):  # M7: the charge picks its own square
            rc = self.current_reach()
            if rc is not None and rc.costs:
                end = next(iter(rc.costs))
                path = tuple(rc.route_to(end).squares)
                d = replace(d, to=end if path else None, path=path)
                self.ctx.sel.draft = d
        try:
            self.ctx.session.declare(d)
        except IllegalIntent as exc:
            if d.who in self.ctx.session.declared and self.ctx.session.declared[d.who].use != d.use:
                self.ctx.session.clear(d.who)
            rule = f" [{exc.rule}]" if exc.rule else ""
            need = " - click a target" if "needs a target" in exc.reason else ""
            self.ctx.set_status(f"Not declared yet: {self.ctx.enc.by_id[d.who].name} - {exc.reason}{rule}{need}",
                            theme.ACCENT)
            self.ctx.refresh()
            return
        self.ctx.set_status(f"Declared: {describe_intent(self.ctx.enc, d)}", theme.GOOD)
        self.ctx.refresh()

    def adjust(self, cmd: str) -> None:
        """GM touches on the selected intent: a situational modifier (S6, net -2..+2 per intent),
        shouting what an observation learns (O6), the kind of item used (M1)."""
        d = self.ctx.sel.draft
        if d is None:
            self.ctx.set_status("Select a character and a skill first.", theme.ACCENT)
            return
        if cmd in ("mod_minus", "mod_plus"):
            step = -1 if cmd == "mod_minus" else 1
            net = sum(m.value for m in d.modifiers) + step
            if abs(net) > 2:
                self.ctx.set_status("A GM modifier is at most +-2 for one skill use (S6).", theme.ACCENT)
                return
            mods = (Modifier(net, "GM ruling"),) if net else ()
            self.ctx.sel.draft = replace(d, modifiers=mods)
        elif cmd == "shout":
            self.ctx.sel.draft = replace(d, share=not d.share)
        elif cmd == "item_kind":
            if self.ctx.enc.rules.halves[d.use].act != "item":
                self.ctx.set_status("I cycles the kind of item: pick the item skill first.", theme.ACCENT)
                return
            kinds = list(self.ctx.enc.rules.item_move)
            self.ctx.sel.draft = replace(d, item=kinds[(kinds.index(d.item) + 1) % len(kinds)], to=None, path=())
        self.commit()

    def add_secondary(self, cid: CharId) -> None:
        """C7: Melee talent strikes extra adjacent foes; Shift+click adds (or removes) one."""
        d = self.ctx.sel.draft
        if d is None or not self.ctx.enc.rules.halves[d.use].sweeps or cid == d.target:
            self.ctx.set_status("Shift+click adds a secondary target to a Melee attack (C7).", theme.ACCENT)
            return
        also = tuple(a for a in d.also if a != cid) if cid in d.also else d.also + (cid,)
        self.ctx.sel.draft = replace(d, also=also)
        self.commit()

    def undo(self) -> None:
        if self.ctx.session.undo():
            who = self.ctx.sel.who
            self.ctx.sel.draft = self.ctx.session.declared.get(who) if who else None
            self.ctx.set_status("Undone.", theme.TEXT)
        elif self.ctx.session.turn > 1:
            self.ctx.set_status("Nothing to undo: no declaration changed this turn. PgUp goes back a turn "
                            "(or click the timeline under the board).", theme.ACCENT)
        else:
            self.ctx.set_status("Nothing to undo: no declaration changed this turn.", theme.ACCENT)
        self.ctx.refresh()

    def clear(self) -> None:
        if self.ctx.sel.who:
            self.ctx.session.clear(self.ctx.sel.who)
            self.ctx.sel.draft = None
        self.ctx.refresh()

    def current_reach(self) -> Reach | None:
        d, who = self.ctx.sel.draft, self.ctx.sel.who
        if d is None or who is None or self.ctx.player is not None:
            return None
        s = self.ctx.session
        visible = {c: it for c, it in s.declared.items() if self.ctx.visible_intent(c) and c != who}
        rc = reach_for(self.ctx.enc, s.board, s.chars_view(), d, visible, s.match.memory)
        # The same question gets the same answer object back (the movement memo), so the shapes drawn
        # for it are kept by that answer: no key of our own to keep in step with the rules.
        if rc is not self.ctx.preview.reach or rc is None:
            self.ctx.preview = MovePreview(reach=rc)
            if rc is not None:
                self.ctx.preview.fill, self.ctx.preview.refused = overlays.reach_regions(self.ctx.layout, rc)
        return self.ctx.preview.reach

    def current_bands(self) -> overlays.RangeBands | None:
        d, who = self.ctx.sel.draft, self.ctx.sel.who
        if d is None or who is None or not self.ctx.enc.rules.halves[d.use].range_per_rating:  # R1: no range band
            return None
        origin = d.to if d.to is not None else self.ctx.session.position(who)
        if origin is None:
            return None
        rings = bands(self.ctx.enc.rules, self.ctx.enc.by_id[who], d.use,  # R1, R3: the resolver's own numbers
                      self.ctx.session.state[who].major)
        key = (tuple(origin), tuple(rings))  # the shapes are drawn again only when what they show changes
        if key != self.ctx.preview.bands_key:
            diagonals = self.ctx.enc.rules.switch_str("diagonals")
            self.ctx.preview.bands = overlays.RangeBands(self.ctx.layout, origin, rings, diagonals)
            self.ctx.preview.bands_key = key
        return self.ctx.preview.bands


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
