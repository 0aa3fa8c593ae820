"""The catalogs: complete, compiled, in step with the code, and covering every text on the
pages translated so far (a pseudo-locale finds any text left out)."""

import json
import re
import shutil
import subprocess
import sys
from io import StringIO
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.http import Http404
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.views.defaults import page_not_found, permission_denied

from scorecard.engine import families, rules
from scorecard.engine.rules import Box
from tests.factories import GameFactory, play
from tests.helpers import browser_of, finished_game, game_url, post_box, post_roll

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"%\(\w+\)s")
# What the code is made of, for makemessages in a copy (tests, bench and tools stay out).
SOURCES = ["manage.py", "yahtzee", "scorecard", "templates", "locale"]


def catalog(language: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))


def translations(entries) -> dict:
    return {(e.msgctxt, e.msgid): (e.msgstr, dict(e.msgstr_plural)) for e in entries if e.msgid}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalog_is_complete_with_no_fuzzy_entry(language):
    po = catalog(language)
    assert [e.msgid for e in po.untranslated_entries()] == []
    assert [e.msgid for e in po.fuzzy_entries()] == []
    assert len(po.translated_entries()) > 100


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_plural_has_each_form_its_language_counts(language):
    """Found by a new user: Spanish and French count three forms (one, a million, the
    rest), and seven messages gave two: "2 rolls left" came out in English."""
    po = catalog(language)
    forms = int(re.search(r"nplurals=(\d+)", po.metadata["Plural-Forms"]).group(1))
    short = [
        e.msgid
        for e in po
        if e.msgid_plural and not all(e.msgstr_plural.get(form) for form in range(forms))
    ]
    assert short == []
    with translation.override(language):
        for count in (1, 2, 5, 1_000_000):
            said = translation.ngettext(
                "%(left)s roll left; expected final total",
                "%(left)s rolls left; expected final total",
                count,
            )
            assert "roll" not in said, (count, said)  # fmt: skip


def test_the_roll_button_counts_its_rolls_left_in_spanish_and_french():
    """Found by a new user: "Volver a tirar (quedan 1)"."""
    said = {}
    for language in ("es", "fr"):
        with translation.override(language):
            said[language] = [
                translation.ngettext("(%(left)s left)", "(%(left)s left)", left) % {"left": left}
                for left in (1, 2)
            ]
    assert said == {"es": ["(queda 1)", "(quedan 2)"], "fr": ["(1 restant)", "(2 restants)"]}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_keeps_the_placeholders_of_its_english(language):
    for entry in catalog(language).translated_entries():
        english = set(PLACEHOLDER.findall(entry.msgid + (entry.msgid_plural or "")))
        said = [entry.msgstr] if entry.msgstr else list(entry.msgstr_plural.values())
        for text in said:
            # A plural's "one" form may say the number in words and leave its placeholder out.
            assert set(PLACEHOLDER.findall(text)) <= english, (entry.msgid, text)
            if not entry.msgid_plural:
                assert set(PLACEHOLDER.findall(text)) == english, (entry.msgid, text)


# A player's name never takes an ending: Swedish "%(name)ss tur" makes "Larss tur" of Lars,
# Finnish "%(name)s:n" needs a vowel the name may not have, French "de %(name)s" would
# need "d’" before Anne. Each catalog says these without touching the name.
NAME = r"%\((?:name|names|player)\)s"
NAME_WITH_AN_ENDING = re.compile(NAME + r"['’:-]?\w")
FRENCH_DE_BEFORE_A_NAME = re.compile(r"\bde " + NAME)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_translation_builds_an_ending_onto_a_player_s_name(language):
    patterns = [NAME_WITH_AN_ENDING] + ([FRENCH_DE_BEFORE_A_NAME] if language == "fr" else [])
    found = []
    for entry in catalog(language).translated_entries():
        for text in [entry.msgstr] if entry.msgstr else list(entry.msgstr_plural.values()):
            found += [text for pattern in patterns if pattern.search(text)]
    assert found == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_compiled_catalog_is_its_po_file_compiled(language):
    mo = polib.mofile(str(LOCALE / language / "LC_MESSAGES" / "django.mo"))
    assert translations(mo) == translations(catalog(language).translated_entries())


