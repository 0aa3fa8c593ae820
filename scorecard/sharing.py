"""Share links and joined browsers: made, renewed and revoked.

A game's share link (`GameLink`) lets a phone outside the household watch or score that one
game; a household's join link lets another browser of the family in for good. Renewing a
link revokes the old one; revoking deletes it, so the old address is a 404 at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import segno
from django.db import transaction

from scorecard.models import Browser, Game, GameLink, Household, LinkRole, new_link_token


def game_links(game: Game) -> dict[str, GameLink]:
    """The game's live share links by role ("watch", "score")."""
    return {link.role: link for link in game.links.all()}


@transaction.atomic
def link_renew(*, game: Game, role: LinkRole) -> GameLink:
    """A new `role` link for the game; the old one, if any, stops working."""
    GameLink.objects.filter(game=game, role=role).delete()
    return GameLink.objects.create(game=game, role=role)


def link_revoke(*, game: Game, role: LinkRole) -> None:
    GameLink.objects.filter(game=game, role=role).delete()


def join_link_renew(*, household: Household) -> str:
    """A new join link for the household; the old one stops working."""
    household.join_token = new_link_token()
    household.save(update_fields=["join_token"])
    return household.join_token


def join_link_revoke(*, household: Household) -> None:
    household.join_token = None
    household.save(update_fields=["join_token"])


def household_by_join_token(token: str) -> Household | None:
    return Household.objects.filter(join_token=token).first() if token else None


def household_join(*, household: Household, name: str) -> Browser:
    """A browser of the household from now on (its key goes in the browser's cookie)."""
    return Browser.objects.create(household=household, name=name[:60])


def browser_remove(*, household: Household, browser_id: int) -> bool:
    """Shut one of the household's browsers out; another household's is never touched."""
    removed, _ = Browser.objects.filter(household=household, pk=browser_id).delete()
    return bool(removed)


@dataclass(frozen=True)
class SharedAddress:
    """A link as a phone shows it: the address, and a QR code another phone can scan."""

    url: str

    @property
    def qr_code(self) -> str:
        """An SVG data URI drawn here on the server (dark on light, for any scanner)."""
        return segno.make(self.url, error="m").svg_data_uri(scale=4, border=2)
