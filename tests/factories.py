"""Factories build real games through the services, so totals come from the rules engine."""

import factory

from scorecard import rules, services
from scorecard.models import Game, Household, Player
from scorecard.rules import Box


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
    def _create(cls, model_class, owner, joker, mode, names=("Ann", "Bob"), **kwargs):
        return services.game_create(owner=owner, names=list(names), joker=joker, mode=mode)


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
        entry, _ = services.record_box(
            game=game,
            version=game.version,
            turn=game.entries.count() + 1,
            box=box,
            card=card,
            dice=dice,
        )
        return entry


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
