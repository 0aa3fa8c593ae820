"""The strategy tables' folder has one name, `STRATEGY_DATA_DIR`, and one default
(`data/strategy` in the project), whether the engine runs alone or in the web app."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

PRINT_FOLDERS = """
from scorecard.engine import distribution, strategy
from scorecard.engine.rules import JokerRule
for joker in JokerRule:
    print(strategy.table_path(joker).parent)
    print(distribution.tables_path(joker).parent)
"""
ENGINE_ALONE = PRINT_FOLDERS
WEB_APP = "import django\ndjango.setup()\n" + PRINT_FOLDERS


def table_folders(code: str, **environment) -> set[str]:
    """Every folder the engine would read a table from, in a Python with only the PATH and
    the environment given."""
    env = {"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "yahtzee.settings"}
    env |= {"DJANGO_SECRET_KEY": secrets.token_urlsafe(50)}
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env | environment, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return set(run.stdout.split())


@pytest.mark.parametrize("code", [ENGINE_ALONE, WEB_APP], ids=["engine alone", "web app"])
def test_the_tables_live_in_data_strategy_unless_told_otherwise(code):
    assert table_folders(code) == {str(REPO / "data" / "strategy")}


@pytest.mark.parametrize("code", [ENGINE_ALONE, WEB_APP], ids=["engine alone", "web app"])
def test_strategy_data_dir_moves_every_table(code, tmp_path):
    assert table_folders(code, STRATEGY_DATA_DIR=str(tmp_path)) == {str(tmp_path)}
