"""Settings for the Yahtzee score card. They fail closed.

Debug is off unless DJANGO_DEBUG=1 (`make run` and the tests set it). Without debug the
server refuses to start until DJANGO_SECRET_KEY is set. SQLite needs no set-up and is the
default; set DATABASE_URL (postgres://...) to share one PostgreSQL database between many
stateless workers. Every switch is an environment variable; the README's Deploy section
lists them.
"""

import os
import secrets
import sys
from pathlib import Path
from typing import NoReturn

import dj_database_url
from django.utils.csp import CSP

from scorecard.web.trimmed_templates import TrimmedLoader

BASE_DIR = Path(__file__).resolve().parent.parent


def _refuse_to_start(message: str) -> NoReturn:
    """Stop the process with one line saying which setting is wrong: manage.py, the tests
    and gunicorn's master (gunicorn.conf.py reads these settings before it opens a port)."""
    sys.stderr.write(f"error: {message}\n")
    raise SystemExit(1)


def _switch(name: str, default: bool) -> bool:
    """An on/off setting, `1` or `0` and nothing else: a `yes` or `true` read as off would
    turn a protection off without a word."""
    value = os.environ.get(name, "1" if default else "0")
    if value not in {"0", "1"}:
        _refuse_to_start(f"{name} must be 0 or 1, not {value!r}.")
    return value == "1"


def _number(name: str, default: int, *, least: int) -> int:
    """A whole-number setting of at least `least`, refused at start when it is not one."""
    value = os.environ.get(name, str(default))
    if not value.isdecimal():
        _refuse_to_start(f"{name} must be a whole number, not {value!r}.")
    if int(value) < least:
        _refuse_to_start(f"{name} must be at least {least}, not {value!r}.")
    return int(value)


def _host_names(value: str) -> list[str]:
    """Comma-separated host names; spaces around them and empty entries are dropped."""
    return [name.strip() for name in value.split(",") if name.strip()]


def _development_key() -> str:
    """A random key kept beside the code for development, never a key written in it: a
    known key would let anyone forge a household cookie."""
    path = BASE_DIR / ".secret-key-development"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


DEBUG = _switch("DJANGO_DEBUG", False)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        _refuse_to_start(
            "DJANGO_SECRET_KEY is not set; refusing to start without it "
            "(for development, set DJANGO_DEBUG=1)."
        )
    SECRET_KEY = _development_key()
ALLOWED_HOSTS = _host_names(
    os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
)
if not ALLOWED_HOSTS:
    _refuse_to_start(
        "DJANGO_ALLOWED_HOSTS names no host; list the host names served, separated by commas."
    )
# The admin is off unless asked for, and then only for staff accounts.
ADMIN_ENABLED = _switch("DJANGO_ADMIN", False)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "scorecard",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and fragments are compressed, brotli first; static files come precompressed
    # from whitenoise.
    "scorecard.web.compression.CompressAsAsked",
    "scorecard.web.middleware.RefuseAtTheDoor",
    # Most requests are polls of an unchanged game: answered 304 here, before the rest.
    "scorecard.web.live.AnswerUnchangedPolls",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The phone's language: its cookie (the footer's switch), else its Accept-Language.
    "scorecard.web.language.PhoneLanguage",
    # Times in the phone's time zone, once a page that shows them has told it (a cookie).
    "scorecard.web.phone_time.PhoneTimeZone",
    # A failed htmx request's answer says what happened in words (static/js/requests.js).
    "scorecard.web.failures.SayFailuresInWords",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scorecard.access.households.HouseholdMiddleware",
    # An address a button posts to, opened as a page: a page of ours, not a bare 405.
    "scorecard.web.not_allowed.ExplainNotAllowed",
    "scorecard.web.middleware.LinkPagePrivacy",
    # A database or cache gone for a moment (a restart) is a 503 with Retry-After, not a 500.
    "scorecard.web.unavailable.StorageUnavailable",
]

ROOT_URLCONF = "yahtzee.urls"
WSGI_APPLICATION = "yahtzee.wsgi.application"

# Our pages are Jinja2 templates (scorecard/web/jinja.py), one template language for every page:
# README, Performance. Django's own engine stays for Django's own apps (the admin).
CONTEXT_PROCESSORS = [
    "django.template.context_processors.request",
    "django.template.context_processors.csp",
    "django.contrib.auth.context_processors.auth",
    "django.contrib.messages.context_processors.messages",
]
TEMPLATES = [
    {
        "BACKEND": "scorecard.web.jinja_backend.Jinja2",
        "NAME": "jinja2",
        "OPTIONS": {
            "environment": "scorecard.web.jinja.environment",
            # Our HTML templates are read without the blank lines and indentation their tags
            # leave (scorecard/web/trimmed_templates.py); Jinja2 keeps each compiled.
            "loader": TrimmedLoader(BASE_DIR / "templates"),
            # One masked CSRF field per answer, and neither it nor a tap's key in an htmx
            # answer's hx-post forms.
            "context_processors": [
                *CONTEXT_PROCESSORS,
                "scorecard.web.csrf.csrf_fields",
                "scorecard.web.jinja.tap_key_fields",
            ],
        },
    },
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": CONTEXT_PROCESSORS},
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=_number("DB_CONN_MAX_AGE", 600, least=0),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Django's backend, each statement's placeholders rewritten once (yahtzee/sqlite).
    DATABASES["default"]["ENGINE"] = "yahtzee.sqlite"
    # WAL lets readers go on while one writer records a box; IMMEDIATE takes the write lock
    # at the start of a transaction, so two writers queue instead of failing mid-way.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "timeout": 20,
    }
    # Tests use a file too, not shared memory, so two writers wait for the lock as they do
    # in production instead of failing at once.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / ".test-db.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Past one machine every worker shares one Redis (REDIS_URL, e.g. redis://10.0.0.5:6379/0):
