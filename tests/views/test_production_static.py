"""Pages as production serves them: static files collected with their hashed names
(`MinifiedStaticFiles`, what runs whenever debug is off). Debug's plain storage accepts any
name, so a page that asks the hashed storage for a name it has no file for fails only here."""

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

PRODUCTION = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "scorecard.web.static_files.MinifiedStaticFiles"},
}


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    root = tmp_path_factory.mktemp("collected")
    with override_settings(STATIC_ROOT=root, STORAGES=PRODUCTION):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


@pytest.fixture
def production_static(collected):
    with override_settings(STATIC_ROOT=collected, STORAGES=PRODUCTION):
        yield


def test_the_service_worker_is_served_with_hashed_static_names(client, production_static):
    response = client.get(reverse("service-worker"))
    assert response.status_code == 200
    body = response.content.decode()
    assert 'const STATIC = "/static/";' in body
    # The shell's files by their hashed names, as the pages ask for them.
    assert "/static/css/app.css" not in body
    assert "/static/css/app." in body and ".css" in body


def test_every_kind_of_page_draws_with_hashed_static_names(client_of, game, production_static):
    pages = [reverse("home"), reverse("game", args=[game.public_id]), reverse("rules")]
    for page in pages:
        response = client_of.get(page)
        assert response.status_code == 200, page
        assert "/static/css/app." in response.content.decode()
        assert "/static/css/app.css" not in response.content.decode()
