"""Parsing what a person typed or tapped; the rules themselves stay in `rules`."""

from django import forms

from scorecard import rules
from scorecard.models import Game
from scorecard.services import MAX_PLAYERS, clean_names

JOKER_CHOICES = [(rule.key, f"{rule.label}: {rule.summary}") for rule in rules.JokerRule]


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

    def clean(self) -> dict:
        data = super().clean()
        try:
            data["names"] = clean_names([data.get(f"name_{s}", "") for s in range(1, 9)])
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None
        return data

    def clean_joker(self) -> rules.JokerRule:
        return rules.JokerRule.from_key(self.cleaned_data["joker"])

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

    def __init__(self, query) -> None:
        self.text = "".join(query.get("dice", "").split())[:12]
        self.error = ""
        self.dice: rules.Dice | None = None
        tapped = query.get("add", "")
        if query.get("back") and self.text:
            self.text = self.text[:-1]
        if tapped in {"1", "2", "3", "4", "5", "6"} and len(self.text) < rules.DICE_COUNT:
            self.text += tapped
        if len(self.text) >= rules.DICE_COUNT or query.get("show"):
            try:
                self.dice = rules.parse_dice(self.text)
            except ValueError as error:
                self.error = str(error)

    @property
    def faces(self) -> list[str]:
        return list(self.text) + ["" for _ in range(rules.DICE_COUNT - len(self.text))]


def parse_box(value: str) -> rules.Box:
    return rules.Box.from_key(value or "")


def parse_int(value: str | None, what: str) -> int:
    try:
        return int(value or "")
    except ValueError:
        raise ValueError(f"{what} must be a whole number.") from None