def _without_creation_date(po_file: Path) -> str:
    return re.sub(r'"POT-Creation-Date: [^"]*"\n', "", po_file.read_text())


def test_the_german_coach_choices_read_right_for_one_point_and_for_half_a_point():
    """Found by a new user: "Trainer: ab 1 Punkten Verlust" (one point is "1 Punkt"). The
    label names the loss in points by the abbreviation, whose form hangs on no number."""
    from scorecard.web import advice_setting

    with translation.override("de"):
        labels = [
            str(advice_setting.SETTINGS[f"coach-{loss}"]) for loss in advice_setting.COACH_LOSSES
        ]
    assert labels == [f"Trainer: Verlust ab {loss} Pkt." for loss in ("0,5", "1", "2", "5")]


def test_makemessages_for_every_language_changes_nothing_but_the_creation_date(tmp_path):
    for source in SOURCES:
        path = Path(settings.BASE_DIR) / source
        if path.is_dir():
            shutil.copytree(path, tmp_path / source, ignore=shutil.ignore_patterns("*.mo"))
        else:
            shutil.copy(path, tmp_path / source)
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            "--all",
            "--no-obsolete",
            "--add-location=file",
        ],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    for language in LANGUAGES:
        made = tmp_path / "locale" / language / "LC_MESSAGES" / "django.po"
        kept = LOCALE / language / "LC_MESSAGES" / "django.po"
        assert _without_creation_date(made) == _without_creation_date(kept), (
            f"locale/{language} is out of step with the code: run `make messages`"
        )


# --- The pseudo-locale: every translation wrapped, so text left out stands out ---------------

# The innermost wrapped text: a translation may hold another ("[!! [!! Yatzy !!] score sheet !!]").
WRAPPED = re.compile(r"\[!!(?:(?!\[!!).)*?!!\]", re.DOTALL)
TAGS = re.compile(r"<[^>]*>")
READ_ALOUD = re.compile(r'(?:aria-label|title|alt|placeholder)="([^"]*)"')


def _pseudo_catalog(folder: Path) -> None:
    """Swedish's entries with every msgstr replaced by its English wrapped in [!! … !!]."""
    po = catalog("sv")
    for entry in po:
        if entry.msgid_plural:
            entry.msgstr_plural = {0: f"[!! {entry.msgid} !!]", 1: f"[!! {entry.msgid_plural} !!]"}
        else:
            entry.msgstr = f"[!! {entry.msgid} !!]"
    target = folder / "sv" / "LC_MESSAGES"
    target.mkdir(parents=True)
    po.save_as_mofile(str(target / "django.mo"))


@pytest.fixture
def pseudo(tmp_path):
    _pseudo_catalog(tmp_path)
    with override_settings(LOCALE_PATHS=[tmp_path]):
        yield Client(headers={"Accept-Language": "sv"})


def _regions(html: str) -> list[str]:
    """What the pages translated so far show: the title, the main region, the footer's switch
    less the languages' own names (each written in its own language on purpose)."""
    found = re.findall(r"<title>(.*?)</title>", html, re.DOTALL)
    found += re.findall(r"<main[^>]*>(.*?)</main>", html, re.DOTALL)
    for footer in re.findall(r"<footer[^>]*>(.*?)</footer>", html, re.DOTALL):
        found.append(re.sub(r"<option[^>]*>[^<]*</option>| · Language", "", footer))
    return found


def date_words() -> set[str]:
    """Today's date as a Swedish page writes it (Django's month names): data, not ours."""
    with translation.override("sv"):
        written = [formats.date_format(timezone.now(), name) for name in DATE_FORMATS]
    return set(re.findall(r"[^\W\d_]{2,}", " ".join(written)))


