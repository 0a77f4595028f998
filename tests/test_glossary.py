"""Rules search and the glossary (issue 19 item 1): `battlemat rules WORDS` finds rules by ID, title,
text and glossary; the glossary defines every word the resolver's events and the log emit."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT

from battlemat.cli import main
from battlemat.core.events import TYPES, Event
from battlemat.core.match import Match
from battlemat.core.rating import Rating
from battlemat.core.resolver import PHASES
from battlemat.io.cases import load_case
from battlemat.io.encounter import load_encounter
from battlemat.io.rules_file import load_rules
from battlemat.log import format_rule, format_state
from battlemat.teach.glossary import glossary, glossary_entry, normal
from battlemat.teach.rule_cases import run_case
from battlemat.teach.rules_search import search, suggestions

RATINGS = ("attack", "defense", "rating", "perception", "stealth", "escape")


# -- the command ---------------------------------------------------------------------------------------
def test_rules_sticky_finds_the_glossary_word_and_M6(capsys: pytest.CaptureFixture[str]) -> None:
    """M6: `battlemat rules sticky` defines the word and names the rule behind it."""
    assert main(["rules", "sticky"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("sticky (glossary)")
    assert "Rules: M6 Sticky" in out
    assert re.search(r"^  M6 +rule ", out, re.M)


def test_rules_allowance_explains_the_word(capsys: pytest.CaptureFixture[str]) -> None:
    """M1: 'allowance' is explained in words, with M1-M3 by title."""
    assert main(["rules", "allowance"]) == 0
    out = capsys.readouterr().out
    assert "How many squares a character may move" in out and "M1 Movement allowance" in out


def test_rules_with_an_id_shows_the_rule_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    """M6 by its ID, any case: the rule with its current values, nothing else."""
    assert main(["rules", "m6"]) == 0
    assert capsys.readouterr().out == format_rule(load_rules(), "M6") + "\n"


def test_rules_words_unquoted_are_one_query(capsys: pytest.CaptureFixture[str]) -> None:
    """R5: several words are searched together."""
    assert main(["rules", "higher", "ground"]) == 0
    assert capsys.readouterr().out.startswith("higher ground (glossary)")


def test_nothing_found_exits_1_with_the_close_match(capsys: pytest.CaptureFixture[str]) -> None:
    """A search that finds nothing is not bad input (exit 1, as grep); it offers the close match."""
    assert main(["rules", "stiky"]) == 1
    err = capsys.readouterr().err
    assert "nothing in the rules or the glossary matches 'stiky'" in err and "'sticky'" in err
    assert main(["rules", "xyzzy", "plugh"]) == 1


# -- ranking ----------------------------------------------------------------------------------------------
def test_ranking_id_then_term_then_name_then_text() -> None:
    """R4 'cover': the glossary word first, then the rule titled with it, then rules whose text holds it."""
    hits = search("cover")
    ranks = [h.rank for h in hits]
    assert ranks == sorted(ranks, key=["id", "term", "name", "text"].index)
    assert hits[0].href == "term:cover" and hits[1].href == "rule:R4"
    assert any(h.rank == "text" and h.kind == "rule" for h in hits)
    assert search("m6")[0].href == "rule:M6" and search("m6")[0].rank == "id"


def test_search_finds_switch_values_the_log_shows() -> None:
    """M11: a house mark 'diagonals = alternating' can be looked up by its value."""
    assert "switch:diagonals" in [h.href for h in search("alternating")]


def test_suggestions_for_a_typo() -> None:
    assert "allowance" in suggestions("alowance")


# -- the glossary's data -----------------------------------------------------------------------------------
def test_every_glossary_entry_names_rules_that_exist() -> None:
    known = set(load_rules().entries)
    for entry in glossary():
        assert set(entry.rules) <= known, f"{entry.term}: unknown rule IDs {set(entry.rules) - known}"
        assert entry.text.strip(), entry.term


def test_no_two_entries_claim_one_word() -> None:
    seen: dict[str, str] = {}
    for entry in glossary():
        for name in (entry.term, *entry.aliases):
            n = normal(name)
            assert seen.setdefault(n, entry.term) == entry.term, f"{name!r}: {seen[n]} and {entry.term}"


# -- every word the record uses is defined ------------------------------------------------------------------
def _played() -> Iterator[tuple[Event, frozenset[str]]]:
    """The events of every rule case and every worked example, with their encounters' character ids."""
    for path in sorted((ROOT / "cases").glob("*.toml")):
        case = load_case(path)
        ids = frozenset(case.encounter.by_id)
        for events in run_case(case).events:
            yield from ((ev, ids) for ev in events)
    for path in sorted(EXAMPLES.glob("*.toml")):
        enc = load_encounter(path)
        for _, events in Match(enc).play_scripted():
            yield from ((ev, frozenset(enc.by_id)) for ev in events)


