"""The management commands: export, import, strategy tables, pruning and backups."""

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scorecard.engine.rules import JokerRule
from scorecard.history import exchange
from scorecard.models import Game
from tests.factories import SOLO_GAME, GameFactory, HouseholdFactory, play
from tests.helpers import finished_game


def test_export_and_import_commands_round_trip_through_files(household, tmp_path, capsys):
    finished_game(household)
    path = tmp_path / "backup.json"
    call_command("export_games", str(path))
    before = json.loads(path.read_text())
    Game.objects.all().delete()
    call_command("import_games", str(path))
    assert "Imported 1 games." in capsys.readouterr().out
    assert exchange.export_games(Game.objects.all()) == before


def test_export_and_import_commands_use_standard_streams(household, monkeypatch, capsys):
    finished_game(household)
    call_command("export_games", "-")
    text_out = capsys.readouterr().out
    Game.objects.all().delete()
    monkeypatch.setattr("sys.stdin", StringIO(text_out))
    call_command("import_games", "-")
    assert Game.objects.count() == 1
    monkeypatch.setattr("sys.stdin", StringIO(text_out))
    call_command("import_games", "-")
    assert "Imported 0 games; 1 already here, left as they are." in capsys.readouterr().out
    assert Game.objects.count() == 1
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_games", "/nonexistent/file.json")


def test_a_restore_gives_typed_five_alike_the_bonus_an_older_version_left_out(
    household, tmp_path, capsys
):
    from scorecard.engine.rules import Box
    from scorecard.game import services

    game = services.game_create(owner=household, names=["Ann"])
    services.record_box(game=game, version=0, turn=1, box=Box.YAHTZEE, dice=(6,) * 5)
    services.record_box(game=game, version=1, turn=2, box=Box.SIXES, points=30)
    document = exchange.export_games(Game.objects.all())
    document["games"][0]["entries"][1]["yahtzee_bonus"] = False  # as an older version wrote it
    Game.objects.all().delete()
    path = tmp_path / "old.json"
    path.write_text(json.dumps(document))
    call_command("import_games", str(path))
    said = "Imported 1 games; 1 extra-Yahtzee bonuses given to typed points only five alike make"
    assert said in capsys.readouterr().out


def test_build_strategy_prints_a_line_per_table(strategy_tables, capsys, monkeypatch):
    from scorecard.engine import distribution

    monkeypatch.setattr(distribution, "SIMULATED_GAMES", 300)  # the percentiles' simulation
    call_command("build_strategy", "--rule", "none")
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0] == "none 245.870775" and lines[1].startswith("none sd 39.82")
    assert distribution.tables_path(JokerRule.NONE).exists()
    call_command("build_strategy", "--rule", "none", "--missing")
    assert capsys.readouterr().out == ""  # both tables there: nothing built again


def test_build_strategy_shows_the_progress_of_a_yatzy_value_table(strategy_tables, capsys):
    from scorecard.engine import families, rules
    from scorecard.management.commands import build_strategy

    build_strategy.Command()._build_yatzy(rules.HouseRules(families.YATZY, forced=True), False)
    shown = capsys.readouterr().err
    assert "yatzy-forced values [##############################] 15/15" in shown
    assert "yatzy-forced policy [" in shown


def test_build_strategy_converts_a_table_an_older_version_wrote(strategy_tables, capsys):
    """`make run` builds what is missing: a table in an old format is rewritten in the new
    one (the same values, nothing solved again), never read as if it were new."""
    import numpy as np

    from scorecard.engine import families, rules
    from scorecard.management.commands import build_strategy

    house = rules.HouseRules(families.YATZY, forced=True)
    solver = strategy_tables.family_strategy(house)
    solved = np.array(solver.load())
    solver.forget()
    solver.table_path().unlink()
    np.savez(solver.old_table_path(), values=solved[solver._stored()])
    build_strategy.Command()._build_yatzy(house, True)
    shown = capsys.readouterr().out.splitlines()
    assert shown[0] == "Converted to the current format: strategy-yatzy-forced-v2.npy"
    assert not any(line.startswith("yatzy-forced 122.") for line in shown)  # not solved again
    assert np.array_equal(solver.load(), solved) and not solver.old_table_path().exists()


