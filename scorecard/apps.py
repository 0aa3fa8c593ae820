from django.apps import AppConfig


class ScorecardConfig(AppConfig):
    name = "scorecard"
    verbose_name = "Score card"
