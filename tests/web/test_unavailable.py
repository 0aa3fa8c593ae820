"""A database that is gone for a moment (a restart, a dropped connection) is a 503 that
says to try again shortly, never a bare 500."""

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client
from redis.exceptions import ConnectionError as CacheConnectionError

from scorecard.engine.rules import Box
from scorecard.game import services
from scorecard.views import play as play_views
from tests.factories import HouseholdFactory
from tests.helpers import HTMX, browser_of, game_url, post_box, text

ROOT = Path(__file__).resolve().parents[2]


def lose_the_database(*args, **kwargs):
    raise OperationalError("server closed the connection unexpectedly")


def test_a_page_asked_for_while_the_database_is_gone_is_a_503_saying_try_again(
    client_of, game, monkeypatch
):
    monkeypatch.setattr(play_views, "load_progress", lose_the_database)
    response = client_of.get(game_url(game) + "?card=1")
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert response["Cache-Control"] == "no-store"
    page = text(response)
    assert "<!doctype html>" in page and 'rel="stylesheet"' in page  # the site's own page
    assert (
        '<p class="error" role="alert">The score card could not reach its database just now.'
        in page
    )
    assert f'<a class="button" href="{game_url(game)}?card=1">Try again</a>' in page


def test_an_htmx_record_while_the_connection_is_lost_gets_the_words_alone(
    client_of, game, monkeypatch
):
    def connection_gone(**kwargs):
        raise InterfaceError("connection already closed")

    monkeypatch.setattr(services, "record_box", connection_gone)
    response = post_box(client_of, game, Box.CHANCE, dice=(1, 2, 3, 4, 6), htmx=True)
    assert response.status_code == 503 and response["Retry-After"] == "2"
    assert response["Content-Type"] == "text/plain; charset=utf-8"  # said as it is (requests.js)
    words = text(response)
    assert "could not reach its database just now. Try again in a few seconds" in words
    assert "<" not in words


def test_a_plain_post_while_the_database_is_gone_says_to_go_back_and_send_again(
    client_of, game, monkeypatch
):
    monkeypatch.setattr(services, "record_box", lose_the_database)
    response = post_box(client_of, game, Box.CHANCE, dice=(1, 2, 3, 4, 6))
    assert response.status_code == 503
    assert "Go back and send it again in a few seconds" in text(response)
    assert "Try again</a>" not in text(response)  # a link would ask with GET