def test_build_strategy_says_maxi_yatzy_is_never_built(strategy_tables, capsys):
    with pytest.raises(CommandError, match="Maxi Yatzy is not built: .* have no advice"):
        call_command("build_strategy", "--family", "maxi")
    assert list(strategy_tables.tables.FOLDER.glob("*maxi*")) == []


def test_build_strategy_builds_the_likeliest_tables_first(strategy_tables, monkeypatch):
    from scorecard.management.commands import build_strategy

    built = []
    command = build_strategy.Command()
    monkeypatch.setattr(command, "_build_yahtzee", lambda joker, missing: built.append(joker.key))
    monkeypatch.setattr(command, "_build_yatzy", lambda house, missing: built.append(house.key))
    command.handle(missing=True)
    assert built[:3] == ["hasbro", "yatzy", list(JokerRule)[1].key]
    assert "yatzy-forced" in built and not any("maxi" in key for key in built)
    built.clear()
    command.handle(family="yatzy", missing=True)
    assert built[:2] == ["yatzy", "yatzy-forced"] and len(built) == 8


def test_prune_removes_only_old_unplayed_games_and_the_households_they_leave_empty(household):
    from datetime import timedelta

    from django.utils import timezone

    from scorecard.models import Household

    old = timezone.now() - timedelta(days=40)
    lonely = HouseholdFactory()
    abandoned = GameFactory(owner=lonely, names=["Zed"])
    unplayed_here = GameFactory(owner=household, names=["Ann"])
    played = GameFactory(owner=household, names=["Ann"])
    play(played, SOLO_GAME[:1])
    recent = GameFactory(owner=household, names=["Bob"])
    Game.objects.exclude(pk=recent.pk).update(created=old)
    out = StringIO()
    call_command("prune_games", "--dry-run", stdout=out)
    assert "Would remove 2 games and 1 households." in out.getvalue()
    assert abandoned.public_id in out.getvalue() and Game.objects.count() == 4
    call_command("prune_games", stdout=StringIO())
    assert set(Game.objects.all()) == {played, recent}
    assert not Household.objects.filter(pk=lonely.pk).exists()
    assert not Game.objects.filter(pk=unplayed_here.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_a_backup_taken_during_writes_holds_every_game_committed_before_it(tmp_path):
    import sqlite3
    import threading

    from django.db import connection

    if connection.vendor != "sqlite":
        with pytest.raises(CommandError, match="back it up with pg_dump"):
            call_command("backup", str(tmp_path / "copy.sqlite3"))
        return
    owner = HouseholdFactory()
    before = {GameFactory(owner=owner, names=["Ann"]).public_id for _ in range(20)}
    stop = threading.Event()

    def keep_writing():
        while not stop.is_set():
            GameFactory(owner=owner, names=["Bob"])
        connection.close()

    writer = threading.Thread(target=keep_writing)
    writer.start()
    try:
        call_command("backup", str(tmp_path / "copy.sqlite3"), stdout=StringIO())
    finally:
        stop.set()
        writer.join(timeout=30)
    copy = sqlite3.connect(tmp_path / "copy.sqlite3")
    # The tables' check constraints use REGEXP, which Django gives its own connections.
    copy.create_function("REGEXP", 2, lambda pattern, text: re.search(pattern, text) is not None)
    assert copy.execute("pragma integrity_check").fetchone() == ("ok",)
    stored = {row[0] for row in copy.execute("select public_id from scorecard_game")}
    seatless = copy.execute(
        "select count(*) from scorecard_game g where not exists "
        "(select 1 from scorecard_seat s where s.game_id = g.id)"
    ).fetchone()[0]
    copy.close()
    assert before <= stored and seatless == 0
    with pytest.raises(CommandError, match="exists already"):
        call_command("backup", str(tmp_path / "copy.sqlite3"))


def test_show_address_prints_the_url_a_phone_opens_with_a_qr_code(monkeypatch):
    from scorecard.management.commands import show_address

    monkeypatch.setattr(show_address, "local_addresses", lambda: ["192.0.2.7", "198.51.100.3"])
    out = StringIO()
    call_command("show_address", "8000", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Open http://192.0.2.7:8000/ on a phone on the same network:"
    assert any("█" in line for line in lines[1:]) and lines[-1] == "  or http://198.51.100.3:8000/"
    monkeypatch.setattr(show_address, "local_addresses", lambda: [])
    call_command("show_address", "8000", stdout=(out := StringIO()))
    assert "No network address found" in out.getvalue()
