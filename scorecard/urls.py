from django.urls import path

from scorecard.views import exchange, history, pages, play, start

urlpatterns = [
    path("", start.home, name="home"),
    path("games/", history.games_list, name="games"),
    path("games/new/", start.game_new, name="game-new"),
    path("games/export.<str:fmt>", exchange.export_all, name="games-export"),
    path("games/import/", exchange.import_view, name="games-import"),
    path("games/<str:public_id>/review/", history.game_review, name="game-review"),
    path("games/<str:public_id>/export.<str:fmt>", exchange.export_one, name="game-export"),
    path("games/<str:public_id>/", play.game_page, name="game"),
    path("games/<str:public_id>/record/", play.record, name="game-record"),
    path("games/<str:public_id>/roll/", play.roll, name="game-roll"),
    path("games/<str:public_id>/undo/", play.undo, name="game-undo"),
    path("games/<str:public_id>/turns/<int:turn>/correct/", play.correct, name="game-correct"),
    path("games/<str:public_id>/rematch/", play.rematch, name="game-rematch"),
    path("games/<str:public_id>/sheet/", pages.game_sheet, name="game-sheet"),
    path("players/", history.players_list, name="players"),
    path("players/<str:public_id>/", history.player_page, name="player"),
    path("high-scores/", history.high_scores, name="high-scores"),
    path("advice/", play.advice_switch, name="advice"),
    path("sheet/", pages.blank_sheet, name="sheet"),
    path("rules/", pages.rules_page, name="rules"),
    path("manifest.webmanifest", pages.web_manifest, name="web-manifest"),
]
