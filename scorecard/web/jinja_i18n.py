"""Django's `{% translate %}` and `{% blocktranslate %}` as Jinja2 tags, written as Django
writes them, so `makemessages` (which reads our templates with Django's lexer) finds every
text as before and the catalogs do not change.

- `{% translate "Text" [context "ctx"] [as name] %}`: the text in the page's language; a
  string written in the template, so its markup (`<strong>`) is kept, as Django keeps it.
- `{% blocktranslate [with name=value ...] [count name=value] [context "ctx"] [trimmed] %}
  … {{ name }} … [{% plural %} …] {% endblocktranslate %}`: the block's words, with
  Django's `%(name)s` placeholders, looked up as written (a `%` doubled, as Django does);
  the values are escaped and localised, the translation itself is not escaped.
"""

from __future__ import annotations

from django.utils import translation
from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.parser import Parser
from markupsafe import Markup, escape

from scorecard.web.jinja_values import shown


def said(singular: str, plural: str | None, count: int | None, context: str | None) -> str:
    """The text in the page's language: Django's gettext, pgettext, ngettext or npgettext."""
    if plural is None:
        return translation.pgettext(context, singular) if context else translation.gettext(singular)
    if context:
        return translation.npgettext(context, singular, plural, count or 0)
    return translation.ngettext(singular, plural, count or 0)


def translated(message: str, context: str | None) -> Markup:
    """A text written in the template, so safe as written (as Django's string literals are)."""
    return Markup(said(message, None, None, context))


def block_translated(
    singular: str, plural: str | None, count: int | None, context: str | None, values: dict
) -> Markup:
    """The block's text with its values, each escaped and localised."""
    text = said(singular, plural, count, context)
    return Markup(text % {name: escape(shown(value)) for name, value in values.items()})


class TranslateExtension(Extension):
    tags = {"translate", "blocktranslate"}

    def parse(self, parser: Parser) -> nodes.Node | list[nodes.Node]:
        tag = next(parser.stream)
        if tag.value == "translate":
            return self._translate(parser, tag.lineno)
        return self._blocktranslate(parser, tag.lineno)

    def _translate(self, parser: Parser, lineno: int) -> nodes.Node:
        message = nodes.Const(parser.stream.expect("string").value)
        context = nodes.Const(None)
        if parser.stream.skip_if("name:context"):
            context = nodes.Const(parser.stream.expect("string").value)
        call = self.call_method("_translated", [message, context], lineno=lineno)
        if parser.stream.skip_if("name:as"):
            target = nodes.Name(parser.stream.expect("name").value, "store")
            return nodes.Assign(target, call, lineno=lineno)
        return nodes.Output([call], lineno=lineno)

    def _blocktranslate(self, parser: Parser, lineno: int) -> nodes.Node:
        values: dict[str, nodes.Expr] = {}
        count_name = None
        context: str | None = None
        trimmed = False
        while parser.stream.current.type != "block_end":
            word = parser.stream.expect("name").value
            if word == "trimmed":
                trimmed = True
            elif word == "context":
                context = parser.stream.expect("string").value
            elif word in ("with", "count"):
                while (
                    parser.stream.current.type == "name" and parser.stream.look().type == "assign"
                ):
                    name = next(parser.stream).value
                    parser.stream.expect("assign")
                    values[name] = parser.parse_expression()
                    if word == "count":
                        count_name = name
                        break
            else:
                parser.fail(f"blocktranslate does not take {word!r}", lineno)
        parser.stream.expect("block_end")
        singular, names = self._body(parser)
        plural = None
        if parser.stream.current.test("name:plural"):
            next(parser.stream)
            parser.stream.expect("block_end")
            plural, more = self._body(parser)
            names |= more
        next(parser.stream)  # endblocktranslate
        if trimmed:
            singular = translation.trim_whitespace(singular)
            plural = plural and translation.trim_whitespace(plural)
        for name in names - values.keys():
            values[name] = nodes.Name(name, "load")
        call = self.call_method(
            "_block_translated",
            [
                nodes.Const(singular),
                nodes.Const(plural),
                values[count_name] if count_name else nodes.Const(None),
                nodes.Const(context),
                nodes.Dict([nodes.Pair(nodes.Const(k), v) for k, v in values.items()]),
            ],
            lineno=lineno,
        )
        return nodes.Output([call], lineno=lineno)

    def _body(self, parser: Parser) -> tuple[str, set[str]]:
        """The words up to `{% plural %}` or `{% endblocktranslate %}`, as Django writes the
        message id, and the names of the values it prints."""
        parts, names = [], set()
        while True:
            token = parser.stream.current
            if token.type == "data":
                parts.append(token.value.replace("%", "%%"))
                next(parser.stream)
            elif token.type == "variable_begin":
                next(parser.stream)
                name = parser.stream.expect("name").value
                parser.stream.expect("variable_end")
                parts.append(f"%({name})s")
                names.add(name)
            elif token.type == "block_begin":
                next(parser.stream)
                if parser.stream.current.test_any("name:plural", "name:endblocktranslate"):
                    return "".join(parts), names
                parser.fail("blocktranslate holds only words and {{ names }}", token.lineno)
            else:
                parser.fail("blocktranslate is not closed", token.lineno)

    def _translated(self, message: str, context: str | None) -> Markup:
        return translated(message, context)

    def _block_translated(self, *args) -> Markup:
        return block_translated(*args)
