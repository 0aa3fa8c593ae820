"""Tags of our Jinja2 templates that Jinja2 has no word for.

- `{% partial name %}`: the block `name` of this template (a partial: `{% block name scoped
  %}`, in place or inside `{% if false %}`) drawn here with the values in scope here (a
  `{% with %}`'s, a loop's), as Django's `{% partial %}` drew it. Jinja2's own
  `{{ self.name() }}` sees only the template's context, not the names set around it.
  `{% partial "page.html#name" %}` draws a partial of another template. A partial's name is
  written in kebab-case, as the views and the DOM ids spell it; the block is in snake_case.
- `{% spaceless %}…{% endspaceless %}`: Django's tag, the whitespace between tags removed.
"""

from __future__ import annotations

import re

from jinja2 import TemplateNotFound, nodes
from jinja2.ext import Extension
from jinja2.parser import Parser
from jinja2.runtime import Context, new_context
from markupsafe import Markup


def block_name(partial: str) -> str:
    """A partial's kebab-case name as a Jinja2 block's name."""
    return partial.replace("-", "_")


def draw_block(context: Context, template_name: str, name: str) -> Markup:
    """The block `name` of this template (or of `template_name`) drawn with `context`."""
    if template_name:
        template = context.environment.get_template(template_name)
        context = template.new_context(context.get_all(), shared=True)
    if name not in context.blocks:
        raise TemplateNotFound(f"{template_name or context.name}#{name}")
    return Markup("".join(context.blocks[name][0](context)))


class PartialContext(Context):
    """The environment's context: a partial is drawn in a context derived from the one
    around it, and Jinja2's own `derived` copies the list of every block of the page into
    each (a game page has about forty): about a tenth of a record's drawing. A partial only
    reads the blocks, so the derived context shares them."""

    def derived(self, locals: dict | None = None) -> Context:  # noqa: A002 (Jinja2's name)
        context = new_context(self.environment, self.name, {}, self.get_all(), True, None, locals)
        context.eval_ctx = self.eval_ctx
        context.blocks = self.blocks
        return context


class PartialExtension(Extension):
    tags = {"partial"}

    def parse(self, parser: Parser) -> nodes.Node:
        lineno = next(parser.stream).lineno
        template_name = ""
        if parser.stream.current.type == "string":
            template_name, _, name = next(parser.stream).value.partition("#")
        else:
            name = ""
            while parser.stream.current.type != "block_end":
                name += str(next(parser.stream).value)
        call = self.call_method(
            "_draw",
            [
                nodes.DerivedContextReference(),
                nodes.Const(template_name),
                nodes.Const(block_name(name)),
            ],
            lineno=lineno,
        )
        return nodes.Output([call], lineno=lineno)

    def _draw(self, context: Context, template_name: str, name: str) -> Markup:
        return draw_block(context, template_name, name)


BETWEEN_TAGS = re.compile(r">\s+<")


class SpacelessExtension(Extension):
    tags = {"spaceless"}

    def parse(self, parser: Parser) -> nodes.Node:
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endspaceless",), drop_needle=True)
        call = self.call_method("_spaceless")
        return nodes.CallBlock(call, [], [], body, lineno=lineno)

    def _spaceless(self, caller) -> Markup:
        return Markup(BETWEEN_TAGS.sub("><", str(caller()).strip()))
