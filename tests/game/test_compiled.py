"""Compiled queries give exactly what the ORM would, with the request's own values."""

import pytest
from django.db import connection, transaction
from django.utils import timezone

from scorecard.engine.rules import Box
from scorecard.game import compiled
from scorecard.models import Entry, Game, IdempotentRequest, Seat
from tests.factories import play


def test_compiled_rows_equal_the_orms(game):
    play(game, [(Box.FOURS, (4, 4, 4, 1, 2)), (Box.CHANCE, (1, 2, 3, 4, 6))])
    columns = ("turn", "box", "points", "yahtzee_bonus", "created")
    query = compiled.CompiledQuery(
        lambda game: Entry.objects.filter(game=game).order_by("turn").values_list(*columns),
        game=int,
    )
    expected = list(Entry.objects.filter(game=game).order_by("turn").values_list(*columns))
    assert query.rows(game=game.pk) == expected
    assert query.rows(game=game.pk + 1000) == []
    assert isinstance(expected[0][4], type(timezone.now()))  # converters applied


def test_a_stand_in_that_is_not_a_parameter_is_a_programming_error(db):
    query = compiled.CompiledQuery(lambda game: Game.objects.values_list("pk"), game=int)
    with pytest.raises(AssertionError, match="game must appear once"):
        query.rows(game=1)


def test_compiled_writes_insert_and_update_with_each_fields_preparation(game):
    seat = game.seats.first()
    now = timezone.now()
    columns = ("game", "seat", "card", "box", "points", "dice", "yahtzee_bonus", "turn", "created")
    insert = compiled.insert(Entry, *columns)
    pk = insert.run(game.pk, seat.pk, 1, "chance", 17, "", False, 1, now)
    entry = Entry.objects.get(pk=pk)
    assert (entry.points, entry.box, entry.created) == (17, "chance", now)
    update = compiled.update(Game, "version", where=("id", "version"))
    assert update.run(5, game.pk, 99) == 0
    assert update.run(5, game.pk, 0) == 1
    assert Game.objects.get(pk=game.pk).version == 5


def test_a_compiled_update_writes_many_rows_in_one_query(game, django_assert_num_queries):
    ann, bob = game.seats.order_by("position")
    finished = timezone.now()
    update = compiled.update(Seat, "final_total", "won", "finished", where=("id",))
    with django_assert_num_queries(1):
        update.run_many([(200, True, finished, ann.pk), (150, False, finished, bob.pk)])
    rows = Seat.objects.order_by("position").values_list("final_total", "won", "finished")
    assert list(rows) == [(200, True, finished), (150, False, finished)]
    with pytest.raises(ValueError, match="one at a time"):
        compiled.insert(Game, "version").run_many([(1,)])


def test_an_insert_of_a_unique_value_already_there_writes_nothing_and_goes_on(
    game, django_assert_num_queries
):
    """No error, so the transaction around it goes on without a savepoint (PostgreSQL
    would refuse every later statement after a failed one)."""
    insert = compiled.insert_new(
        IdempotentRequest, "key", "game", "status", "note", "created", unique="key"
    )
    now = timezone.now()
    with transaction.atomic(), django_assert_num_queries(3):
        first = insert.run_if_new("tap-1", game.pk, 200, "", now)
        again = insert.run_if_new("tap-1", game.pk, 409, "again", now)
        assert IdempotentRequest.objects.filter(key="tap-1").count() == 1
    assert first is not None and again is None
    assert IdempotentRequest.objects.get(pk=first).note == ""
    with pytest.raises(AssertionError, match="returns its row"):
        insert.run("tap-1", game.pk, 200, "", now)


def test_a_value_repeated_down_the_rows_is_converted_once_and_reads_as_the_orms(game):
    rows = compiled.CompiledQuery(
        lambda game: (
            Seat.objects.filter(game=game)
            .order_by("position")
            .values_list("position", "game__created", "game__digital")
        ),
        game=int,
    ).rows(game=game.pk)
    expected = Seat.objects.filter(game=game).order_by("position")
    assert rows == list(expected.values_list("position", "game__created", "game__digital"))
    # SQLite gives a time as text, converted here once for every seat; PostgreSQL's driver
    # makes its own.
    if connection.vendor == "sqlite":
        assert rows[0][1] is rows[1][1]


def test_a_repeated_value_that_could_be_changed_is_converted_for_each_row(household):
    from scorecard.models import Player, PlayerFigures

    for name in ("Ann", "Bob"):
        player = Player.objects.create(owner=household, name=name)
        PlayerFigures.objects.create(player=player, bands={"200": 1})
    bands = compiled.CompiledQuery(
        lambda owner: (
            PlayerFigures.objects.filter(player__owner=owner).order_by("pk").values_list("bands")
        ),
        owner=int,
    ).rows(owner=household.pk)
    assert bands == [({"200": 1},), ({"200": 1},)]
    assert bands[0][0] is not bands[1][0]  # a dict one reader may change is its own


def test_sqlite_statements_are_rewritten_once_and_read_as_django_writes_them(db):
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's own placeholder style")
    from yahtzee.sqlite.base import _qmark

    _qmark.cache_clear()
    for _ in range(2):  # written afresh, then from what the first one kept
        with connection.cursor() as cursor:
            cursor.execute("SELECT '100%%', %s", [7])
            assert cursor.fetchone() == ("100%", 7)
    assert (_qmark.cache_info().misses, _qmark.cache_info().hits) == (1, 1)
    with connection.cursor() as cursor:  # Django's named style goes on as before
        cursor.execute("SELECT %(number)s", {"number": 3})
        assert cursor.fetchone() == (3,)
