"""Issue 17 items 6, 7, 9 and 10 in the window: a log to read at the table, rule tips from the rules
data, stable skill keys, a legend, levels and hazard warnings on the map, numbered token labels.

Driven like test_ui.py: keys, clicks and pointer moves go through pygame's event queue (the pointer
through `pygame.mouse.set_pos`, which SDL turns into a real motion event) and `app.tick()`; widgets
post their own events.
"""

from __future__ import annotations

import dataclasses
import io
from contextlib import redirect_stdout
from pathlib import Path
from types import MappingProxyType

import pytest

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from conftest import ROOT  # noqa: E402
from test_ui import finish_turn, key, make_app, press_resolve, skill_key, square_pos, ticks, token_pos  # noqa: E402

from battlemat.core.elusion import elude  # noqa: E402
from battlemat.labels import labels_by_id, short_labels  # noqa: E402
from battlemat.ui import aids as aids_module  # noqa: E402
from battlemat.ui import tokens  # noqa: E402
from battlemat.ui.aids import card_rule_at  # noqa: E402

pytestmark = pytest.mark.ui

GALLERY = ROOT / "maps" / "art_gallery.toml"

TRAP_MAP = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="10" height="7" tilewidth="48"
 tileheight="48" infinite="0" backgroundcolor="#3a3f4a" nextlayerid="3" nextobjectid="3">
 <layer id="1" name="floor" width="10" height="7"><data encoding="csv">
0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
</data></layer>
 <objectgroup id="2" name="terrain">
  <object id="1" name="floor trap" x="144" y="144" width="48" height="48">
   <properties>
    <property name="hazard" value="Block/Dodge 4 or Perception 3"/>
    <property name="harm" type="int" value="2"/>
   </properties>
  </object>
  <object id="2" name="dais" x="336" y="48" width="96" height="96">
   <properties><property name="level" type="int" value="1"/></properties>
  </object>
 </objectgroup>
</map>
"""

TRAP_ENCOUNTER = """[encounter]
title = "Trap hall"
map = "trap_hall.tmx"

[[character]]
id = "guard"
name = "Guard"
side = "watch"
skills = { "Block/Dodge" = 4, "Melee/Press" = 2 }
at = [1, 3]

[[character]]
id = "clerk"
name = "Clerk"
side = "watch"
skills = { "Block/Dodge" = 2, "Perception/Etiquette" = 2, "Melee/Press" = 2 }
at = [3, 5]

[[character]]
id = "gs1"
name = "Goblin spear 1"
side = "goblins"
skills = { "Melee/Press" = 2 }
at = [8, 1]