DATE_FORMATS = ("DATE_FORMAT", "DATETIME_FORMAT", "MONTH_DAY_FORMAT")


def left_untranslated(html: str, data=()) -> list[str]:
    """Words on the page outside any translation, less the data given (players' names)."""
    texts = []
    for region in _regions(html):
        texts += READ_ALOUD.findall(region)
        texts.append(TAGS.sub(" ", region))
    # Addresses on show (a link to share) are data too.
    shown, unwrapped = re.sub(r"https?://\S+", " ", " ".join(texts)), ""
    while shown != unwrapped:
        unwrapped, shown = shown, WRAPPED.sub(" ", shown)
    words = re.findall(r"[^\W\d_]{2,}", shown)
    return [word for word in words if word not in data]


@pytest.mark.parametrize(
    "address",
    [
        "/",
        "/sheet/",
        "/sheet/?game=yatzy",
        "/sheet/?game=maxi&columns=3",
        "/sheet/?triple=1&columns=2",
        "/sheet/?columns=99",
        "/rules/",
    ],
)
@pytest.mark.django_db
def test_the_pseudo_locale_finds_no_text_left_out_of_the_translated_pages(pseudo, address):
    page = pseudo.get(address)
    assert page.status_code in {200, 400}
    assert left_untranslated(page.content.decode()) == []


def test_the_pseudo_locale_finds_no_text_left_out_of_a_game_s_own_sheet(tmp_path, game):
    play(game, [(Box.THREE_OF_A_KIND, (3, 3, 3, 1, 2))])
    _pseudo_catalog(tmp_path)
    with override_settings(LOCALE_PATHS=[tmp_path]):
        owner = browser_of(game.owner)
        page = owner.get(game_url(game, "game-sheet"), headers={"Accept-Language": "sv"})
        data = {"Ann", "Bob", *date_words()}  # the heading's date: Django's month names
    assert left_untranslated(page.content.decode(), data=data) == []


@pytest.mark.django_db
def test_the_pseudo_locale_finds_no_text_left_out_of_the_error_pages(tmp_path):
    _pseudo_catalog(tmp_path)
    request = RequestFactory().get("/nowhere/")
    with override_settings(LOCALE_PATHS=[tmp_path]), translation.override("sv"):
        for answer in (page_not_found(request, Http404()), permission_denied(request, None)):
            assert left_untranslated(answer.content.decode()) == []


def test_the_pseudo_locale_finds_no_text_left_out_of_the_players_pages(tmp_path, household):
    from scorecard.models import Player
    from tests.helpers import settled_family_game

    settled_family_game(household, "yatzy", {"Dee": 250, "Eve": 231}, with_figures=True)
    settled_family_game(household, "yahtzee", {"Dee": 190, "Eve": 240}, with_figures=True)
    dee = Player.objects.get(name="Dee")
    _pseudo_catalog(tmp_path)
    with override_settings(LOCALE_PATHS=[tmp_path]), translation.override("sv"):
        # Dates are Django's words in the page's language (a month's name), data here.
        data = {"Dee", "Eve", *date_words()}
        phone = browser_of(household)
        for address in ["/players/", "/high-scores/", f"/players/{dee.public_id}/"]:
            page = phone.get(address, headers={"Accept-Language": "sv"})
            assert page.status_code == 200
            assert left_untranslated(page.content.decode(), data=data) == [], address


