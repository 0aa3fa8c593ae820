"""The strategy tables' folder has one name, `STRATEGY_DATA_DIR`, and one default
(`data/strategy` in the project), whether the engine runs alone or in the web app; a table
file is read back as written, and one of another layout is refused."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from scorecard.engine import tables

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


def test_a_saved_table_reads_back_whole_with_its_zeros_left_as_holes(tmp_path):
    """Runs of zeros are skipped, not written, even at the end of the file."""
    array = np.zeros(3 * tables.HOLE)
    array[10] = 1.5
    array[tables.HOLE // 8 + 3] = -2.0  # in the second block of bytes
    path = tables.save_array(tmp_path / "table.npy", array)
    assert np.array_equal(tables.mapped(path, array.shape, np.float64), array)
    assert path.stat().st_size == array.nbytes + 128  # the header, then every value


def test_a_table_of_another_shape_or_type_is_refused(tmp_path):
    path = tables.save_array(tmp_path / "table.npy", np.arange(6, dtype=np.int16))
    with pytest.raises(ValueError, match="int16\\[6\\], not float64\\[6\\]"):
        tables.mapped(path, (6,), np.float64)
