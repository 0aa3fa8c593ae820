// A request htmx makes that fails is said in place and never replaces the page: the card
// stays as it was and usable, with one line saying what happened. A refusal the server
// draws as the card with its reason (an answer marked X-In-Place) is swapped like any
// other answer. The words come with the answer (scorecard/web/failures.py); the page has
// those for no answer and an answer not from us (#request-problem's data- attributes).
"use strict";

// Controls only a page without scripts needs (a choice's Set button) hide from here on.
document.documentElement.classList.add("scripted");

(() => {
  const region = () => document.getElementById("request-problem");

  function say(text) {
    const problem = region();
    if (!problem) return;
    problem.textContent = text;
    problem.hidden = false;
  }

  function messageFor(xhr) {
    const type = xhr.getResponseHeader("Content-Type") || "";
    const text = (xhr.responseText || "").trim();
    if (type.startsWith("text/plain") && text && text.length <= 300) return text;
    return region().dataset.statusOther; // an answer not from here (a proxy's 502)
  }

  // A live page's poll speaks for itself (live.js): a failed poll is not the player's tap;
  // nor does a tap the outbox keeps to send again (outbox.js).
  // (detail.elt is where the answer goes; requestConfig.elt is what asked.)
  const saidElsewhere = (event) =>
    event.detail.requestConfig.elt.matches("[data-live]") || window.outbox?.keeps(event);
  window.requestProblem = { say };

  document.addEventListener("htmx:beforeSwap", (event) => {
    const xhr = event.detail.xhr;
    if (xhr.status < 400) {
      if (!saidElsewhere(event) && region()) region().hidden = true;
      return;
    }
    // Swapped in as it is, or said here; either way htmx need not log it as an error.
    const inPlace = !!xhr.getResponseHeader("X-In-Place");
    event.detail.shouldSwap = inPlace;
    event.detail.isError = false;
    if (!inPlace && !saidElsewhere(event)) say(messageFor(xhr));
  });

  document.addEventListener("htmx:sendError", (event) => {
    if (!saidElsewhere(event) && region()) say(region().dataset.offline);
  });
})();
