"""Pages and exports at scale: a player page over 1,000 and 10,000 finished games (settled
as they finished), the same page while 10,000 finished games wait for `settle_results`
(after an upgrade) and that command's time, and exporting them (time a game, peak memory).
Each page's time is also given as a ratio to the constant page measured in the same run.

Run: .venv/bin/python bench/scale_bench.py  (about two minutes: it makes 11,000 games)
"""

import io
import os
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-key")
os.environ["DJANGO_DEBUG"] = "0"
os.environ.setdefault("DJANGO_SSL_REDIRECT", "0")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.urls_settings")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import django_setup  # noqa: E402,F401  (starts Django on a test database)
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.urls import reverse  # noqa: E402
from query_count import QueryCount  # noqa: E402

from scorecard.history import exchange  # noqa: E402
from scorecard.models import Game, Household, Player  # noqa: E402
from tests.factories import bulk_finished_games  # noqa: E402
from tests.helpers import browser_of  # noqa: E402


def median_ms(send, runs=9) -> tuple[float, int]:
    times = []
    for _ in range(runs):
        counted = QueryCount()
        with connection.execute_wrapper(counted):
            started = time.perf_counter()
            response = send()
            times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    return statistics.median(times), counted.queries


def export_figures(games) -> tuple[float, float]:
    """Milliseconds a game of exporting these games, and the peak memory (MB) traced in a
    second run (tracing slows Python down, so the time is taken without it)."""
    started = time.perf_counter()
    with open(os.devnull, "w") as sink:
        sink.writelines(exchange.export_json(games))
    seconds = time.perf_counter() - started
    tracemalloc.start()
    with open(os.devnull, "w") as sink:
        sink.writelines(exchange.export_json(games))
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    return seconds * 1000 / games.count(), peak


def import_figures(games) -> tuple[float, float, int]:
    """Seconds to check and import these games as an upload, and the longest a single
    transaction (a chunk of games) held the write lock."""
    from django.db import transaction

    from scorecard.game import services

    document = exchange.parse_document("".join(exchange.export_json(games)))
    Game.objects.filter(pk__in=games.values("pk")).delete()
    longest = 0.0
    atomic = transaction.atomic

    class TimedAtomic:
        def __init__(self, *args, **kwargs):
            self.inner = atomic(*args, **kwargs)

        def __enter__(self):
            self.started = time.perf_counter()
            return self.inner.__enter__()

        def __exit__(self, *exc):
            nonlocal longest
            result = self.inner.__exit__(*exc)
            longest = max(longest, time.perf_counter() - self.started)
            return result

    started = time.perf_counter()
    checked = exchange.read_games(document)
    services.transaction.atomic = TimedAtomic
    try:
        count = services.games_import(games=checked, owner=Household.objects.create()).written
    finally:
        services.transaction.atomic = atomic
    return time.perf_counter() - started, longest, count


def waiting_figures(count: int) -> None:
    """A player page while `count` finished games wait to be settled (it reads, never
    settles), then the time `manage.py settle_results` takes to settle them."""
    household = Household.objects.create()
    bulk_finished_games(household, ["Ann", "Bob"], count, seed=7, settle=False)
    client = browser_of(household)
    url = reverse("player", args=[Player.objects.get(owner=household, name="Ann").public_id])
    client.get(url)
    ceiling, _ = median_ms(lambda: client.get("/__ceiling__/"))
    page, queries = median_ms(lambda: client.get(url))
    started = time.perf_counter()
    call_command("settle_results", stdout=io.StringIO())
    seconds = time.perf_counter() - started
    print(
        f"player page with {count:,} finished games waiting to be settled: {page:.1f} ms, "
        f"{page / ceiling:.1f}× ceiling, {queries} queries (it settles none); "
        f"settle_results then settles them in {seconds:.1f} s"
    )


def main() -> None:
    rows = []
    for count in (1000, 10_000):
        household = Household.objects.create()
        started = time.perf_counter()
        bulk_finished_games(household, ["Ann", "Bob"], count, seed=count)
        made = time.perf_counter() - started
        client = browser_of(household)
        ann = Player.objects.get(owner=household, name="Ann")
        url = reverse("player", args=[ann.public_id])
        client.get(url)  # a first read, so every timed one finds the same warm caches
        ceiling, _ = median_ms(lambda c=client: c.get("/__ceiling__/"))
        page, queries = median_ms(lambda c=client, u=url: c.get(u))
        per_game, peak = export_figures(Game.objects.filter(owner=household))
        rows.append((count, made, ceiling, page, queries, per_game, peak))
    print("| games | player page ms | × ceiling | queries | export ms a game | export peak MB |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for count, _, ceiling, page, queries, per_game, peak in rows:
        print(
            f"| {count:,} | {page:.1f} | {page / ceiling:.1f} | {queries} "
            f"| {per_game:.2f} | {peak:.1f} |"
        )
    print(f"player page, 10,000 against 1,000 games: {rows[1][3] / rows[0][3]:.2f}×")
    waiting_figures(10_000)
    household = Household.objects.create()
    bulk_finished_games(household, ["Ann", "Bob", "Cy", "Di"], exchange.MAX_GAMES, seed=3)
    seconds, longest, count = import_figures(Game.objects.filter(owner=household))
    print(
        f"importing {count:,} four-player games (the most a file holds): {seconds:.1f} s, "
        f"the longest transaction {longest * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
