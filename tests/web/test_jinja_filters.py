"""Our own filters' numbers, in the page's language."""

from datetime import UTC, datetime

import pytest
from django.utils import translation

from scorecard.web.jinja_filters import date, time


@pytest.mark.parametrize(
    ("language", "day", "day_and_hour"),
    [
        ("en", "4 Dec 2026", "4 Dec 2026, 18:05"),
        ("de", "4. Dezember 2026", "4. Dezember 2026 18:05"),
        ("sv", "4 december 2026", "4 december 2026 18:05"),
        ("fi", "4. joulukuuta 2026", "4. joulukuuta 2026 kello 18.05"),
        ("es", "4 de diciembre de 2026", "4 de diciembre de 2026 a las 18:05"),
    ],
)
def test_a_date_is_written_as_the_pages_language_writes_one(language, day, day_and_hour):
    """Not an English pattern with the month's name translated ("4 Dic 2026")."""
    when = datetime(2026, 12, 4, 18, 5, tzinfo=UTC)
    with translation.override(language):
        assert date(when) == day
        assert date(when, "DATETIME_FORMAT") == day_and_hour
        assert time(when) == day_and_hour.rpartition(" ")[2]
    with translation.override("fi"):  # the month's partitive, as with the year
        assert date(when, "MONTH_DAY_FORMAT") == "4. joulukuuta"
