"""What is stored: households, players, games, their seats and filled boxes.

Totals are never stored: `scorecard.game.progress` derives them with `rules.totals`.
"""

import secrets
import unicodedata
from functools import cached_property
from typing import Any

from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from scorecard.engine import families, rules


def new_public_id() -> str:
    """An unguessable id for URLs (128 random bits), never a sequential number."""
    return secrets.token_urlsafe(16)


def new_link_token() -> str:
    """A capability in a link (a share or join link): 192 random bits, never stored twice."""
    return secrets.token_urlsafe(24)


class Household(models.Model):
    """The people who share one table. Each of their browsers is a `Browser` whose key is in
    its cookie; a join link (`join_token`) lets another browser of the family in."""

    public_id = models.CharField(max_length=32, unique=True, default=new_public_id)
    join_token = models.CharField(max_length=40, unique=True, null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Household {self.public_id[:6]}"


BROWSER_NAME_LENGTH = 60


class Browser(models.Model):
    """One browser of a household, known by the key in its signed cookie. Removing it here
    shuts that browser out at its next request."""

    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="browsers")
    key = models.CharField(max_length=40, unique=True, default=new_link_token)
    # "Chrome on Android" from the User-Agent at first; the family can rename it.
    name = models.CharField(max_length=BROWSER_NAME_LENGTH)
    joined = models.DateTimeField(default=timezone.now, editable=False)
    # Written at most once an hour (`households.note_seen`), so a request costs no write.
    last_seen = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["household", "joined"]

    def __str__(self) -> str:
        return f"{self.name} of {self.household}"


def name_key(name: str) -> str:
    """A player's name as two spellings of one person compare: in any case and either
    Unicode form of an accent. SQLite's own case folding knows only ASCII letters, so
    "JOSÉ" was a second player beside José (a helper), while a game refused the two."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


class Player(models.Model):
    """A named person who can sit at many games of the household."""

    owner = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="players")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id)
    name = models.CharField(max_length=40)
    # `name_key(name)`, by which a game finds its players (folding may lengthen a name).
    name_key = models.CharField(max_length=160, editable=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(Lower("name"), "owner", name="player_name_unique_per_owner"),
            models.CheckConstraint(condition=~models.Q(name=""), name="player_name_not_empty"),
        ]
        indexes = [models.Index(fields=["owner", "name_key"], name="player_by_name_key")]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = name_key(self.name)
        super().save(*args, **kwargs)


FAMILY_CHOICES = [(key, family.name) for key, family in families.FAMILIES.items()]


class GameMode(models.TextChoices):
    STANDARD = "standard", _("Standard")
    TRIPLE = "triple", _("Triple Yahtzee")
    CHALLENGE = "challenge", _("Challenge Yahtzee")


class Game(models.Model):
    Mode = GameMode

    owner = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="games")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id)
    joker = models.CharField(
        max_length=16,
        choices=[(rule.key, rule.label) for rule in rules.JokerRule],
        default=rules.JokerRule.HASBRO.key,
    )
    mode = models.CharField(max_length=16, choices=Mode, default=Mode.STANDARD)
    # The rule family the card follows, the house switches the table turned on (their keys,
    # separated by commas), whether the boxes are filled in card order, and an upper bonus of
    # the house's own (Maxi Yatzy's printed rules differ); `house_rules` puts them together.
    family = models.CharField(
        max_length=16,
        choices=[(key, family.name) for key, family in families.FAMILIES.items()],
        default=families.YAHTZEE.key,
    )
    switches = models.CharField(max_length=100, blank=True, default="")
    forced_order = models.BooleanField(default=False)
    bonus_threshold = models.PositiveSmallIntegerField(null=True, blank=True)
    bonus_points = models.PositiveSmallIntegerField(null=True, blank=True)
    # Digital games roll on the server (see Roll); tabletop games have their dice typed in.
    digital = models.BooleanField(default=False)
    # Every change bumps the version: a form that shows an older one is stale (double taps,
    # a second phone), and later live views poll it.
    version = models.PositiveIntegerField(default=0)
    # The version the latest entry's record made. While it is still `version`, the last
    # change was that entry, so a live page one version behind is sent only what the entry
    # changed (`views.play`); an undo, a correction or a roll moves `version` past it.
    recorded_version = models.PositiveIntegerField(null=True, blank=True, editable=False)
    players = models.ManyToManyField(Player, through="Seat", related_name="games")
    created = models.DateTimeField(default=timezone.now, editable=False)
    finished = models.DateTimeField(null=True, blank=True)
    # A copy imported from a file whose id another household held (it got an id of its
    # own): that id, so importing the same file again finds the copy and skips it.
    imported_from = models.CharField(max_length=32, blank=True, default="", editable=False)
    # The finished game this one is the rematch of: a finished game has one rematch, so a
    # second tap of Rematch (after Back, with a new tap key) opens it instead of another, and
    # the phones that follow the finished game are shown the way to it.
    rematch_of = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch",
        editable=False,
    )

    class Meta:
        ordering = ["-created"]
        indexes = [
            models.Index(fields=["owner", "-created"]),
            # The few games still going, which the games list puts first: found without
            # reading every finished game of the household.
            models.Index(
                fields=["owner", "-created"],
                condition=models.Q(finished__isnull=True),
                name="game_in_progress_by_owner",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(joker__in=[rule.key for rule in rules.JokerRule]),
                name="game_joker_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(mode__in=GameMode.values), name="game_mode_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(family__in=list(families.FAMILIES)), name="game_family_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(bonus_threshold__isnull=True, bonus_points__isnull=True)
                | models.Q(bonus_threshold__isnull=False, bonus_points__isnull=False),
                name="game_house_bonus_whole",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_mode_display()} game {self.public_id[:6]}"

    @property
    def joker_rule(self) -> rules.JokerRule:
        return rules.JokerRule.from_key(self.joker)

    @cached_property
    def house_rules(self) -> rules.HouseRules[Any]:
        """The rules this table plays, from the engine: the family, its switches, the house's
        upper bonus and the order the boxes are filled in."""
        switches = frozenset(
            families.Switch.from_key(key) for key in self.switches.split(",") if key
        )
        bonus = None
        if self.bonus_threshold is not None and self.bonus_points is not None:
            bonus = families.UpperBonus(self.bonus_threshold, self.bonus_points)
        family = families.family_named(self.family)
        return rules.HouseRules(family, switches, bonus, self.forced_order)

    @property
    def title(self) -> str:
        """What the game is called on its pages: the family's name ("Yahtzee", "Yatzy",
        "Maxi Yatzy"), or a variant's ("Triple Yahtzee", "Challenge Yahtzee"). Not the
        mode's "Standard": a German table plays Kniffel, and its page says so."""
        if self.mode != self.Mode.STANDARD:
            return self.get_mode_display()
        # The family's name is in the catalogs by presenters.box_names.FAMILY_NAMES.
        return pgettext("game", self.house_rules.family.name)

    @property
    def cards_per_player(self) -> int:
        return rules.cards_per_player(triple=self.mode == self.Mode.TRIPLE)


