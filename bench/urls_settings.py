"""The site's settings with one more page (the benchmark's constant ceiling), static files
served without collectstatic, and a database of the benchmark's own, so a benchmark never
clobbers the one a test run is using."""

from yahtzee.settings import *  # noqa: F403
from yahtzee.settings import BASE_DIR, DATABASES, STORAGES

ROOT_URLCONF = "bench.urls"
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
_sqlite = DATABASES["default"]["ENGINE"].endswith("sqlite3")
DATABASES["default"]["TEST"] = {
    "NAME": str(BASE_DIR / ".bench-db.sqlite3") if _sqlite else "bench_yahtzee"
}
