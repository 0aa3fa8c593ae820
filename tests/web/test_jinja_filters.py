"""Our own filters' numbers, in the page's language."""

import pytest
from django.utils import translation

from scorecard.web.jinja_filters import loss


@pytest.mark.parametrize(
    ("points", "english", "german"),
    [(6.44, "6.4", "6,4"), (0.05, "0.1", "0,1"), (0.03, "0.03", "0,03"), (0.001, "<0.01", "<0,01")],
)
def test_a_loss_never_reads_as_nothing_given_up(points, english, german):
    """A choice that is not the best gives something up: a loss under a twentieth of a
    point is written to the hundredth, never as 0.0."""
    assert loss(points) == english
    with translation.override("de"):
        assert loss(points) == german
