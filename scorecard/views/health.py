"""The health check a load balancer asks each machine: can it reach the database and the
cache? 200 when both answer, 503 naming the one that does not, so a machine that lost
either is taken out of the rotation while the others serve."""

from __future__ import annotations

import secrets

from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET
from redis.exceptions import RedisError


def _database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except DatabaseError:
        return False


def _cache_answers() -> bool:
    """A value written and read back: a cache that accepts writes but loses them fails."""
    key, value = "healthz", secrets.token_hex(8)
    try:
        cache.set(key, value, timeout=10)
        return cache.get(key) == value
    except (RedisError, OSError):
        return False


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    checks = {"database": _database_answers(), "cache": _cache_answers()}
    lines = "".join(f"{name}: {'ok' if ok else 'not answering'}\n" for name, ok in checks.items())
    response = HttpResponse(lines, content_type="text/plain; charset=utf-8")
    response.status_code = 200 if all(checks.values()) else 503
    response["Cache-Control"] = "no-store"
    return response
