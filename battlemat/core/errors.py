"""Typed errors of the pure core. Each carries the words a person needs (STYLE.md 7)."""

from __future__ import annotations


class BattlematError(Exception):
    """Base of every error battlemat reports to a person instead of a traceback."""


class RulesError(BattlematError):
    """A rules setting or a skill name that the rules data does not know."""


class IllegalIntent(BattlematError):
    """An intent the rules forbid. `who` declared it; `rule` is the RULES.md ID behind the refusal."""

    def __init__(self, who: str, reason: str, rule: str = "", field: str = "") -> None:
        self.who = who
        self.reason = reason
        self.rule = rule
        self.field = field
        tag = f" ({rule})" if rule else ""
        super().__init__(f"{who}: {reason}{tag}")
