"""Parsing what a person typed or tapped; the rules themselves stay in `rules`."""

from typing import Any

from django import forms
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from scorecard.engine import families, rules
from scorecard.game.services import (
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    HouseSettings,
    Refusal,
    by_the_rules,
    clean_names,
    names_at_fault,
)
from scorecard.models import Game
from scorecard.presenters.box_names import FAMILY_NAMES
from scorecard.presenters.rule_names import SWITCH_LABELS, joker_label, joker_summary
from scorecard.presenters.rule_words import said


def _joker_choice(rule: rules.JokerRule) -> str:
    said = {"rule": joker_label(rule), "summary": joker_summary(rule)}
    if rule is rules.JokerRule.HASBRO:
        return _("%(rule)s (the standard rule): %(summary)s") % said
    return _("%(rule)s: %(summary)s") % said


# Said in the language of the request that draws the form, not the one that imported this.
JOKER_CHOICES = [(rule.key, lazy(_joker_choice, str)(rule)) for rule in rules.JokerRule]
FAMILY_CHOICES = [(key, FAMILY_NAMES[key]) for key in families.FAMILIES]
MAXI_BONUS = families.MAXI.upper_bonus


class NewGameForm(forms.Form):
    """Up to eight name fields in seating order, the game (family) with its house rules,
    the joker rule and the mode (both Yahtzee's own), and the dice."""

    family = forms.ChoiceField(
        label=pgettext_lazy("new game", "Game"),
        choices=FAMILY_CHOICES,
        initial=families.YAHTZEE.key,
        required=False,  # an older form, or a script's post, means Yahtzee
        widget=forms.RadioSelect,
    )
    five_alike_full_house = forms.BooleanField(
        label=SWITCH_LABELS[families.Switch.FIVE_ALIKE_FULL_HOUSE.key], required=False
    )
    four_alike_two_pairs = forms.BooleanField(
        label=SWITCH_LABELS[families.Switch.FOUR_ALIKE_TWO_PAIRS.key], required=False
    )
    bonus_threshold = forms.IntegerField(
        label=gettext_lazy("Upper boxes needed for the bonus"),
        min_value=1,
        max_value=200,
        initial=MAXI_BONUS.threshold,
        required=False,
    )
    bonus_points = forms.IntegerField(
        label=gettext_lazy("Bonus points"),
        min_value=0,
        max_value=500,
        initial=MAXI_BONUS.points,
        required=False,
    )
    saved_rolls = forms.BooleanField(
        label=SWITCH_LABELS[families.Switch.SAVED_ROLLS.key], required=False
    )
    forced = forms.BooleanField(label=gettext_lazy("Fill the boxes in order"), required=False)
    joker = forms.ChoiceField(
        label=gettext_lazy("Extra-Yahtzee rule"),
        choices=JOKER_CHOICES,
        initial=rules.JokerRule.HASBRO.key,
        widget=forms.RadioSelect,
    )
    mode = forms.ChoiceField(
        label=gettext_lazy("Kind of Yahtzee game"),
        choices=Game.Mode.choices,
        initial=Game.Mode.STANDARD,
        widget=forms.RadioSelect,
    )
    dice = forms.ChoiceField(
        label=gettext_lazy("Dice"),
        choices=[
            ("table", gettext_lazy("Real dice at the table: enter each roll")),
            ("digital", gettext_lazy("Roll here")),
        ],
        initial="table",
        required=False,
        widget=forms.RadioSelect,
    )
    random_start = forms.BooleanField(
        label=gettext_lazy("Pick a random starting player"), required=False
    )

    def __init__(self, *args, moved_up: int = 0, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A player just moved up (by the Move-up button of seat `moved_up`) keeps the focus at
        # their new seat: on its Move-up button, so the next press moves them on and a phone
        # opens no keyboard; at the top, which has no such button, on their name.
        self.moved_to = moved_up - 1 if 2 <= moved_up <= MAX_PLAYERS else 0
        too_long = _("A name has at most %(most)s characters.") % {"most": MAX_NAME_LENGTH}
        for seat in range(1, MAX_PLAYERS + 1):
            player = _("Player %(seat)s") % {"seat": seat}
            self.fields[f"name_{seat}"] = forms.CharField(
                label=player,
                required=False,
                max_length=MAX_NAME_LENGTH,
                error_messages={"max_length": too_long},
                widget=forms.TextInput(
                    attrs={
                        "list": "known-names",
                        "autocomplete": "off",
                        "placeholder": player,
                    }
                ),
            )
            # Not stopped at the limit as it is typed or pasted: a longer name was cut to 40
            # without a word ("Hohenzollern-"), where the message now says so beside it.
            del self.fields[f"name_{seat}"].widget.attrs["maxlength"]
        if self.moved_to == 1:
            self.fields["name_1"].widget.attrs["autofocus"] = True

    def focus_first_fault(self) -> None:
        """The focus on the first field refused, else on the first name (no name at all): a
        keyboard or a screen reader was left at the top of the page, the fault to be found."""
        faulty = next((name for name in self.fields if name in self.errors), "name_1")
        self.fields[faulty].widget.attrs["autofocus"] = True

    def name_fields(self):
        return [self[f"name_{seat}"] for seat in range(1, MAX_PLAYERS + 1)]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        fields = [f"name_{seat}" for seat in range(1, MAX_PLAYERS + 1)]
        if any(self.has_error(field) for field in fields):
            # A name refused on its own (too long) is not missing: its message says enough.
            return data
        names = [data[field] for field in fields]
        try:
            data["names"] = clean_names(names)
        except Refusal as refusal:
            # Said beside the names it is about (an invisible character, a name twice), else
            # (no name at all) beside the first, marked and focused where the typing starts.
            named = names_at_fault(names)
            for field, name in zip(fields, names, strict=True):
                if name and name in named:
                    self.add_error(field, str(refusal))
            if not named:
                self.add_error("name_1", str(refusal))
        self._check_house_bonus()
        return data

    def _check_house_bonus(self) -> None:
        """The table's own bonus as the engine allows it: a new user's Maxi Yatzy at 200
        started, its bonus blank "while it may still come" to the end."""
        if any(self.has_error(name) for name in ("family", "bonus_threshold", "bonus_points")):
            return
        try:
            self.house_settings().house_rules().check_house_bonus()
        except rules.RuleViolation as violation:
            self.add_error("bonus_threshold", said(violation))

    def clean_joker(self) -> rules.JokerRule:
        try:
            return rules.JokerRule.from_key(self.cleaned_data["joker"])
        except rules.RuleViolation as violation:
            raise forms.ValidationError(str(violation)) from None

    def house_settings(self) -> HouseSettings:
        """The family and the house rules of it that were chosen; the others' are ignored
        (a page without scripts shows every family's choices at once)."""
        data = self.cleaned_data
        family = families.family_named(data.get("family") or families.YAHTZEE.key)
        # Each switch's field is named by its key.
        switches = frozenset(switch for switch in family.switches if data.get(switch.key))
        bonus = None
        if family is families.MAXI:
            threshold, points = data.get("bonus_threshold"), data.get("bonus_points")
            chosen = families.UpperBonus(
                MAXI_BONUS.threshold if threshold is None else threshold,
                MAXI_BONUS.points if points is None else points,
            )
            bonus = None if chosen == MAXI_BONUS else chosen
        return HouseSettings(family.key, switches, bonus, bool(data.get("forced")))

    def game_arguments(self) -> dict:
        data = self.cleaned_data
        keys = ("names", "joker", "mode", "random_start")
        return {key: data[key] for key in keys} | {
            "digital": data["dice"] == "digital",
            "house": self.house_settings(),
        }


def swap_seats(query, seat: int):
    """The form data with player `seat` moved one place up (a tap on its up arrow)."""
    data = query.copy()
    if 2 <= seat <= MAX_PLAYERS:
        above, here = f"name_{seat - 1}", f"name_{seat}"
        data[above], data[here] = query.get(here, ""), query.get(above, "")
    return data


DIGITS_LABELS = {5: gettext_lazy("Dice, five digits"), 6: gettext_lazy("Dice, six digits")}
# Said when a face is tapped with every die in already: the tap adds nothing, and says why.
PAD_FULL = {
    5: gettext_lazy("The five dice are in: ⌫ removes the last one, Clear removes them all."),
    6: gettext_lazy("The six dice are in: ⌫ removes the last one, Clear removes them all."),
}


class DiceInput:
    """The dice being entered on the turn panel: typed digits plus taps on the face pad."""

    FINAL_ROLL = "3"  # the dice a box is scored from: no keep advice for them
    ROLLS = (
        ("1", gettext_lazy("1st roll")),
        ("2", gettext_lazy("2nd roll")),
        (FINAL_ROLL, gettext_lazy("Final roll")),
    )

    def __init__(self, query, family: families.Family[Any] = families.YAHTZEE) -> None:
        self.family = family
        count = self.count = family.dice_count
        self.text = "".join(query.get("dice", "").split())[:12]
        self.error = self.note = ""
        # Which roll of the turn these dice are: keep advice after the 1st and 2nd. A turn
        # starts at the 1st; the choice lives in the query, so it never passes to the next.
        self.roll = query.get("roll") if query.get("roll") in {"2", self.FINAL_ROLL} else "1"
        self.dice: rules.Dice | None = None
        tapped = query.get("add", "")
        if query.get("clear"):
            self.text = ""
        if query.get("back") and self.text:
            self.text = self.text[:-1]
        if tapped in {"1", "2", "3", "4", "5", "6"}:
            if len(self.text) < count:
                self.text += tapped
            else:
                self.note = str(PAD_FULL[count])
        if len(self.text) >= count or query.get("show"):
            try:
                self.dice = family.parse_dice(self.text)
            except rules.RuleViolation as violation:
                self.error = said(violation)

    @property
    def rolls_left(self) -> int:
        return self.family.rolls_per_turn - int(self.roll)

    @property
    def digits_label(self) -> str:
        """The typed field's name: "Dice, five digits" (six for Maxi Yatzy)."""
        return str(DIGITS_LABELS[self.count])

    @property
    def example(self) -> str:
        return dice_example(self.family)


def dice_example(family: families.Family[Any]) -> str:
    """Dice as a field's placeholder shows a roll of the family: five, or six in Maxi Yatzy."""
    return "444256"[: family.dice_count]


def parse_box(value: str | None, family: families.Family[Any] = families.YAHTZEE) -> Any:
    """The box of the game's family a form names by its key."""
    with by_the_rules():
        return family.box(value or "")


def parse_dice(
    value: str | None, family: families.Family[Any] = families.YAHTZEE
) -> rules.Dice | None:
    """Dice typed or tapped as digits, or None when the field is empty."""
    if not value:
        return None
    with by_the_rules():
        return family.parse_dice(value)


MAX_DIGITS = 9  # no count, turn or version here comes near a billion


def parse_int(value: str | None, what: str | Promise) -> int:
    text = (value or "").strip()
    if not (text.isdecimal() and text.isascii() and len(text) <= MAX_DIGITS):
        raise Refusal(_("%(what)s must be a whole number, 0 or more.") % {"what": what})
    return int(text)


# What a tap's numbers are called when one is refused (looked up only then).
THE_VERSION = gettext_lazy("The version")
THE_TURN = gettext_lazy("The turn")
THE_CARD = gettext_lazy("The card")
POINTS = gettext_lazy("Points")
ROLLS_USED = gettext_lazy("Rolls used")
A_HELD_DIE = gettext_lazy("A held die")


def entry_fields(post, family: families.Family[Any] = families.YAHTZEE) -> dict:
    """What a record form sends, parsed for `services.record_box` by the game's family."""
    points, rolls = post.get("points", ""), post.get("rolls", "")
    return {
        "version": parse_int(post.get("version"), THE_VERSION),
        "turn": parse_int(post.get("turn"), THE_TURN),
        "box": parse_box(post.get("box"), family),
        "card": parse_int(post.get("card", "1"), THE_CARD),
        "dice": parse_dice(post.get("dice"), family),
        "points": parse_int(points, POINTS) if points != "" else None,
        "extra_yahtzee": post.get("extra_yahtzee") == "on",
        "confirm_zero": post.get("confirm") == "zero",
        # The rolls choice of a table game with saved rolls; absent, the whole turn.
        "rolls_used": parse_int(rolls, ROLLS_USED) if rolls != "" else None,
    }
