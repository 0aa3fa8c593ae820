from django.urls import path

from scorecard import pages, views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/new/", views.game_new, name="game-new"),
    path("games/<str:public_id>/", views.game_page, name="game"),
    path("games/<str:public_id>/record/", views.record, name="game-record"),
    path("games/<str:public_id>/roll/", views.roll, name="game-roll"),
    path("games/<str:public_id>/undo/", views.undo, name="game-undo"),
    path("games/<str:public_id>/turns/<int:turn>/correct/", views.correct, name="game-correct"),
    path("games/<str:public_id>/rematch/", views.rematch, name="game-rematch"),
    path("games/<str:public_id>/sheet/", pages.game_sheet, name="game-sheet"),
    path("sheet/", pages.blank_sheet, name="sheet"),
    path("rules/", pages.rules_page, name="rules"),
]
