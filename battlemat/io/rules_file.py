"""Reads the packaged rules data (battlemat/data/rules.toml) into a core `Rules` value."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources

from battlemat.core.rules import Rules


@lru_cache(maxsize=1)
def load_rules() -> Rules:
    text = resources.files("battlemat").joinpath("data/rules.toml").read_text(encoding="utf-8")
    return Rules.from_data(tomllib.loads(text))
