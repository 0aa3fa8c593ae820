// The new-game form shows only the choices of the game chosen: each group of choices names
// its game in data-family. Without this script every group shows, each saying its game, and
// the server ignores the groups of the games not chosen. A hidden group's field that the
// browser would refuse goes back to what the page came with (else empty): a Maxi bonus of
// 0 left behind, hidden, kept the form from being sent, with nothing in sight to put right
// (a helper).
"use strict";

function showFamilyChoices(form) {
  const chosen = form.querySelector("input[name=family]:checked");
  if (!chosen) return;
  for (const group of form.querySelectorAll("[data-family]")) {
    group.hidden = group.dataset.family !== chosen.value;
    if (!group.hidden) continue;
    for (const field of group.querySelectorAll("input[type=number]:invalid")) {
      field.value = field.defaultValue;
      if (!field.checkValidity()) field.value = "";
    }
  }
}

document.addEventListener("change", (event) => {
  if (event.target.name === "family") showFamilyChoices(event.target.form);
});

document.addEventListener("DOMContentLoaded", () => {
  const form = document.querySelector("input[name=family]")?.form;
  if (form) showFamilyChoices(form);
});
