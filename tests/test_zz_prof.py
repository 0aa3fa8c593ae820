import cProfile
import pstats
import time

from django.core.cache import cache

from tests.factories import GameFactory, play_on
from tests.helpers import browser_of, game_url


def test_prof(db, settings):
    settings.DEBUG = False
    game = GameFactory(names=["Ann", "Bob", "Cy", "Di"])
    play_on(game, 10)
    c = browser_of(game.owner)
    url = game_url(game)
    assert c.get(url).status_code == 200
    for _ in range(20):
        cache.clear()
        c.get(url)
    t = time.process_time()
    for _ in range(100):
        cache.clear()
        c.get(url)
    print("\nms per page", (time.process_time() - t) * 10)
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(100):
        cache.clear()
        c.get(url)
    pr.disable()
    pstats.Stats(pr).sort_stats("cumtime").print_stats(45)
