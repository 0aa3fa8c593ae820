"""gunicorn's settings for the score card; gunicorn reads this file from the folder it is
started in. Every value can be changed from the environment (see the README's Deploy)."""

import gc
import importlib
import multiprocessing
import os

wsgi_app = "yahtzee.wsgi:application"
bind = os.environ.get("BIND", "127.0.0.1:8000")
# Stateless workers: every request reads the game from the database, so any number works.
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count() + 1))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30
# A worker is replaced after this many requests, so a slow leak never grows for long. Its
# start (importing the site, its first requests) costs about 0.8 s of CPU: every 2,000
# requests that was 0.4 ms on each, doubling what a constant page or an unchanged live poll
# costs (bench/throughput.py); every 20,000 it is 0.04 ms.
max_requests = 20_000
max_requests_jitter = 2_000
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None  # empty: no access log
# The path only, never the query string: it could carry something private.
access_log_format = '%(h)s %(t)s "%(m)s %(U)s" %(s)s %(B)s %(M)sms'


def on_starting(server):
    """Read the site's settings once in the master, before a port is opened: a setting they
    refuse (no DJANGO_SECRET_KEY, a switch that is not 0 or 1) then stops gunicorn at once
    with its one-line message. Left to the workers, each one would exit and the master would
    start another, forever, with the port open and every request hanging."""
    importlib.import_module(os.environ.get("DJANGO_SETTINGS_MODULE", "yahtzee.settings"))


def post_worker_init(worker):
    """The site is loaded (Django, its apps, settings and URLs) and lives as long as the
    worker: `gc.freeze()` takes those objects out of the garbage collector's generations, so
    that its collections look only at what requests leave behind. Without it each full
    collection walks the whole site, about 5% of a record's CPU on average."""
    gc.collect()
    gc.freeze()


def _redacting_logger():
    """gunicorn's logger, printing a share or join link's path without its token: the token
    is the whole permission (see scorecard/web/log_privacy.py). Each value is redacted when
    the line prints it, whatever the format: a request carries some 40 (every header both
    ways), the line prints 7, and redacting all of them cost 4 times the line itself."""
    from gunicorn.glogging import Logger, SafeAtoms

    from scorecard.web import log_privacy

    class RedactedAtoms(SafeAtoms):
        def __getitem__(self, name):
            value = super().__getitem__(name)
            return log_privacy.redact(value) if isinstance(value, str) else value

    class RedactingLogger(Logger):
        atoms_wrapper_class = RedactedAtoms

    return RedactingLogger


logger_class = _redacting_logger()
