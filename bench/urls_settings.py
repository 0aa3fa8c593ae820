"""The served benchmark settings (the site's, plus the constant ceiling page) with static files
served without collectstatic, and a database of the benchmark's own, so a benchmark never
clobbers the one a test run is using."""

from bench.served_settings import *  # noqa: F403
from yahtzee.settings import BASE_DIR, DATABASES, STORAGES

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
_sqlite = DATABASES["default"]["ENGINE"] == "yahtzee.sqlite"
DATABASES["default"]["TEST"] = {
    "NAME": str(BASE_DIR / ".bench-db.sqlite3") if _sqlite else "bench_yahtzee"
}
