"""Django's Jinja2 backend, with Django's partials: `get_template("page.html#name")` is the
block `name` of `page.html` drawn alone (see `jinja_tags`), so a view renders a region of a
page by the name the page gives it, as with Django's `{% partialdef %}`. An unknown name is
TemplateDoesNotExist, as an unknown template is."""

from __future__ import annotations

from django.template import TemplateDoesNotExist
from django.template.backends import jinja2 as django_jinja2
from django.template.backends.utils import csrf_input_lazy, csrf_token_lazy

from scorecard.web.jinja_tags import block_name


class Jinja2(django_jinja2.Jinja2):
    def get_template(self, template_name: str):
        name, _, partial = template_name.partition("#")
        template = super().get_template(name)
        if not partial:
            return template
        block = block_name(partial)
        if block not in template.template.blocks:
            raise TemplateDoesNotExist(template_name, backend=self)
        return Partial(template.template, self, block)


class Partial(django_jinja2.Template):
    """One block of a template, drawn with the context the whole template would have."""

    def __init__(self, template, backend, block: str) -> None:
        super().__init__(template, backend)
        self.block = block

    def render(self, context=None, request=None) -> str:
        context = dict(context or {})
        if request is not None:
            context["request"] = request
            context["csrf_input"] = csrf_input_lazy(request)
            context["csrf_token"] = csrf_token_lazy(request)
            for context_processor in self.backend.template_context_processors:
                context.update(context_processor(request))
        jinja_context = self.template.new_context(context)
        return "".join(self.template.blocks[self.block](jinja_context))
