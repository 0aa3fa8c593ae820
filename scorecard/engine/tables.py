"""Where the strategy tables live, and how a table file is written.

The folder is the `STRATEGY_DATA_DIR` environment variable, by default `data/strategy` in the
project. It is read here and nowhere else, so the web app, the management commands and the
benchmarks all find the same tables; tests point `FOLDER` at a folder of their own.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO

DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / "data" / "strategy"
FOLDER = Path(os.environ.get("STRATEGY_DATA_DIR") or DEFAULT_FOLDER)


def table_file(name: str) -> Path:
    """Where the table of this file name lives (read when asked, so tests can move it)."""
    return FOLDER / name


def replace_file(path: Path, write: Callable[[IO[bytes]], object]) -> Path:
    """Write a file beside its old self and swap it in at once: a worker reading the table
    meanwhile sees the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, name = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    # A plain file object: numpy writes an array straight into it, not through a copy.
    with os.fdopen(descriptor, "wb") as handle:
        write(handle)
    os.chmod(name, 0o644)
    os.replace(name, path)
    return path
