"""The full check of the Win column: on positions from early, middle and late game, each
player's chance to finish first as `win_chances` computes it, against a seeded simulation
of optimal play (5,000 games a player and position), and the time each computation took.

Run: .venv/bin/python bench/win_chance_check.py [--positions 24] [--games 5000]
(builds the standard rule's tables into a temporary folder first if none are given with
STRATEGY_DATA_DIR; about five minutes on a 2-core machine)
"""

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("STRATEGY_DATA_DIR", tempfile.mkdtemp(prefix="win-check-"))

from scorecard.engine import distribution, rules, strategy, win_chances  # noqa: E402
from scorecard.engine.rules import Box, JokerRule  # noqa: E402

STAGES = {"early": (0, 3), "middle": (4, 8), "late": (9, 12)}


def position(rng: random.Random, filled: int) -> win_chances.Position:
    boxes = rng.sample(list(Box), filled)
    return win_chances.Position(
        {box: rng.choice(sorted(rules.achievable_points(box))) for box in boxes}
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--games", type=int, default=5000)
    args = parser.parse_args()
    joker = JokerRule.HASBRO
    if not distribution.is_ready(joker):
        strategy.load(joker)
        distribution.build(joker)
    rng = random.Random(2026)
    print("| # | stage | players | boxes filled | computed | simulated | largest gap (pp) "
          "| exact | ms |")  # fmt: skip
    print("| ---: | --- | ---: | --- | --- | --- | ---: | --- | ---: |")
    gaps = []
    for number in range(args.positions):
        stage = list(STAGES)[number % 3]
        low, high = STAGES[stage]
        players = rng.choice([2, 3, 4])
        positions = [position(rng, rng.randint(low, high)) for _ in range(players)]
        distribution.forget_exact()
        started = time.perf_counter()
        computed = win_chances.win_chances(positions, joker)
        took = (time.perf_counter() - started) * 1000
        simulated = win_chances.simulated_chances(positions, joker, args.games, seed=number)
        gap = max(abs(a - b) for a, b in zip(computed.chances, simulated, strict=True)) * 100
        gaps.append(gap)
        shown = lambda chances: " ".join(f"{c:.3f}" for c in chances)  # noqa: E731
        filled = ",".join(str(len(p.filled)) for p in positions)
        print(f"| {number + 1} | {stage} | {players} | {filled} | {shown(computed.chances)} "
              f"| {shown(simulated)} | {gap:.2f} | {computed.exact} | {took:.1f} |")  # fmt: skip
    mean = sum(gaps) / len(gaps)
    print(f"\nLargest gap {max(gaps):.2f} pp over {len(gaps)} positions ({args.games} "
          f"simulated games a player each); mean gap {mean:.2f} pp.")  # fmt: skip


if __name__ == "__main__":
    main()