# the Win column and the charts are computed once for all of them. Without it each process
# keeps its own cache in memory, which is right for one process and merely slower for many:
# nothing that must be shared (the creation limit, the games) lives in a cache.
_redis_url = os.environ.get("REDIS_URL", "")
if _redis_url:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": _redis_url,
            "KEY_PREFIX": "scorecard",
            # A Redis that does not answer fails the request in a second (a 503), not in 30.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    # Each table playing keeps a few drawn regions of its page (`web/fragments.py`, about
    # 10 KB each) beside its Win column: room for a few hundred tables, not Django's 300 entries.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 3000},
        }
    }

LANGUAGE_CODE = "en"
# Dates in each language's own way (pages ask for DATE_FORMAT and its kin); English as
# `yahtzee/formats/en` writes it.
FORMAT_MODULE_PATH = ["yahtzee.formats"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
# The languages of the tables the card serves (the switch names each in its own words).
LANGUAGES = [
    ("en", "English"),
    ("sv", "Svenska"),
    ("da", "Dansk"),
    ("nb", "Norsk bokmål"),
    ("fi", "Suomi"),
    ("de", "Deutsch"),
    ("fr", "Français"),
    ("es", "Español"),
]
# The catalogs, .po and compiled .mo both committed (locale/README.md says why).
LOCALE_PATHS = [BASE_DIR / "locale"]
# The switch's choice is kept a year, like any preference of this browser.
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    # Our scripts in one minified bundle per kind of page, htmx in its own.
    "scorecard.web.static_files.BundleFinder",
]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # whitenoise's hashed names and brotli copies, our scripts and styles minified first.
        "BACKEND": "scorecard.web.static_files.MinifiedStaticFiles"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# The optimal-strategy tables' folder is STRATEGY_DATA_DIR, read by scorecard/engine/tables.py
# (the engine runs without Django, so the setting is not here).

# The household a phone belongs to is kept in a signed cookie; games and players are its own.
HOUSEHOLD_COOKIE = "household"
HOUSEHOLD_COOKIE_MAX_AGE = 60 * 60 * 24 * 365 * 5

SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CSRF_COOKIE_HTTPONLY = False  # our scripts read the token from it (htmx-settings.js)
SESSION_COOKIE_HTTPONLY = True
# Read in development too, so a wrong value is found before it reaches a server.
_ssl_redirect = _switch("DJANGO_SSL_REDIRECT", True)
_hsts_seconds = _number("DJANGO_HSTS_SECONDS", 60 * 60 * 24 * 365, least=0)
_hsts_subdomains = _switch("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
_hsts_preload = _switch("DJANGO_HSTS_PRELOAD", True)
if not DEBUG:
    SECURE_SSL_REDIRECT = _ssl_redirect
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # a load balancer asks over plain HTTP
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = _hsts_seconds
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _hsts_subdomains
    SECURE_HSTS_PRELOAD = _hsts_preload
# Cookies of our own (household, advice) follow the session cookie's Secure flag.
COOKIES_SECURE = not DEBUG
LANGUAGE_COOKIE_SECURE = COOKIES_SECURE

# Requests are refused before their body is read when they are larger than an import may be
# (20 MB, scorecard/history/exchange.py), with room for the form's envelope around the file,
# so a file a little too large is refused by the import page's own check and words.
MAX_REQUEST_BYTES = 20 * 1024 * 1024 + 64 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440  # form fields; a file upload goes through the next
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440  # larger uploads spool to a temporary file

# How many games and households one client address may create in a window of seconds.
CREATION_LIMIT = _number("CREATION_LIMIT", 30, least=0)
CREATION_WINDOW = _number("CREATION_WINDOW", 600, least=1)
# Behind proxies that append to X-Forwarded-For, the client is the address the outermost
# trusted one appended: FORWARDED_HOPS places from the right (1: a single proxy).
TRUST_FORWARDED_FOR = _switch("DJANGO_TRUST_FORWARDED_FOR", False)
FORWARDED_HOPS = _number("DJANGO_FORWARDED_HOPS", 1, least=1)

# A share or join link's token never reaches a log or an error report (see log_privacy).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"link_tokens": {"()": "scorecard.web.log_privacy.RedactLinkTokens"}},
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["link_tokens"]},
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["link_tokens"],
        },
        "mail_admins": {
            "level": "ERROR",
            "filters": ["link_tokens"],
            "class": "django.utils.log.AdminEmailHandler",
            "reporter_class": "scorecard.web.log_privacy.RedactingExceptionReporter",
        },
    },
    "loggers": {
        "django": {"handlers": ["console", "mail_admins"], "level": "WARNING", "propagate": False},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
    "root": {"handlers": ["console"], "level": "WARNING"},
}
DEFAULT_EXCEPTION_REPORTER = "scorecard.web.log_privacy.RedactingExceptionReporter"
