"""What a deployment runs: gunicorn with the project's own settings file."""

import runpy
from pathlib import Path

import gunicorn

CONFIG = Path(__file__).resolve().parent.parent / "gunicorn.conf.py"


def test_gunicorn_is_installed_with_the_site():
    assert gunicorn.version_info >= (23,)


def test_the_gunicorn_settings_bound_workers_time_and_requests(monkeypatch):
    monkeypatch.setenv("WEB_CONCURRENCY", "4")
    settings = runpy.run_path(str(CONFIG))
    assert settings["wsgi_app"] == "yahtzee.wsgi:application"
    assert settings["workers"] == 4 and settings["timeout"] == 30
    assert settings["max_requests"] > 0 and settings["max_requests_jitter"] > 0
    assert "%(q)s" not in settings["access_log_format"]  # no query strings in the log
