"""Templates a newcomer can read: short lines, and partials that fit on one screen."""

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
TAG = re.compile(r"{% (partialdef|endpartialdef)\s*([\w-]*)")
MAX_LINE = 160
MAX_PARTIAL_LINES = 40


def partial_lengths(text: str) -> dict[str, int]:
    """Each partial's length in lines, from its `partialdef` to its `endpartialdef` (a partial
    written inside another counts in both)."""
    lengths, open_partials = {}, []
    for number, line in enumerate(text.splitlines(), start=1):
        for tag, name in TAG.findall(line):
            if tag == "partialdef":
                open_partials.append((name, number))
            else:
                name, start = open_partials.pop()
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
    assert {"turn", "turn-fields", "dice-row", "typed", "standings"} <= lengths.keys()
    too_long = {name: length for name, length in lengths.items() if length > MAX_PARTIAL_LINES}
    assert not too_long


def test_no_comment_spills_onto_the_page():
    """Django's `{# #}` comment ends at the end of its line: a longer one shows on the page."""
    for template in TEMPLATES.glob("*.html"):
        for number, line in enumerate(template.read_text().splitlines(), start=1):
            assert line.count("{#") == line.count("#}"), f"{template.name}:{number}"
