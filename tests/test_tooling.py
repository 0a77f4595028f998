"""Strict tooling from the first commit (STYLE.md 12): ruff and mypy stay clean. Each test runs the
tool as a person would and fails with its report."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from conftest import ROOT


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_is_clean():
    if shutil.which("ruff") is None and run("ruff", "--version").returncode != 0:
        pytest.skip("ruff is not installed (it comes with the test extra)")
    proc = run("ruff", "check", "battlemat", "tests", "bench", "assets", "tools", "main.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_is_clean():
    if run("mypy", "--version").returncode != 0:
        pytest.skip("mypy is not installed (it comes with the test extra)")
    proc = run("mypy", "battlemat")
    assert proc.returncode == 0, proc.stdout + proc.stderr