def test_the_pseudo_locale_finds_no_text_left_out_of_games_household_join_and_import(
    tmp_path, household
):
    from scorecard.access import sharing
    from scorecard.models import Browser, LinkRole
    from tests.factories import HouseholdFactory
    from tests.helpers import good_document

    game = finished_game(household, names=("Dee", "Eve"))
    sharing.link_renew(game=game, role=LinkRole.WATCH)  # one link made, the other not yet
    Browser.objects.create(household=household, name="Tablet")
    token = sharing.join_link_renew(household=household)
    stranger = HouseholdFactory()
    finished_game(stranger, names=("Flo",))
    _pseudo_catalog(tmp_path)
    with override_settings(LOCALE_PATHS=[tmp_path]), translation.override("sv"):
        data = {"Dee", "Eve", "Tablet", "Test", *date_words()}
        phone = browser_of(household)
        addresses = ["/games/", "/games/import/", "/household/"]
        addresses.append(f"/games/{game.public_id}/share/")
        for address in addresses:
            page = phone.get(address, headers={"Accept-Language": "sv"})
            assert page.status_code == 200, address
            assert left_untranslated(page.content.decode(), data=data) == [], address
        # Another household's browser opening the join link: the page with its warning.
        page = browser_of(stranger).get(f"/join/{token}/", headers={"Accept-Language": "sv"})
        assert page.status_code == 200
        assert left_untranslated(page.content.decode(), data=data) == []
        # An import, twice: the games page says what it wrote, then that it was here already.
        for _ in range(2):
            upload = StringIO(json.dumps(good_document(household)))
            upload.name = "games.json"
            page = phone.post(
                "/games/import/", {"file": upload}, headers={"Accept-Language": "sv"}, follow=True
            )
            said = page.content.decode()
            named = data | {"Ann", "Bob", "Flo"}  # the games in the list
            assert 'role="status"' in said and left_untranslated(said, data=named) == []


# --- The game page in its states, and the pages around it ------------------------------------

# The words static/js/*.js shows come from these data- attributes of the page.
SCRIPT_WORDS = re.compile(
    r'data-(?:sending|waiting|tap|refused|saved|offline|status-\w+)="([^"]*)"'
)


def left_out_of_a_game_page(html: str, data=()) -> list[str]:
    """`left_untranslated`, and the words the page's scripts show (outside <main>)."""
    found = left_untranslated(html, data)
    for said in SCRIPT_WORDS.findall(html):
        found += left_untranslated(f"<main>{said}</main>", data)
    return found


@pytest.fixture
def pseudo_phone(tmp_path, household):
    """A phone of `household` reading the pseudo-locale (Swedish's catalog, every text
    wrapped), with advice on; `strategy_tables` supply the advice where a test asks for it."""
    _pseudo_catalog(tmp_path)
    with override_settings(LOCALE_PATHS=[tmp_path]):
        phone = browser_of(household)
        phone.defaults["HTTP_ACCEPT_LANGUAGE"] = "sv"
        yield phone


NAMES = {"Ann", "Bob", "Dee", "Mia"}


def test_the_pseudo_locale_finds_no_text_left_out_of_the_dice_pad_and_the_box_buttons(
    pseudo_phone, game, strategy_tables
):
    strategy_tables.load(rules.JokerRule.HASBRO)
    pseudo_phone.cookies["advice"] = "on"
    play(game, [(Box.YAHTZEE, (5, 5, 5, 5, 5)), (Box.FIVES, (5, 5, 5, 1, 2))])
    for query in ["", "?dice=12", "?dice=66645", "?dice=66645&roll=2", "?dice=55555&typed=1"]:
        page = pseudo_phone.get(game_url(game) + query)
        assert page.status_code == 200, query
        assert left_out_of_a_game_page(page.content.decode(), NAMES) == [], query
    bad = pseudo_phone.get(game_url(game), {"dice": "12x45", "show": "1"})
    assert left_out_of_a_game_page(bad.content.decode(), NAMES) == []


def test_the_pseudo_locale_finds_no_text_left_out_of_the_coach_and_a_zero_s_question(
    pseudo_phone, game, strategy_tables
):
    strategy_tables.load(rules.JokerRule.HASBRO)
    pseudo_phone.cookies["advice"] = "coach-2"
    coach = post_box(pseudo_phone, game, Box.CHANCE, dice=(6, 6, 6, 4, 5))
    zero = post_box(pseudo_phone, game, Box.YAHTZEE, dice=(1, 2, 3, 4, 6), coach="heard")
    for page in (coach, zero):
        assert page.status_code == 200 and not game.entries.exists()
        assert left_out_of_a_game_page(page.content.decode(), NAMES) == []


