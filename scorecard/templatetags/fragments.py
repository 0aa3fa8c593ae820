"""`{% per_version "region" game links ... %}…{% endper_version %}`: the markup between the
tags drawn once per version of `game` and kept in the cache (see `web.fragments`).

Everything the markup depends on besides the game's version goes in the tag: the region's
name, the game, the `GameLinks` it was reached by (role and address), and any other values
(out of band, the Win column). Only markup that holds nothing of the asking browser (no
CSRF token, no tap key) may go between the tags.
"""

from django import template

from scorecard.web import fragments

register = template.Library()


class PerVersionNode(template.Node):
    def __init__(self, nodelist, region, game, varies) -> None:
        self.nodelist, self.region, self.game, self.varies = nodelist, region, game, varies

    def render(self, context) -> str:
        game = self.game.resolve(context)
        varies = [value.resolve(context) for value in self.varies]
        region = self.region.resolve(context)
        cache_key = fragments.key(region, game.public_id, *varies)
        return fragments.kept(cache_key, game.version, lambda: self.nodelist.render(context))


@register.tag
def per_version(parser, token) -> PerVersionNode:
    bits = token.split_contents()
    if len(bits) < 3:
        raise template.TemplateSyntaxError("per_version takes a region's name and a game")
    nodelist = parser.parse(("endper_version",))
    parser.delete_first_token()
    region, game, *varies = (parser.compile_filter(bit) for bit in bits[1:])
    return PerVersionNode(nodelist, region, game, varies)
