"""The site's settings with one more page: the benchmark's constant ceiling."""

from yahtzee.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
# No collectstatic before a benchmark: static URLs without the manifest's hashes.
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
