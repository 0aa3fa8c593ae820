"""What the turn panel shows, built from a game's loaded state and the request's query.

The panel is the part of the game page a player looks at during a turn: whose turn it is,
the dice so far, every open box with what it is worth for them, and (with advice on) the
optimal strategy's ratings. Only what the response will show is built: the typed-dice pad
for a table game, the server's dice for a digital one, the ranking once the game is over.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, cached_property
from typing import Any, NamedTuple
from urllib.parse import urlencode

from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scorecard.access.links import GameLinks
from scorecard.engine import rules
from scorecard.game.progress import CardProgress, EntryRow, GameProgress, SeatProgress
from scorecard.game.services import UndoNeedsConfirmation, ZeroNeedsConfirmation
from scorecard.models import Entry, Game, UndoneEntry
from scorecard.presenters import advisor, house_rules
from scorecard.presenters.advice import (
    BoxAdvice,
    CoachNote,
    HoldCoachNote,
    KeepAdvice,
    PlayToWin,
    keep_and_roll,
    points_given_up,
)
from scorecard.presenters.box_names import box_name, box_on_card
from scorecard.presenters.rule_words import said
from scorecard.web.advice_setting import SETTINGS as ADVICE_SETTINGS
from scorecard.web.forms import DiceInput


class CoachChoice(NamedTuple):
    """One answer to the coach's question about a hold: a roll holding `hold` (positions),
    or a way `back` to the dice."""

    label: str
    hold: list[int] | None = None
    back: str = ""


@dataclass(frozen=True)
class BoxChoice:
    """One open box for the dice on show: its points, whether the rule allows it, why not,
    and its rating when advice is on."""

    option: rules.Option
    rating: BoxAdvice | None = None

    @property
    def box(self) -> Any:
        return self.option.box

    @property
    def is_zero(self) -> bool:
        return self.option.points == 0

    @property
    def is_best(self) -> bool:
        return bool(self.rating and self.rating.is_best)

    @property
    def spoken_name(self) -> str:
        """The box's button as a screen reader says it: its points, and its rating if any."""
        points = self.option.points
        said = {"box": box_name(self.box), "points": points}
        if not self.rating:
            return (
                ngettext("%(box)s, %(points)s point", "%(box)s, %(points)s points", points) % said
            )
        if self.rating.to_win is not None:  # the last box, played to win
            said |= {"final": self.rating.final, "chance": self.rating.to_win_shown}
            return (
                ngettext(
                    "%(box)s, %(points)s point, final total %(final)s, %(chance)s chance to "
                    "finish first",
                    "%(box)s, %(points)s points, final total %(final)s, %(chance)s chance to "
                    "finish first",
                    points,
                )
                % said
            )
        # As the rating under the box shows them (once the exact total, a tenth apart: a tester).
        said["expected"] = floatformat(self.rating.shown_expected, 1)
        said["loss"] = points_given_up(self.rating.loss)
        if self.rating.is_best:
            return (
                ngettext(
                    "%(box)s, %(points)s point, expected final %(expected)s, best",
                    "%(box)s, %(points)s points, expected final %(expected)s, best",
                    points,
                )
                % said
            )
        return (
            ngettext(
                "%(box)s, %(points)s point, expected final %(expected)s, %(loss)s less than "
                "the best",
                "%(box)s, %(points)s points, expected final %(expected)s, %(loss)s less than "
                "the best",
                points,
            )
            % said
        )


@dataclass(frozen=True)
class TableDie:
    face: int
    held: bool
    advised: bool
    number: int = 1  # its place on the table, from 1: the key that holds it

    @property
    def hold_label(self) -> str:
        said = {"number": self.number, "face": self.face}
        if self.advised:
            return _("Hold die %(number)s (%(face)s), advised") % said
        return _("Hold die %(number)s (%(face)s)") % said


@dataclass(frozen=True)
class RollsChoice:
    """A table game with saved rolls: the rolls the turn used, asked with the box (the
    app cannot see the dice cup). The player may say any count they have."""

    allowed: int
    chosen: int

    @property
    def counts(self) -> range:
        return range(1, self.allowed + 1)


