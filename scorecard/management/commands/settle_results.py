"""Settle the finished games that are not settled yet: those an upgrade from a version that
settled games only when a statistic was read, or an import by such a version, left behind.

A game is settled when its last box is recorded, so on a running site this finds nothing
and costs one query (`make migrate`, and so `make run`, runs it every time). After an
upgrade it may find thousands: it settles them a batch at a time, each batch in its own
short transaction, saying how far it is, and may run beside the server.
"""

from django.core.management.base import BaseCommand

from scorecard.game import results


class Command(BaseCommand):
    help = "Settle finished games whose results are not kept yet, a batch at a time."

    def add_arguments(self, parser):
        parser.add_argument(
            "--batch-size",
            type=int,
            default=results.SETTLE_BATCH,
            help=f"games a transaction (default {results.SETTLE_BATCH})",
        )

    def handle(self, *args, batch_size: int, **options):
        waiting = results.waiting_games().count()
        if not waiting:
            self.stdout.write("Every finished game is settled.")
            return
        done = 0
        for settled in results.settle_waiting(batch_size=max(batch_size, 1)):
            done += settled
            self.stdout.write(f"Settled {done} of {waiting} finished games.")
