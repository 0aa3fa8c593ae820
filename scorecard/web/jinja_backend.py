"""Django's Jinja2 backend, with Django's partials: `get_template("page.html#name")` is the
block `name` of `page.html` drawn alone (see `jinja_tags`), so a view renders a region of a
page by the name the page gives it, as with Django's `{% partialdef %}`. An unknown name is
TemplateDoesNotExist, as an unknown template is."""

from __future__ import annotations

from typing import Any

from django.template import TemplateDoesNotExist
from django.template.backends import jinja2 as django_jinja2
from django.utils.timezone import get_current_timezone_name
from django.utils.translation import get_language
from jinja2 import Template

from scorecard.web.drawn_once import drawing_in
from scorecard.web.jinja_tags import block_name


class Jinja2(django_jinja2.Jinja2):
    def get_template(self, template_name: str) -> django_jinja2.Template:
        name, _, partial = template_name.partition("#")
        template = super().get_template(name).template
        if not partial:
            return InOneLanguage(template, self)
        block = BlockAlone(template, block_name(partial))
        if block.block not in template.blocks:
            raise TemplateDoesNotExist(template_name, backend=self)
        return InOneLanguage(block, self)  # type: ignore[arg-type]  # renders alike


class InOneLanguage(django_jinja2.Template):
    """A template drawn in the language and time zone active when its drawing starts, read
    once for the drawings it keeps (`drawn_once.drawing_in`)."""

    def render(self, context: dict[str, Any] | None = None, request: Any = None) -> str:
        with drawing_in(get_language(), get_current_timezone_name()):
            return super().render(context, request)


class BlockAlone:
    """One block of a Jinja2 template, drawn with the context the whole template gets
    (Django's backend adds the request, the CSRF input and the context processors')."""

    def __init__(self, template: Template, block: str) -> None:
        self.template, self.block = template, block
        self.name, self.filename = template.name, template.filename  # for Django's Origin

    def render(self, context: dict[str, Any]) -> str:
        draw = self.template.blocks[self.block]
        return "".join(draw(self.template.new_context(context)))