@cache
def advice_url() -> str:
    """The advice switch's address, reversed once a process (as a game's addresses are)."""
    return reverse("advice")


@cache
def most_in_a_box(house: rules.HouseRules[Any]) -> int:
    """The most points any one box of a card holds, for the typed-points field."""
    return max(house.max_points(box) for box in house.boxes)


class Mode(StrEnum):
    """What the panel is doing this turn; the template draws one partial per mode."""

    GAME_OVER = "game-over"
    WATCHING = "watching"
    CONFIRM_ZERO = "confirm-zero"
    CONFIRM_UNDO = "confirm-undo"  # the next player's rolls would go with the undo
    COACH = "coach"
    HOLD_COACH = "hold-coach"
    ROLLING = "rolling"
    DIGITAL_DICE = "digital-dice"  # the turn's last roll (or the round's) on show: score it
    SHARED_ROLL = "shared-roll"  # Challenge Yahtzee at a table: the round's roll is typed once
    DICE_PAD = "dice-pad"


@dataclass
class TurnPanel:
    progress: GameProgress
    links: GameLinks
    wants_advice: bool
    mode: Mode = Mode.GAME_OVER
    error: str = ""
    notice: str = ""
    confirm: ZeroNeedsConfirmation | None = None
    undo_question: UndoNeedsConfirmation | None = None
    focus_notice: bool = False  # the notice says what a plain (scriptless) post did
    undo_kept: bool = False  # "No, go back" to the undo question: back to Undo, not the top
    pad_cut_short: bool = False  # the pad's dice cut short by ⌫ or Clear, its boxes gone
    coach: CoachNote | None = None
    hold_coach: HoldCoachNote | None = None
    advice_setting: str = "off"
    card: CardProgress | None = None
    open_cards: list[CardProgress] = field(default_factory=list)
    dice: rules.Dice | None = None
    dice_entry: DiceInput | None = None
    choices: list[BoxChoice] = field(default_factory=list)
    keeps: list[KeepAdvice] = field(default_factory=list)
    # The game's last turn against finished rivals: advice plays to win while it matters.
    last_turn_note: str = ""
    plays_to_win: bool = False  # the last turn's advice is for finishing first, not for points
    # An extra Yahtzee's bonus for the dice on show, announced before the box is tapped.
    extra_yahtzee_bonus: int = 0
    play_to_win: PlayToWin | None = None
    table: list[TableDie] = field(default_factory=list)
    hold_advice: bool = False
    hold_expected: float | None = None  # the expected final total of the ★ dice kept
    reroll_all: bool = False  # the advice keeps no die: no ★ to point at
    keep_all: bool = False  # the advice keeps every die: no roll to make, the box to choose
    # The typed-points form is left out until its box is opened (fetched then, or with
    # scripts off, a link to the page with the form): few turns need it, every first load
    # would pay for it.
    typed_on_demand: bool = False
    typed_open: bool = False
    typed: TypedPoints | None = None  # what was typed, when the card refused it
    # The advice switch's form likewise: closed, the switch says the choice made.
    advice_open: bool = False
    rolls_choice: RollsChoice | None = None
    # This phone's own tap, answered in place (htmx): "dice" (the pad's dice shown), "roll"
    # (digital dice rolled) or "entry" (a box recorded or undone); "pad" for a pad's key
    # answered with a whole page (no scripts). Empty for any other page and another phone's
    # poll.
    after_tap: str = ""
    # The pad's key that page was asked for: a face ("4"), "back" or "clear".
    pad_key: str = ""
    # Another roll chosen for the dice on show (an htmx ask): the focus stays on it, given
    # back by htmx by its id.
    roll_chosen: bool = False

    @property
    def focus(self) -> str:
        """Where the keyboard's focus goes when this panel replaces the one tapped (htmx
        focuses the element marked `autofocus`): the boxes' hint once the dice are in, one Tab
        before the first box they may fill, after a roll the roll's count, one Tab before the
        dice to hold (or the boxes, after the last), else after an entry the next turn's
        heading. An undo of a digital turn brings its roll back, so the focus goes where that
        roll left it. A keyboard or a screen reader would otherwise be left at the top of the
        page, the control it pressed gone. Never a box itself: one more Enter would record it."""
        if self.focus_notice:  # a plain post's answer: what it did, said first
            return "notice"
        if self.roll_chosen and not self.error:
            return ""
        if self.undo_kept and self.offers_undo:
            return "undo"
        if self.typed_open and self.error:
            return "typed-points"  # its points refused (found by a user)
        if self.typed_open and (self.after_tap == "dice" or self.typed is not None):
            # Opened by a key, or brought back to choose another box: the box first (the
            # points skipped it).
            return "typed-box"
        entered = self.after_tap in ("dice", "pad")
        if entered and self.dice_entry is not None and self.dice_entry.error:
            return "dice-typed"  # its dice refused: Show swapped out, the focus fell to the page
        if not self.after_tap:
            # A refusal's reason, which replaced what was tapped (a race lost to another
            # phone left the focus at the top of a page without scripts; a helper).
            return "error" if self.error else ""
        if self.after_tap == "roll" or (self.game.digital and self.dice):
            return "roll-counter"
        if any(c.option.allowed for c in self.choices):
            return "boxes"
        if entered and self.pad_key:
            return "pad"  # the key pressed, as a script leaves it (the page's top was 13 Tabs away)
        return "heading" if self.after_tap == "entry" else ""

    @property
    def pad_focus(self) -> str:
        """The pad's key that has the focus on a page without scripts: "" on any other."""
        return self.pad_key if self.focus == "pad" else ""

    @property
    def focus_description(self) -> str:
        """The ids of what describes the element focused after a tap: the tap's notice
        (drawn with the new turn, a status may go unsaid: an undo's "Undone: …" was never
        heard, a tester with a screen reader) and after a roll the dice rolled (only the
        dice to hold said them, a Tab further)."""
        ids = ["turn-notice"] if self.notice and self.focus != "notice" else []
        rolled = self.table if self.mode == Mode.ROLLING else self.mode == Mode.DIGITAL_DICE
        if self.focus == "roll-counter" and rolled:
            ids.append("rolled-dice")
        return " ".join(ids)

    @property
    def stars_mean_stopping(self) -> bool:
        """Whether the boxes' ★ must say it is the best box to stop on: advice to roll again
        is on show beside them, and its "best" may promise more (found by a new user, who
        read the box's ★ as "score now")."""
        return bool(self.keeps) or (self.hold_advice and any(c.rating for c in self.choices))

    @property
    def error_under_typed(self) -> bool:
        """Whether the refusal is said under the typed points' field, where they are drawn
        (at the top of the turn it was above a phone's screen scrolled down to Record)."""
        return bool(self.error) and self.typed_open and self.scoring and not self.game.digital

    @property
    def scoring(self) -> bool:
        """Whether the turn's dice, advice and boxes show (not a watcher, a question or the end)."""
        return self.mode not in _NOT_SCORING

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names in seating order: the regions kept per version are drawn anew
        for them, so a player renamed (or merged) shows under the new name at once."""
        return tuple(seat.player.name for seat in self.progress.seats)

    @property
    def game(self) -> Game:
        return self.progress.game

    @property
    def current(self) -> SeatProgress | None:
        return self.progress.current

    advice_settings = ADVICE_SETTINGS.items()

    @property
    def advice_url(self) -> str:
        return advice_url()

    @property
    def advice_choice(self) -> str:
        """What the advice switch says while closed: the choice this browser made."""
        return str(ADVICE_SETTINGS[self.advice_setting])

    @cached_property
    def advice_page(self) -> str:
        """The page with the advice switch's form open (fetched when the switch is opened),
        with the dice on show, so that setting the advice comes back to them."""
        return f"{self.links.page}?{urlencode({'advice': 1, **self._dice_shown()})}"

    @property
    def page_with_dice(self) -> str:
        """This page with the pad's dice on show, written over the address bar as the pad's
        answer comes (htmx's HX-Replace-Url): a reload (a phone drops a page left in the
        background) or Back from another page shows the same dice and boxes again."""
        shown = self._dice_shown()
        return f"{self.links.page}?{urlencode(shown)}" if shown else self.links.page

    def _dice_shown(self) -> dict[str, object]:
        """The pad's dice, which roll they are and on which card, for this turn:
        `dice_for_turn` drops them from an address of another."""
        entry = self.dice_entry
        if entry is None or not entry.text:
            return {}
        shown: dict[str, object] = {"dice": entry.text}
        if entry.roll != "1":
            shown["roll"] = entry.roll
        if self.card is not None and self.card.number != 1:
            shown["card"] = self.card.number
        return shown | {"turn": self.progress.next_turn}

    @property
    def house(self) -> rules.HouseRules[Any]:
        return self.game.house_rules

    @property
    def typed_page(self) -> str:
        """The page with the typed-points form open, for this card (named when it is not
        the first open card, which the page takes unless told: 22 bytes of a first load)."""
        chosen = self.card and self.open_cards and self.card is not self.open_cards[0]
        card = f"card={self.card.number}&" if chosen and self.card else ""
        return f"{self.links.page}?{card}typed=1"

    @property
    def dice_count(self) -> int:
        return self.house.family.dice_count

    @property
    def rolls_allowed(self) -> int:
        """The rolls this turn may use: three, or more with saved rolls."""
        return self.progress.rolls_allowed

    @property
    def saved_rolls(self) -> int | None:
        """The rolls the player whose turn it is has saved; None without the house rule."""
        current = self.current
        if current is None or not self.house.saves_rolls:
            return None
        return self.progress.saved_rolls_now(current)

    # The page says these twice (its title and its heading): worked out once.
    @cached_property
    def title(self) -> str:
        return house_rules.game_title(self.game)

    @cached_property
    def house_notes(self) -> list[str]:
        return house_rules.house_notes(self.game)

    @property
    def most_in_a_box(self) -> int:
        return most_in_a_box(self.house)

    @property
    def asks_extra_yahtzee(self) -> bool:
        """Whether the typed points may claim an extra Yahtzee's bonus: only while one of the
        player's open cards would earn it (50 in its Yahtzee box, a rule that pays it)."""
        current, joker = self.current, self.game.joker_rule
        return current is not None and any(
            self.house.extra_yahtzee_earns_bonus(card.filled, joker)
            for card in current.open_cards()
        )

    @property
    def says_how_to_correct(self) -> bool:
        """Whether the grid says its filled boxes open their correction: on a card that
        records at the table, once a box is filled (on an empty card it says nothing)."""
        return self.links.role.may_score and not self.game.digital and bool(self.progress.entries)

    @property
    def standings_columns_change(self) -> bool:
        """The game is at its last entry or two from it: an entry's answer (the last, or its
        undo) brings the whole standings, their Pace column gone (or back), and so does the
        one that begins the last turn (or its undo), the Win column's note said anew."""
        return self.progress.total_turns - len(self.progress.entries) <= 2

    @property
    def keeps_screen_on(self) -> bool:
        """Whether the page offers to keep the screen on: while the game goes on."""
        return not self.progress.is_finished

    @property
    def grid_hint_changes(self) -> bool:
        """The game's first box was just filled (or its only entry undone): an entry's answer
        brings the whole grid, with the hint now said (or gone)."""
        scoring_table = self.links.role.may_score and not self.game.digital
        return scoring_table and len(self.progress.entries) <= 1

    @property
    def watchers_told(self) -> str:
        """What a watcher's live region (#watch-told) says of this version: the notice of
        another phone's change, or that the table started a new game (which came said only
        by the panel, whose status may go unsaid)."""
        if self.notice:
            return str(self.notice)
        if self.links.rematch_page:
            return _("The table has started a new game with the same players.")
        return ""

    @property
    def offers_undo(self) -> bool:
        """An entry to take back, and no question asked about the next one."""
        may_score = self.links.role.may_score
        asking = self.confirm or self.coach or self.undo_question
        if self.progress.is_finished and self.links.rematch_page:
            return False  # the game stays as the table finished it (`undo_last_entry`)
        return bool(self.progress.entries) and not asking and may_score

    @property
    def offers_advice_switch(self) -> bool:
        return self._choosing_advice and self.family_has_advice

    @property
    def says_no_advice(self) -> bool:
        """A family without an exact strategy: said where the advice switch would be."""
        return self._choosing_advice and not self.family_has_advice

    @property
    def _choosing_advice(self) -> bool:
        return self.current is not None and self.links.role.may_score

    @property
    def family_has_advice(self) -> bool:
        """False where no exact strategy exists (Maxi Yatzy): the page says so instead of
        offering the advice choice."""
        return self.house.family.has_advice

    @property
    def dice_text(self) -> str:
        return "".join(map(str, self.dice or ()))

    def box_of(self, entry: EntryRow) -> str:
        """An entry's box by name, and with Triple Yahtzee's cards its card."""
        times = rules.card_multiplier(entry.card) if self.game.cards_per_player > 1 else None
        return box_on_card(entry.rules_box, times)

    def dice_said(self, faces: Iterable[int | str]) -> str:
        """The dice as a screen reader says them, in the order shown: "Dice 5 5 5 3 5" (as
        "Dice 35555" it read a number, and sorted, not the dice on the screen)."""
        return _("Dice %(dice)s") % {"dice": " ".join(map(str, faces))}

    @property
    def dice_as_they_lie(self) -> list[int] | str:
        """The dice a question is asked about, as the page shows them: a digital game's in
        table order (the coach's box question showed them sorted, a tester), else as typed."""
        return (self.game.digital and self.progress.table_dice) or self.dice_text

    @property
    def table_faces(self) -> list[int]:
        return [die.face for die in self.table]

    @property
    def advice_available(self) -> bool:
        return advisor.advice_available(self.progress)

    @property
    def no_advice_because(self) -> str:
        return advisor.unavailable_because(self.progress)

    @property
    def rolls_made(self) -> int:
        return len(self.progress.rolls)

    @property
    def reason(self) -> str:
        """Why the boxes the rule forbids are forbidden, said once for all of them."""
        reasons = {choice.option.reason for choice in self.choices if not choice.option.allowed}
        return " ".join(said(reason) for reason in sorted(reasons))

    @property
    def hold_coach_choices(self) -> list[CoachChoice]:
        """The coach's answers: a roll holding the best dice, or the player's own, or
        neither, back to the dice as the player held them, to hold others (a helper found no
        way back, then the dice let go). Keeping every die is back to the dice, to score."""
        note = self.hold_coach
        assert note is not None, "shown only with a hold coach note"
        mine = CoachChoice(_("Roll as I chose"), note.chosen_hold)
        if len(note.best) == self.dice_count:
            return [CoachChoice(_("Score these dice instead"), back=self.links.page), mine]
        if note.best:
            best = CoachChoice(keep_and_roll(note.best), note.best_hold)
        else:
            best = CoachChoice(_("Reroll every die instead"), [])
        held = [("held_at", self.game.version), *(("hold", place) for place in note.chosen_hold)]
        back = f"{self.links.page}?{urlencode(held)}"
        return [best, mine, CoachChoice(_("No, go back"), back=back)]

    @cached_property
    def typed_boxes(self) -> list[tuple[str, str]]:
        """The boxes a number may be typed into, for a table game without dice to hand: each
        as its option says it (key, name)."""
        open_boxes = self.card.open_boxes() if self.card else []
        boxes = open_boxes[:1] if self.house.forced else open_boxes  # forced: the next one
        return [(box.key, box_name(box)) for box in boxes]


