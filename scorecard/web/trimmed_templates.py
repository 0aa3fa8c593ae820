"""Our HTML templates read without the blank lines and indentation their tags leave, once
when a template is loaded (Jinja2 keeps the compiled result), so no page pays for it.

A template is written one element per line, indented, with `{% if %}` and `{% for %}` on
lines of their own; rendered as written, a 4-player game page carried some 60 blank lines
and its indentation: about 130 bytes of every page on the wire after brotli. Here, as the
source is read:

- each line loses its indentation (the newline before it stays, so words and inline
  elements keep the space between them);
- a line holding only tags that print nothing (`if`, `for`, `with`, `set`, `call`, the
  start of a partial (`{% block name scoped %}`), the end of a block or a call, a tag
  ending `as name`) loses its newline: what follows is still preceded by the newline of
  the line before;
- a `{# comment #}` is left out, with its newline when it fills its lines;
- a line that is one `{% if %}…{% endif %}` (no `else`) prints its newline only with its
  content: the newline moves inside the condition;
- a blank line is left out (the newline before it still parts what stands around it): the
  lines between partial definitions, which print nothing where they stand, were some 25
  blank lines of a game page.

A `{% blocktranslate %}` is left exactly as written (its words are how its translation is
found), and so is a `<pre>` or `<textarea>`, whose spaces show. Only `.html` files of our
own `templates/` folder: the service worker's script and other apps' templates are read as
they are. tests/web/test_trimmed_templates.py renders the pages both ways and compares them.
"""

import re

from jinja2 import Environment, FileSystemLoader

# Left as written: a translated block (its text is the catalog's key), and elements whose
# spaces show.
KEPT = re.compile(
    r"\{%\s*blocktranslate\b.*?\{%\s*endblocktranslate\s*%\}|<(pre|textarea)\b.*?</\1>", re.S
)
COMMENT_LINES = re.compile(r"(?<=\n)\{#.*?#\}\n", re.S)
COMMENT = re.compile(r"\{#.*?#\}", re.S)
INDENTATION = re.compile(r"(?<=\n)[ \t]+")
BLANK_LINES = re.compile(r"\n{2,}")
# Tags that print nothing themselves. Not the start of a page's block (`{% block content %}`):
# its body is printed in the parent's block, after markup of another line than the one
# before the tag. A partial's start is: what it prints begins after the tag.
SILENT_TAG = (
    r"\{%\s*(?:if|elif|else|endif|for|endfor|with|endwith|set|call|endcall|endblock"
    r"|drawn_once|enddrawn_once)\b[^%]*%\}"
    r"|\{%\s*block\s+\w+\s+scoped\s*%\}"
    r"|\{%[^%]*\sas\s+\w+\s*%\}"
)
SILENT_LINE = re.compile(rf"(?<=\n)((?:{SILENT_TAG})+)\n")
# A line that is one `{% if %}…{% endif %}`: its newline goes inside, printed only with it.
CONDITIONAL_LINE = re.compile(r"(?<=\n)(\{%\s*if\b[^\n]*)(\{%\s*endif\s*%\})\n")
IF_TAGS = re.compile(r"\{%\s*(if|elif|else|endif)\b")


def _one_condition(line: str) -> bool:
    """Whether the line's first `if` ends at its last `endif`, with no `else` of its own."""
    depth = 0
    tags = IF_TAGS.findall(line)
    for number, tag in enumerate(tags):
        if tag == "if":
            depth += 1
        elif tag == "endif":
            depth -= 1
            if depth == 0 and number != len(tags) - 1:
                return False
        elif depth == 1:
            return False
    return depth == 0


def _newline_inside(match: re.Match[str]) -> str:
    line = match.group(1) + match.group(2)
    return f"{match.group(1)}\n{match.group(2)}" if _one_condition(line) else f"{line}\n"


def trimmed(source: str) -> str:
    """The template's source without the whitespace its tags and indentation leave. (Each
    rule applies at a line's start: after a newline, and the source starts as if after one.)"""
    source = "\n" + source
    parts = []
    position = 0
    for kept in KEPT.finditer(source):
        parts.append(_trimmed_part(source[position : kept.start()]))
        parts.append(kept.group(0))
        position = kept.end()
    parts.append(_trimmed_part(source[position:]))
    return "".join(parts).removeprefix("\n")


def _trimmed_part(text: str) -> str:
    text = BLANK_LINES.sub("\n", INDENTATION.sub("", text))
    text = COMMENT_LINES.sub("", text)
    text = COMMENT.sub("", text)
    text = SILENT_LINE.sub(r"\1", text)
    return CONDITIONAL_LINE.sub(_newline_inside, text)


class TrimmedLoader(FileSystemLoader):
    """The filesystem loader (our `templates/` folder), its HTML templates trimmed."""

    def get_source(self, environment: Environment, template: str):
        source, filename, uptodate = super().get_source(environment, template)
        return (trimmed(source) if template.endswith(".html") else source), filename, uptodate
