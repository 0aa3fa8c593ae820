"""Past games at scale: a player page over 1,000 finished games (queries, render time), and
the games page. Run: .venv/bin/python bench/history_bench.py"""

import statistics
import sys
import time
from pathlib import Path

import django_setup  # noqa: F401  (starts Django on a test database)
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorecard.models import Household, Player  # noqa: E402
from tests.conftest import browser_of  # noqa: E402
from tests.factories import bulk_finished_games  # noqa: E402


def timed(client, url, runs=5):
    times, queries = [], 0
    for _ in range(runs):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
        queries = len(captured.captured_queries)
    return statistics.median(times), queries


if __name__ == "__main__":
    household = Household.objects.create()
    started = time.perf_counter()
    bulk_finished_games(household, ["Ann", "Bob"], 1000)
    print(f"made 1,000 finished two-player games in {time.perf_counter() - started:.1f} s")
    client = browser_of(household)
    ann = Player.objects.get(name="Ann")
    for name, url in [
        ("player page (1,000 games)", reverse("player", args=[ann.public_id])),
        ("games page", reverse("games")),
        ("games page 50", reverse("games") + "?page=50"),
    ]:
        median, queries = timed(client, url)
        print(f"{name}: {queries} queries, median render {median:.1f} ms")
