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
  }
});

document.addEventListener("dblclick", (event) => {
  const label = event.target.closest(".digital-options label.box-choice");
  const radio = label && label.querySelector("input[type=radio]");
  if (!radio || radio.disabled) return;
  radio.checked = true;
  send(radio.form);
});

// The advice switch comes back to this page with the dice held here still held: a hold is
// the page's own until the next roll, so the address it returns to carries them, with the
// game's version they belong to (a reload after another roll ignores them).
document.addEventListener("submit", (event) => {
  const next = event.target.closest(".advice-switch form")?.elements.next;
  const rolling = document.getElementById("roll-form");
  if (!next || !rolling) return;
  const back = new URL(next.value, location.href);
  back.searchParams.delete("hold");
  back.searchParams.set("held_at", rolling.elements.version.value);
  for (const hold of rolling.querySelectorAll("input[name=hold]:checked")) {
    back.searchParams.append("hold", hold.value);
  }
  next.value = back.pathname + back.search;
});
