// Digital dice on a computer: Space or Enter rolls, 1 to 6 hold a die, and a double-click
// (or double-tap) on a box's name scores it. The forms work the same without this script.
"use strict";

const TYPING = ["INPUT", "SELECT", "TEXTAREA", "BUTTON", "A", "SUMMARY"];

// Send a form through htmx explicitly, so a key pressed the instant a panel is swapped in
// never falls back to a full page load.
function send(form) {
  if (!window.htmx) return form.requestSubmit();
  // A send that fails is the outbox's to keep (outbox.js), not an error thrown here.
  htmx.ajax("POST", form.action, { source: form, target: "#turn", swap: "outerHTML" }).catch(() => {});
}

document.addEventListener("keydown", (event) => {
  const form = document.getElementById("roll-form");
  if (!form || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
  const target = event.target;
  if (TYPING.includes(target.tagName) && target.type !== "checkbox") return;
  // Space on a die holds it, as on any checkbox: it rolled every die, a roll gone.
  if (event.key === " " && target.type === "checkbox") return;
  if (event.key === " " || event.key === "Enter") {
    event.preventDefault();
    send(form);
  } else if (/^[1-6]$/.test(event.key)) {
    const hold = form.querySelectorAll("input[name=hold]")[Number(event.key) - 1];
    if (!hold) return;
    event.preventDefault();
    hold.checked = !hold.checked;
    rememberHolds(form);
    sayHolds(form);
  }
});

// A screen reader says nothing of a box the key ticked without focusing it: the dice held
// are said in the form's status line instead.
function sayHolds(form) {
  const said = document.getElementById("holds-said");
  const faces = [...form.querySelectorAll("input[name=hold]:checked")].map((hold) => hold.nextElementSibling.textContent);
  if (said) said.textContent = faces.length ? `${said.dataset.held} ${faces.join(" ")}` : said.dataset.none;
}

// The second tap of a double tap on a die leaves it held: a double tap scores a box here,
// and a player who double-tapped a die let it go again without a word (a tester).
document.addEventListener("click", (event) => {
  if (event.detail > 1 && event.target.closest("#roll-form label.hold")) event.preventDefault();
});

document.addEventListener("dblclick", (event) => {
  const label = event.target.closest(".digital-options label.box-choice");
  const radio = label && label.querySelector("input[type=radio]");
  if (!radio || radio.disabled) return;
  radio.checked = true;
  send(radio.form);
});

// A hold is the page's own until the next roll, so an address back to this page carries
// the dice held, with the game's version they belong to (the page ignores them after
// another roll): the address bar's, so that a reload (or a phone reopening a page it
// dropped) shows them held, and the advice switch's way back.
function withHolds(address, rolling) {
  const url = new URL(address, location.href);
  url.searchParams.delete("hold");
  url.searchParams.set("held_at", rolling.elements.version.value);
  for (const hold of rolling.querySelectorAll("input[name=hold]:checked")) {
    url.searchParams.append("hold", hold.value);
  }
  return url.pathname + url.search;
}

function rememberHolds(rolling) {
  history.replaceState(history.state, "", withHolds(location.href, rolling) + location.hash);
}

document.addEventListener("change", (event) => {
  const hold = event.target.closest("#roll-form input[name=hold]");
  if (hold) rememberHolds(hold.form);
  // Score sticks to the screen's foot once a box is chosen: a box chosen at the foot (a
  // phone held sideways) came to lie under it. It is brought above it (dice.css's margin).
  const box = event.target.closest(".digital-options input[name=box]");
  if (box) box.closest("label").scrollIntoView({ block: "nearest" });
});

document.addEventListener("submit", (event) => {
  const next = event.target.closest(".advice-switch form")?.elements.next;
  const rolling = document.getElementById("roll-form");
  if (next && rolling) next.value = withHolds(next.value, rolling);
});