[[character]]
id = "gs2"
name = "Goblin spear 2"
side = "goblins"
skills = { "Melee/Press" = 2 }
at = [8, 5]
"""


def trap_hall(tmp_path: Path) -> Path:
    (tmp_path / "trap_hall.tmx").write_text(TRAP_MAP)
    path = tmp_path / "trap_hall.toml"
    path.write_text(TRAP_ENCOUNTER)
    return path


def hover(app, pos: tuple[float, float], frames: int = 2) -> None:
    """Move the pointer as a hand would: SDL moves it and posts the motion event."""
    pygame.mouse.set_pos((round(pos[0]), round(pos[1])))
    ticks(app, frames)


def click_at(app, pos: tuple[float, float]) -> None:
    """Move the pointer there, then press and release the left button."""
    hover(app, pos, 1)
    p = (round(pos[0]), round(pos[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=p, button=1, touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=p, button=1, touch=False))
    ticks(app, 4)  # a widget's event may take a frame or three to come back (a list's pick, then its menu's)


def play_a_turn(app) -> None:
    press_resolve(app)
    key(app, pygame.K_ESCAPE)
    finish_turn(app)


# -- item 6: a log to read at the table --------------------------------------------------------------
def test_the_log_widens_with_the_window_and_b_gives_it_the_whole_panel(app) -> None:
    side = app.play.ctx.side
    narrow = side.log.get_abs_rect().copy()
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1920, 1080), w=1920, h=1080))
    ticks(app, 2)
    side = app.play.ctx.side
    wide = side.log.get_abs_rect().copy()
    assert wide.width > narrow.width + 150 and wide.height > narrow.height
    key(app, pygame.K_b)
    big = app.play.ctx.side.log.get_abs_rect()
    assert big.height > wide.height + 300 and big.bottom <= 1080
    assert not app.play.ctx.side.intents.visible  # the big log covers the declaring widgets...
    play = app.play
    play.declaring.select("garran")
    key(app, skill_key(app, "Dodge"))
    assert play.session.declared["garran"].use == "Dodge"  # ...whose keys still work
    click_at(app, app.play.ctx.side.big.get_abs_rect().center)  # the button puts it back
    assert not app.play.ctx.side.view.big and app.play.ctx.side.intents.visible


def test_the_log_filter_shows_one_characters_lines(app) -> None:
    play = app.play
    play_a_turn(app)
    side = play.ctx.side
    everyone = side.book.render()  # all of it
    menu = side.filter
    click_at(app, menu.get_abs_rect().center)  # open the drop-down, then pick Garran in it
    expanded = menu.menu_states["expanded"]
    row = next(item for item in expanded.options_selection_list.item_list if item["text"].endswith(" Garran"))
    click_at(app, row["button_element"].get_abs_rect().center)
    assert play.ctx.side.view.who == "garran"
    shown = play.ctx.side.log.html_text
    about = [e for e in play.ctx.side.book.entries if e.kind == "event"]
    assert any("garran" in e.who for e in about) and any("garran" not in e.who for e in about)
    for e in about:
        assert (e.html in shown) == ("garran" in e.who), e.plain
    assert "== Turn 1 ==" in shown and len(shown) < len(everyone)


def test_newest_turn_first(app) -> None:
    play = app.play
    play_a_turn(app)
    play_a_turn(app)
    click_at(app, play.ctx.side.newest.get_abs_rect().center)
    text = play.ctx.side.log.html_text
    assert play.ctx.side.view.newest_first and text.index("== Turn 2 ==") < text.index("== Turn 1 ==")
    assert play.ctx.side.log.scroll_bar is None or play.ctx.side.log.scroll_bar.start_percentage == 0.0
    press_resolve(app)  # while turn 3 plays, its lines come in on top (the rest waits: cheap)
    ticks(app, 20, dt=0.1)
    assert play.ctx.player is not None and "== Turn 3 ==" in play.ctx.side.log.html_text
    assert "== Turn 1 ==" not in play.ctx.side.log.html_text
    finish_turn(app)
    text = play.ctx.side.log.html_text
    assert text.index("== Turn 3 ==") < text.index("== Turn 2 ==") < text.index("== Turn 1 ==")


def test_house_marks_are_shown_readably(app) -> None:
    play_a_turn(app)
    text = app.play.ctx.side.book.render()  # what the log shows (appended to the text box as it came)
    assert "[house rule <a href='rule:M11'>M11</a>: <a href='switch:diagonals'>diagonals</a> = alternating]" in text


def _link_pos(side, href: str) -> tuple[int, int]:
    """Where a link of the log is on screen (scrolled into view first)."""
    box = side.log
    chunk = next(c for c in box.link_hover_chunks if c.href == href)
    if box.scroll_bar is not None:
        layout_h = box.text_box_layout.layout_rect.height
        box.scroll_bar.set_scroll_from_start_percentage(max(0.0, (chunk.y - 20) / layout_h))
        box.update(0.0)
    x0, y0 = box.get_text_layout_top_left()
    shift = box.scroll_bar.start_percentage * box.text_box_layout.layout_rect.height if box.scroll_bar else 0
    return round(x0 + chunk.x + chunk.width / 2), round(y0 + chunk.y - shift + chunk.height / 2)


def test_hovering_a_rule_id_in_the_log_shows_the_rules_data(app) -> None:
    play = app.play
    play_a_turn(app)
    rules = play.ctx.enc.rules
    hover(app, _link_pos(play.ctx.side, "rule:C2"))
    entry = rules.entries["C2"]
    assert entry.text in play.ctx.status and "[core]" in play.ctx.status
    assert play.aids.tip is not None and entry.title in play.aids.tip_html
    # the words come from the rules data: change the data, and the tip follows
    changed = dataclasses.replace(entry, text="Changed in the data for this test.", tag="house")
    play.session.enc = dataclasses.replace(
        play.ctx.enc, rules=dataclasses.replace(rules, entries=MappingProxyType({**rules.entries, "C2": changed})))
    hover(app, (5, 5))
    hover(app, _link_pos(play.ctx.side, "rule:C2"))
    assert "Changed in the data for this test." in play.ctx.status and "[house]" in play.ctx.status
    hover(app, _link_pos(play.ctx.side, "switch:diagonals"))
    sw = rules.switches["diagonals"]
    assert sw.doc in play.ctx.status and "[house, M11]" in play.ctx.status


def test_hovering_a_rule_id_on_a_card_shows_its_rule(app, monkeypatch) -> None:
    # The card's grace (aids.GRACE, 0.6 s to reach it) is wall-clock time, which a busy machine's
    # frames can outlast; this test is about the rule under the pointer, so the grace is long here.
    monkeypatch.setattr(aids_module, "GRACE", 60.0)
    play = app.play
    play.declaring.select("garran")
    key(app, skill_key(app, "Press"))
    hover(app, token_pos(app, "ogre_boss"))
    card = play.aids.card
    assert card is not None  # the predicted contest, next to the pointer
    r = card.rect
    spots = [(x, y) for y in range(r.top, r.bottom, 2) for x in range(r.left, r.right, 2)]
    spot = next(p for p in spots if card_rule_at(card, p, play.ctx.enc.rules.entries))
    rid = card_rule_at(card, spot, play.ctx.enc.rules.entries)
    hover(app, token_pos(app, "ogre_boss"))  # the card again: the search above may outlast its grace (aids.GRACE)
    card = play.aids.card
    assert card is not None and card.rect == r
    hover(app, (card.rect.left + 2, card.rect.top + 2), 1)  # onto the card: it holds still
    assert play.aids.card is card and card.held
    hover(app, spot)
    assert play.aids.card is card and play.ctx.enc.rules.entries[rid].text in play.ctx.status
    assert f"[{play.ctx.enc.rules.entries[rid].tag}]" in play.ctx.status


def test_the_status_line_follows_the_pointer(app) -> None:
    play = app.play
    hover(app, token_pos(app, "statue"))
    assert play.ctx.status.startswith("Bergtroll statue [BS], ogres") and "secret" in play.ctx.status
    hover(app, play.ctx.top.buttons["legend"].get_abs_rect().center)
    assert play.ctx.status.startswith("Legend: What the colours")
    play_a_turn(app)
    box = play.ctx.side.log.get_abs_rect()
    y = next(y for y in range(box.bottom - 10, box.top, -5) if play.ctx.side.log_line_at((box.x + 40, y)))
    hover(app, (box.x + 40, y))
    assert play.ctx.status == play.ctx.side.log_line_at((box.x + 40, y))
    assert play.ctx.status in " ".join(play.ctx.side.log_plain.split())
    hover(app, play.ctx.side.resolve.get_abs_rect().center)
    assert play.ctx.status.startswith("Resolve (Enter): Play the turn")


# -- item 7: stable skill keys ------------------------------------------------------------------------
def test_the_same_key_selects_the_same_half_for_characters_with_different_skills(app) -> None:
    play = app.play
    a, b = "parwanna", "garran"
    assert play.ctx.skills_of(a).index("Dodge") != play.ctx.skills_of(b).index("Dodge")  # different lists
    for who in (a, b):
        play.declaring.select(who)
        key(app, skill_key(app, "Dodge"))
        assert play.session.declared[who].use == "Dodge"
        label = next(btn.text for half, btn in play.ctx.side.skill_buttons if half == "Dodge")
        assert label.startswith("S+0 Dodge")  # the key is on the button, the same for both


def test_skills_past_the_tenth_are_reached_by_keys(app) -> None:
    play = app.play
    play.declaring.select("parwanna")
    assert len(play.ctx.skills_of("parwanna")) > 10
    halves = list(play.ctx.enc.rules.halves)
    for half in ("Lore", "Perception", "Escape"):  # Shift+2, Ctrl+3, Ctrl+2: past the tenth half
        assert halves.index(half) >= 10
        key(app, skill_key(app, half))
        assert play.ctx.sel.draft is not None and play.ctx.sel.draft.use == half
    key(app, pygame.K_9)  # Bargain: Parwanna has no rating in it; the key says so and changes nothing
    assert play.ctx.sel.draft.use == "Escape" and "no rating in Bargain/Wonder" in play.ctx.status


# -- item 9: say what the map shows --------------------------------------------------------------------
def test_the_legend_toggles_with_its_key_and_its_button(app) -> None:
    play = app.play
    play.declaring.select("garran")
    key(app, skill_key(app, "Dodge"))
    words = [row.words for _, row in play.aids.legend_spots]
    assert "Garran can end here" in words and "level, lighter when higher" in words
    key(app, pygame.K_l)
    assert not play.aids.legend and play.aids.legend_spots == [] and not play.ctx.top.buttons["legend"].is_selected
    click_at(app, play.ctx.top.buttons["legend"].get_abs_rect().center)
    assert play.aids.legend and play.aids.legend_spots and play.ctx.top.buttons["legend"].is_selected
    rect, row = next((r, row) for r, row in play.aids.legend_spots if row.rule == "M12")
    hover(app, rect.center)
    assert play.ctx.enc.rules.entries["M12"].text in play.ctx.status


def test_the_legend_shows_sticky_zones_and_range_bands(app) -> None:
    play = app.play
    key(app, pygame.K_m)  # GM mode: the ogres' intents are known, so their sticky zones are too
    play.declaring.select("ogre_boss")
    key(app, skill_key(app, "Melee"))
    play.declaring.select("garran")
    key(app, skill_key(app, "Press"))
    ticks(app, 1)
    rows = {row.rule: row.words for _, row in play.aids.legend_spots}
    assert "M6" in rows and play.aids.sticky_zone() is not None
    boss = play.session.position("ogre_boss")
    assert all(max(abs(x - boss[0]), abs(y - boss[1])) == 1 for x, y in play.aids.sticky_zone().squares)
    play.declaring.select("billin")
    key(app, skill_key(app, "Shoot"))
    ticks(app, 1)
    rules = [row.rule for _, row in play.aids.legend_spots]
    assert "R1" in rules and "R4" in rules


def test_levels_are_drawn_on_the_map(app) -> None:
    from battlemat.ui import overlays

    play = app.play
    b = play.session.board
    spots = overlays.level_spots(b.level, 0, 0, b.width, b.height)
    assert spots and all(b.level[y, x] != 0 for x, y in spots)
    raised = {(x, y) for y in range(b.height) for x in range(b.width) if b.level[y, x]}
    assert len(spots) < len(raised) / 3  # a few numbers, not one per square
    shot = app.screen.copy()
    assert overlays.LevelNumbers(play.ctx.layout).draw(shot, play.ctx.cam) == len(spots)  # the whole map is in view
    assert play.aids.levels is not None and play.aids.levels.draw(shot, play.ctx.cam) == len(spots)


def test_a_route_over_a_trap_warns_with_its_text_and_the_movers_own_elusion(tmp_path: Path) -> None:
    app = make_app(tmp_path, str(trap_hall(tmp_path)))
    try:
        ticks(app, 2)
        play = app.play
        trap = (3, 3)
        hz = play.session.board.hazard_at(trap)
        assert hz is not None and hz.name == "floor trap"
        for who, use, to in (("guard", "Dodge", (4, 3)), ("clerk", "Dodge", (3, 2))):
            play.declaring.select(who)
            key(app, skill_key(app, use))
            hover(app, square_pos(app, to))  # the only shortest route from (1, 3) or (3, 5) crosses the trap
            result = elude(play.ctx.enc.by_id[who], hz, play.ctx.enc.rules, 0, use)
            assert "harm 2 unless Block/Dodge 4 or Perception 3" in play.ctx.status
            verdict = f"{play.ctx.enc.by_id[who].name} eludes it" if not result.harm else \
                f"{play.ctx.enc.by_id[who].name} cannot elude it: {result.harm} loss(es)"
            assert verdict in play.ctx.status, play.ctx.status
        assert elude(play.ctx.enc.by_id["guard"], hz, play.ctx.enc.rules, 0, "Dodge").harm == 0
        assert elude(play.ctx.enc.by_id["clerk"], hz, play.ctx.enc.rules, 0, "Dodge").harm == 2
        click_at(app, square_pos(app, (3, 2)))  # the clerk walks on; the log calls the trap by its name
        assert play.session.declared["clerk"].to == (3, 2)
        play_a_turn(app)
        assert "Clerk enters the floor trap [Block/Dodge 4 or Perception 3] at (3, 3)" in play.ctx.side.log_plain
    finally:
        app.close()


def test_the_resolve_command_names_a_hazard_by_its_map_name(tmp_path: Path) -> None:
    from battlemat.cli import main

    path = trap_hall(tmp_path)
    path.write_text(path.read_text() + '[[turn]]\n[[turn.intent]]\nwho = "clerk"\nuse = "Dodge"\n'
                    'path = [[3, 4], [3, 3], [3, 2]]\n')
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["resolve", str(path)]) == 0
    assert "Clerk enters the floor trap [Block/Dodge 4 or Perception 3] at (3, 3)" in out.getvalue()


# -- item 10: duplicate short labels are numbered --------------------------------------------------------
def test_labels_are_numbered_where_initials_repeat() -> None:
    assert short_labels(["Goblin spear 1", "Goblin spear 2", "Goblin archer 1", "Goblin chief"]) == \
        ["GS1", "GS2", "GA", "GC"]
    assert short_labels(["Goblin spear", "Goblin sapper", "Garran"]) == ["GS1", "GS2", "Ga"]
    assert short_labels(["Bandit 3", "Bandit 1", "Kwirt"]) == ["Ba3", "Ba1", "Kw"]  # the names' own numbers
    assert short_labels(["Bandit archer 1", "Bandit archer 2", "Bandit 1", "Bandit 2"]) == \
        ["BA1", "BA2", "Ban1", "Ban2"]  # not Ba1 beside BA1


def test_duplicate_labels_are_numbered_on_tokens_and_in_the_simulate_table(tmp_path: Path) -> None:
    from battlemat.cli import main

    bridge = ROOT / "maps" / "bridge_hex.toml"
    app = make_app(tmp_path, str(bridge))
    try:
        tokens._SPRITES.clear()
        ticks(app, 2)
        drawn = {key[2] for key in tokens._SPRITES}
        labels = labels_by_id(app.play.ctx.enc.characters)
        assert {"GS1", "GS2", "GA1", "GA2"} <= drawn and drawn == set(labels.values())
        assert labels["gob_spear1"] == "GS1" and labels["gob_archer2"] == "GA2"
    finally:
        app.close()
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["simulate", str(bridge), "--runs", "2", "--quiet", "--workers", "1",
                     "--report", str(tmp_path / "report")]) == 0  # replays go there, not beside the bundled map
    rows = {line.split("│")[2].strip(): line.split("│")[1].strip() for line in out.getvalue().splitlines()
            if line.count("│") > 4}
    assert rows["Goblin spear 1"] == "GS1" and rows["Goblin archer 2"] == "GA2" and rows["Brunna"] == "Br"


def test_the_logbook_keeps_turn_headers_and_phases_of_a_filtered_character() -> None:
    """The filter keeps each turn's header, the phase lines over the character's own lines, and says
    when a turn had nothing about it; newest first shows at most NEWEST_FIRST_TURNS turns."""
    from battlemat.ui.logbook import NEWEST_FIRST_TURNS, Entry, LogBook, note_entry

    def turn(t: int, who: str) -> list[Entry]:
        return [Entry(t, "turn", frozenset(), f"<br>T{t}<br>", f"T{t}"),
                Entry(t, "phase", frozenset(), f"P2.{t}<br>", "P2"),
                Entry(t, "event", frozenset({who}), f"{who}{t}<br>", f"{who} {t}"),
                Entry(t, "phase", frozenset(), f"P4.{t}<br>", "P4")]

    book = LogBook([note_entry("intro"), *turn(1, "a"), *turn(2, "b")])
    shown = book.render(who="a", names={"a": "Aldric"})
    assert "P2.1<br>a1" in shown and "P4.1" not in shown and "b2" not in shown and "P2.2" not in shown
    assert "T2" in shown and "nothing about Aldric this turn" in shown and "intro" in shown
    many = LogBook([e for t in range(1, NEWEST_FIRST_TURNS + 5) for e in turn(t, "a")])
    newest = many.render(newest_first=True)
    assert newest.startswith(f"T{NEWEST_FIRST_TURNS + 4}") and "<br>T1<br>" not in newest and "older turns" in newest
    assert "<br>T1<br>" in many.render()  # oldest first: every turn
