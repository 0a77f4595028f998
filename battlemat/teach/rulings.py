"""The compliance statement (docs/RULINGS.md), generated from the rules data: every house choice with
its switch, its default, its options and the gap in the rules text it fills.

Pure: `render(rules)` returns the document's text. `python tools/rulings.py` writes it, and a test
keeps the committed file equal to what the data says (tests/test_log_record.py).
"""

from __future__ import annotations

from typing import Any

from battlemat.core.rules import Rules

HEADER = """\
# Rulings: where battlemat decides what the rules text leaves open

<!-- Generated from battlemat/data/rules.toml by `python tools/rulings.py`: edit the data, not this file. -->

Battlemat follows the core rules text (`seeds/000_…`) as written wherever it speaks; those rules are
tagged **core** in `battlemat rules`. Where the text is silent, or its lists were lost, battlemat
decides, and says so: each such decision is a **house** rule, listed here with the gap in the text it
fills. Every house rule that decides an outcome is marked `[house]` in the log (`battlemat resolve`,
the window's log panel), followed by the rule ID and the switch that decided it, and carries
`"house": true` with its `house_rules` in `--json`.
"""


def render(rules: Rules) -> str:
    """docs/RULINGS.md from the rules data (the defaults, not an encounter's overrides)."""
    out = [HEADER]
    out += _switches(rules)
    out += _fixed(rules)
    out += _tables(rules)
    return "\n".join(out).rstrip("\n") + "\n"


def _switches(rules: Rules) -> list[str]:
    out = ["## House switches", "",
           "An encounter changes any of these in its `[rules]` table, e.g. `[rules] diagonals = \"chebyshev\"`.", ""]
    for rid in rules.entries:
        for sw in (s for s in rules.switches.values() if s.rule == rid):
            e = rules.entries[sw.rule]
            out.append(f"### `{sw.key}` — {sw.rule} {e.title}")
            out.append("")
            out.append(f"- **Default:** `{_value(sw.default)}`")
            options = ", ".join(f"`{_value(o)}`" for o in sw.options) if isinstance(sw.options, tuple) else sw.options
            out.append(f"- **Options:** {options}")
            out.append(f"- **What it decides:** {sw.doc}")
            out.append(f"- **Gap in the text:** {sw.gap}")
            if sw.text_sizes:
                sizes = ", ".join(f"{n}+" if n == max(sw.text_sizes) else str(n) for n in sw.text_sizes)
                out.append(f"- **Core where the text speaks:** the sizes {sizes} keep the text's own bonus; "
                           "the log marks the other sizes, or any size once the table is changed, as house.")
            if sw.default_is_text:
                out.append("- **Core by default:** the default is the text's own value; the log marks it as "
                           "house only when an encounter changes it.")
            out.append("")
    return out


def _fixed(rules: Rules) -> list[str]:
    out = ["## House rules without a switch", "",
           "These are built into the resolver; the rules data holds their words (`battlemat rules ID`).", ""]
    for rid, e in rules.entries.items():
        if e.tag != "house" and not e.house:
            continue
        whole = "the whole rule is a house rule" if e.tag == "house" else "a house part of a core rule"
        out.append(f"### **{rid}** {e.title} ({whole})")
        out.append("")
        out.append(f"- **Ruling:** {e.house or e.text}")
        out.append(f"- **Gap in the text:** {e.gap}")
        switches = [f"`{k}`" for k, s in rules.switches.items() if s.rule == rid]
        out.append("- **Switch:** " + (f"see {', '.join(switches)} above" if switches else "none"))
        out.append("")
    return out


def _tables(rules: Rules) -> list[str]:
    out = ["## House values in the rules tables", "",
           "Numbers the text does not give, kept in `battlemat/data/rules.toml` beside the text's own.", "",
           "| Rule | Data | Value | Why |", "|---|---|---|---|"]
    m1 = rules.entries["M1"]
    for h in rules.halves.values():
        if h.move_tag == "house":
            out.append(f"| M1 | `half.{h.name}.move` | {h.move} | {m1.gap} |")
    for m in rules.matchups:
        if m.tag == "house":
            sw = f" (switch `{m.switch}`)" if m.switch else ""
            out.append(f"| S8 | `matchup` {m.skill} opposed by {m.against}{sw} | {m.bonus:+d} | "
                       f"{rules.entries['S8'].gap} |")
    for tb in rules.talent_bonuses.values():
        if tb.tag == "house":
            out.append(f"| S3 | `talent_bonus.{tb.skill}` ({tb.pair} talent) | talent bonus | {tb.why} |")
    out.append("")
    return out


def _value(v: Any) -> str:
    """A value as it is written in TOML (true, "half", [1, 2])."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return str(v)
