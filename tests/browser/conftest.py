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


@pytest.fixture
def phone(chromium, live_server):
    """A page on a 390x844 phone screen, with the console watched for errors."""
    context = chromium.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on(
        "console",
        lambda message: page.errors.append(message.text) if message.type == "error" else None,
    )
    page.base = live_server.url
    yield page
    context.close()


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