_NOT_SCORING = {Mode.GAME_OVER, Mode.WATCHING, Mode.CONFIRM_ZERO, Mode.CONFIRM_UNDO, Mode.COACH}


class TypedPoints(NamedTuple):
    """Points typed into a box, as they were sent."""

    box: str
    points: str
    extra_yahtzee: bool


# Said where dice entered for a turn the card has moved past are dropped: a phone without
# scripts tapped on, and Bob's dice became Ann's when another phone recorded Bob (a tester).
DICE_OF_A_CHANGED_CARD = gettext_lazy(
    "The card changed since these dice were entered (another phone?), so they were cleared: "
    "nothing was recorded with them."
)


# What a page's address or its pad says of the dice being entered (the rest, such as the
# advice switch or the card chosen, holds whatever the turn). `version`: addresses written
# before the turn was.
DICE_FIELDS = {"dice", "add", "back", "clear", "show", "roll", "turn", "version"}
PAD_KEYS = ("add", "back", "clear")  # the pad's keys a page without scripts is asked for


# Said where those dice were for a turn now on the card: whichever phone recorded it (this
# one's page brought back by Back, without scripts, was told "another phone?", a tester).
DICE_OF_A_RECORDED_TURN = gettext_lazy(
    "That turn is on the card already (%(name)s: %(box)s %(points)s), so the dice entered "
    "for it were cleared: nothing more was recorded."
)


