"""Django's `{% translate %}` and `{% blocktranslate %}` in our Jinja2 templates: the same
words looked up as Django looked them up (makemessages reads them unchanged), and values
printed as Django's templates printed them: escaped, and localised."""

import datetime
from decimal import Decimal

import pytest
from django.template import engines
from django.utils import translation


def drawn(source: str, language: str = "de", **values) -> str:
    with translation.override(language):
        return engines["jinja2"].from_string(source).render(values)


def test_translate_with_a_context_finds_that_context_s_words():
    assert drawn('{% translate "Win" context "standings column" %}') == "Sieg"
    assert drawn('{% translate "Win" context "standings column" %}', "en") == "Win"


def test_translate_as_a_name_keeps_the_words_for_later():
    assert drawn('{% translate "Win" context "standings column" as win %}<b>{{ win }}</b>') == (
        "<b>Sieg</b>"
    )


def test_blocktranslate_with_a_context_keeps_the_markup_it_is_written_with():
    source = (
        '{% blocktranslate context "brand" %}Yahtzee<span class="wide-only"> score card</span>'
        "{% endblocktranslate %}"
    )
    assert drawn(source) == 'Kniffel<span class="wide-only">-Block</span>'


@pytest.mark.parametrize(("left", "said"), [(1, "Noch 1 Wurf;"), (2, "Noch 2 Würfe;")])
def test_blocktranslate_counts_with_the_plural_trimmed(left, said):
    source = """{% blocktranslate count left=rolls trimmed %}
      {{ left }} roll left; expected final total
      {% plural %}
      {{ left }} rolls left; expected final total
      {% endblocktranslate %}"""
    assert drawn(source, rolls=left) == f"{said} erwartete Endsumme"


def test_blocktranslate_escapes_its_values_and_reads_names_set_around_it():
    source = "{% blocktranslate with number=n %}Card ×{{ number }}{% endblocktranslate %}"
    assert drawn(source, n="<b>") == "Block ×&lt;b&gt;"
    source = "{% with number=3 %}{% blocktranslate %}Card ×{{ number }}{% endblocktranslate %}"
    assert drawn(source + "{% endwith %}") == "Block ×3"


def test_a_percent_sign_in_a_blocktranslate_is_looked_up_doubled_as_django_writes_it():
    source = '{% blocktranslate context "percent" %}{{ number }}%{% endblocktranslate %}'
    assert drawn(source, "en", number=40) == "40%"
    assert drawn(source, number=40) == "40\u00a0%"  # the catalog's "%(number)s%%"


def test_numbers_and_dates_are_printed_in_the_page_s_language():
    assert drawn("{{ x }} {{ d }}", x=2.5, d=Decimal("1234.5")) == "2,5 1234,5"
    assert drawn("{{ x }}", "en", x=2.5) == "2.5"
    assert drawn("{{ when }}", when=datetime.date(2026, 12, 2)) == "2. Dezember 2026"
    source = "{% blocktranslate with number=x %}Card ×{{ number }}{% endblocktranslate %}"
    assert drawn(source, x=1.5) == "Block ×1,5"


def test_numbers_inside_localize_off_are_written_as_python_writes_them():
    source = "{{ x }} {% call unlocalised() %}{{ x }}{% endcall %} {{ x }}"
    assert drawn(source, x=2.5) == "2,5 2.5 2,5"


def test_django_s_filters_say_numbers_in_the_page_s_language():
    assert drawn("{{ x|floatformat(1) }} {{ x|percent(1) }}", x=0.25) == "0,3 25,0\xa0%"
    assert drawn("{{ x|unlocalize }}", x=0.25) == "0.25"
