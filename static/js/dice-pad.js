// The face pad fills the dice on the phone itself, so quick taps are never lost to a round
// trip; once all the dice are in (five, or six for Maxi Yatzy, which the form's
// data-dice-count says) or the options on show go stale, the form asks the server.
// Without this script every tap is a plain form submission and works the same way.
"use strict";

document.addEventListener("click", (event) => {
  // The second half of a double tap on a box, Undo or a zero's Yes is not a tap of its own:
  // the answer to the first may have drawn another there (a box where Undo was). Cancelled,
  // a click sends no form. (The pad's keys take quick taps, "66"; the digital game's
  // boxes a double tap, dice-game.js.)
  if (event.detail > 1 && event.target.closest(".box-option,.undo,.confirm")) return event.preventDefault();
  const button = event.target.closest(".dice-entry .pad button");
  if (!button) return;
  event.preventDefault();
  const form = button.form;
  const input = form.elements.dice;
  const count = diceCount(form);
  let dice = input.value.replace(/[^1-6]/g, "");
  if (button.name === "add" && dice.length < count) dice += button.value;
  if (button.name === "back") dice = dice.slice(0, -1);
  if (button.name === "clear") dice = "";
  input.value = dice;
  const staleOptions = document.querySelector("#turn .options");
  if (dice.length < count && !staleOptions) return;
  if (!window.htmx) return form.submit();
  ask(form, dice);
});

function diceCount(form) {
  return Number(form.dataset.diceCount) || 5;
}

// All the dice are shown with their boxes; fewer (after ⌫ or Clear) only fill the field
// again, so fixing a die always works and is never refused as too few dice.
function ask(form, dice) {
  const values = { dice: dice };
  if (dice.length === diceCount(form)) values.show = "1";
  if (form.elements.card) values.card = form.elements.card.value;
  if (form.elements.roll) values.roll = form.elements.roll.value;
  // The pad, not its form, asks: the form would add the last button tapped (⌫ twice).
  const source = form.querySelector(".pad");
  htmx.ajax("GET", form.action, { source, target: "#turn", swap: "outerHTML", values });
}

// Saying which roll the dice are (for keep advice) asks again once all the dice are in.
document.addEventListener("change", (event) => {
  const choice = event.target.closest(".dice-entry input[name=roll]");
  if (!choice || !window.htmx) return;
  const dice = choice.form.elements.dice.value.replace(/[^1-6]/g, "");
  if (dice.length === diceCount(choice.form)) ask(choice.form, dice);
});
