"""Benchmark of the optimal-strategy solver: build time and peak memory per rule, table size
on disk, load time, and the latency of one advice request (p50, p99).

Run: .venv/bin/python bench/strategy_bench.py [--rule hasbro] [--requests 500]
"""

import argparse
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorecard import rules, strategy  # noqa: E402
from scorecard.rules import Box, JokerRule  # noqa: E402


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def random_position(rng: random.Random):
    """A mid-game card and a roll, as the score card would ask about."""
    filled = {}
    for box in rng.sample(list(Box), rng.randrange(0, 12)):
        filled[box] = rng.choice(sorted(rules.achievable_points(box)))
    return filled, tuple(rng.randint(1, 6) for _ in range(5))


def advice_latencies(joker: JokerRule, requests: int) -> list[float]:
    rng = random.Random(7)
    times = []
    for _ in range(requests):
        filled, dice = random_position(rng)
        started = time.perf_counter()
        strategy.rate_boxes(filled, dice, joker)
        strategy.rate_keeps(filled, dice, rng.choice((1, 2)), joker)
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rule", choices=[r.key for r in JokerRule])
    parser.add_argument("--requests", type=int, default=500)
    args = parser.parse_args()
    jokers = [JokerRule.from_key(args.rule)] if args.rule else list(JokerRule)
    strategy.DATA_DIR = Path(tempfile.mkdtemp(prefix="strategy-bench-"))
    for joker in jokers:
        started = time.perf_counter()
        values = strategy.solve(joker)
        build = time.perf_counter() - started
        path = strategy.save(joker, values)
        strategy.forget(joker)
        started = time.perf_counter()
        strategy.load(joker)
        load = (time.perf_counter() - started) * 1000
        latencies = sorted(advice_latencies(joker, args.requests))
        p99 = latencies[int(0.99 * (len(latencies) - 1))]
        print(
            f"{joker.key:<10} expected {values[0]:.6f}  build {build:5.1f} s  "
            f"table {path.stat().st_size / 1e6:.2f} MB  load {load:5.1f} ms  "
            f"advice p50 {statistics.median(latencies):.2f} ms p99 {p99:.2f} ms  "
            f"peak RSS {peak_rss_mb():.0f} MB"
        )


if __name__ == "__main__":
    main()
