"""`make mutants`: mutmut on each core module, each tested by its own tests only.

Every module in `[tool.mutants]` of pyproject.toml gets a run of its own, in a process of
its own (a module mutmut has imported stays imported): mutmut's shared settings come from
`[tool.mutmut]`, and this script adds the module to mutate and the tests that guard it.
At the end it prints killed / total per module, counting out the mutants listed in
equivalent.toml (no behaviour can tell them apart from the code), and fails when a module
is under its threshold.

    python tests/mutation/run.py            # every module, then the figures
    python tests/mutation/run.py rules      # one module (mutmut's own output)

A script, not `-m tests...`: the tests must import the `tests` package from the copy mutmut
runs them in, so this process must not have imported it first.
"""

from __future__ import annotations

import dataclasses
import glob
import shutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

THRESHOLD = 90.0
EQUIVALENT = Path(__file__).with_name("equivalent.toml")


@dataclasses.dataclass(frozen=True)
class Module:
    name: str
    path: str
    tests: list[str]


def modules() -> list[Module]:
    table = tomllib.loads(Path("pyproject.toml").read_text())["tool"]["mutants"]
    return [
        Module(name, spec["path"], sorted({f for g in spec["tests"] for f in glob.glob(g)}))
        for name, spec in table.items()
    ]


def run_one(module: Module) -> None:
    """mutmut's `run` with this module's files and tests in place of the shared ones."""
    from mutmut import configuration
    from mutmut.__main__ import cli

    # mutmut keeps a copy of the tree in mutants/ and takes any copy newer than its source
    # for one it already mutated: a module needs a fresh copy, not the last module's.
    shutil.rmtree("mutants", ignore_errors=True)
    shared = configuration.config()
    configuration._config = dataclasses.replace(
        shared, only_mutate=[module.path], pytest_add_cli_args_test_selection=module.tests
    )
    cli(["run", "--max-children", "2"])


@dataclasses.dataclass(frozen=True)
class Figure:
    module: Module
    killed: int
    total: int
    equivalent: int
    survivors: dict[str, str]  # name: the lines it changes

    @property
    def percent(self) -> float:
        return 100 * self.killed / self.total if self.total else 100.0

    def __str__(self) -> str:
        counted_out = f" ({self.equivalent} equivalent counted out)" if self.equivalent else ""
        figure = f"{self.killed:4} / {self.total:<4} {self.percent:5.1f}%"
        return f"{self.module.name:10} {figure}{counted_out}"


def figure(module: Module, equivalent: dict[str, str]) -> Figure:
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.stats import status_by_exit_code

    data = SourceFileMutationData(path=Path(module.path))
    data.load()
    status = {name: status_by_exit_code[code] for name, code in data.exit_code_by_key.items()}
    for name in sorted(set(equivalent) - {n for n, s in status.items() if s == "survived"}):
        # The module changed under the list: mutmut numbers a function's mutants in order.
        print(f"warning: {name} is listed as equivalent but is not a surviving mutant")
    counted = {name: s for name, s in status.items() if name not in equivalent}
    # A mutant that never ends is caught too: the tests would hang instead of passing.
    caught = [name for name, s in counted.items() if s in ("killed", "timeout")]
    survivors = {name: _change(name, module.path) for name in counted if name not in caught}
    return Figure(module, len(caught), len(counted), len(status) - len(counted), survivors)


def _change(name: str, path: str) -> str:
    """The lines a mutant changes, read before the next module's run replaces mutants/."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    diff = get_diff_for_mutant(name, path=path).splitlines()[2:]
    return "\n".join(line for line in diff if line.startswith(("-", "+")))


def main(argv: list[str]) -> int:
    every = {module.name: module for module in modules()}
    if argv:
        run_one(every[argv[0]])
        return 0
    equivalent = tomllib.loads(EQUIVALENT.read_text())
    figures = []
    for module in every.values():
        print(f"== mutmut on {module.path}, tested by {' '.join(module.tests)}")
        subprocess.run([sys.executable, __file__, module.name], check=True)
        # Read now: the next module's run starts from a fresh mutants/.
        figures.append(figure(module, equivalent.get(module.name, {})))
    print("\nMutants killed by each module's own tests:")
    for each in figures:
        print(f"  {each}")
        for name, change in each.survivors.items():
            print(f"    survived: {name}")
            print(textwrap.indent(change, "      "))
    short = [each.module.name for each in figures if each.percent < THRESHOLD]
    if short:
        print(f"error: under {THRESHOLD:.0f}% killed: {', '.join(short)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
