"""The service worker: served from the root, never kept by a cache, its cache named after
the release."""

import re

import pytest
from django.urls import reverse

from scorecard.views import shell


def test_the_service_worker_is_served_from_the_root_and_never_cached(client):
    response = client.get(reverse("service-worker"))
    assert reverse("service-worker") == "/sw.js"
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-cache"
    assert response["Content-Type"].startswith("text/javascript")
    body = response.content.decode()
    assert f'const CACHE = "scorecard-{shell.release()}";' in body
    assert "/static/bundles/every-page.js" in body and "/static/css/app.css" in body


def test_the_cache_name_changes_with_a_static_file(tmp_path, monkeypatch):
    shell.release.cache_clear()
    before = shell.release()
    changed = tmp_path / "app.css"
    changed.write_text("body { color: red; }")
    real_find = shell.finders.find
    monkeypatch.setattr(
        shell.finders,
        "find",
        lambda name: str(changed) if name == "css/app.css" else real_find(name),
    )
    shell.release.cache_clear()
    try:
        assert shell.release() != before
    finally:
        monkeypatch.undo()
        shell.release.cache_clear()
    assert shell.release() == before


def test_the_worker_carries_its_offline_page_s_words_in_the_phone_s_language(client):
    """Its page for another page opened without a connection (found by a new user: the
    browser's own "no internet" page), said as the phone reads the site."""
    import json
    import re

    def offline_words(language: str) -> dict:
        body = client.get(reverse("service-worker"), headers={"Accept-Language": language})
        return json.loads(re.search(r"const OFFLINE = (\{.*\});", body.content.decode())[1])

    english, german = offline_words("en"), offline_words("de")
    assert english["title"] == "No connection" and english["lang"] == "en"
    assert german["title"] == "Keine Verbindung" and german["lang"] == "de"
    assert english["css"].startswith("/static/css/app")


@pytest.mark.parametrize(
    ("family", "digital", "watched"),
    [("yahtzee", False, False), ("yahtzee", False, True), ("maxi", True, False)],
)
def test_the_worker_keeps_every_file_a_game_page_loads(client, household, family, digital, watched):
    """Found by a helper: a watch link reloaded offline on a laptop lost its scoreboard's
    style sheet (not kept), and the two-column scoreboard fell back to a phone's column."""
    from django.templatetags.static import static

    from scorecard.access import sharing
    from scorecard.game import services
    from scorecard.models import LinkRole
    from tests.helpers import browser_of

    house = services.HouseSettings(family)
    game = services.game_create(owner=household, names=["Ann", "Bob"], house=house, digital=digital)
    if watched:
        token = sharing.link_renew(game=game, role=LinkRole.WATCH).token
        page = client.get(reverse("watch", args=[token]))
    else:
        page = browser_of(household).get(reverse("game", args=[game.public_id]))
    loaded = re.findall(
        r'<(?:link rel="stylesheet" href|script src)="([^"]+)"', page.content.decode()
    )
    assert loaded and set(loaded) <= {static(name) for name in shell.SHELL}
