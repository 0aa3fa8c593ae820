"""Our HTML templates are read without the blank lines and indentation their tags leave
(scorecard/web/trimmed_templates.py), and every page says and shows what it said before."""

import re
from copy import deepcopy

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings
from django.urls import reverse
from jinja2 import FileSystemLoader

from scorecard.engine.rules import Box
from scorecard.web.trimmed_templates import trimmed
from tests.factories import GameFactory
from tests.helpers import HTMX, browser_of, finished_game, post_box


def test_indentation_and_the_lines_of_tags_that_print_nothing_are_left_out():
    source = (
        "<ul>\n"
        "  {% for name in names %}\n"
        "  <li>{{ name }}</li>\n"
        "  {% endfor %}\n"
        "</ul>\n"
        "{# a note #}\n"
        "{# Why, over\ntwo lines. #}\n"
        '{% translate "Games" as games %}\n'
        "{% set total = 3 %}\n"
        "<p>{{ games }}</p>\n"
    )
    assert trimmed(source) == (
        "<ul>\n{% for name in names %}<li>{{ name }}</li>\n{% endfor %}</ul>\n"
        '{% translate "Games" as games %}{% set total = 3 %}<p>{{ games }}</p>\n'
    )


def test_a_tag_that_prints_keeps_its_line_so_the_words_around_it_keep_their_space():
    source = '<h2>\n  {% translate "Ann" %}\n  <small>{% include "x.html" %}</small>\n</h2>\n'
    assert (
        trimmed(source)
        == '<h2>\n{% translate "Ann" %}\n<small>{% include "x.html" %}</small>\n</h2>\n'
    )


def test_blank_lines_are_left_out():
    """Between partial definitions, which print nothing where they stand, a game page kept
    some 25 blank lines (about 25 bytes of each first load)."""
    source = "<p>a</p>\n\n{% block x scoped %}\n<b>b</b>\n{% endblock %}\n\n  \n<p>c\n\nd</p>"
    assert trimmed(source) == "<p>a</p>\n{% block x scoped %}<b>b</b>\n{% endblock %}<p>c\nd</p>"


def test_translated_blocks_and_preformatted_text_are_left_as_written():
    block = "{% blocktranslate %}\n  Two\n  lines{% endblocktranslate %}"
    source = (
        f"<p>\n  {block}  <b>x</b>\n</p>\n<pre>\n  a\n    b\n</pre>\n  <textarea>\n  c</textarea>"
    )
    assert (
        trimmed(source)
        == f"<p>\n{block}  <b>x</b>\n</p>\n<pre>\n  a\n    b\n</pre>\n<textarea>\n  c</textarea>"
    )


PLAIN = deepcopy(settings.TEMPLATES)
PLAIN[0]["OPTIONS"]["loader"] = FileSystemLoader(settings.BASE_DIR / "templates")
# What differs in every answer anyway: the CSRF token's mask, a tap's key, the hour drawn.
FRESH = re.compile(r'[A-Za-z0-9]{64}|value="[0-9a-f-]{36}"|data-rendered="[^"]*"')


def said(client, url: str) -> str:
    """The page's words and markup with every run of spaces as one: what a browser shows.
    An address ending `#htmx` is asked for as htmx asks (the region it swaps). Spaces
    before and after the whole answer show nowhere."""
    cache.clear()  # regions kept per version would otherwise be the other loader's
    url, _, htmx = url.partition("#")
    response = client.get(url, headers=HTMX if htmx else {})
    assert response.status_code == 200, url
    return FRESH.sub("…", re.sub(r"\s+", " ", response.content.decode()).strip())


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_page_says_the_same_with_its_templates_trimmed(db, language):
    game = GameFactory(names=["Ann", "Bob", "Cy", "Di"])
    client = browser_of(game.owner)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    post_box(client, game, Box.FOURS, dice=[4, 4, 4, 2, 5])
    done = finished_game(game.owner)
    page = reverse("game", args=[game.public_id])
    client.get(page)  # the plain post's notice is shown once, here, before the comparison
    urls = [
        page,
        f"{page}?dice=44425&show=1",
        f"{page}?dice=11111&show=1",
        f"{page}?typed=1",
        f"{page}?legend=1",
        f"{page}?dice=44425&show=1#htmx",
        f"{page}?card=1&typed=1#htmx",
        f"{page}?legend=1#htmx",
        reverse("game", args=[done.public_id]),
        reverse("game-review", args=[done.public_id]),
        reverse("game-sheet", args=[game.public_id]),
        reverse("game-share", args=[game.public_id]),
        reverse("game-new"),
        reverse("games"),
        reverse("players"),
        reverse("household"),
        reverse("high-scores"),
        reverse("sheet"),
        reverse("rules"),
        reverse("home"),
    ]
    trimmed_pages = [said(client, url) for url in urls]
    with override_settings(TEMPLATES=PLAIN):
        plain_pages = [said(client, url) for url in urls]
    for url, trimmed_page, plain_page in zip(urls, trimmed_pages, plain_pages, strict=True):
        assert trimmed_page == plain_page, url + _first_difference(trimmed_page, plain_page)


def _first_difference(a: str, b: str) -> str:
    """Where two pages part, for the failure's message."""
    at = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    return f"\ntrimmed: {a[at - 150 : at + 150]!r}\nplain:   {b[at - 150 : at + 150]!r}"
