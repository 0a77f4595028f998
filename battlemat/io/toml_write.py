"""A small TOML writer for the files battlemat writes (encounters made by `balance`, rule cases, lessons).

It writes what tomllib reads back as the same data: tables, arrays of tables (nested ones too, as
`[[turn.intent]]`), text, whole numbers, floats, booleans, arrays and inline tables. Keys that are
not bare words are quoted ("Melee/Press"). No dependency: tomli_w is not installed here, and an
encounter needs little of TOML.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k, ensure_ascii=False)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # JSON's escapes are TOML's basic-string escapes
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def _is_table_array(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, Mapping) for x in v)


# Arrays of tables written as [[parent.key]] blocks; all others are inline ({ ... }), as people write
# equipment and modifiers in encounter files.
BLOCKS = ("intent",)


def _body(table: Mapping[str, Any], prefix: str, out: list[str]) -> None:
    """Plain and inline values first, then [[...]] blocks and sub-tables (TOML's order)."""
    nested = []
    for k, v in table.items():
        if _is_table_array(v) and k in BLOCKS or isinstance(v, Mapping) and any(
                _is_table_array(x) and j in BLOCKS for j, x in v.items()):
            nested.append((k, v))
        else:
            out.append(f"{_key(k)} = {_value(v)}")
    for k, v in nested:
        name = f"{prefix}.{_key(k)}"
        if isinstance(v, Mapping):
            out.append(f"\n[{name}]")
            _body(v, name, out)
        else:
            for item in v:
                out.append(f"\n[[{name}]]")
                _body(item, name, out)


def dumps(data: Mapping[str, Any]) -> str:
    """TOML text for `data`: top-level tables as [name], top-level arrays of tables as [[name]]."""
    out: list[str] = []
    plain = {k: v for k, v in data.items() if not isinstance(v, Mapping) and not _is_table_array(v)}
    for k, v in plain.items():
        out.append(f"{_key(k)} = {_value(v)}")
    for k, v in data.items():
        if k in plain:
            continue
        if isinstance(v, Mapping):
            out.append(f"\n[{_key(k)}]")
            _body(v, _key(k), out)
        else:
            for item in v:
                out.append(f"\n[[{_key(k)}]]")
                _body(item, _key(k), out)
    return "\n".join(out).lstrip("\n") + "\n"


# -- inline values: the lines of a rule case or a lesson, written one key at a time ----------------
def toml_value(value: Any) -> str:
    """A value as TOML, inline: text, numbers, booleans, lists and tables (all a case holds)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # JSON's string escapes are TOML's
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def toml_key(key: str) -> str:
    bare = key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key)
    return key if bare else json.dumps(key, ensure_ascii=False)


def relative_path(target: Path, out_dir: Path) -> str:
    """`target` as a path relative to `out_dir` (a written file names its map or encounter this way)."""
    try:
        return Path(os.path.relpath(target.resolve(), out_dir.resolve())).as_posix()
    except ValueError:  # another drive (Windows): no relative path
        return target.resolve().as_posix()