def dice_for_turn(query, progress: GameProgress) -> tuple[Any, str]:
    """The page's query, without the dice of an address or a pad written for another turn
    (`TurnPanel.page_with_dice`, the pad's own field): the card has moved past the turn they
    were entered for, by an entry or an undo (a correction leaves them: a whole card redrawn
    by another phone's correction had cleared them). With it, what to say when dice went:
    the entry of their turn, where it is on the card."""
    turn = str(progress.next_turn)
    if query.get("turn", turn) == turn:
        return query, ""
    kept = {name: value for name, value in query.items() if name not in DICE_FIELDS}
    if "dice" not in query and "add" not in query:
        return kept, ""
    recorded = entry_of_turn(progress, query.get("turn"))
    if recorded is None:  # undone since, or an address of no turn of this game
        return kept, str(DICE_OF_A_CHANGED_CARD)
    return kept, DICE_OF_A_RECORDED_TURN % entry_words(recorded, progress.game)


def entry_of_turn(progress: GameProgress, turn: str | None) -> EntryRow | None:
    """The entry on the card for a turn, as an address or a form names it."""
    return next((entry for entry in progress.entries if str(entry.turn) == turn), None)


def entry_words(entry: EntryRow | Entry | UndoneEntry, game: Game) -> dict[str, object]:
    """What a note says of an entry: whose, which box, its points; with three cards a
    player, which card it went on (the box alone left a player who chose card ×3 wondering
    where their 24 went)."""
    assert entry.seat is not None, "a game's state seats every entry it holds"
    multiplier = rules.card_multiplier(entry.card) if game.cards_per_player > 1 else 0
    return {
        "name": entry.seat.player.name,
        "box": box_name(entry.rules_box),
        "points": entry.points,
        "multiplier": multiplier,
        "bonus": rules.EXTRA_YAHTZEE_BONUS,
    }