def test_any_other_error_is_still_a_500(client_of, game, monkeypatch):
    def bug(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(play_views, "load_progress", bug)
    client = Client(raise_request_exception=False)
    client.cookies = client_of.cookies
    assert client.get(game_url(game)).status_code == 500


@contextmanager
def database_unreachable(tmp_path: Path) -> Iterator[None]:
    """No stand-in: the database layer itself fails, as it does while PostgreSQL restarts
    (SQLite pointed at a file that cannot be opened)."""
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("points SQLite at a file that cannot be opened")
    where = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = str(tmp_path / "missing" / "db.sqlite3")
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["NAME"] = where


@pytest.mark.django_db(transaction=True)
def test_a_database_that_cannot_be_opened_is_a_503(tmp_path):
    client = browser_of(HouseholdFactory())
    with database_unreachable(tmp_path):
        response = client.get("/games/", headers=HTMX)
    assert response.status_code == 503 and response["Retry-After"] == "2"


PG_BIN = max(Path("/usr/lib/postgresql").glob("*/bin"), default=None, key=lambda p: p.parent.name)


@pytest.fixture
def postgresql():
    """A throwaway PostgreSQL server (as .ci/run starts one): a function that runs pg_ctl."""
    if PG_BIN is None or not (PG_BIN / "pg_ctl").exists():
        pytest.skip("PostgreSQL is not installed")
    # Not under pytest's own temporary folder: only root may enter that one.
    data, port = Path(tempfile.mkdtemp(prefix="yahtzee-pg.")), free_port()
    if os.geteuid() == 0:  # PostgreSQL will not run as root
        shutil.chown(data, "postgres")

    def as_postgres(*command: str, check: bool = True) -> None:
        line = " ".join(command)
        shell = ["su", "postgres", "-s", "/bin/sh", "-c", line] if os.geteuid() == 0 else line
        subprocess.run(shell, shell=os.geteuid() != 0, check=check, capture_output=True, timeout=60)

    options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off"
    as_postgres(f"{PG_BIN}/initdb", "-D", str(data), "-U", "postgres", "-A", "trust")

    def pg_ctl(action: str) -> None:  # its log in a file: a pipe would be held open
        log = ("-l", str(data / "log")) if action == "start" else ()
        as_postgres(f"{PG_BIN}/pg_ctl", "-D", str(data), "-o", f"'{options}'", *log, "-w", action)

    pg_ctl("start")
    pg_ctl.url = f"postgres://postgres@127.0.0.1:{port}/postgres"
    yield pg_ctl
    as_postgres(f"{PG_BIN}/pg_ctl", "-D", str(data), "-m", "immediate", "stop", check=False)
    shutil.rmtree(data)


def test_a_real_postgresql_restart_is_a_503_then_the_site_answers_again(postgresql):
    port = free_port()
    environment = {"PATH": os.environ["PATH"], "DATABASE_URL": postgresql.url}
    environment |= {"DJANGO_SECRET_KEY": secrets.token_urlsafe(50), "DJANGO_SSL_REDIRECT": "0"}
    # As a deploy does: the pages (our own 404 among them) name their static files by the
    # manifest collectstatic writes.
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput", "-v0"]):
        manage = [sys.executable, "manage.py", *command]
        subprocess.run(manage, cwd=ROOT, env=environment, check=True, capture_output=True)
    environment |= {"BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1"}
    environment |= {"GUNICORN_ACCESS_LOG": ""}
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn"], cwd=ROOT, env=environment,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    join = f"http://127.0.0.1:{port}/join/{'x' * 32}/"  # a link that is looked up, not found
    try:
        assert status(join, wait=20) == (404, None)  # the database answered: no such link
        postgresql("stop")
        assert status(join) == (503, "2")
        postgresql("start")
        assert status(join) == (404, None)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        _, log = server.communicate(timeout=30)
        print(log)
    assert "answered 503 to GET /join/[token]/" in log


def status(url: str, wait: float = 0) -> tuple[int, str | None]:
    """The status and Retry-After of `url`, asked again until the server listens."""
    deadline = time.monotonic() + wait
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                return response.status, response.headers["Retry-After"]
        except urllib.error.HTTPError as answer:
            return answer.code, answer.headers["Retry-After"]
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_when_the_page_itself_cannot_be_made_the_503_says_it_in_plain_text(
    client_of, game, monkeypatch
):
    from scorecard.web import unavailable

    monkeypatch.setattr(unavailable, "PAGE", "{% url 'no-such-page' %}")
    monkeypatch.setattr(play_views, "load_progress", lose_the_database)
    response = client_of.get(game_url(game))
    assert response.status_code == 503 and response["Content-Type"].startswith("text/plain")
    assert response.content.decode() == (
        "The score card could not reach its database just now. Try again in a few seconds.\n"
    )


def test_a_cache_that_does_not_answer_is_a_503_naming_the_cache(client_of, game, monkeypatch):
    def lose_the_cache(*args, **kwargs):
        raise CacheConnectionError("Error 111 connecting to 10.0.0.5:6379. Connection refused.")

    monkeypatch.setattr(play_views, "load_progress", lose_the_cache)
    response = client_of.get(game_url(game))
    assert response.status_code == 503 and response["Retry-After"] == "2"
    assert "The score card could not reach its cache just now. Try again" in text(response)


@pytest.mark.django_db(transaction=True)
def test_a_swedish_phone_reads_the_503_in_swedish(tmp_path):
    client = browser_of(HouseholdFactory())
    with database_unreachable(tmp_path):
        fragment = client.get("/games/", headers=HTMX | {"Accept-Language": "sv"})
        page = client.get("/games/", headers={"Accept-Language": "sv"})
    assert fragment.status_code == 503 and page.status_code == 503
    assert "Försök igen om några sekunder." in fragment.content.decode()
    assert "Strax tillbaka" in page.content.decode() and "database" not in page.content.decode()
