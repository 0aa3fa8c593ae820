"""The health check a load balancer asks: the database and the cache, each answering."""

import pytest
from django.db import OperationalError
from django.test import Client
from django.urls import reverse

from scorecard.views import health

UNREACHABLE_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing listens there
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
}


def test_a_machine_that_reaches_both_answers_200_ok(db):
    response = Client().get(reverse("healthz"))
    assert response.status_code == 200
    assert response.content.decode() == "database: ok\ncache: ok\n"
    assert response["Cache-Control"] == "no-store"


def test_a_cache_that_does_not_answer_is_a_503_naming_it(db, settings):
    settings.CACHES = UNREACHABLE_REDIS
    response = Client().get(reverse("healthz"))
    assert response.status_code == 503
    assert response.content.decode() == "database: ok\ncache: not answering\n"


def test_a_database_that_does_not_answer_is_a_503_naming_it(db, monkeypatch):
    class GoneCursor:
        def __enter__(self):
            raise OperationalError("server closed the connection unexpectedly")

        def __exit__(self, *exc):
            return False

    with monkeypatch.context() as patched:  # undone before the test database is cleaned
        patched.setattr(health.connection, "cursor", GoneCursor)
        response = Client().get(reverse("healthz"))
    assert response.status_code == 503
    assert response.content.decode() == "database: not answering\ncache: ok\n"


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_the_health_check_only_answers_get(db, method):
    assert getattr(Client(), method)(reverse("healthz")).status_code == 405