def build_turn_panel(
    progress: GameProgress,
    query,
    *,
    links: GameLinks | None = None,
    advice_setting: str = "off",
    **shown,
) -> TurnPanel:
    """The panel for the player whose turn it is, as this browser sees it: `query` holds the
    dice being entered, the chosen card and whether the typed-points box is open;
    `advice_setting` is this browser's choice of advice; `shown` is an error, a notice, a
    zero to confirm or a coach's note."""
    links = links or GameLinks(progress.game.public_id)
    if not links.role.may_score:
        query = {}  # a watcher sees whose turn it is, not a dice pad
    wants_advice = advice_setting == "on" and links.role.may_score
    panel = TurnPanel(progress, links, wants_advice, advice_setting=advice_setting, **shown)
    panel.typed_open = "typed" in query
    panel.typed_on_demand = not panel.typed_open
    panel.pad_key = next((key for key in PAD_KEYS if key in query), "")
    if panel.pad_key == "add":
        panel.pad_key = str(query.get("add", ""))[:1]
    elif panel.pad_cut_short:  # the focus goes back to the key that cut them
        panel.pad_key = "back" if query.get("dice") else "clear"
    panel.advice_open = "advice" in query
    panel.undo_kept = query.get("undo") == "kept"
    if "points" in query:  # typed points the card refused: shown again to be put right
        extra = "extra_yahtzee" in query
        panel.typed = TypedPoints(query.get("box", ""), query.get("points", ""), extra)
    panel.mode = _mode(panel)
    current = progress.current
    if current is None:
        return panel
    panel.open_cards = current.open_cards()
    wanted = query.get("card", "")
    panel.card = next((c for c in panel.open_cards if str(c.number) == wanted), None)
    panel.card = panel.card or panel.open_cards[0]
    game = progress.game
    if game.digital:
        panel.dice = progress.turn_dice
    elif progress.round_dice:
        panel.dice = progress.round_dice
    else:
        panel.dice_entry = DiceInput(query, game.house_rules.family)
        panel.dice = panel.dice_entry.dice
    if game.house_rules.saves_rolls and not game.digital:
        panel.rolls_choice = _rolls_choice(progress.rolls_allowed, query.get("rolls", ""))
    advising = wants_advice and panel.advice_available
    rivals = advisor.rivals_on_last_turn(progress) if advising else None
    if rivals:
        name = current.player.name
        panel.last_turn_note, open_result = advisor.last_turn(name, panel.card, game, rivals)
        panel.plays_to_win = open_result
        rivals = rivals if open_result else None
    if panel.dice:
        _add_choices(panel, advising, rivals)
        if game.house_rules.family.has_jokers:
            panel.extra_yahtzee_bonus = rules.yahtzee_bonus(
                panel.card.filled, panel.dice, game.joker_rule
            )
        entry = panel.dice_entry
        if advising and entry and entry.rolls_left:
            rolls_left = entry.rolls_left
            panel.keeps = advisor.rate_keeps(panel.card, panel.dice, rolls_left, game)
            if rivals:
                dice = panel.dice
                panel.play_to_win = advisor.play_to_win(panel.card, dice, rolls_left, game, rivals)
    if game.digital:
        _add_table(panel, advising, rivals, _held_in(query, game.version))
    return panel


