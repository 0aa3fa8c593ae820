"""Where the strategy tables live, and how a table file is written and read.

The folder is the `STRATEGY_DATA_DIR` environment variable, by default `data/strategy` in the
project. It is read here and nowhere else, so the web app, the management commands and the
benchmarks all find the same tables; tests point `FOLDER` at a folder of their own.

A table is an `.npy` file mapped into memory, not read: a new process's first advice touches
only the pages it asks about (a few kilobytes of a file of megabytes), and every worker on
the machine shares one copy of them in the page cache.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import numpy as np
from numpy.typing import NDArray

DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / "data" / "strategy"
FOLDER = Path(os.environ.get("STRATEGY_DATA_DIR") or DEFAULT_FOLDER)
# Blocks of zeros this large are left as holes in a table file: the states a table has no
# value for (forced Yatzy fills a few thousand of its two million) take no disk.
HOLE = 1 << 16


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


def save_array(path: Path, array: NDArray[Any]) -> Path:
    """Replace `path` with an `.npy` file of `array`, its blocks of zeros left as holes."""
    return replace_file(path, lambda handle: _write_with_holes(handle, np.ascontiguousarray(array)))


def _write_with_holes(handle: IO[bytes], array: NDArray[Any]) -> None:
    np.lib.format.write_array_header_1_0(handle, np.lib.format.header_data_from_array_1_0(array))
    data = array.reshape(-1).view(np.uint8)
    for start in range(0, len(data), HOLE):
        block = data[start : start + HOLE]
        if block.any():
            handle.write(block.tobytes())
        else:
            handle.seek(len(block), os.SEEK_CUR)
    handle.truncate()  # the file ends where the data does, even after a hole


def mapped(path: Path, shape: tuple[int, ...], dtype: type[np.generic]) -> NDArray[Any]:
    """A table file mapped into memory, read-only. Its header must say the shape and type
    asked for: a file of another layout is refused, never read as this one."""
    array: NDArray[Any] = np.load(path, mmap_mode="r")
    if array.shape != shape or array.dtype != np.dtype(dtype):
        raise ValueError(
            f"{path} holds {array.dtype}{list(array.shape)}, not {np.dtype(dtype)}{list(shape)}:"
            " rebuild it with `manage.py build_strategy`."
        )
    return array
