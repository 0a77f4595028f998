"""Reading a file a person wrote or passed on the command line: bounded, and never a traceback.

One door for encounters, saves and replays (maps go through `io.tiled`'s safe XML reader): the file
must be a regular file (a FIFO would block, a device such as /dev/zero never ends), at most `limit`
plus one byte is read whatever the file claims to be, and every failure (missing, too long a name,
no permission, too big, not UTF-8, nested deeper than `MAX_DATA_NESTING`) is a LoadError naming the file
and the fix. Bounds live in `battlemat.io.limits` with their reasons.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Any, Literal

from battlemat.io.errors import LoadError
from battlemat.io.limits import MAX_DATA_NESTING

Syntax = Literal["toml", "json"]


def size_words(n: int) -> str:
    """1048576 -> '1 MB', 4096 -> '4 KB': a bound as people say it."""
    if n >= 2**20 and n % 2**20 == 0:
        return f"{n // 2**20} MB"
    if n >= 2**10 and n % 2**10 == 0:
        return f"{n // 2**10} KB"
    return f"{n} bytes"


def why_unreadable(path: Path) -> tuple[str, str] | None:
    """None when `path` names an existing regular file; else why not and the fix, in a few words.
    Never raises (unlike Path.is_file, which lets ENAMETOOLONG and EACCES through)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "file not found", "check the path"
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        return _reason(exc), _fix(exc)
    if not stat.S_ISREG(mode):
        return ("a directory, not a file" if stat.S_ISDIR(mode) else "not a regular file"), "name a file"
    return None


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return f"cannot read it ({exc.strerror})"
    if isinstance(exc, ValueError):
        return "the name holds a NUL character"
    return f"cannot read it ({exc})"


def _fix(exc: BaseException) -> str:
    if getattr(exc, "errno", None) == errno.ENAMETOOLONG:
        return "use a shorter path"
    return "check the path and its permissions"


