from django.apps import AppConfig
from django.conf import settings


class ScorecardConfig(AppConfig):
    name = "scorecard"
    verbose_name = "Score card"

    def ready(self) -> None:
        from scorecard.engine import strategy

        strategy.DATA_DIR = settings.STRATEGY_DATA_DIR
