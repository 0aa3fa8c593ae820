"""The management commands: export, import and building the strategy tables."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scorecard import exchange
from scorecard.models import Game
from tests.conftest import finished_game


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
    with pytest.raises(CommandError, match="Nothing was imported.*already here"):
        call_command("import_games", "-")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_games", "/nonexistent/file.json")


def test_build_strategy_prints_a_line_per_rule(strategy_tables, capsys, settings):
    settings.STRATEGY_DATA_DIR = strategy_tables.DATA_DIR
    call_command("build_strategy", "--rule", "none")
    out = capsys.readouterr().out
    assert out.strip() == "none 245.870775"
