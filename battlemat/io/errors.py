"""Loading errors that name the file, the place in it and the fix (DESIGN quality bars)."""

from __future__ import annotations

from dataclasses import dataclass

from battlemat.core.errors import BattlematError


@dataclass(frozen=True)
class Problem:
    file: str
    place: str  # "character[2] 'kwirt' . skills . 'Melee/Press'", "line 4, column 7"
    message: str
    fix: str = ""
    note: bool = False  # worth knowing, nothing wrong: `check` prints it and still passes the file

    def __str__(self) -> str:
        where = f"{self.file}: {self.place}: " if self.place else f"{self.file}: "
        fix = f" {'Tip' if self.note else 'Fix'}: {self.fix}" if self.fix else ""
        return f"{'note: ' if self.note else ''}{where}{self.message}.{fix}"


class LoadError(BattlematError):
    """One or more problems found while reading a file; str() lists them all, one per line."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @staticmethod
    def one(file: str, place: str, message: str, fix: str = "") -> LoadError:
        return LoadError([Problem(file, place, message, fix)])
