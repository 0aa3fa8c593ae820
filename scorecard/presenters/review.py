"""A finished game looked back on: every decision rated against the optimal choice from the
same position, and each player's chance to win after every entry, charted."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.core.cache import cache
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scorecard.game.progress import CardProgress, GameProgress, round_of
from scorecard.models import Game, Roll
from scorecard.presenters import charts
from scorecard.presenters.advice import keep_phrase
from scorecard.presenters.advisor import chances_to_win, ranked_keeps, rate_boxes
from scorecard.presenters.box_names import box_name

WIN_CHART_SECONDS = 60 * 60 * 24


@dataclass
class Decision:
    round: int  # the round of the player's turn, as the game page counts it
    kind: str  # "box" or "keep"
    dice: str  # the roll the choice was made on, as digits ("22356")
    chosen: str  # the dice kept ("keeping 2 2"), or the box's name in the page's language
    best: str
    loss: float
    after_roll: int = 0  # a keep's roll of its turn; 0 for a box


@dataclass
class PlayerLosses:
    name: str
    decisions: list[Decision] = field(default_factory=list)

    @property
    def total(self) -> float:
        return sum(decision.loss for decision in self.decisions)

    @property
    def mean(self) -> float:
        return self.total / len(self.decisions) if self.decisions else 0.0

    @property
    def biggest_first(self) -> list[Decision]:
        """The decisions, the costliest mistake first (then in the order they were made)."""
        return sorted(
            self.decisions, key=lambda decision: (-round(decision.loss, 9), decision.round)
        )


def decision_losses(
    progress: GameProgress, rolls_by_turn: Mapping[int, Sequence[Roll]]
) -> list[PlayerLosses]:
    """Every box choice made with known dice, and every hold of a digital game, against the
    optimal choice from the same position, asked of the advisor as the game page asks it
    (so by the game's own family and house rules)."""
    game = progress.game
    house = game.house_rules
    cards = {seat.seat.pk: CardProgress(1, house) for seat in progress.seats}
    losses = {seat.seat.pk: PlayerLosses(seat.player.name) for seat in progress.seats}
    players = len(progress.seats)
    for entry in progress.entries:
        card = cards[entry.seat_id]
        in_round = round_of(entry.turn, players)
        rolls = rolls_by_turn.get(entry.turn, [])
        for before, after in zip(rolls, rolls[1:], strict=False):
            rolls_left = house.family.rolls_per_turn - before.number
            ranked = ranked_keeps(card, before.faces, rolls_left, game)
            held = tuple(
                sorted(f for f, h in zip(before.faces, after.held_positions, strict=True) if h)
            )
            values = dict(ranked)
            # Said as a keep ("keeping 2"), not as bare dice beside the boxes' names: a phone's
            # table has no room for the kind of decision (a new user read "2" as a box).
            losses[entry.seat_id].decisions.append(
                Decision(in_round, "keep", _digits(before.faces), keep_phrase(held),
                         keep_phrase(ranked[0][0]), ranked[0][1] - values[held], before.number)
            )  # fmt: skip
        if dice := entry.dice_tuple:
            last_roll = rolls[-1].number if rolls else 0
            decision = _box_decision(card, dice, entry.rules_box, last_roll, game)
            decision.round = in_round
            losses[entry.seat_id].decisions.append(decision)
        card.add(entry)
    return list(losses.values())


def _box_decision(
    card: CardProgress, dice: Sequence[int], box: object, last_roll: int, game: Game
) -> Decision:
    """A box filled with `dice`, against the best box, and, where the turn had rolls left
    after its `last_roll` (a digital game's, whose rolls are known; 0 when they are not),
    against rolling again: a player who scored every first roll was rated almost as well as
    one who rolled on (found by a new user)."""
    rolls_left = game.house_rules.family.rolls_per_turn - last_roll if last_roll else 0
    rated = rate_boxes(card, dice, game)
    best = max(rated, key=lambda choice: rated[choice].expected)
    chosen = rated.get(box, rated[best])
    best_said, loss = box_name(best), chosen.loss
    if rolls_left in (1, 2):
        keep, value = ranked_keeps(card, dice, rolls_left, game)[0]
        if keep != tuple(sorted(dice)):  # keeping all of them is stopping: the best box
            best_said = _("roll again, %(keep)s") % {"keep": keep_phrase(keep)}
            loss = value - chosen.expected
    after_roll = last_roll if rolls_left else 0  # said only where rolling on was a choice
    return Decision(0, "box", _digits(dice), box_name(box), best_said, loss, after_roll)


def _digits(dice: Sequence[int]) -> str:
    return "".join(map(str, sorted(dice)))


def win_chance_series(progress: GameProgress) -> dict[str, list[int]]:
    """Each player's chance to win (in whole percent) before the first entry and after every
    entry of the game: what the review charts."""
    cards = {seat.seat.pk: CardProgress(1) for seat in progress.seats}
    game = progress.game
    series: dict[str, list[int]] = {seat.player.name: [] for seat in progress.seats}

    def record() -> None:
        chances = chances_to_win([cards[s.seat.pk] for s in progress.seats], game)
        for seat, chance in zip(progress.seats, chances, strict=True):
            series[seat.player.name].append(round(100 * chance))

    record()
    for entry in progress.entries:
        cards[entry.seat_id].add(entry)
        record()
    return series


def win_chart(progress: GameProgress) -> charts.LineChart:
    """Each player's chance to win after every entry, charted; a game's chart is kept per
    version (working it out reads every position of the game)."""
    # Its title is in the phone's language: each language's chart is kept on its own. The
    # "4" is the chart's layout: one kept before its bottom counted rounds is not read back.
    key = f"win-chart-data-4:{get_language()}:{progress.game.pk}:{progress.game.version}"
    chart = cache.get(key)
    if chart is None:
        series = [
            charts.Series(name, values) for name, values in win_chance_series(progress).items()
        ]
        title = _("Each player's chance to win, before the game and after every entry")
        players = len(progress.seats)
        chart = charts.line_chart(
            series, title=title, percent=True, from_zero=False, entries_per_round=players
        )
        cache.set(key, chart, WIN_CHART_SECONDS)
    return chart
