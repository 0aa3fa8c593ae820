"""Our pages are Jinja2 templates whose partials a view renders by name, as Django's
partials were: `page.html#name` is the block `name` of `page.html` drawn alone."""

import pytest
from django.template import TemplateDoesNotExist, engines
from jinja2 import TemplateNotFound

from scorecard.web.jinja_backend import Jinja2

PAGE = """<main>
{% block greeting scoped %}<p>Hello {{ name }}</p>{% endblock %}
{% for name in names %}{% block row scoped %}<li>{{ name }}</li>{% endblock %}{% endfor %}
{% with name="Cy" %}{% partial greeting %}{% endwith %}
{% with name="Di" %}{% partial "other.html#shout" %}{% endwith %}
</main>
{% if false %}{% block not-shown-here scoped %}<b>{{ name }}!</b>{% endblock %}{% endif %}
"""


@pytest.fixture
def engine(tmp_path):
    (tmp_path / "page.html").write_text(PAGE.replace("not-shown-here", "not_shown_here"))
    (tmp_path / "other.html").write_text(
        "{% if false %}{% block shout scoped %}<em>{{ name }}</em>{% endblock %}{% endif %}"
    )
    options = {"environment": "scorecard.web.jinja.environment"}
    return Jinja2({"NAME": "test", "DIRS": [tmp_path], "APP_DIRS": False, "OPTIONS": options})


def test_a_page_draws_its_partials_in_place_and_where_it_names_them(engine):
    page = engine.get_template("page.html").render({"name": "Ann", "names": ["Bob"]})
    assert "<p>Hello Ann</p>" in page and "<li>Bob</li>" in page
    assert "<p>Hello Cy</p>" in page  # a partial drawn with the values around it
    assert "<em>Di</em>" in page  # another template's partial
    assert "<b>" not in page  # defined, not drawn


def test_a_partial_is_rendered_alone_by_its_name(engine):
    assert engine.get_template("page.html#greeting").render({"name": "Ann"}) == "<p>Hello Ann</p>"
    assert engine.get_template("page.html#row").render({"name": "Bob"}) == "<li>Bob</li>"


def test_a_partial_written_in_kebab_case_is_found_inside_if_false(engine):
    assert engine.get_template("page.html#not-shown-here").render({"name": "Ann"}) == "<b>Ann!</b>"


def test_an_unknown_partial_fails_loudly(engine):
    with pytest.raises(TemplateDoesNotExist, match="page.html#nothing"):
        engine.get_template("page.html#nothing")


def test_an_unknown_partial_named_inside_a_page_fails_loudly(engine, tmp_path):
    (tmp_path / "broken.html").write_text("{% partial nothing %}")
    with pytest.raises(TemplateNotFound, match="nothing"):
        engine.get_template("broken.html").render({})


def test_the_site_s_partials_the_views_name_are_found():
    for name in [
        "game.html#standings",
        "game.html#standings-rows",
        "game.html#turn",
        "game.html#after-entry",
        "game.html#after-poll",
        "game.html#after-refusal",
        "sheet.html#sheet-body",
        "games.html#games-table",
        "_language_switch.html#language-form",
        "_sheet_table.html#changed-rows",
    ]:
        assert engines["jinja2"].get_template(name)


def test_a_partial_shares_the_pages_blocks_instead_of_copying_them(engine):
    """Jinja2's own derived context copies every block's list into each partial's context
    (about forty on a game page, fifteen partials in a record's answer); a partial only
    reads them. It still sees the names set around it, and the page's own are untouched."""
    template = engine.get_template("page.html").template
    context = template.new_context({"name": "Ann"})
    derived = context.derived({"name": "Cy"})
    assert derived.blocks is context.blocks
    assert derived["name"] == "Cy" and context["name"] == "Ann"
    assert "".join(derived.blocks["greeting"][0](derived)) == "<p>Hello Cy</p>"
