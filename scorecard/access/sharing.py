"""Share links and joined browsers: made, renewed and revoked.

A game's share link (`GameLink`) lets a phone outside the household watch or score that one
game; a household's join link lets another browser of the family in for good. Renewing a
link revokes the old one; revoking deletes it, so the old address is a 404 at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

import segno
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

from scorecard.access.households import SEEN_EVERY
from scorecard.game.services import Refusal, is_readable_name
from scorecard.models import (
    BROWSER_NAME_LENGTH,
    Browser,
    Game,
    GameLink,
    Household,
    LinkRole,
    new_link_token,
)


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
    """A browser of the household from now on (its key goes in the browser's cookie), named
    apart from the household's others: a family's phones are often alike ("Chrome on
    Android", then "Chrome on Android (2)"), and the list must tell them apart before anyone
    renames one."""
    taken = set(household.browsers.values_list("name", flat=True))
    named, number = name[:BROWSER_NAME_LENGTH], 1
    while named in taken:
        number += 1
        suffix = f" ({number})"
        named = name[: BROWSER_NAME_LENGTH - len(suffix)] + suffix
    return Browser.objects.create(household=household, name=named)


class Removed(NamedTuple):
    """A browser removed, and how many of the household's game links were replaced."""

    name: str
    links_replaced: int


@transaction.atomic
def browser_remove(*, household: Household, browser_id: int) -> Removed | None:
    """Shut one of the household's browsers out, and its ways back in: the join link and
    every game's score and watch links, which it may have kept, are replaced (a revoked one
    stays revoked; a removed phone scored through a score link it had made, a helper).
    Another household's browser is never touched. None when there was no such browser."""
    browser = Browser.objects.filter(household=household, pk=browser_id).first()
    if browser is None:
        return None
    browser.delete()
    if household.join_token:
        join_link_renew(household=household)
    links = list(GameLink.objects.filter(game__owner=household).select_related("game"))
    for link in links:
        link_renew(game=link.game, role=LinkRole(link.role))
    return Removed(browser.name, len(links))


def browser_rename(*, household: Household, browser_id: int, name: str) -> Browser:
    """Gives one of the household's browsers the name its family knows it by; two of them
    never share a name, so the list tells them apart."""
    name = " ".join(name.split())  # tabs and line breaks pasted in become single spaces
    if not name:
        raise Refusal(_("Give the browser a name."))
    if len(name) > BROWSER_NAME_LENGTH:
        raise Refusal(_("A name has at most %(most)s characters.") % {"most": BROWSER_NAME_LENGTH})
    if not is_readable_name(name):
        raise Refusal(_("A name cannot hold invisible or control characters."))
    browser = household.browsers.filter(pk=browser_id).first()
    if browser is None:
        raise Refusal(_("That browser is no longer in this household."))
    if household.browsers.exclude(pk=browser_id).filter(name__iexact=name).exists():
        raise Refusal(
            _("Another browser of this household is already called “%(name)s”.") % {"name": name}
        )
    browser.name = name
    browser.save(update_fields=["name"])
    return browser


@dataclass(frozen=True)
class Renaming:
    """A rename the household page refused: which browser, what was typed, and why."""

    browser_id: int
    typed: str
    error: str


@dataclass(frozen=True)
class Member:
    """One browser of the household as its page lists it."""

    id: int
    name: str
    is_this: bool
    about: str  # when it joined and when it was last seen
    typed: str  # what its name field holds: its name, or a refused entry kept to correct
    error: str  # why that entry was refused
    asked_to_remove: bool = False  # its Remove was tapped: the page asks before it is done
    kept: bool = False  # "No, keep it" to that question: the focus goes back to its Remove

    @property
    def remove_label(self) -> str:
        return _("Remove %(name)s, %(about)s") % {"name": self.name, "about": self.about}


@dataclass(frozen=True)
class HouseholdScreen:
    """What the household page lists: its browsers, and a refusal that belongs to none of
    them (an unknown action, a browser no longer there)."""

    members: list[Member]
    error: str


def household_screen(
    this: Browser,
    *,
    now: datetime,
    renaming: Renaming | None = None,
    error: str = "",
    removing: int | None = None,
    kept: int | None = None,
) -> HouseholdScreen:
    """The household's browsers, oldest first, each told apart by name and times; a refused
    rename is shown at its browser's form, with what was typed; the browser `removing` asks
    whether to remove it (a mis-tap shut a family member out mid-game), and the one `kept`
    (No to that question) has its Remove focused again."""
    members = []
    for browser in this.household.browsers.all():
        refused = renaming if renaming and renaming.browser_id == browser.pk else None
        joined = date_format(timezone.localtime(browser.joined))
        is_this = browser.pk == this.pk
        about = _("joined %(date)s") % {"date": joined}
        if not is_this:
            seen = _seen(browser.last_seen, now)
            about = _("%(joined)s, %(seen)s") % {"joined": about, "seen": seen}
        members.append(
            Member(
                id=browser.pk,
                name=browser.name,
                is_this=is_this,
                about=about,
                typed=refused.typed if refused else browser.name,
                error=refused.error if refused else "",
                asked_to_remove=browser.pk == removing and not is_this,
                kept=browser.pk == kept and not is_this,
            )
        )
    if renaming and not any(member.error for member in members):
        error = error or renaming.error
    return HouseholdScreen(members=members, error=error)


def _seen(last_seen: datetime, now: datetime) -> str:
    # The time is written at most once an hour, so it is never more exact than that.
    if now - last_seen < SEEN_EVERY:
        return _("seen within the hour")
    return _("last seen %(time)s ago") % {"time": timesince(last_seen, now, depth=1)}


@dataclass(frozen=True)
class SharedAddress:
    """A link as a phone shows it: the address, and a QR code another phone can scan."""

    url: str

    @property
    def qr_code(self) -> str:
        """An SVG data URI drawn here on the server (dark on light, for any scanner)."""
        return segno.make(self.url, error="m").svg_data_uri(scale=4, border=2)
