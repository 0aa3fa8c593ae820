"""Playwright driving Debian's Chromium (never a downloaded browser) against a live server."""

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
PHONE = {"width": 390, "height": 844}

# Playwright's sync API runs an event loop in this thread; the tests' own database work
# (factories, assertions) is still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def chromium():
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        message = f"Debian's chromium is not installed at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


def open_phone(
    chromium,
    base: str,
    *,
    viewport=PHONE,
    scale: int = 2,
    workers: str = "allow",
    zone="UTC",
    touch: bool = True,
):
    """A touch page on a phone screen whose console errors land in `page.errors`; `zone` is
    the phone's time zone (the server's, UTC, unless a test says: a page with times is then
    drawn again once, `web/phone_time`). Without `touch`, a laptop's: a mouse, no touch."""
    context = chromium.new_context(
        viewport=viewport,
        device_scale_factor=scale,
        is_mobile=touch,
        has_touch=touch,
        service_workers=workers,
        timezone_id=zone,
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on(
        "console",
        lambda message: page.errors.append(message.text) if message.type == "error" else None,
    )
    page.base = base
    if workers == "allow":
        page.route = context.route = routes_need_the_marker
    return page


def routes_need_the_marker(*args, **kwargs):
    """A route on a page whose service worker may take control misses its requests at
    random (CI failed on a poll never held): such a test is marked `routes_requests`."""
    raise AssertionError("a test that routes requests is marked routes_requests")


def service_workers(request) -> str:
    """Playwright's routes miss the requests of a page while its service worker takes
    control: a test that routes requests is marked `routes_requests` and runs without it, as
    one marked `without_service_worker` does (a browser's first visit, before it has one)."""
    marked = request.node.get_closest_marker
    return "block" if marked("routes_requests") or marked("without_service_worker") else "allow"


@pytest.fixture
def phones(chromium, live_server, request):
    """Opens phones for the test (`phones()`, `phones(viewport=..., scale=1)`); all closed after."""
    opened = []

    def open_one(**options):
        page = open_phone(chromium, live_server.url, workers=service_workers(request), **options)
        opened.append(page)
        return page

    yield open_one
    for page in opened:
        page.context.close()


@pytest.fixture
def phone(phones):
    """A page on a 390x844 phone screen, with the console watched for errors."""
    return phones()


def save_screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, caret="initial", animations="allow")
    return path


def join_household(page, household) -> None:
    """Give the browser the cookie of `household`, as if it had made its games."""
    from django.conf import settings

    from tests.helpers import household_cookie

    cookie = {"name": settings.HOUSEHOLD_COOKIE, "value": household_cookie(household)}
    page.context.add_cookies([cookie | {"url": page.base}])
