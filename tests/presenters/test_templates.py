"""Templates a newcomer can read: short lines, and partials that fit on one screen."""

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
# A partial is a scoped block (`{% block name scoped %}`); a page's blocks end the same way.
TAG = re.compile(r"{% (block|endblock)\b\s*(\w*)( scoped)?")
MAX_LINE = 160
MAX_PARTIAL_LINES = 40


def partial_lengths(text: str) -> dict[str, int]:
    """Each partial's length in lines, from its `block` to its `endblock` (a partial written
    inside another counts in both)."""
    lengths, open_partials = {}, []
    for number, line in enumerate(text.splitlines(), start=1):
        for tag, name, scoped in TAG.findall(line):
            if tag == "block":
                open_partials.append((name, number, scoped))
            else:
                name, start, scoped = open_partials.pop()
                if scoped:
                    lengths[name] = number - start + 1
    assert not open_partials, f"not closed: {open_partials}"
    return lengths


def test_the_game_page_has_no_line_a_reader_must_scroll_sideways_for():
    lines = (TEMPLATES / "game.html").read_text().splitlines()
    longest = max(range(len(lines)), key=lambda index: len(lines[index]))
    assert len(lines[longest]) < MAX_LINE, f"line {longest + 1}: {lines[longest]}"


def test_every_partial_of_the_game_page_fits_on_one_screen():
    text = (TEMPLATES / "game.html").read_text()
    lengths = partial_lengths(text)
    assert {"turn", "turn_fields", "dice_row", "typed", "standings"} <= lengths.keys()
    too_long = {name: length for name, length in lengths.items() if length > MAX_PARTIAL_LINES}
    assert not too_long


def test_no_comment_of_django_s_template_language_is_left():
    """Jinja2 has no `{% comment %}` tag: its `{# #}` comment may take several lines."""
    for template in TEMPLATES.glob("*.html"):
        assert "{% comment" not in template.read_text(), template.name
