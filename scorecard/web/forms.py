"""Parsing what a person typed or tapped; the rules themselves stay in `rules`."""

from typing import Any

from django import forms

from scorecard.engine import rules
from scorecard.game.services import MAX_PLAYERS, Refusal, by_the_rules, clean_names
from scorecard.models import Game

JOKER_CHOICES = [
    (rule.key, f"{rule.label}{' (the standard rule)' if rule is rules.JokerRule.HASBRO else ''}: "
     f"{rule.summary}")
    for rule in rules.JokerRule
]  # fmt: skip


class NewGameForm(forms.Form):
    """Up to eight name fields in seating order, the joker rule and the mode."""

    joker = forms.ChoiceField(
        label="Extra-Yahtzee rule",
        choices=JOKER_CHOICES,
        initial=rules.JokerRule.HASBRO.key,
        widget=forms.RadioSelect,
    )
    mode = forms.ChoiceField(
        label="Game",
        choices=Game.Mode.choices,
        initial=Game.Mode.STANDARD,
        widget=forms.RadioSelect,
    )
    dice = forms.ChoiceField(
        label="Dice",
        choices=[("table", "Real dice at the table: enter each roll"), ("digital", "Roll here")],
        initial="table",
        required=False,
        widget=forms.RadioSelect,
    )
    random_start = forms.BooleanField(label="Pick a random starting player", required=False)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for seat in range(1, MAX_PLAYERS + 1):
            self.fields[f"name_{seat}"] = forms.CharField(
                label=f"Player {seat}",
                required=False,
                max_length=40,
                widget=forms.TextInput(
                    attrs={
                        "list": "known-names",
                        "autocomplete": "off",
                        "placeholder": f"Player {seat}",
                    }
                ),
            )

    def name_fields(self):
        return [self[f"name_{seat}"] for seat in range(1, MAX_PLAYERS + 1)]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        names = [data.get(f"name_{seat}", "") for seat in range(1, MAX_PLAYERS + 1)]
        try:
            data["names"] = clean_names(names)
        except Refusal as refusal:
            raise forms.ValidationError(str(refusal)) from None
        return data

    def clean_joker(self) -> rules.JokerRule:
        try:
            return rules.JokerRule.from_key(self.cleaned_data["joker"])
        except rules.RuleViolation as violation:
            raise forms.ValidationError(str(violation)) from None

    def game_arguments(self) -> dict:
        data = self.cleaned_data
        keys = ("names", "joker", "mode", "random_start")
        return {key: data[key] for key in keys} | {"digital": data["dice"] == "digital"}


def swap_seats(query, seat: int):
    """The form data with player `seat` moved one place up (a tap on its up arrow)."""
    data = query.copy()
    if 2 <= seat <= MAX_PLAYERS:
        above, here = f"name_{seat - 1}", f"name_{seat}"
        data[above], data[here] = query.get(here, ""), query.get(above, "")
    return data


class DiceInput:
    """The dice being entered on the turn panel: typed digits plus taps on the face pad."""

    ROLLS = (("1", "1st roll"), ("2", "2nd roll"), ("3", "Final roll"))

    def __init__(self, query) -> None:
        self.text = "".join(query.get("dice", "").split())[:12]
        self.error = ""
        # Which roll of the turn these dice are: keep advice after the 1st and 2nd. A turn
        # starts at the 1st; the choice lives in the query, so it never passes to the next.
        self.roll = query.get("roll") if query.get("roll") in {"2", "3"} else "1"
        self.dice: rules.Dice | None = None
        tapped = query.get("add", "")
        if query.get("clear"):
            self.text = ""
        if query.get("back") and self.text:
            self.text = self.text[:-1]
        if tapped in {"1", "2", "3", "4", "5", "6"} and len(self.text) < rules.DICE_COUNT:
            self.text += tapped
        if len(self.text) >= rules.DICE_COUNT or query.get("show"):
            try:
                self.dice = rules.parse_dice(self.text)
            except rules.RuleViolation as violation:
                self.error = str(violation)

    @property
    def rolls_left(self) -> int:
        return rules.ROLLS_PER_TURN - int(self.roll)


def parse_box(value: str | None) -> rules.Box:
    with by_the_rules():
        return rules.Box.from_key(value or "")


def parse_dice(value: str | None) -> rules.Dice | None:
    """Dice typed or tapped as digits, or None when the field is empty."""
    if not value:
        return None
    with by_the_rules():
        return rules.parse_dice(value)


MAX_DIGITS = 9  # no count, turn or version here comes near a billion


def parse_int(value: str | None, what: str) -> int:
    text = (value or "").strip()
    if not (text.isdecimal() and text.isascii() and len(text) <= MAX_DIGITS):
        raise Refusal(f"{what} must be a whole number, 0 or more.")
    return int(text)


def entry_fields(post) -> dict:
    """What a record form sends, parsed for `services.record_box`."""
    points = post.get("points", "")
    return {
        "version": parse_int(post.get("version"), "The version"),
        "turn": parse_int(post.get("turn"), "The turn"),
        "box": parse_box(post.get("box")),
        "card": parse_int(post.get("card", "1"), "The card"),
        "dice": parse_dice(post.get("dice")),
        "points": parse_int(points, "Points") if points != "" else None,
        "extra_yahtzee": post.get("extra_yahtzee") == "on",
        "confirm_zero": post.get("confirm") == "zero",
    }
