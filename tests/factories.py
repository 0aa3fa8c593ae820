"""Factories build real games through the services, so totals come from the rules engine."""

import factory

from scorecard.engine import rules
from scorecard.engine.rules import Box
from scorecard.game import results, services
from scorecard.models import Game, Household, Player


class HouseholdFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Household


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    owner = factory.SubFactory(HouseholdFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


class GameFactory(factory.django.DjangoModelFactory):
    """A new game made by `services.game_create`; pass names=[...] for its players."""

    class Meta:
        model = Game

    owner = factory.SubFactory(HouseholdFactory)
    joker = rules.JokerRule.HASBRO
    mode = Game.Mode.STANDARD

    @classmethod
    def _create(cls, model_class, owner, joker, mode, names=("Ann", "Bob"), house=None, **kwargs):
        house = house or services.STANDARD_HOUSE  # a family and its house rules
        return services.game_create(
            owner=owner, names=list(names), joker=joker, mode=mode, house=house
        )


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "scorecard.Seat"

    game = factory.SubFactory(GameFactory, names=["Solo"])
    player = factory.SubFactory(PlayerFactory, owner=factory.SelfAttribute("..game.owner"))
    position = factory.LazyAttribute(lambda seat: seat.game.seats.count())


class EntryFactory(factory.django.DjangoModelFactory):
    """An entry recorded by `services.record_box` for whoever's turn it is."""

    class Meta:
        model = "scorecard.Entry"

    game = factory.SubFactory(GameFactory)
    box = rules.Box.CHANCE
    dice = (1, 2, 3, 4, 6)

    @classmethod
    def _create(cls, model_class, game, box, dice, card=1, **kwargs):
        game.refresh_from_db()
        recorded = services.record_box(
            game=game,
            version=game.version,
            turn=game.entries.count() + 1,
            box=box,
            card=card,
            dice=dice,
        )
        return recorded.entry


def play(game: Game, turns) -> Game:
    """Record (box, dice) turns in order, each for the player whose turn it is."""
    for box, dice in turns:
        EntryFactory(game=game, box=box, dice=dice)
    game.refresh_from_db()
    return game


# A full card, one box a turn, with the upper bonus.
SOLO_GAME = [
    (Box.ONES, (1, 1, 1, 2, 3)),
    (Box.TWOS, (2, 2, 2, 1, 3)),
    (Box.THREES, (3, 3, 3, 1, 2)),
    (Box.FOURS, (4, 4, 4, 1, 2)),
    (Box.FIVES, (5, 5, 5, 1, 2)),
    (Box.SIXES, (6, 6, 6, 1, 2)),
    (Box.THREE_OF_A_KIND, (6, 6, 6, 5, 5)),
    (Box.FOUR_OF_A_KIND, (6, 6, 6, 6, 5)),
    (Box.FULL_HOUSE, (2, 2, 3, 3, 3)),
    (Box.SMALL_STRAIGHT, (1, 2, 3, 4, 6)),
    (Box.LARGE_STRAIGHT, (2, 3, 4, 5, 6)),
    (Box.YAHTZEE, (5,) * 5),
    (Box.CHANCE, (6, 6, 5, 5, 4)),
]


def card_total(turns) -> int:
    """What the engine says a card of (box, dice) turns adds up to."""
    entries = []
    filled: dict = {}
    for box, dice in turns:
        placement = rules.place(filled, box, dice=dice)
        filled[box] = placement.points
        entries.append(placement.bonus)
    return rules.totals(filled, sum(1 for bonus in entries if bonus)).total


def bulk_finished_games(owner, names, count, seed=0, settle=True):
    """Many finished standard games at once: random rolls, each placed by the rules engine
    in the best-paying open box, written with bulk_create (for statistics at scale), and
    settled as finishing them through the services would have; `settle=False` leaves them
    as an upgrade or an older import does, for `manage.py settle_results`."""
    import random

    from scorecard.models import Entry, Player, Seat

    rng = random.Random(seed)
    players = [services.player_get_or_create(owner=owner, name=name) for name in names]
    games = Game.objects.bulk_create(
        Game(owner=owner, finished=services.timezone.now(), version=13 * len(players))
        for _ in range(count)
    )
    seats = Seat.objects.bulk_create(
        Seat(game=game, player=player, position=index)
        for game in games
        for index, player in enumerate(players)
    )
    entries = []
    for game_index, game in enumerate(games):
        game_seats = seats[game_index * len(players) : (game_index + 1) * len(players)]
        cards = [{} for _ in players]
        for turn in range(1, 13 * len(players) + 1):
            index = (turn - 1) % len(players)
            dice = tuple(rng.randint(1, 6) for _ in range(5))
            choices = rules.options(cards[index], dice)
            box = max(choices, key=lambda b: (choices[b], -list(Box).index(b)))
            placement = rules.place(cards[index], box, dice=dice)
            cards[index][box] = placement.points
            entries.append(
                Entry(
                    game=game,
                    seat=game_seats[index],
                    box=box.key,
                    points=placement.points,
                    dice="".join(map(str, placement.dice)),
                    yahtzee_bonus=bool(placement.bonus),
                    turn=turn,
                )
            )
    Entry.objects.bulk_create(entries, batch_size=2000)
    assert Player.objects.filter(owner=owner).count() >= len(players)
    if settle:
        results.settle_games(games)
    return games


def play_on(game: Game, turns: int | None = None, seed: int = 0) -> Game:
    """Record `turns` more turns (to the end when None) of any family or mode, through the
    services: seeded random dice (never all alike, so no joker rule is in play) in the first
    open box of the first open card of whoever's turn it is; a digital game's dice are
    rolled (seeded too) and scored as they fell."""
    import random

    from scorecard.game.progress import load_progress

    rng = random.Random(seed)
    progress = load_progress(game)
    family = game.house_rules.family
    while progress.current is not None and turns != 0:
        card = progress.current.open_cards()[0]
        faces = [rng.randint(1, 6) for _ in range(family.dice_count)]
        faces[-1] = faces[0] % 6 + 1 if len(set(faces)) == 1 else faces[-1]
        dice = progress.round_dice or tuple(faces)  # Challenge Yahtzee: the round's roll
        if game.digital:
            game = progress.game
            progress = services.roll_dice(
                game=game, version=game.version, turn=progress.next_turn, rng=rng
            )
            dice = None  # the server's
        progress = services.record_box(
            game=progress.game,
            version=progress.game.version,
            turn=progress.next_turn,
            box=card.open_boxes()[0],
            card=card.number,
            dice=dice,
        ).progress
        turns = None if turns is None else turns - 1
    game.refresh_from_db()
    return game
