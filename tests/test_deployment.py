"""What a deployment runs: gunicorn with the project's own settings file."""

import gc
import os
import runpy
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import gunicorn
import pytest

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


def test_a_gunicorn_worker_is_replaced_rarely_enough_that_its_start_is_not_a_requests_cost():
    """A worker's start (importing the site, its first requests) takes about 0.8 s of CPU.
    Replaced every 2,000 requests, that was 0.4 ms on each: as much again as a constant page
    (or an unchanged live poll) costs. Every 20,000 it is 0.04 ms."""
    settings = runpy.run_path(str(CONFIG))
    assert settings["max_requests"] >= 20_000
    assert settings["max_requests_jitter"] >= settings["max_requests"] // 20


def test_a_gunicorn_worker_keeps_the_loaded_site_out_of_garbage_collections():
    settings = runpy.run_path(str(CONFIG))
    gc.unfreeze()
    try:
        settings["post_worker_init"](worker=None)
        assert gc.get_freeze_count() > 10_000  # Django and the site, loaded by the tests
    finally:
        gc.unfreeze()


def test_gunicorn_without_a_secret_key_exits_at_once_saying_why_once():
    """Before, each worker refused to boot and the master started another one, forever,
    with the port open and requests hanging."""
    environment = {"PATH": os.environ["PATH"], "BIND": f"127.0.0.1:{free_port()}"}
    environment |= {"WEB_CONCURRENCY": "2", "GUNICORN_ACCESS_LOG": ""}
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn"], cwd=CONFIG.parent, env=environment,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        _, errors = server.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        _, errors = server.communicate()
        pytest.fail(f"gunicorn was still running after 10 s:\n{errors[-2000:]}")
    assert server.returncode == 1
    assert errors.count("DJANGO_SECRET_KEY is not set") == 1, errors
    assert "error: DJANGO_SECRET_KEY is not set; refusing to start without it" in errors


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_gunicorn_with_its_settings_serves_pages():
    port = free_port()
    environment = {"PATH": os.environ["PATH"], "BIND": f"127.0.0.1:{port}"}
    environment |= {"WEB_CONCURRENCY": "1", "GUNICORN_ACCESS_LOG": "", "DJANGO_SSL_REDIRECT": "0"}
    environment |= {"DJANGO_SECRET_KEY": secrets.token_urlsafe(50)}
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn"], cwd=CONFIG.parent, env=environment,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        assert answer(f"http://127.0.0.1:{port}/robots.txt", wait=20) == 200
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def answer(url: str, wait: float) -> int:
    """The status of `url`, asked again until the server listens or `wait` seconds pass."""
    deadline = time.monotonic() + wait
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.status
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@pytest.mark.django_db
def test_the_benchmarks_constant_page_is_not_an_address_of_the_site(client):
    """bench/served_settings.py adds it for gunicorn in a benchmark; the site never has it."""
    assert client.get("/__ceiling__/").status_code == 404
