"""What-if variants of an encounter, played on common random numbers.

A variant is one or more small changes of the encounter file, written as text (the README has the
syntax): `-ID` removes a character, `+ID` (or `+copy:ID`) adds a copy of one beside it, `ID.SKILL=N`
(or `+N`, `-N`) changes a base rating, `ID.ai=TACTIC` changes a tactic; `;` joins changes.

A variant is applied to the encounter file's TOML data, which is then read by the same code as any
encounter file (io.encounter) and placed on the base's board: what a variant plays is exactly what
the file `write_variant` writes would play. Workers rebuild a variant from its canonical text
(pool.Batch.variant), so a variant is shipped as a string, like the encounter's path.

Common random numbers: run i of every variant uses the base batch's seed for run i (runner.run_seed),
so the difference between a variant and the base is measured run by run. The interval on a change is
the paired one: per run, d_i = won(variant, i) - won(base, i), and mean(d) +- 1.96 sd(d)/sqrt(n).
A variant that changes nothing plays the base's runs exactly: change 0, interval 0.
"""

from __future__ import annotations

import copy
import difflib
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from battlemat.core.encounter import Encounter
from battlemat.core.errors import BattlematError, RulesError
from battlemat.core.types import XY
from battlemat.io.encounter import parse_encounter
from battlemat.io.errors import LoadError
from battlemat.io.maps import place_characters, placement_problems
from battlemat.io.outfile import write_file
from battlemat.io.toml_write import dumps
from battlemat.labels import AmbiguousName, display_names, find_character, with_article
from battlemat.sim.runner import RunResult
from battlemat.sim.stats import Z95, wilson

# Tactics a variant may give (io.encounter.AI_NAMES less "scripted", which needs a script).
TACTIC_CHOICES = ("brawler", "archer", "skirmisher", "guardian", "coward", "observer", "default")


@dataclass(frozen=True)
class Change:
    """One change: kind is "remove", "copy", "rating" (pair = value, absolute) or "ai"."""

    kind: str
    who: str
    pair: str = ""
    value: int = 0
    ai: str = ""

    @property
    def text(self) -> str:
        if self.kind == "remove":
            return f"-{self.who}"
        if self.kind == "copy":
            return f"+copy:{self.who}"
        if self.kind == "rating":
            return f"{self.who}.{self.pair}={self.value}"
        return f"{self.who}.ai={self.ai}"

    def words(self, enc: Encounter, names: Mapping[str, str] | None = None) -> str:
        """The change as a game master reads it, by name, with the id a file needs in brackets:
        "remove the Ogre crossbowman (ogre_bolt1)". `enc`: the base encounter (for the rating it had)."""
        shown = names or display_names(enc.characters)
        name = with_article(enc.by_id[self.who].name) if self.who in enc.by_id else self.who
        if shown.get(self.who, "").endswith(f"({self.who})") or self.kind in ("remove", "copy"):
            name = f"{name} ({self.who})"
        if self.kind == "remove":
            return f"remove {name}"
        if self.kind == "copy":
            return f"add a copy of {name}"
        if self.kind == "rating":
            old = enc.by_id[self.who].base(self.pair) if self.who in enc.by_id else None
            verb = "set" if old is None or old == self.value else "raise" if self.value > old else "lower"
            frm = "" if old is None or old == self.value else f" from {old}"
            return f"{verb} {_possessive(name)} {self.pair}{frm} to {self.value}"
        if self.ai == "default":
            return f"{name} fights with the default tactics"
        return f"{name} fights as {'an' if self.ai[:1] in 'aeiou' else 'a'} {self.ai}"


@dataclass(frozen=True)
class Variant:
    """Changes applied in order; `text` is canonical (relative ratings made absolute)."""

    changes: tuple[Change, ...]

    @property
    def text(self) -> str:
        return "; ".join(c.text for c in self.changes)

    def words(self, enc: Encounter) -> str:
        """Every change in words (Change.words), joined with "; "; "no change" for none."""
        names = display_names(enc.characters)
        return "; ".join(c.words(enc, names) for c in self.changes) or "no change"


def _possessive(name: str) -> str:
    """"the Ogre leader's", "Garran's"; a name with its id in brackets keeps them after: "Bandit's (b2)"."""
    if name.endswith(")") and " (" in name:
        head, _, tail = name.rpartition(" (")
        return f"{head}'s ({tail}"
    return f"{name}'s"


def _close(word: str, choices: Sequence[str]) -> str:
    near = difflib.get_close_matches(word, list(choices), n=3, cutoff=0.5)
    return f" (did you mean {', '.join(near)}?)" if near else ""


def _who(enc: Encounter, who: str, spec: str) -> str:
    """The id of the character `who` names: its id, or its name as the window shows it (case aside,
    or a start of it that fits one character alone; labels.find_character)."""
    try:
        return find_character(enc.characters, who)
    except AmbiguousName as exc:
        if exc.candidates:
            raise BattlematError(f"variant {spec!r}: {exc}") from None
        everyone = [f"{c.name} ({c.id})" for c in enc.characters]
        raise BattlematError(f"variant {spec!r}: no character {who!r}"
                             f"{_close(who, list(enc.ids) + [c.name for c in enc.characters if c.name != c.id])}; "
                             f"the characters are: {', '.join(everyone)}") from None


