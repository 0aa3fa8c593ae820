"""The scale-out test: two app machines on one database and one Redis, one of them lost
mid-game. Run by `make scale-out` (CI's PostgreSQL pass, with DATABASE_URL and REDIS_URL set).

Two gunicorn instances (standing for two machines) serve on two ports. Fifty simulated phones
each start a four-player game and play it to the end, every request going to the next
instance in turn, as a round-robin load balancer sends them; one record in ten is first sent
from a stale screen (it must get a 409) and one in ten is double-tapped. When a third of the
records are in, one instance is killed with SIGKILL (the machine is gone: no graceful stop)
and started again two seconds later. A phone whose request failed on the lost instance sends
it again to the other one, as a browser does: the game's version makes that safe.

Then, from one more client address, forty creation requests arrive at once, alternating
between the instances: exactly the creation limit (twenty here) may pass, not twice it.

At the end the database must hold exactly what each phone was told was recorded: no entry
lost, none doubled. Exit status 0 only when everything held.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from phones import (
    TURNS,
    Phone,
    Tally,
    check_database,
    play_games,
    prepare,
    server_environment,
    start_gunicorn,
)

PORTS = (int(os.environ.get("SCALE_PORT", "8771")), int(os.environ.get("SCALE_PORT", "8771")) + 1)
GAMES = int(os.environ.get("LOAD_GAMES", "50"))
CREATION_LIMIT, FLOOD = 20, 40
KILL_AFTER = GAMES * TURNS // 3  # records in before one instance is lost


class Load(Tally):
    """The tally, and the moment to lose an instance."""

    def __init__(self) -> None:
        super().__init__()
        self.third_in = threading.Event()

    def recorded_one(self, seconds: float) -> None:
        super().recorded_one(seconds)
        if len(self.records) >= KILL_AFTER:
            self.third_in.set()


def lose_machine(server: subprocess.Popen) -> None:
    os.killpg(server.pid, signal.SIGKILL)
    server.wait()


def flood_creations() -> Counter:
    """Forty new-game requests from one address at once, alternating between instances."""
    phones = [Phone(PORTS, "10.99.0.1", first=number) for number in range(FLOOD)]
    for phone in phones:
        phone.send("GET", "/games/new/")
    form = {"name_1": "Flood", "joker": "hasbro", "mode": "standard", "dice": "table"}
    barrier = threading.Barrier(FLOOD)

    def create(phone: Phone) -> int:
        barrier.wait()
        return phone.send("POST", "/games/new/", form)[0]

    with ThreadPoolExecutor(FLOOD) as pool:
        return Counter(pool.map(create, phones))


def main() -> None:
    for name in ("DATABASE_URL", "REDIS_URL"):
        if not os.environ.get(name):
            raise SystemExit(f"error: set {name} (one PostgreSQL and one Redis for both machines)")
    folder = Path(tempfile.mkdtemp(prefix="yahtzee-scale-"))
    environment = server_environment(
        "scale-out",
        folder,
        DJANGO_TRUST_FORWARDED_FOR="1",
        CREATION_LIMIT=str(CREATION_LIMIT),
        WEB_CONCURRENCY=os.environ.get("WEB_CONCURRENCY", "3"),
    )
    prepare(environment)
    servers = [start_gunicorn(port, environment) for port in PORTS]
    load, recorded = Load(), {}
    started = time.perf_counter()
    try:
        phones = [
            Phone(PORTS, f"10.20.{index // 250}.{index % 250 + 1}", first=index)
            for index in range(GAMES)
        ]
        threads = play_games(phones, load, recorded)
        load.third_in.wait(timeout=600)
        lose_machine(servers[1])
        lost_at = len(load.records)
        time.sleep(2)
        servers[1] = start_gunicorn(PORTS[1], environment)
        for thread in threads:
            thread.join(timeout=900)
        seconds = time.perf_counter() - started
        creations = flood_creations()
    finally:
        for server in servers:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(timeout=30)
    report(load, recorded, creations, lost_at, seconds, environment)


def report(load, recorded, creations, lost_at, seconds, environment) -> None:
    statuses = ", ".join(f"{status}: {count}" for status, count in sorted(load.statuses.items()))
    print(f"Two instances, one PostgreSQL, one Redis: {GAMES} games, {seconds:.0f} s")
    print(f"  one instance lost (SIGKILL) after {lost_at} records and started again 2 s later")
    print(f"  answers: {statuses}; requests sent again to the other instance: {load.retries}")
    for problem in load.unexpected[:10]:
        print("  unexpected:", problem)
    problems = check_database(environment, recorded)
    print(f"  database: {len(recorded)} games finished by their phones, {len(problems)} differ")
    for problem in problems[:10]:
        print("   ", problem)
    allowed = creations.get(302, 0)
    refused = creations.get(429, 0)
    print(f"  creation limit {CREATION_LIMIT}: {FLOOD} at once from one address,")
    print(f"  {allowed} allowed, {refused} refused (every answer: {dict(creations)})")
    held = allowed == CREATION_LIMIT and refused == FLOOD - CREATION_LIMIT
    ok = not problems and not load.unexpected and len(recorded) == GAMES and held
    print("PASSED" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
