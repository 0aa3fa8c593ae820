"""Factories build real games through the services, so totals come from the rules engine."""

import factory

from scorecard import rules, services
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