class LinkRole(models.TextChoices):
    WATCH = "watch", _("Watch")
    SCORE = "score", _("Score")


class GameLink(models.Model):
    """A share link for one game: its token is the whole permission. Watch links read the
    standings, boxes and sheet; score links may also enter dice, record, undo and correct.
    Revoking deletes the row, so the link is a 404 at its next request."""

    Role = LinkRole

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="links")
    role = models.CharField(max_length=8, choices=LinkRole)
    token = models.CharField(max_length=40, unique=True, default=new_link_token)
    created = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "role"], name="link_once_per_role"),
            models.CheckConstraint(condition=models.Q(role__in=LinkRole.values), name="link_role"),
        ]

    def __str__(self) -> str:  # never the token: this text can end up in logs
        return f"{self.get_role_display()} link of {self.game}"


class Seat(models.Model):
    """A player's place at one game, in seating order.

    Once the game is finished, what statistics need of it is stored here as it finishes
    (`game.results`), so a player page reads sums, not every entry.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    final_total = models.PositiveIntegerField(null=True, blank=True)
    won = models.BooleanField(null=True)  # first place, shared on a tie; None alone
    scored = models.BooleanField(null=True)  # a one-card game: its total is on the usual scale
    finished = models.DateTimeField(null=True)  # the game's, kept here to sort without a join
    cards = models.PositiveSmallIntegerField(null=True)
    bonus_cards = models.PositiveSmallIntegerField(null=True)
    yahtzees = models.PositiveSmallIntegerField(null=True)
    extra_yahtzees = models.PositiveSmallIntegerField(null=True)

    class Meta:
        ordering = ["game", "position"]
        indexes = [
            models.Index(fields=["player", "scored", "finished"], name="seat_results_by_time"),
            models.Index(fields=["player", "scored", "final_total"], name="seat_results_by_total"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.game}"


# Every family's boxes: a key names the same box in every family that has it.
BOX_CHOICES = list(
    {box.key: box.label for family in families.FAMILIES.values() for box in family.boxes}.items()
)


def _most_points_in_a_box() -> int:
    """The most any box of any family holds, with every house switch on."""
    every: list[Any] = list(families.FAMILIES.values())  # each family's boxes are its own type
    return max(
        max(family.achievable_points(box, frozenset(family.switches)))
        for family in every
        for box in family.boxes
    )


MOST_POINTS_IN_A_BOX = _most_points_in_a_box()


# What a filled box says, stored alike by `Entry` and `UndoneEntry`, read into a game's
# state (`progress.EntryRow`), copied by an undo and written to an export: listed once, here.
ENTRY_FIELDS = ("turn", "card", "box", "points", "dice", "yahtzee_bonus", "rolls_used")


class Entry(models.Model):
    """One filled box: who, on which card, which box, the points, and the dice when known."""

    # No index of their own: each leads a unique constraint's index below, which serves
    # every lookup by either (two indexes fewer to write on every record).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="entries", db_index=False)
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="entries", db_index=False)
    card = models.PositiveSmallIntegerField(default=1)
    box = models.CharField(max_length=20, choices=BOX_CHOICES)
    points = models.PositiveSmallIntegerField()
    dice = models.CharField(max_length=6, blank=True)
    yahtzee_bonus = models.BooleanField(default=False)
    # How many rolls the turn used: Maxi Yatzy's saved rolls are counted from it. An entry
    # from before it was kept used the whole turn, which saves nothing.
    rolls_used = models.PositiveSmallIntegerField(
        default=rules.ROLLS_PER_TURN, db_default=rules.ROLLS_PER_TURN
    )
    turn = models.PositiveIntegerField()
    created = models.DateTimeField(default=timezone.now, editable=False)
    corrected = models.DateTimeField(null=True, blank=True)
    # The box before its latest correction (services.before_correction: its place, bonus
    # and rolls, and the later bonuses it gave or took, "1:sixes:1:3|9=0"): every phone is
    # told what the correction did, not only the phone that made it (a tester). Blank for a
    # box never corrected since it is kept.
    corrected_from = models.CharField(max_length=200, blank=True, default="", db_default="")

    class Meta:
        ordering = ["game", "turn"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["seat", "card", "box"], name="entry_box_once_per_card"),
            models.UniqueConstraint(fields=["game", "turn"], name="entry_turn_unique"),
            models.CheckConstraint(condition=models.Q(card__gte=1, card__lte=3), name="entry_card"),
            models.CheckConstraint(condition=models.Q(turn__gte=1), name="entry_turn_positive"),
            models.CheckConstraint(
                condition=models.Q(points__lte=MOST_POINTS_IN_A_BOX), name="entry_points_range"
            ),
            models.CheckConstraint(
                condition=models.Q(box__in=[key for key, _ in BOX_CHOICES]), name="entry_box_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(dice="") | models.Q(dice__regex=r"^[1-6]{5,6}$"),
                name="entry_dice_faces",
            ),
            models.CheckConstraint(
                condition=models.Q(rolls_used__gte=1), name="entry_rolls_used_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.box} {self.points} (turn {self.turn})"

    @cached_property
    def rules_box(self) -> Any:
        """The box of the game's own family."""
        return self.game.house_rules.family.box(self.box)


