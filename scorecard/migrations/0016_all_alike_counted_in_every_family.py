"""Settled Yatzy and Maxi Yatzy seats counted no all-alike box (the count looked for Yahtzee's
box alone): count each seat's Yatzy or Maxi Yatzy scored, and add them to its player's
figures for that family. Yahtzee games were counted right and are left as they are."""

from django.db import migrations
from django.db.models import Count

from scorecard.engine import families


def count_all_alike(apps, schema_editor):
    Entry = apps.get_model("scorecard", "Entry")
    Seat = apps.get_model("scorecard", "Seat")
    PlayerFigures = apps.get_model("scorecard", "PlayerFigures")
    for family in families.FAMILIES.values():
        if family.has_jokers:
            continue
        scored = (
            Entry.objects.filter(
                game__family=family.key,
                seat__final_total__isnull=False,
                box=family.all_alike,
                points=family.all_alike_points,
            )
            .values("seat_id", "seat__player_id")
            .annotate(count=Count("id"))
        )
        by_player: dict[int, int] = {}
        for row in scored:
            Seat.objects.filter(pk=row["seat_id"]).update(yahtzees=row["count"])
            player = row["seat__player_id"]
            by_player[player] = by_player.get(player, 0) + row["count"]
        for player, count in by_player.items():
            PlayerFigures.objects.filter(player_id=player, family=family.key).update(
                yahtzees=count
            )


class Migration(migrations.Migration):
    dependencies = [("scorecard", "0015_taps_that_make")]

    operations = [migrations.RunPython(count_all_alike, migrations.RunPython.noop)]
