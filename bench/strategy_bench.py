"""Benchmark of the optimal-strategy solver, a rule at a time: build time and peak memory
(each build in a fresh process, so the figure is that build's own), table size on disk,
the first advice in a new process (load the file, rate a box, rate the keeps), and the
latency of `rate_boxes` and `rate_keeps` over 1,000 random positions (p50, p99).

Goals (issue 14): build <= 5 s and <= 100 MB; first advice < 50 ms; rate_boxes p99 < 1 ms;
rate_keeps p99 < 2 ms. Yatzy (issue 22), its stated rules and forced order: build <= 10 s and
<= 100 MB a table, the same advice goals.

Run: .venv/bin/python bench/strategy_bench.py [--rule hasbro | --family yatzy] [--positions 1000]
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
from scorecard.engine.families import YATZY  # noqa: E402
from scorecard.engine.rules import Box, HouseRules, JokerRule  # noqa: E402

YATZY_RULES = {"yatzy": HouseRules(YATZY), "yatzy-forced": HouseRules(YATZY, forced=True)}


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


def build_yatzy(key: str, folder: str) -> None:
    """In a fresh process: solve and save one Yatzy house rule's table, then its policy
    tables; print each one's seconds and the peak MB after each."""
    from scorecard.engine import distribution

    tables.FOLDER = Path(folder)
    solver = strategy.family_strategy(YATZY_RULES[key])
    started = time.perf_counter()
    solver.load()  # solved and saved: the folder is empty
    solved, solved_peak = time.perf_counter() - started, peak_rss_mb()
    started = time.perf_counter()
    distribution.build_family(solver)
    print(f"{solved:.2f} {solved_peak:.0f} {time.perf_counter() - started:.2f} {peak_rss_mb():.0f}")


def first_yatzy_advice(key: str, folder: str) -> None:
    """In a fresh process: the first Yatzy advice, from reading the file to the rated keeps."""
    tables.FOLDER = Path(folder)
    solver = strategy.family_strategy(YATZY_RULES[key])
    started = time.perf_counter()
    ones = solver.boxes[0]
    solver.rate_boxes({ones: 3}, (6, 6, 6, 6, 6))
    solver.rate_keeps({ones: 3}, (2, 3, 4, 6, 6), 2)
    print(f"{(time.perf_counter() - started) * 1000:.1f}")


def yatzy_latencies(key: str, positions: int) -> tuple[list[float], list[float]]:
    house = YATZY_RULES[key]
    solver = strategy.family_strategy(house)
    rng = random.Random(7)
    boxes, keeps = [], []
    for _ in range(positions):
        count = rng.randrange(0, len(house.boxes) - 1)
        chosen = house.boxes[:count] if house.forced else rng.sample(house.boxes, count)
        filled = {box: rng.choice(sorted(house.achievable_points(box))) for box in chosen}
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        started = time.perf_counter()
        solver.rate_boxes(filled, dice)
        boxes.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        solver.rate_keeps(filled, dice, rng.choice((1, 2)))
        keeps.append((time.perf_counter() - started) * 1000)
    return sorted(boxes), sorted(keeps)


def yatzy_rows(positions: int) -> None:
    folder = tempfile.mkdtemp(prefix="strategy-bench-")
    tables.FOLDER = Path(folder)
    print("| house rules | expected | build s | build peak MB | file MB | first advice ms "
          "| rate_boxes p50 / p99 ms | rate_keeps p50 / p99 ms "
          "| policy build s, peak MB |")  # fmt: skip
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for key in YATZY_RULES:
        seconds, peak, policy_seconds, policy_peak = in_fresh_process("build_yatzy", key, folder)
        first = in_fresh_process("first_yatzy_advice", key, folder)[0]
        solver = strategy.family_strategy(YATZY_RULES[key])
        boxes, keeps = yatzy_latencies(key, positions)
        size = solver.table_path().stat().st_size / 1e6
        print(
            f"| {key} | {solver.expected_score():.4f} | {float(seconds):.1f} | {peak} "
            f"| {size:.1f} | {first} "
            f"| {statistics.median(boxes):.2f} / {percentile(boxes, 0.99):.2f} "
            f"| {statistics.median(keeps):.2f} / {percentile(keeps, 0.99):.2f} "
            f"| {float(policy_seconds):.0f}, {policy_peak} |"
        )


def in_fresh_process(function: str, *args: str) -> list[str]:
    command = [sys.executable, __file__, "--run", function, *args]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rule", choices=[r.key for r in JokerRule])
    parser.add_argument("--family", choices=["yatzy"], help="Yatzy's tables instead")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--run", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        runs = {"build": build, "build_policy": build_policy, "first_advice": first_advice,
                "build_yatzy": build_yatzy, "first_yatzy_advice": first_yatzy_advice}  # fmt: skip
        runs[args.run[0]](*args.run[1:])
        return
    if args.family:
        yatzy_rows(args.positions)
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
