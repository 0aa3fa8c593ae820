"""The engine (rules, odds, strategy, distributions, win chances) is pure Python and numpy:
every module of `scorecard.engine` imports in a Python where Django cannot be found."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import scorecard.engine

REPO = Path(__file__).resolve().parents[2]

# Refuses any import of django before the engine is imported, as if it were not installed.
WITHOUT_DJANGO = """
import importlib, sys

class NoDjango:
    def find_spec(self, name, path=None, target=None):
        if name == "django" or name.startswith("django."):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked by the test)")
        return None

sys.meta_path.insert(0, NoDjango())
importlib.import_module(sys.argv[1])
assert not any(m == "django" or m.startswith("django.") for m in sys.modules)
"""


def engine_modules():
    return sorted(
        f"scorecard.engine.{info.name}" for info in pkgutil.iter_modules(scorecard.engine.__path__)
    )


def test_the_engine_has_its_modules():
    assert {"families", "rules", "odds", "strategy", "distribution", "win_chances"} <= {
        name.rsplit(".", 1)[1] for name in engine_modules()
    }


def test_every_engine_module_imports_with_django_absent():
    for module in engine_modules():
        run = subprocess.run(
            [sys.executable, "-c", WITHOUT_DJANGO, module],
            cwd=REPO,
            capture_output=True,
            text=True,
            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)},
        )
        assert run.returncode == 0, f"{module} needs Django:\n{run.stderr}"