_PLACES = {"0", "1", "2", "3", "4", "5"}  # where a die lies on the table, six in Maxi Yatzy


def _held_in(query, version: int) -> set[int] | None:
    """The dice the page held when it asked for itself again (the advice switch's way back,
    dice-game.js): positions counted from 0, kept only for the version they were held at.
    None: the dice as they were held for the last roll."""
    if query.get("held_at") != str(version) or not hasattr(query, "getlist"):
        return None
    return {int(place) for place in query.getlist("hold") if place in _PLACES}


def coach_on_box(progress: GameProgress, fields: dict, threshold: float) -> CoachNote | None:
    """The coach's word on the box about to be filled with `fields` (an entry's fields), when
    it gives up at least `threshold` points (on the game's last turn, `threshold` percentage
    points of the chance to win); anything the service would refuse is left for it to
    refuse."""
    current = progress.current
    if current is None or not advisor.advice_available(progress):
        return None
    if (fields["version"], fields["turn"]) != (progress.game.version, progress.next_turn):
        return None
    card = next((card for card in current.open_cards() if card.number == fields["card"]), None)
    dice = fields["dice"] or progress.turn_dice or progress.round_dice
    if card is None or dice is None:
        return None
    if progress.may_roll and progress.table_dice:  # rolling again may be the better choice
        table, left, game = progress.table_dice, progress.rolls_left, progress.game
        if rivals := advisor.rivals_on_last_turn(progress):  # the game's last turn: to win
            box = fields["box"]
            return advisor.coach_objection_to_win(
                card, table, box, left, game, rivals, threshold / 100
            )
        return advisor.coach_objection(card, table, fields["box"], game, threshold, left)
    return advisor.coach_objection(card, dice, fields["box"], progress.game, threshold)