def parse_variant(spec: str, enc: Encounter) -> Variant:
    """Read a variant's text against the encounter `enc`; BattlematError says what is wrong."""
    parts = [p.strip() for p in spec.split(";")]
    if not any(parts):
        raise BattlematError(f"variant {spec!r} is empty; write e.g. -ID, +copy:ID, ID.SKILL=N or ID.ai=TACTIC")
    changes: list[Change] = []
    ratings: dict[tuple[str, str], int] = {}  # what earlier changes of this variant set
    ids = list(enc.ids)
    for part in parts:
        if not part:
            continue
        change = _parse_change(part, enc, ids, ratings)
        changes.append(change)
        if change.kind == "remove":
            ids.remove(change.who)
        elif change.kind == "rating":
            ratings[(change.who, change.pair)] = change.value
    for side in enc.sides:
        if not any(enc.by_id[i].side == side for i in ids if i in enc.by_id):
            raise BattlematError(f"variant {spec!r} leaves side {side!r} with nobody; keep one of its characters")
    return Variant(tuple(changes))


def _parse_change(part: str, enc: Encounter, ids: list[str], ratings: dict[tuple[str, str], int]) -> Change:
    if part.startswith(("-", "remove:")):  # `--variant=-ID`, or `--variant remove:ID` (argparse takes -ID for a flag)
        who = _who(enc, part.split(":", 1)[1].strip() if part.startswith("remove:") else part[1:].strip(), part)
        if who not in ids:
            raise BattlematError(f"variant {part!r}: {who!r} is already removed")
        return Change("remove", who)
    if part.startswith(("+", "copy:")):
        who = part[1:].strip() if part.startswith("+") else part
        who = who[len("copy:"):].strip() if who.startswith("copy:") else who
        return Change("copy", _who(enc, who, part))
    if "." not in part:
        raise BattlematError(f"variant {part!r}: write -ID (remove), +copy:ID (add a copy), "
                             "ID.SKILL=N / ID.SKILL+N / ID.SKILL-N (a rating) or ID.ai=TACTIC")
    who, rest = part.split(".", 1)
    who = _who(enc, who.strip(), part)
    for op in ("=", "+", "-"):
        if op in rest:
            name, num = (s.strip() for s in rest.split(op, 1))
            break
    else:
        raise BattlematError(f"variant {part!r}: say what changes, e.g. {who}.Melee=4 or {who}.ai=brawler")
    if name.lower() == "ai":
        if op != "=" or num not in TACTIC_CHOICES:
            raise BattlematError(f"variant {part!r}: unknown tactic {num!r}{_close(num, TACTIC_CHOICES)}; "
                                 f"use one of: {', '.join(TACTIC_CHOICES)}")
        return Change("ai", who, ai=num)
    try:
        pair = enc.rules.pair_of(name)
    except RulesError:
        names = list(enc.rules.pairs) + [h for p in enc.rules.pairs for h in p.split("/")]
        raise BattlematError(f"variant {part!r}: unknown skill {name!r}{_close(name, names)}; "
                             f"use a pair or either half of: {', '.join(enc.rules.pairs)}") from None
    try:
        n = int(num)
    except ValueError:
        raise BattlematError(f"variant {part!r}: {num!r} is not a whole number") from None
    now = ratings.get((who, pair), enc.by_id[who].base(pair))
    value = n if op == "=" else now + n if op == "+" else now - n
    if not 0 <= value <= 8:
        raise BattlematError(f"variant {part!r}: {who}'s {pair} would be {value}; ratings run 0..8 (S2)")
    return Change("rating", who, pair=pair, value=value)


# -- applying a variant ----------------------------------------------------------------------------
def apply_to_data(data: Mapping[str, Any], variant: Variant, enc: Encounter) -> dict[str, Any]:
    """The encounter file's TOML data with the variant's changes (a copy). `enc`: the base
    encounter, placed on its board (a copy stands on the nearest free square to its original)."""
    out: dict[str, Any] = copy.deepcopy(dict(data))
    chars: list[dict[str, Any]] = out.setdefault("character", [])
    for ch in variant.changes:
        entry = next(c for c in chars if c.get("id") == ch.who)
        if ch.kind == "remove":
            chars.remove(entry)
            _drop_intents(out, ch.who)
        elif ch.kind == "copy":
            chars.append(_copy_entry(entry, chars, enc))
        elif ch.kind == "ai":
            entry["ai"] = ch.ai
        else:
            _set_rating(entry, ch.pair, ch.value, enc)
    return out


def _drop_intents(data: dict[str, Any], who: str) -> None:
    """Scripted turns lose the removed character's intents and those aimed at it."""
    for turn in data.get("turn", []):
        if isinstance(turn, dict) and isinstance(turn.get("intent"), list):
            turn["intent"] = [i for i in turn["intent"] if not _mentions(i, who)]


