from django.urls import path

from scorecard.access.links import Role
from scorecard.views import exchange, health, history, language, pages, play, sharing, shell, start

SCORER, WATCHER = {"role": Role.SCORER}, {"role": Role.WATCHER}

urlpatterns = [
    path("", start.home, name="home"),
    # The footer's language switch: its form, and its post (Django's own view keeps it).
    path("language/", language.language_switch, name="set_language"),
    path("games/", history.games_list, name="games"),
    path("games/new/", start.game_new, name="game-new"),
    path("games/export.<str:fmt>", exchange.export_all, name="games-export"),
    path("games/import/", exchange.import_view, name="games-import"),
    path("games/<str:public_id>/review/", history.game_review, name="game-review"),
    path("games/<str:public_id>/export.<str:fmt>", exchange.export_one, name="game-export"),
    path("games/<str:public_id>/rematch/", play.rematch, name="game-rematch"),
    path("games/<str:public_id>/discard/", start.discard, name="game-discard"),
    path("games/<str:public_id>/share/", sharing.game_share, name="game-share"),
    # The same views for the household (the owner) and for a share link's holder.
    path("games/<str:key>/", play.game_page, name="game"),
    path("games/<str:key>/record/", play.record, name="game-record"),
    path("games/<str:key>/roll/", play.roll, name="game-roll"),
    path("games/<str:key>/undo/", play.undo, name="game-undo"),
    path("games/<str:key>/turns/<int:turn>/correct/", play.correct, name="game-correct"),
    path("games/<str:key>/sheet/", pages.game_sheet, name="game-sheet"),
    path("score/<str:key>/", play.game_page, SCORER, name="score"),
    path("score/<str:key>/record/", play.record, SCORER, name="score-record"),
    path("score/<str:key>/roll/", play.roll, SCORER, name="score-roll"),
    path("score/<str:key>/undo/", play.undo, SCORER, name="score-undo"),
    path("score/<str:key>/turns/<int:turn>/correct/", play.correct, SCORER, name="score-correct"),
    path("score/<str:key>/sheet/", pages.game_sheet, SCORER, name="score-sheet"),
    path("watch/<str:key>/", play.game_page, WATCHER, name="watch"),
    path("watch/<str:key>/sheet/", pages.game_sheet, WATCHER, name="watch-sheet"),
    path("household/", sharing.household_page, name="household"),
    path("join/<str:token>/", sharing.household_join, name="household-join"),
    path("players/", history.players_list, name="players"),
    path("players/<str:public_id>/", history.player_page, name="player"),
    path("players/<str:public_id>/rename/", history.player_rename, name="player-rename"),
    path("high-scores/", history.high_scores, name="high-scores"),
    path("advice/", play.advice_switch, name="advice"),
    path("sheet/", pages.blank_sheet, name="sheet"),
    path("rules/", pages.rules_page, name="rules"),
    path("manifest.webmanifest", pages.web_manifest, name="web-manifest"),
    path("apple-touch-icon.png", pages.home_screen_icon, name="home-screen-icon"),
    path("robots.txt", pages.robots_txt, name="robots-txt"),
    path("healthz", health.healthz, name="healthz"),
    path("sw.js", shell.service_worker, name="service-worker"),
]
