"""SQLite's writers wait their turn on a lock file, woken when it is free (yahtzee/sqlite)."""

import fcntl
import os
import threading

import pytest
from django.db import connection, transaction

from scorecard.models import Household

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def sqlite_only():
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL's writers wait on the rows they change")


def queue_is_free() -> bool:
    """Whether another process could take the writers' lock now."""
    descriptor = os.open(f"{connection.settings_dict['NAME']}-writers", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(descriptor)  # (closing it gives back a lock it took)
    return True


def test_a_write_transaction_holds_the_writers_turn_until_it_commits():
    with transaction.atomic():
        Household.objects.create()
        assert not queue_is_free()
    assert queue_is_free()
    Household.objects.create()  # a statement outside a transaction takes no turn
    assert queue_is_free() and Household.objects.count() == 2


def test_a_write_transaction_rolled_back_gives_its_turn_back():
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        Household.objects.create()
        assert not queue_is_free()
        _ = 1 / 0
    assert queue_is_free() and not Household.objects.exists()


def test_a_second_writer_waits_for_the_turn_and_goes_on_once_the_first_commits():
    started, done = threading.Event(), threading.Event()

    def second_writer() -> None:
        started.set()
        try:
            with transaction.atomic():
                Household.objects.create()
            done.set()
        finally:
            connection.close()

    with transaction.atomic():
        Household.objects.create()
        writer = threading.Thread(target=second_writer)
        writer.start()
        assert started.wait(5)
        assert not done.wait(0.3)  # waiting for this transaction to end
    assert done.wait(10)
    writer.join(10)
    assert Household.objects.count() == 2 and queue_is_free()