def read_user_file(path: str | Path, limit: int, what: str, fix_big: str) -> bytes:
    """The bytes of `path`, at most `limit` of them. Raises LoadError (never OSError) when the file
    cannot be read, is not a regular file, or is bigger than `limit` (`fix_big` says what to do)."""
    file = str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)  # a FIFO opens at once
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise LoadError.one(file, "", f"{what} file not found", "check the path") from None
    except (OSError, ValueError) as exc:
        raise LoadError.one(file, "", f"{what}: {_reason(exc)}", _fix(exc)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file (a device, pipe or socket)"
            raise LoadError.one(file, "", f"the {what} is {kind}", f"give the path of the {what} file")
        chunks: list[bytes] = []
        left = limit + 1  # one byte more tells a file of exactly `limit` bytes from a bigger one
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise LoadError.one(file, "", f"{what}: {_reason(exc)}", "check the file") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise LoadError.one(file, "", f"the {what} is bigger than {size_words(limit)}, the most battlemat reads",
                            fix_big)
    return data


def read_user_text(path: str | Path, limit: int, what: str, fix_big: str) -> str:
    """`read_user_file` decoded as UTF-8 (a byte-order mark is dropped)."""
    data = read_user_file(path, limit, what, fix_big)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise LoadError.one(str(path), f"line {line}", "not UTF-8 text", "save the file as UTF-8") from None


def read_user_data(path: str | Path, limit: int, what: str, fix_big: str, syntax: Syntax) -> Any:
    """The parsed data of a TOML file a person wrote (an encounter) or a JSON file battlemat wrote (a
    save): read with `read_user_text`, its nesting bounded before parsing (`check_nesting`) and after
    (TOML's dotted keys nest without brackets), every parse failure a LoadError. The fixes differ by
    who writes the file: a TOML file is edited, a JSON one restored."""
    file = str(path)
    text = read_user_text(path, limit, what, fix_big)
    check_nesting(text, file, syntax)
    toml = syntax == "toml"
    restore = "restore a good copy"
    try:
        data = tomllib.loads(text) if toml else json.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LoadError.one(file, "", f"not valid TOML: {exc}", "fix the syntax at that line and column") from None
    except json.JSONDecodeError as exc:
        raise LoadError.one(file, f"line {exc.lineno}", f"not valid JSON: {exc.msg}", restore) from None
    except ValueError as exc:  # an int of more than 4,300 digits (Python's bound on int conversion)
        raise LoadError.one(file, "", f"not a number battlemat can read ({str(exc).split(';')[0]})",
                            "write numbers of a few digits" if toml else restore) from None
    except RecursionError:  # check_nesting bounds the brackets; kept so no input can reach a traceback
        what_nests = "tables and arrays" if toml else "arrays and objects"
        raise LoadError.one(file, "", f"{what_nests} nest more than {MAX_DATA_NESTING} deep",
                            "flatten the data" if toml else restore) from None
    if toml:
        check_parsed_nesting(data, file)
    return data


# Characters that matter to the nesting of TOML or JSON text: brackets, quotes, and TOML's comments.
_TOML_MARKS = re.compile(r"[\[\]{}\"'#]")
_JSON_MARKS = re.compile(r'[\[\]{}"]')


def check_nesting(text: str, file: str, syntax: Syntax, limit: int = MAX_DATA_NESTING) -> None:
    """Refuse text whose arrays and tables nest deeper than `limit`, before a recursive parser sees it.
    Brackets inside strings and comments do not count; unterminated strings are left to the parser."""
    marks = _TOML_MARKS if syntax == "toml" else _JSON_MARKS
    depth = 0
    pos = 0
    n = len(text)
    while pos < n:
        m = marks.search(text, pos)
        if m is None:
            return
        i = m.start()
        c = text[i]
        if c in "[{":
            depth += 1
            if depth > limit:
                _too_deep(file, text.count("\n", 0, i) + 1, limit)
            pos = i + 1
        elif c in "]}":
            depth = max(0, depth - 1)
            pos = i + 1
        elif c == "#":
            end = text.find("\n", i)
            pos = n if end < 0 else end + 1
        else:
            pos = _string_end(text, i, c, syntax)
    return


def _string_end(text: str, i: int, quote: str, syntax: Syntax) -> int:
    """Where the string opening at `i` ends (TOML: basic, literal and multi-line; JSON: basic)."""
    n = len(text)
    if syntax == "toml" and text.startswith(quote * 3, i):
        j = i + 3
        while True:
            k = text.find(quote * 3, j)
            if k < 0:
                return n
            if quote == "'" or not _escaped(text, k):
                k += 3
                while k < n and text[k] == quote:  # up to two quotes may end the content
                    k += 1
                return k
            j = k + 1
    j = i + 1
    while j < n:
        c = text[j]
        if c == quote:
            return j + 1
        if c == "\n" and syntax == "toml":
            return j + 1  # a single-line string never spans lines: let the parser report it
        j += 2 if c == "\\" and quote == '"' else 1
    return n


def _escaped(text: str, k: int) -> bool:
    """Whether the character at `k` follows an odd run of backslashes."""
    run = 0
    while k - run - 1 >= 0 and text[k - run - 1] == "\\":
        run += 1
    return run % 2 == 1


def _too_deep(file: str, line: int, limit: int) -> None:
    raise LoadError.one(file, f"line {line}", f"arrays and tables nest more than {limit} deep",
                        "battlemat files need a few levels at most: flatten the data, or restore a good copy")


def nesting_depth(value: Any, limit: int = MAX_DATA_NESTING) -> int:
    """How deep dicts and lists nest in `value` (a scalar is 0), counting at most to `limit` + 1.
    Iterative, so a value nested a million deep (TOML dotted keys) costs no recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


def check_parsed_nesting(value: Any, file: str, limit: int = MAX_DATA_NESTING) -> None:
    """After parsing: refuse data nested deeper than `limit` (TOML's dotted keys and table headers
    nest without brackets, and every later reader of the data may recurse)."""
    if nesting_depth(value, limit) > limit:
        raise LoadError.one(file, "", f"tables and arrays nest more than {limit} deep (dotted keys count)",
                            "battlemat files need a few levels at most: flatten the data")