def coach_on_hold(
    progress: GameProgress, sent: tuple[int, int], hold: list[int], threshold: float
) -> HoldCoachNote | None:
    """The coach's word on the dice at `hold` about to be kept for the next roll (`sent` is
    the version and turn the player saw), when they give up at least `threshold` points, or
    on the game's last turn `threshold` percentage points of the chance to win; anything the
    service would refuse is left for it to refuse."""
    table = progress.table_dice
    if sent != (progress.game.version, progress.next_turn) or not (progress.may_roll and table):
        return None
    if not advisor.advice_available(progress) or not all(0 <= p < len(table) for p in hold):
        return None
    if len(set(hold)) == len(table):  # every die held: a roll the service refuses
        return None
    assert progress.current is not None, "may_roll: someone's turn"
    card = progress.current.open_cards()[0]
    left, game, held = progress.rolls_left, progress.game, sorted(set(hold))
    if rivals := advisor.rivals_on_last_turn(progress):  # the game's last turn: to win
        return advisor.coach_hold_objection_to_win(
            card, table, held, left, game, rivals, threshold / 100
        )
    return advisor.coach_hold_objection(card, table, held, left, game, threshold)


def _mode(panel: TurnPanel) -> Mode:
    progress = panel.progress
    if panel.undo_question:  # a finished game's last box too (a helper's Undo did nothing)
        return Mode.CONFIRM_UNDO
    if progress.current is None:
        return Mode.GAME_OVER
    if not panel.links.role.may_score:
        return Mode.WATCHING
    if panel.confirm:
        return Mode.CONFIRM_ZERO
    if panel.coach:
        return Mode.COACH
    if progress.game.digital:
        if panel.hold_coach:
            return Mode.HOLD_COACH
        return Mode.ROLLING if progress.may_roll else Mode.DIGITAL_DICE
    return Mode.SHARED_ROLL if progress.round_dice else Mode.DICE_PAD