def _mentions(intent: Any, who: str) -> bool:
    return isinstance(intent, dict) and (intent.get("who") == who or intent.get("target") == who
                                         or who in (intent.get("also") or ()))


def _set_rating(entry: dict[str, Any], pair: str, value: int, enc: Encounter) -> None:
    for table in ("skills", "talents"):
        ratings = dict(entry.get(table, {}))
        key = next((k for k in ratings if _pair(enc, k) == pair), pair)
        if table == "skills":
            ratings[key] = value
        elif key in ratings and ratings[key] > value:
            ratings[key] = value  # a talent never above its base rating (S3)
        entry[table] = ratings
    if not entry["talents"]:
        del entry["talents"]


def _pair(enc: Encounter, name: str) -> str:
    try:
        return enc.rules.pair_of(name)
    except RulesError:
        return name


def _copy_entry(entry: dict[str, Any], chars: list[dict[str, Any]], enc: Encounter) -> dict[str, Any]:
    new = copy.deepcopy(entry)
    ids = {c.get("id") for c in chars}
    names = {str(c.get("name", c.get("id"))).casefold() for c in chars}
    base_id, base_name = str(entry["id"]), str(entry.get("name", entry["id"]))
    n = 1
    while f"{base_id}_copy{n if n > 1 else ''}" in ids or \
            f"{base_name} (copy{f' {n}' if n > 1 else ''})".casefold() in names:
        n += 1
    new["id"] = f"{base_id}_copy{n if n > 1 else ''}"
    new["name"] = f"{base_name} (copy{f' {n}' if n > 1 else ''})"
    taken = {tuple(c["at"]) for c in chars if "at" in c} | {
        c.at for c in enc.characters if c.at is not None and any(e.get("id") == c.id for e in chars)}
    start = enc.by_id[base_id].at
    if start is not None:
        new["at"] = list(_free_square(enc, start, taken))
    return new


def _free_square(enc: Encounter, start: XY, taken: set[Any]) -> XY:
    """The nearest open, unoccupied square to `start`, walking through open squares (breadth first,
    neighbours in a fixed order: deterministic)."""
    board = enc.board

    def open_(sq: XY) -> bool:
        if board is None:
            return True
        x, y = sq
        return bool(board.inside(sq) and not board.blocked[y, x] and not board.pit[y, x])

    seen = {start}
    frontier = [start]
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))
    while frontier:
        nxt: list[XY] = []
        for x, y in frontier:
            for dx, dy in steps:
                sq = (x + dx, y + dy)
                if sq in seen or not open_(sq):
                    continue
                seen.add(sq)
                if sq not in taken:
                    return sq
                nxt.append(sq)
        frontier = nxt
    raise BattlematError(f"no free square for a copy near {list(start)}")


def read_data(path: str | Path) -> dict[str, Any]:
    with open(path, "rb") as f:
        return tomllib.load(f)


def build_variant(base: Encounter, path: str, text: str) -> Encounter:
    """The encounter at `path` (already loaded: `base`) with the variant `text`, on base's board."""
    variant = parse_variant(text, base)
    data = apply_to_data(read_data(path), variant, base)
    enc = parse_encounter(data, path, base_dir=Path(path).parent, rules=None)
    if base.board is None:
        return enc
    problems = placement_problems(enc, base.board, path)
    if problems:
        raise LoadError(problems)
    return place_characters(enc, base.board)


def write_variant(path: str | Path, variant: Variant, base: Encounter, out: str | Path, note: str = "") -> Path:
    """Write the encounter at `path` with `variant` as a new TOML file `out` (beside the original,
    so its map path stays valid)."""
    data = apply_to_data(read_data(path), variant, base)
    head = f"# {Path(path).name} with: {variant.text or 'no change'}\n" + "".join(f"# {line}\n" for line in
                                                                              note.splitlines())
    return write_file(out, head + dumps(data), "the encounter", "choose another file with -o")


# -- statistics ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Paired:
    """A variant's win rate for one side and its change from the base, on the runs both finished."""

    side: str
    n: int
    rate: float
    low: float  # Wilson interval of the rate
    high: float
    change: float
    change_low: float  # paired interval of the change
    change_high: float


def paired(side: str, base: Sequence[RunResult], other: Sequence[RunResult]) -> Paired:
    """Win rate of `side` in `other` and its change against `base`, paired run by run (common
    random numbers): d_i = won_other_i - won_base_i; mean(d) +- 1.96 sd(d)/sqrt(n)."""
    by_index = {r.index: r for r in base}
    pairs = [(by_index[r.index].winner == side, r.winner == side) for r in other if r.index in by_index]
    n = len(pairs)
    wins = sum(v for _, v in pairs)
    lo, hi = wilson(wins, n)
    if n == 0:
        return Paired(side, 0, 0.0, lo, hi, 0.0, -1.0, 1.0)
    d = [int(v) - int(b) for b, v in pairs]
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return Paired(side, n, wins / n, lo, hi, mean, mean - half, mean + half)