class UndoneEntry(models.Model):
    """An entry that was taken back with undo, kept so a game's review can show it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="undone_entries")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="undone_entries")
    card = models.PositiveSmallIntegerField()
    box = models.CharField(max_length=20, choices=BOX_CHOICES)
    points = models.PositiveSmallIntegerField()
    dice = models.CharField(max_length=6, blank=True)
    yahtzee_bonus = models.BooleanField(default=False)
    rolls_used = models.PositiveSmallIntegerField(
        default=rules.ROLLS_PER_TURN, db_default=rules.ROLLS_PER_TURN
    )
    turn = models.PositiveIntegerField()
    recorded = models.DateTimeField()
    undone = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["game", "undone"]
        verbose_name_plural = "undone entries"

    def __str__(self) -> str:
        return f"undone {self.box} {self.points} (turn {self.turn})"

    @property
    def rules_box(self) -> Any:
        """The box of the game's own family."""
        return self.game.house_rules.family.box(self.box)


class Roll(models.Model):
    """One roll of the server's dice in a digital game, with the dice that were held."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rolls")
    turn = models.PositiveIntegerField()
    number = models.PositiveSmallIntegerField()  # past 3 only with Maxi Yatzy's saved rolls
    dice = models.CharField(max_length=6)  # faces in table order, e.g. "41536"
    held = models.CharField(max_length=6, default="00000")  # "1" where a die was kept
    created = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["game", "turn", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "turn", "number"], name="roll_once_per_number"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="roll_number_positive"),
            models.CheckConstraint(
                condition=models.Q(dice__regex=r"^[1-6]{5,6}$"), name="roll_dice_faces"
            ),
            models.CheckConstraint(
                condition=models.Q(held__regex=r"^[01]{5,6}$"), name="roll_held_dice"
            ),
        ]

    def __str__(self) -> str:
        return f"Roll {self.number} of turn {self.turn}: {self.dice}"

    @property
    def faces(self) -> list[int]:
        return [int(face) for face in self.dice]

    @property
    def held_positions(self) -> list[bool]:
        return [flag == "1" for flag in self.held]

    @property
    def faces_held(self) -> list[tuple[int, bool]]:
        return list(zip(self.faces, self.held_positions, strict=True))


class PlayerBoxTotal(models.Model):
    """The points a player has put in one box over every settled one-card game, and on
    how many cards: the average per box without reading every entry."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="box_totals")
    # A box of the same name scores differently in another family (Yatzy's Full house).
    family = models.CharField(max_length=16, choices=FAMILY_CHOICES, default=families.YAHTZEE.key)
    box = models.CharField(max_length=20, choices=BOX_CHOICES)
    points = models.PositiveBigIntegerField(default=0)
    cards = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "family", "box"], name="box_total_once_per_player_family"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.box} {self.points} on {self.cards} cards"


