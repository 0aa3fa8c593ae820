"""Settings fail closed: debug off unless asked for, no server without a secret key, and
a deployment that passes Django's own checks."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = {
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    "DJANGO_ALLOWED_HOSTS": "scores.example.org",
}


def run_django(code: str, **environment) -> subprocess.CompletedProcess:
    """Python with the site's settings and only the environment given (plus the PATH)."""
    env = {"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "yahtzee.settings"}
    env |= {key: value for key, value in os.environ.items() if key in {"DATABASE_URL", "REDIS_URL"}}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env | environment, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip


def test_without_a_secret_key_and_debug_the_server_refuses_to_start_in_one_line():
    started = run_django("import django; django.setup()")
    assert started.returncode == 1
    assert started.stderr.strip().splitlines() == [
        "error: DJANGO_SECRET_KEY is not set; refusing to start without it "
        "(for development, set DJANGO_DEBUG=1)."
    ]


def test_debug_is_off_unless_asked_for():
    code = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    assert run_django(code, **PRODUCTION).stdout.strip() == "False"
    assert run_django(code, **PRODUCTION, DJANGO_DEBUG="0").stdout.strip() == "False"
    assert run_django(code, DJANGO_DEBUG="1").stdout.strip() == "True"


def test_development_uses_a_random_key_never_one_written_in_the_code():
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(len(settings.SECRET_KEY), 'insecure' in settings.SECRET_KEY)"
    )
    assert run_django(code, DJANGO_DEBUG="1").stdout.split() == ["67", "False"]
    assert "insecure" not in (ROOT / "yahtzee" / "settings.py").read_text()


def test_a_production_configuration_passes_the_deploy_checks():
    code = (
        "import sys, django; django.setup(); from django.core.management import call_command; "
        "call_command('check', '--deploy', '--fail-level', 'WARNING')"
    )
    checked = run_django(code, **PRODUCTION)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize(
    ("switch", "warning"),
    [("DJANGO_HSTS_INCLUDE_SUBDOMAINS", "W005"), ("DJANGO_HSTS_PRELOAD", "W021")],
)
def test_hsts_subdomains_and_preload_can_each_be_switched_off(switch, warning):
    code = (
        "import django; django.setup(); from django.core.management import call_command; "
        "call_command('check', '--deploy')"
    )
    checked = run_django(code, **PRODUCTION, **{switch: "0"})
    assert warning in checked.stderr + checked.stdout


def test_the_admin_is_off_unless_switched_on_and_then_asks_staff_to_log_in():
    code = (
        "import django; django.setup(); from django.test import Client; "
        "response = Client().get('/admin/'); print(response.status_code, "
        "response.get('Location', ''))"
    )
    assert run_django(code, DJANGO_DEBUG="1").stdout.split() == ["404"]
    assert run_django(code, DJANGO_DEBUG="1", DJANGO_ADMIN="1").stdout.split() == [
        "302",
        "/admin/login/?next=/admin/",
    ]


SWITCHES = [
    "DJANGO_DEBUG", "DJANGO_ADMIN", "DJANGO_SSL_REDIRECT", "DJANGO_HSTS_INCLUDE_SUBDOMAINS",
    "DJANGO_HSTS_PRELOAD", "DJANGO_TRUST_FORWARDED_FOR",
]  # fmt: skip


@pytest.mark.parametrize("switch", SWITCHES)
@pytest.mark.parametrize("value", ["yes", "", " 1"])
def test_a_switch_that_is_not_0_or_1_is_refused_at_start_in_one_line(switch, value):
    """`DJANGO_HSTS_PRELOAD=yes` used to turn preload off without a word."""
    started = run_django("import django; django.setup()", **PRODUCTION, **{switch: value})
    assert started.returncode == 1
    assert started.stderr.strip().splitlines() == [
        f"error: {switch} must be 0 or 1, not {value!r}."
    ]


def test_a_switch_is_checked_in_development_too():
    started = run_django("import django; django.setup()", DJANGO_DEBUG="1", DJANGO_ADMIN="true")
    assert started.returncode == 1
    assert started.stderr.strip() == "error: DJANGO_ADMIN must be 0 or 1, not 'true'."


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("DJANGO_HSTS_SECONDS", "a year", "DJANGO_HSTS_SECONDS must be a whole number"),
        ("CREATION_WINDOW", "0", "CREATION_WINDOW must be at least 1"),
        ("DJANGO_FORWARDED_HOPS", "0", "DJANGO_FORWARDED_HOPS must be at least 1"),
        ("CREATION_LIMIT", "-5", "CREATION_LIMIT must be a whole number"),
        ("DB_CONN_MAX_AGE", "10m", "DB_CONN_MAX_AGE must be a whole number"),
    ],
)
def test_a_number_that_is_not_one_is_refused_at_start_in_one_line(variable, value, message):
    started = run_django("import django; django.setup()", **PRODUCTION, **{variable: value})
    assert started.returncode == 1
    assert started.stderr.strip().splitlines() == [f"error: {message}, not {value!r}."]


def test_allowed_hosts_are_stripped_of_spaces_and_empty_entries():
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.ALLOWED_HOSTS)"
    )
    hosts = " scores.example.org , ,www.example.org,"
    shown = run_django(code, **PRODUCTION | {"DJANGO_ALLOWED_HOSTS": hosts})
    assert shown.stdout.strip() == "['scores.example.org', 'www.example.org']"


def test_allowed_hosts_that_name_no_host_are_refused_at_start():
    started = run_django(
        "import django; django.setup()", **PRODUCTION | {"DJANGO_ALLOWED_HOSTS": " , "}
    )
    assert started.returncode == 1
    assert started.stderr.strip() == (
        "error: DJANGO_ALLOWED_HOSTS names no host; list the host names served, "
        "separated by commas."
    )


def test_redis_url_makes_every_worker_share_one_redis_cache():
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "c = settings.CACHES['default']; print(c['BACKEND'], c.get('LOCATION', '-'))"
    )
    shared = run_django(code, **PRODUCTION, REDIS_URL="redis://10.0.0.5:6379/0").stdout.split()
    assert shared == ["django.core.cache.backends.redis.RedisCache", "redis://10.0.0.5:6379/0"]
    alone = run_django(code, **PRODUCTION, REDIS_URL="").stdout.split()
    assert alone[0] == "django.core.cache.backends.locmem.LocMemCache"


def test_a_process_s_own_cache_has_room_for_the_drawings_of_a_few_hundred_tables():
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.CACHES['default'].get('OPTIONS', {}).get('MAX_ENTRIES', 300))"
    )
    assert int(run_django(code, **PRODUCTION, REDIS_URL="").stdout) >= 3000


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="CI's PostgreSQL pass sets REDIS_URL")
def test_a_real_redis_keeps_what_one_process_wrote_for_another():
    write = "import django; django.setup(); from django.core.cache import cache; "
    key = f"shared-{secrets.token_hex(4)}"
    assert run_django(write + f"cache.set('{key}', 42, 60)", **PRODUCTION).returncode == 0
    read = run_django(write + f"print(cache.get('{key}'))", **PRODUCTION)
    assert read.stdout.strip() == "42", read.stderr
