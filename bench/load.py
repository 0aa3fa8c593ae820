"""A load test: gunicorn on loopback, 50 four-player games played to the end at once.

Each game is a simulated phone in a thread of its own: it starts the game, then for every
turn asks the card what the dice are worth and records a legal box, as the htmx page does.
Some phones double-tap (the same record sent twice) and some send from a stale screen (an
old version first, which must get a 409). Every record carries its tap's key
(Idempotency-Key), and one in five (LOAD_DROP, 0.2) has its answer lost on the way back: the
phone closes the connection without reading it and sends the tap again with the same key,
which must answer with the tap's outcome, never "already recorded". At the end the database
must hold exactly the entries the phones recorded: 0 lost, 0 doubled. Run by a person, not
in CI:

    .venv/bin/python bench/load.py                      # SQLite in a temporary folder
    DATABASE_URL=postgres://... .venv/bin/python bench/load.py

It prints requests per second, the p50/p95/p99 of a record, and the answers by status.
"""

import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

from phones import (
    PLAYERS,
    Phone,
    Tally,
    check_database,
    play_games,
    prepare,
    server_environment,
    start_gunicorn,
)

PORT = int(os.environ.get("LOAD_PORT", "8765"))
GAMES = int(os.environ.get("LOAD_GAMES", "50"))
DROP = float(os.environ.get("LOAD_DROP", "0.2"))  # records whose answer is lost
DEADLINE = 900  # seconds: the test stops by itself


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="yahtzee-load-"))
    environment = server_environment("load-test", folder)
    environment.setdefault("DATABASE_URL", f"sqlite:///{folder / 'load.sqlite3'}")
    prepare(environment)
    server = start_gunicorn(PORT, environment)
    tally, recorded = Tally(), {}
    try:
        started = time.perf_counter()
        phones = [Phone((PORT,)) for _ in range(GAMES)]
        for thread in play_games(phones, tally, recorded, drop=DROP):
            thread.join(timeout=max(1, DEADLINE - (time.perf_counter() - started)))
        seconds = time.perf_counter() - started
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    records = sorted(tally.records) or [0.0]
    cut = lambda q: records[min(len(records) - 1, int(q * len(records)))] * 1000  # noqa: E731
    vendor = "PostgreSQL" if environment["DATABASE_URL"].startswith("postgres") else "SQLite"
    print(f"{vendor}, gunicorn, {GAMES} games of {PLAYERS} players at once, {seconds:.1f} s")
    print(f"{tally.dropped} of {len(tally.records)} records lost their answer and were sent again")
    print("| requests/s | record p50 | p95 | p99 | answers by status | unexpected |")
    print("| ---: | ---: | ---: | ---: | --- | ---: |")
    statuses = ", ".join(f"{status}: {count}" for status, count in sorted(tally.statuses.items()))
    print(
        f"| {tally.requests / seconds:.0f} | {statistics.median(records) * 1000:.0f} ms "
        f"| {cut(0.95):.0f} ms | {cut(0.99):.0f} ms | {statuses} | {len(tally.unexpected)} |"
    )
    for problem in tally.unexpected[:10]:
        print("  unexpected:", problem)
    problems = check_database(environment, recorded)
    finished = len(recorded)
    print(f"database: {finished} games finished by their phones, {len(problems)} differ")
    for problem in problems[:10]:
        print("  ", problem)
    sys.exit(1 if problems or tally.unexpected or finished != GAMES else 0)


if __name__ == "__main__":
    main()
