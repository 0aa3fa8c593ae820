"""Remove games nobody played: no box filled, started more than DAYS ago (30 unless said),
then households the removal left without games or players in use, and the keys of taps
older than a day (`web.idempotency`: a tap is retried within seconds, not days)."""

from datetime import timedelta

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from scorecard.game import services
from scorecard.web import idempotency


class Command(BaseCommand):
    help = "Remove games never played (no entry, older than --days) and households left empty."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=30)
        parser.add_argument(
            "--dry-run", action="store_true", help="list what would go, remove nothing"
        )

    def handle(self, *args, days: int, dry_run: bool, **options):
        before = timezone.now() - timedelta(days=days)
        with transaction.atomic():
            games, households = services.games_prune(started_before=before, dry_run=dry_run)
            keys = 0 if dry_run else idempotency.forget_old_keys()
        verb = "Would remove" if dry_run else "Removed"
        for game in games:
            self.stdout.write(f"{verb} game {game.public_id} (started {game.created:%Y-%m-%d})")
        for household in households:
            self.stdout.write(f"{verb} empty household {household.public_id}")
        self.stdout.write(f"{verb} {len(games)} games and {len(households)} households.")
        if keys:
            self.stdout.write(f"Removed {keys} keys of taps older than a day.")