def test_the_pseudo_locale_finds_no_text_left_out_of_a_finished_game_a_watcher_and_a_fix(
    pseudo_phone, household
):
    from scorecard.access import sharing
    from scorecard.models import LinkRole

    game = finished_game(household, names=("Ann", "Bob"))
    link = sharing.link_renew(game=game, role=LinkRole.WATCH)
    unfinished = GameFactory(owner=household, names=["Dee", "Mia"])
    play(unfinished, [(Box.FULL_HOUSE, (2, 2, 3, 3, 3))])
    addresses = [
        game_url(game),
        reverse("watch", args=[link.token]),
        game_url(unfinished, "game-correct", turn=1),
        reverse("game-new"),
    ]
    for address in addresses:
        page = pseudo_phone.get(address)
        assert page.status_code == 200, address
        assert left_out_of_a_game_page(page.content.decode(), NAMES) == [], address
    refused = pseudo_phone.post(
        game_url(unfinished, "game-correct", turn=1), {"version": unfinished.version, "points": "7"}
    )
    assert refused.status_code == 400
    assert left_out_of_a_game_page(refused.content.decode(), NAMES) == []


def test_the_pseudo_locale_finds_no_text_left_out_of_digital_dice_and_forced_yatzy(
    pseudo_phone, household, seeded
):
    from scorecard.game import services

    digital = services.game_create(owner=household, names=["Dee"], digital=True)
    post_roll(pseudo_phone, digital)
    post_roll(pseudo_phone, digital, hold=[0, 1])
    forced = GameFactory(
        owner=household,
        names=["Mia"],
        house=services.HouseSettings("yatzy", forced=True),
    )
    maxi = GameFactory(
        owner=household,
        names=["Ann", "Bob"],
        house=services.HouseSettings("maxi", frozenset({families.Switch.SAVED_ROLLS})),
    )
    for address in [game_url(digital), game_url(forced) + "?dice=66645", game_url(maxi)]:
        page = pseudo_phone.get(address)
        assert page.status_code == 200, address
        assert left_out_of_a_game_page(page.content.decode(), NAMES) == [], address


def test_the_pseudo_locale_finds_no_text_left_out_of_a_game_s_review(
    tmp_path, household, policy_tables
):
    from scorecard.models import Game
    from tests.helpers import finished_game

    game = finished_game(household, names=("Dee", "Eve"), digital=True)
    going = finished_game(household, names=("Dee",))
    Game.objects.filter(pk=going.pk).update(finished=None)
    _pseudo_catalog(tmp_path)
    with override_settings(LOCALE_PATHS=[tmp_path]), translation.override("sv"):
        data = {"Dee", "Eve", *date_words()}
        phone = browser_of(household)
        for address in [
            f"/games/{game.public_id}/review/",
            f"/games/{game.public_id}/review/?advice=1",
            f"/games/{going.public_id}/review/",
        ]:
            page = phone.get(address, headers={"Accept-Language": "sv"})
            assert page.status_code == 200, address
            assert left_untranslated(page.content.decode(), data=data) == [], address
        rated = phone.get(f"/games/{game.public_id}/review/?advice=1").content.decode()
        assert 'class="decisions"' in rated and rated.count("<svg") == 2  # both charts


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_pages_odds_are_not_named_like_the_chance_box(language):
    """Found by a new user: "Chansen." headed the odds of a Yatzy in Swedish (and so in
    Danish and Norwegian), and read as a paragraph about the Chance box."""
    entries = catalog(language).translated_entries()
    chance = next(entry.msgstr for entry in entries if entry.msgid == "Chance")
    odds = [e.msgstr for e in entries if e.msgid.startswith("<strong>Odds.</strong>")]
    assert odds and all(chance.lower() not in text.split("</strong>")[0].lower() for text in odds)
