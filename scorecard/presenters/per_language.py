"""Words that depend on nothing but the language they are said in, translated once a language.

A game page says a box's name, its hint and the standings' headings dozens of times, and each
translation looks the text up through Django's catalogs afresh (about 5 µs a time, a tenth of
a page's cost). A catalog does not change while a process runs, so what such a function said
in a language is kept for that language: the memo of a pure function, one per worker, at most
one entry per language and argument. A test that swaps the catalogs (LOCALE_PATHS) starts a
fresh memo through Django's `setting_changed`, as Django's own catalog cache does.
"""

from collections.abc import Callable
from functools import cache, wraps

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.translation import get_language

_MEMOS: list[Callable[..., object]] = []

# Settings that change what a text is in a language.
CATALOG_SETTINGS = {"LOCALE_PATHS", "LANGUAGES", "LANGUAGE_CODE", "INSTALLED_APPS"}


def per_language[R](said: Callable[..., R]) -> Callable[..., R]:
    """`said`, kept per active language and (positional, hashable) arguments."""

    @cache
    def in_language(language: str | None, *args: object) -> R:
        return said(*args)

    @wraps(said)
    def translated(*args: object) -> R:
        return in_language(get_language(), *args)

    _MEMOS.append(in_language)
    return translated


def forget() -> None:
    for memo in _MEMOS:
        memo.cache_clear()  # type: ignore[attr-defined]


@receiver(setting_changed)
def _catalogs_changed(*, setting: str, **kwargs: object) -> None:
    if setting in CATALOG_SETTINGS:
        forget()
