import unicodedata

from django.db import migrations, models


def name_key(name: str) -> str:
    """`scorecard.models.name_key` as this migration found it."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def fill_name_keys(apps, schema_editor):
    Player = apps.get_model("scorecard", "Player")
    players = list(Player.objects.only("pk", "name"))
    for player in players:
        player.name_key = name_key(player.name)
    Player.objects.bulk_update(players, ["name_key"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("scorecard", "0021_tap_asked_for"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=160),
            preserve_default=False,
        ),
        migrations.RunPython(fill_name_keys, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(fields=["owner", "name_key"], name="player_by_name_key"),
        ),
    ]
