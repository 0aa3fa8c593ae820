// The face pad fills the dice on the phone itself, so quick taps are never lost to a round
// trip; once all the dice are in (five, or six for Maxi Yatzy, which the form's
// data-dice-count says) or the options on show go stale, the form asks the server.
// Without this script every tap is a plain form submission and works the same way.
"use strict";

// Inside a function, so that its names are its own (and the minifier may shorten them).
(() => {
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
    let dice = digits(form), extra;
    // A face tapped with every die in adds nothing: the server is told, and says why.
    if (button.name === "add") dice.length < diceCount(form) ? (dice += button.value) : (extra = button.value);
    if (button.name === "back") dice = dice.slice(0, -1);
    if (button.name === "clear") dice = "";
    show(form, dice, extra);
  });

  // Dice short of a roll ask nothing, so the address is written here as the server's answer
  // writes it (TurnPanel.page_with_dice; the roll and card are left to that answer): a
  // reload, or a phone reopening a page it dropped, finds them still on the pad. The
  // turn keeps them from a later one. The pad is on its own page's address (a game's
  // ends with its slash: "." is the page without its query), and no state of htmx's is
  // kept (no copy of a page in its history, htmx-settings.js).
  function remember(form, dice) {
    history.replaceState(null, "", dice ? `?dice=${dice}&turn=${form.elements.turn.value}` : ".");
  }

  // Back online, dice that asked for their boxes in vain (no connection) ask again; not
  // beside a tap waiting to be sent (outbox.js), whose answer draws the turn: asked for the
  // card as it is by then, they were put on the next player's turn.
  addEventListener("online", () => {
    const field = document.querySelector("#turn [name=dice]");
    if (field && document.getElementById("outbox").hidden) show(field.form, field.value);
  });

  // Saying which roll the dice are (for keep advice) asks again once all the dice are in.
  // Dice typed over those the boxes on show are for (changed as the field is left, for Show
  // or for a box, as the finger lands) are shown at once, as Show shows them: the boxes on
  // show wait for that answer (a box tapped then recorded the dice before, a tester and CI;
  // then the boxes waited for Show, looking as they were, a tester).
  document.addEventListener("change", (event) => {
    const choice = event.target.closest(".dice-entry input[name=roll]");
    if (choice) show(choice.form, digits(choice.form));
    const stale = event.target.id === "dice-typed" && document.querySelector("#turn .options");
    if (stale) (stale.inert = true), event.target.form.show.click();
  });

  const digits = (form) => form.elements.dice.value.replace(/[^1-6]/g, "");
  const diceCount = (form) => +form.dataset.diceCount || 5;

  // Taps made while an answer is on its way (a slow network) are kept, then shown on the pad
  // that answer draws with the dice it was asked about: the dice, and a face tapped with
  // every die in (its refusal was lost, a tester); asked with the fields of the pad they
  // were tapped on, the roll chosen meanwhile with them (the answer's pad had the roll it
  // was asked with, and the keep advice was for that one; a tester).
  let asking, tapped;

  // All the dice are shown with their boxes; fewer (after ⌫ or Clear) only fill the field
  // again, so fixing a die always works and is never refused as too few dice. Fewer ask too
  // when boxes are on show: those boxes are for dice that are no longer there, and can no
  // longer be tapped (on a slow network a box recorded the dice already corrected).
  function show(form, dice, extra, tappedOn) {
    form.elements.dice.value = dice;
    // A refusal of the dice before goes with them (it said "got 6" over a pad cleared), and
    // the field no longer says it is invalid.
    document.getElementById("dice-error")?.remove();
    form.elements.dice.ariaInvalid = null;
    const stale = document.querySelector("#turn .options");
    if (stale) stale.inert = true;
    if (asking) return (tapped = [dice, extra, form]);
    const all = dice.length === diceCount(form);
    if (!all && !stale) return remember(form, dice);
    // The form's fields (the card, the roll, the turn the dice belong to), its dice
    // these; no button (a FormData without a submitter has none).
    const values = Object.fromEntries(new FormData(tappedOn || form));
    values.dice = dice;
    if (all) values.show = "1";
    if (extra) values.add = extra;
    const answered = () => {
      const later = tapped, pad = document.querySelector(".dice-entry");
      asking = tapped = null;
      if (later && pad) show(pad, ...later);
    };
    // The pad, not its form, asks: the form would add the last button tapped (⌫ twice).
    const source = form.querySelector(".pad");
    asking = htmx.ajax("GET", form.action, { source, target: "#turn", swap: "outerHTML", values });
    asking.then(answered, answered);
  }
})();
