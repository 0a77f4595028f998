"""The rules panel (F1) searches the rules and the glossary; every rule ID in the log, on a card and in
an entry opens its entry when clicked (issue 19 item 1). Driven by real input events, headless."""

from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from test_ui import finish_turn, key, press_resolve, ticks, token_pos, type_text  # noqa: E402
from test_ui_panel import click_at, hover  # noqa: E402

from battlemat.ui import aids as aids_module  # noqa: E402
from battlemat.ui.aids import card_rule_spots  # noqa: E402
from battlemat.ui.screens import RulesScreen  # noqa: E402

pytestmark = pytest.mark.ui


def link_spot(box, href: str | None = None) -> tuple[str, tuple[int, int]]:
    """A link of a text box that is in view (the first whose href starts with `href`): its href and
    the screen point of its middle."""
    bx, by = box._calculate_hyperlinks_offsets()
    for chunk in box.link_hover_chunks:
        r = pygame.Rect(bx + chunk.x, by + chunk.y, *chunk.size)
        if box.rect.contains(r) and (href is None or chunk.href.startswith(href)):
            return chunk.href, r.center
    raise AssertionError(f"no link {href or ''} in view")


def test_typing_in_the_f1_search_lists_the_hits_and_shows_the_best(app) -> None:
    """M6: typed 'sticky', the panel lists the word first and M6 after it, and shows the definition;
    picking M6 shows the rule; a word nobody defined gets the close match; a link in an entry opens it."""
    key(app, pygame.K_F1)
    panel = app.stack[-1]
    assert isinstance(panel, RulesScreen) and panel.shown is None  # the whole table, as before
    type_text(app, "sticky")
    ticks(app, 1)
    labels = [item["text"] for item in panel.hits_list.item_list]
    assert labels[:2] == ["sticky (word)", "M6 Sticky"]
    assert panel.shown == "term:sticky" and "cannot move away" in panel.text.html_text
    button = panel.hits_list.item_list[1]["button_element"]
    click_at(app, button.get_abs_rect().center)  # pick M6 in the list
    ticks(app, 1)
    assert panel.shown == "rule:M6" and "[core] Sticky" in panel.text.html_text
    assert "sticky_positions" in panel.text.html_text  # its current values, from the rules data
    panel.field.set_text("")
    type_text(app, "alowance")  # a word nobody defined: said so, with the close match
    ticks(app, 1)
    assert panel.hits == [] and "Did you mean allowance" in panel.text.html_text
    panel.field.set_text("")
    type_text(app, "higher ground")  # R5: the glossary's word links its rule; clicking the link shows R5
    ticks(app, 1)
    assert panel.shown == "term:higher ground"
    href, pos = link_spot(panel.text, "rule:R5")
    click_at(app, pos)
    assert panel.shown == "rule:R5" and "Higher ground and flanking" in panel.text.html_text


def test_clicking_a_rule_id_in_the_log_opens_its_entry(app) -> None:
    """Every rule ID in the log is a link: clicked, the rules panel opens on that rule."""
    press_resolve(app)
    key(app, pygame.K_ESCAPE)  # the playback skipped to the end
    finish_turn(app)
    href, pos = link_spot(app.play.ctx.side.log, "rule:")
    click_at(app, pos)
    ticks(app, 1)
    panel = app.stack[-1]
    assert isinstance(panel, RulesScreen)
    rid = href.split(":")[1]
    assert panel.shown == href and "<b><font color='#" in panel.text.html_text
    assert app.play.ctx.enc.rules.entries[rid].title in panel.text.html_text
    key(app, pygame.K_ESCAPE)
    assert app.stack == [app.play]


def test_clicking_a_rule_id_on_a_card_opens_its_entry(app, monkeypatch) -> None:
    """L3 on a character's card (its defeat threshold): move onto the card, click the ID."""
    monkeypatch.setattr(aids_module, "GRACE", 60.0)  # wall-clock grace to reach the card: not what this tests
    play = app.play
    x, y = token_pos(app, "ogre_boss")
    hover(app, (x, y))
    card = play.aids.card
    assert card is not None
    spots = dict(card_rule_spots(card, play.ctx.enc.rules.entries))
    assert "L3" in spots
    inside = (card.rect.left + 4, card.rect.top + 4)  # onto the card: it holds still
    hover(app, inside)
    assert play.aids.card is not None and play.aids.card.held
    spots = dict(card_rule_spots(play.aids.card, play.ctx.enc.rules.entries))
    click_at(app, spots["L3"].center)
    panel = app.stack[-1]
    assert isinstance(panel, RulesScreen) and panel.shown == "rule:L3"
    key(app, pygame.K_ESCAPE)
    rect, row = next((r, row) for r, row in play.aids.legend_spots if row.rule == "M4")  # a legend row's rule
    click_at(app, rect.center)
    assert isinstance(app.stack[-1], RulesScreen) and app.stack[-1].shown == "rule:M4"


def test_every_window_label_has_a_glossary_entry(app) -> None:
    """The top bar's buttons and every legend row (a move being declared, a shot's bands, the map's
    marks, the teaching overlay) use words the glossary defines."""
    import re

    from test_glossary import _mentions

    from battlemat.teach.glossary import glossary_entry
    from battlemat.ui.panels import TOP_BUTTONS

    play = app.play
    buttons = [re.sub(r"\s+(F\d+|[A-Z])$", "", label) for _, label, _ in TOP_BUTTONS]
    assert not [b for b in buttons if glossary_entry(b) is None]
    rows: set[str] = set()
    key(app, pygame.K_o)
    ctx = play.ctx
    shooter = next(c.id for c in ctx.enc.characters if play.session.is_pc(c.id) and "Shoot" in ctx.skills_of(c.id))
    play.declaring.select(shooter)
    for half in ("Shoot", "Press"):
        play.declaring.choose_skill(half)
        ticks(app, 1)
        rows.update(r.words for r in play.aids.legend_rows())
    assert len(rows) >= 8
    assert not sorted(w for w in rows if not _mentions(w)), "legend words without a glossary entry"
