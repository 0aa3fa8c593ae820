"""A player's wins are counted out of the games played with others (a game alone has no one
to beat): figures count those games (`contests`), and a settled seat of a game alone says
won=None, neither won nor lost. The games already settled are counted here."""

from django.db import migrations, models
from django.db.models import Count


def count_games_with_others(apps, schema_editor):
    Game = apps.get_model("scorecard", "Game")
    Seat = apps.get_model("scorecard", "Seat")
    PlayerFigures = apps.get_model("scorecard", "PlayerFigures")
    alone = Game.objects.annotate(seated=Count("seats")).filter(seated=1).values("pk")
    Seat.objects.filter(game__in=alone, final_total__isnull=False).update(won=None)
    with_others = (
        Seat.objects.filter(final_total__isnull=False, won__isnull=False)
        .values("player_id", "game__family")
        .annotate(count=Count("id"))
    )
    for row in with_others:
        PlayerFigures.objects.filter(player_id=row["player_id"], family=row["game__family"]).update(
            contests=row["count"]
        )


class Migration(migrations.Migration):
    dependencies = [("scorecard", "0017_typed_five_alike_earn_their_bonus")]

    operations = [
        migrations.AddField(
            model_name="playerfigures",
            name="contests",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(count_games_with_others, migrations.RunPython.noop),
    ]