class PlayerFigures(models.Model):
    """Running sums over a player's settled games, so a player page reads one row however
    many games there are, one row a rule family: a Yatzy 250 is not a Yahtzee 250. Score
    figures count one-card games only (`scored`)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="figures")
    family = models.CharField(max_length=16, choices=FAMILY_CHOICES, default=families.YAHTZEE.key)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    contests = models.PositiveIntegerField(default=0)  # games with others: ones a win was open
    scored_games = models.PositiveIntegerField(default=0)
    scored_points = models.PositiveBigIntegerField(default=0)
    cards = models.PositiveIntegerField(default=0)
    bonus_cards = models.PositiveIntegerField(default=0)
    yahtzees = models.PositiveIntegerField(default=0)
    extra_yahtzees = models.PositiveIntegerField(default=0)
    bands = models.JSONField(default=dict)  # lowest score of a band: games in it

    COUNTS = ("games", "wins", "contests", "scored_games", "scored_points", "cards",
              "bonus_cards", "yahtzees", "extra_yahtzees")  # fmt: skip

    class Meta:
        verbose_name_plural = "player figures"
        constraints = [
            models.UniqueConstraint(fields=["player", "family"], name="figures_once_per_family")
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.games} games"


class CreationCount(models.Model):
    """How many games and households one client address made in one window of time.

    Kept in the database, which every worker on every machine shares: a count kept in a
    worker's memory would let each worker allow the whole limit."""

    address = models.CharField(max_length=64)
    window = models.BigIntegerField()  # the window's number: seconds since 1970 // its length
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["address", "window"], name="creation_count_once")
        ]
        indexes = [models.Index(fields=["window"], name="creation_count_window")]

    def __str__(self) -> str:
        return f"{self.address}: {self.count} in window {self.window}"


class IdempotentRequest(models.Model):
    """A write a phone sent with its own key, and what the player was told, so the same tap
    sent again (its answer was lost on the way back) is answered the same and written once.

    Kept in the database, which every worker on every machine shares, in the transaction of
    the write itself; a day later `prune_games` removes it (the game's version still stops a
    very late repeat)."""

    key = models.CharField(max_length=64, unique=True)
    # None for a tap that made no game: "Join the household" (it made `browser`).
    game = models.ForeignKey(Game, null=True, on_delete=models.CASCADE, related_name="+")
    status = models.PositiveSmallIntegerField(default=200)
    note = models.CharField(max_length=200, blank=True)
    # What the tap asked for (a digest of its fields): its key sent again with other fields
    # is refused, not answered with this tap's outcome. Blank for a tap that made something,
    # whose key is already a digest of its fields.
    asked = models.CharField(max_length=64, blank=True, db_default="")  # old workers omit it
    created = models.DateTimeField(default=timezone.now, db_index=True)
    # The browser a tap made: by joining a household, or with the first game of a browser
    # that had none. The same tap sent again before the first answer's cookie arrived is
    # that browser as well. No index: nothing looks a key up by its browser, and every tap
    # would write one.
    browser = models.ForeignKey(
        Browser, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )

    def __str__(self) -> str:  # never the key itself: a log line must not replay a tap
        return f"a tap on game {self.game_id}: {self.status}"
