"""Benchmark of the optimal-strategy solver, a rule at a time: build time and peak memory
(each build in a fresh process, so the figure is that build's own), table size on disk,
the first advice in a new process (load the file, rate a box, rate the keeps), and the
latency of `rate_boxes` and `rate_keeps` over 1,000 random positions (p50, p99).

Goals (issue 14): build <= 5 s and <= 100 MB; first advice < 50 ms; rate_boxes p99 < 1 ms;
rate_keeps p99 < 2 ms.

Run: .venv/bin/python bench/strategy_bench.py [--rule hasbro] [--positions 1000]
"""

import argparse
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorecard.engine import rules, strategy, tables  # noqa: E402
from scorecard.engine.rules import Box, JokerRule  # noqa: E402


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def random_position(rng: random.Random):
    """A mid-game card and a roll, as the score card would ask about."""
    filled = {}
    for box in rng.sample(list(Box), rng.randrange(0, 12)):
        filled[box] = rng.choice(sorted(rules.achievable_points(box)))
    return filled, tuple(rng.randint(1, 6) for _ in range(5))


def latencies(joker: JokerRule, positions: int) -> tuple[list[float], list[float]]:
    rng = random.Random(7)
    boxes, keeps = [], []
    for _ in range(positions):
        filled, dice = random_position(rng)
        started = time.perf_counter()
        strategy.rate_boxes(filled, dice, joker)
        boxes.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        strategy.rate_keeps(filled, dice, rng.choice((1, 2)), joker)
        keeps.append((time.perf_counter() - started) * 1000)
    return sorted(boxes), sorted(keeps)


def percentile(values: list[float], share: float) -> float:
    return values[int(share * (len(values) - 1))]


def build(joker_key: str, folder: str) -> None:
    """In a fresh process: build and save one rule's table; print seconds and peak MB."""
    tables.FOLDER = Path(folder)
    joker = JokerRule.from_key(joker_key)
    started = time.perf_counter()
    strategy.save(joker, strategy.solve(joker))
    print(f"{time.perf_counter() - started:.2f} {peak_rss_mb():.0f}")


def build_policy(joker_key: str, folder: str) -> None:
    """In a fresh process: the policy tables after the values (win chances, a good score)."""
    from scorecard.engine import distribution

    tables.FOLDER = Path(folder)
    joker = JokerRule.from_key(joker_key)
    strategy.load(joker)
    started = time.perf_counter()
    distribution.build(joker)
    print(f"{time.perf_counter() - started:.2f} {peak_rss_mb():.0f}")


def first_advice(joker_key: str, folder: str) -> None:
    """In a fresh process: the first advice, from reading the file to the rated keeps."""
    tables.FOLDER = Path(folder)
    joker = JokerRule.from_key(joker_key)
    started = time.perf_counter()
    strategy.load(joker)
    strategy.rate_boxes({Box.ONES: 3}, (6, 6, 6, 6, 6), joker)
    strategy.rate_keeps({Box.ONES: 3}, (2, 3, 4, 6, 6), 2, joker)
    print(f"{(time.perf_counter() - started) * 1000:.1f}")


def in_fresh_process(function: str, *args: str) -> list[str]:
    command = [sys.executable, __file__, "--run", function, *args]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rule", choices=[r.key for r in JokerRule])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--run", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        runs = {"build": build, "build_policy": build_policy, "first_advice": first_advice}
        runs[args.run[0]](*args.run[1:])
        return
    jokers = [JokerRule.from_key(args.rule)] if args.rule else list(JokerRule)
    folder = tempfile.mkdtemp(prefix="strategy-bench-")
    tables.FOLDER = Path(folder)
    print("| rule | expected | build s | build peak MB | file MB | first advice ms "
          "| rate_boxes p50 / p99 ms | rate_keeps p50 / p99 ms "
          "| policy build s, peak MB |")  # fmt: skip
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for joker in jokers:
        seconds, peak = in_fresh_process("build", joker.key, folder)
        policy_seconds, policy_peak = in_fresh_process("build_policy", joker.key, folder)
        first = in_fresh_process("first_advice", joker.key, folder)[0]
        expected = strategy.expected_score(joker)
        boxes, keeps = latencies(joker, args.positions)
        size = strategy.table_path(joker).stat().st_size / 1e6
        print(
            f"| {joker.key} | {expected:.4f} | {float(seconds):.1f} | {peak} | {size:.1f} "
            f"| {first} | {statistics.median(boxes):.2f} / {percentile(boxes, 0.99):.2f} "
            f"| {statistics.median(keeps):.2f} / {percentile(keeps, 0.99):.2f} "
            f"| {float(policy_seconds):.0f}, {policy_peak} |"
        )


if __name__ == "__main__":
    main()