def _keys(value: object, ids: frozenset[str], out: set[str]) -> None:
    """The JSON field names in an event (a character id used as a key, as in `state`, is no field)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in ids:
                out.add(k)
            _keys(v, ids, out)
    elif isinstance(value, list):
        for v in value:
            _keys(v, ids, out)


def _mentions(label: str) -> bool:
    """A label with a name or a number in it ('flanking troll', 'beyond 15 squares'): some glossary
    word stands in it as whole words."""
    text = " " + " ".join(re.sub(r"[^\w' ]", " ", normal(label)).split()) + " "
    return glossary_entry(label) is not None or any(
        f" {normal(name)} " in text for e in glossary() for name in (e.term, *e.aliases) if normal(name))


def emitted_terms() -> tuple[set[str], set[str]]:
    """(words the record uses as they are, labels that embed a name or a number): event types, the
    fields of `--json` events, phase names and words, the log's state words, the resolver's rating
    parts (not a GM's free-text reasons, S6)."""
    exact: set[str] = set(TYPES)
    labels: set[str] = set()
    for _, words, _run in PHASES:
        exact.add(words)
    for ev, ids in _played():
        exact.add(ev.phase)
        _keys(ev.to_dict(), ids, exact)
        d = ev.to_dict()
        for side in RATINGS:
            r = d.get(side)
            if isinstance(r, dict) and "skill" in r:
                labels.update(label for label, _, rule in Rating.from_dict(r).parts() if rule != "S6")
    enc = load_encounter(EXAMPLES / "kwirt_and_the_lizard.toml")
    state = Match(enc).state
    a, b = (c.id for c in enc.characters[:2])
    state = state.replace_chars({**state.chars, a: state[a].with_(defeated=True), b: state[b].with_(fled=True)})
    exact.update(re.findall(r"(minor|major) \d+", format_state(enc, state)))
    exact.update(re.findall(r"major \d+  (\w+)", format_state(enc, state)))
    exact.update(re.findall(r"major \d+  (\w+)", format_state(enc, Match(enc).state)))
    return exact, labels


def test_every_word_the_log_and_json_use_has_a_glossary_entry() -> None:
    """Every event type, `--json` field, phase and state word, and rating part the resolver writes has a
    definition: add one to battlemat/data/glossary.toml when a new word appears (house switches are
    defined by the rules data's own words)."""
    exact, labels = emitted_terms()
    switches = set(load_rules().switches)
    assert {"contest", "sub_phase", "house_rules", "standing", "defeated", "fled", "minor"} <= exact  # it collects
    missing = sorted(t for t in exact if glossary_entry(t) is None and t not in switches)
    assert not missing, f"define these in battlemat/data/glossary.toml: {missing}"
    undefined = sorted(label for label in labels if not _mentions(label))
    assert not undefined, f"rating parts without a glossary word: {undefined}"


def test_the_coverage_test_fails_for_a_new_word() -> None:
    """The check above can fail: a word nobody defined is caught."""
    assert glossary_entry("quux_margin") is None and not _mentions("quux bonus")
    assert glossary_entry("sub_phase_start") is not None and glossary_entry("new_minor") is not None


def test_the_words_the_issue_names_are_defined() -> None:
    for word in ("allowance", "sub_phase_start", "sticky", "engaged", "contest", "minor loss", "major loss",
                 "half", "group", "talent", "matchup", "elusion", "hazard", "cover", "higher ground", "P1", "P2",
                 "P3", "P4", "standing", "effective rating", "house rule"):
        assert glossary_entry(word) is not None, word


def test_the_glossary_file_is_packaged() -> None:
    assert (Path(__file__).resolve().parent.parent / "battlemat" / "data" / "glossary.toml").is_file()
