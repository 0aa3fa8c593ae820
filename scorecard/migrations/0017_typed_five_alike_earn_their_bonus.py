"""Points typed without dice that only five alike make (Fives 25, Sixes 30) earn the
extra-Yahtzee bonus by themselves where it pays; before, only a tick claimed it, so a card
could hold such points without it. The rules engine gives each such entry its bonus. A
finished game given one has its results taken back out of its players' figures and its
seats left unsettled: `manage.py settle_results` (which `make migrate` runs, as every
upgrade should) settles it again with the new totals."""

from django.db import migrations

from scorecard.engine import families, rules


def _house(game) -> rules.HouseRules:
    switches = frozenset(families.Switch.from_key(key) for key in game.switches.split(",") if key)
    bonus = None
    if game.bonus_threshold is not None and game.bonus_points is not None:
        bonus = families.UpperBonus(game.bonus_threshold, game.bonus_points)
    return rules.HouseRules(families.YAHTZEE, switches, bonus, game.forced_order)


def _five_alike_only(box: str, points: int) -> bool:
    return rules.only_five_alike(families.Box.from_key(box), points)


def give_earned_bonuses(apps, schema_editor):
    Entry = apps.get_model("scorecard", "Entry")
    Game = apps.get_model("scorecard", "Game")
    typed = Entry.objects.filter(game__family=families.YAHTZEE.key, dice="", yahtzee_bonus=False)
    cards = {
        (seat, card)
        for seat, card, box, points in typed.values_list("seat_id", "card", "box", "points")
        if _five_alike_only(box, points)
    }
    given_games = set()
    for seat, card in sorted(cards):
        rows = list(Entry.objects.filter(seat_id=seat, card=card).order_by("turn"))
        game = Game.objects.get(pk=rows[0].game_id)
        written = [
            rules.Entry(families.Box.from_key(row.box), row.points,
                        tuple(map(int, row.dice)) or None, 100 if row.yahtzee_bonus else 0)
            for row in rows
        ]  # fmt: skip
        given = _house(game).with_earned_bonuses(written, rules.JokerRule.from_key(game.joker))
        for row, before, now in zip(rows, written, given, strict=True):
            if now.bonus != before.bonus:
                Entry.objects.filter(pk=row.pk).update(yahtzee_bonus=True)
                given_games.add(game.pk)
    _unsettle(apps, given_games)


# What settling added, as this version kept it: taken back here with the models as they
# are at this migration, not the live code's (its figures may grow fields later).
SETTLED_FIELDS = ("final_total", "won", "scored", "finished", "cards", "bonus_cards",
                  "yahtzees", "extra_yahtzees")  # fmt: skip
BAND = 25


def _unsettle(apps, games: set[int]) -> None:
    """Take the games' results back out of their players' figures and box totals, as
    `results.unsettle` did then, and leave their seats for `settle_results`."""
    Entry = apps.get_model("scorecard", "Entry")
    Seat = apps.get_model("scorecard", "Seat")
    PlayerFigures = apps.get_model("scorecard", "PlayerFigures")
    PlayerBoxTotal = apps.get_model("scorecard", "PlayerBoxTotal")
    settled = Seat.objects.filter(game__in=games, final_total__isnull=False)
    for seat in settled.select_related("game"):
        family = seat.game.family
        figures = PlayerFigures.objects.get(player_id=seat.player_id, family=family)
        figures.games -= 1
        figures.wins -= bool(seat.won)
        for name in ("cards", "bonus_cards", "yahtzees", "extra_yahtzees"):
            setattr(figures, name, getattr(figures, name) - getattr(seat, name))
        if seat.scored:  # a one-card game: in the score figures and the box totals
            figures.scored_games -= 1
            figures.scored_points -= seat.final_total
            band = str(seat.final_total // BAND * BAND)
            figures.bands[band] -= 1
            if not figures.bands[band]:
                del figures.bands[band]
            mine = PlayerBoxTotal.objects.filter(player_id=seat.player_id, family=family)
            for box, points in Entry.objects.filter(seat=seat).values_list("box", "points"):
                totals = mine.get(box=box)
                totals.points -= points
                totals.cards -= 1
                totals.save()
        figures.save()
    settled.update(**dict.fromkeys(SETTLED_FIELDS))


class Migration(migrations.Migration):
    dependencies = [("scorecard", "0016_all_alike_counted_in_every_family")]

    operations = [migrations.RunPython(give_earned_bonuses, migrations.RunPython.noop)]