def _rolls_choice(allowed: int, said: str) -> RollsChoice:
    """The rolls choice, with what the player said checked (a confirmation or the coach
    sends it back); anything else starts at the whole turn."""
    whole_turn = rules.ROLLS_PER_TURN
    chosen = int(said) if said.isdecimal() and said.isascii() and len(said) <= 3 else whole_turn
    return RollsChoice(allowed, chosen if 1 <= chosen <= allowed else whole_turn)


def _add_choices(panel: TurnPanel, advising: bool, rivals: list[int] | None) -> None:
    joker = panel.game.joker_rule
    assert panel.card is not None and panel.dice is not None, "choices are for dice on a card"
    rated = advisor.rate_boxes(panel.card, panel.dice, panel.game, rivals) if advising else {}
    options = panel.house.card_options(panel.card.filled, panel.dice, joker)
    panel.choices = [BoxChoice(option, rated.get(option.box)) for option in options]


def _add_table(
    panel: TurnPanel, advising: bool, rivals: list[int] | None, holding: set[int] | None
) -> None:
    progress = panel.progress
    advised = [False] * panel.dice_count
    if advising and progress.may_roll and progress.table_dice:
        assert panel.card is not None, "a roll is made on someone's card"
        game, dice, left = panel.game, progress.table_dice, progress.rolls_left
        if rivals:
            panel.play_to_win = advisor.play_to_win(panel.card, dice, left, game, rivals)
            keep = panel.play_to_win.to_win[0]
        else:  # the ★ dice's expected total said beside them, as each box's is
            keep, panel.hold_expected = advisor.ranked_keeps(panel.card, dice, left, game)[0]
        advised = advisor.best_hold(panel.card, dice, left, game, keep)
        panel.hold_advice, panel.reroll_all = True, not keep
        panel.keep_all = len(keep) == len(dice)
    panel.table = [
        TableDie(face, held if holding is None else number - 1 in holding, tip, number)
        for number, ((face, held), tip) in enumerate(zip(progress.table, advised, strict=False), 1)
    ]
