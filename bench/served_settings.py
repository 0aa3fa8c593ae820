"""The site's settings exactly as production runs them, with one more page: the benchmark's
constant ceiling (`bench/urls.py`), so gunicorn serves it through the same middleware as
every other request. Only the benches start a server with this module; the product's URLs
never hold the ceiling."""

from yahtzee.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
