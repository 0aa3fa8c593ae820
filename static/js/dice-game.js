// Digital dice on a computer: Space or Enter rolls, 1 to 5 hold a die, and a double-click
// (or double-tap) on a box's name scores it. The forms work the same without this script.
"use strict";

const TYPING = ["INPUT", "SELECT", "TEXTAREA", "BUTTON", "A", "SUMMARY"];

document.addEventListener("keydown", (event) => {
  const form = document.getElementById("roll-form");
  if (!form || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (TYPING.includes(target.tagName) && target.type !== "checkbox") return;
  if (event.key === " " || event.key === "Enter") {
    event.preventDefault();
    document.getElementById("roll-button").click();
  } else if (/^[1-5]$/.test(event.key)) {
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
  radio.form.requestSubmit();
});
