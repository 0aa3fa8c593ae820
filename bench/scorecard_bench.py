"""Recording a box: SQL queries per entry, the size of the htmx response, and its latency,
for a small and a large game. Run: .venv/bin/python bench/scorecard_bench.py"""

import statistics
import time

import django_setup  # noqa: F401  (starts Django on a test database)
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorecard import rules, services
from scorecard.models import Household
from scorecard.rules import Box
from tests.conftest import browser_of


def measure(players: int) -> None:
    household = Household.objects.create()
    game = services.game_create(owner=household, names=[f"P{i}" for i in range(players)])
    client = browser_of(household)
    url = reverse("game-record", args=[game.public_id])
    queries, sizes, times = [], [], []
    for turn, box in enumerate([b for b in rules.UPPER_BOXES for _ in range(players)], start=1):
        data = {"version": turn - 1, "turn": turn, "box": box.key, "dice": "12346", "card": 1}
        data["confirm"] = "zero"
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.post(url, data, headers={"HX-Request": "true"})
            times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.content[:200]
        queries.append(len(captured.captured_queries))
        sizes.append(len(response.content))
    print(
        f"{players} players: queries per entry {min(queries)}-{max(queries)}, "
        f"htmx response {min(sizes)}-{max(sizes)} bytes, "
        f"latency median {statistics.median(times):.1f} ms, max {max(times):.1f} ms "
        f"({len(times)} entries, {connection.vendor})"
    )


if __name__ == "__main__":
    assert Box.ONES in rules.UPPER_BOXES
    for players in (1, 2, 4, 8):
        measure(players)
