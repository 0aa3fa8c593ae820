// Every phone at the table stays current: while visible, the page asks every 2 s whether
// the game changed (If-None-Match: its version). 304: nothing to do; 200: what changed, out of
// band (one entry's rows when the page is one entry behind, else every region); 404: the link
// was revoked (or this browser removed), and the answer reloads the page (HX-Refresh), which
// then says why in place of the card. Without it, a reload does the same.
// After two polls without an answer "reconnecting" shows and polls slow down (4 s; 10 s
// offline); the connection's return or the page shown again polls at once.
"use strict";

(() => {
  if (!document.querySelector("[data-live]")) return; // every page has this script; few are live
  let stopped = false;
  let missed = 0;
  let timer = 0;

  function next() {
    clearTimeout(timer);
    // ms: offline, after two polls without an answer, and the interval (the one place it
    // lives; README: why polling, not a stream).
    const wait = !navigator.onLine ? 10000 : missed >= 2 ? 4000 : 2000;
    timer = setTimeout(poll, wait);
  }

  function poll() {
    next();
    const live = document.querySelector("[data-live]");
    if (!live || stopped || document.hidden) return;
    if (document.querySelector(".htmx-request")) return; // this phone's own change comes first
    if (live.getAttribute("aria-busy")) return; // as does a tap waiting in the outbox (outbox.js)
    htmx.ajax("GET", `${live.dataset.live}?live=1`, {
      source: live,
      target: document.body, // its events reach this script if a swap took `live` meanwhile
      swap: "none",
      headers: { "If-None-Match": `"${live.dataset.version}"` },
    }).catch(() => {}); // a poll without an answer is counted below, not thrown
  }

  // Another phone's change that leaves the turn where it was (a correction of an earlier
  // turn) redraws the turn panel (out of band: a poll's answer): the same turn (its heading
  // unchanged) gets back the dice this phone had entered when the panel was replaced, read
  // from the replaced panel itself, so a die tapped while the poll was on its way is kept
  // too; all of them are shown with their boxes again. In every state of the panel the first
  // field named dice holds the dice entered.
  document.addEventListener("htmx:oobAfterSwap", (event) => {
    const was = event.detail.target;
    const field = document.querySelector("#turn [name=dice]");
    const dice = was.querySelector("[name=dice]")?.value;
    const title = (panel) => panel.querySelector("#turn-title")?.textContent;
    if (was.id == "turn" && dice && field && !field.value && title(was) == title(document)) {
      field.value = dice;
      if (dice.length == (+field.form.dataset.diceCount || 5)) field.form.show?.click();
    }
  });

  document.addEventListener("htmx:afterRequest", (event) => {
    if (!event.detail.elt.matches("[data-live]") || event.detail.requestConfig.verb !== "get") return;
    const status = event.detail.xhr.status;
    missed = status === 0 || status >= 500 ? missed + 1 : 0;
    const reconnecting = document.getElementById("reconnecting");
    if (reconnecting) reconnecting.hidden = missed < 2;
    if (status === 404) stopped = true; // the page is reloading
  });
  // A poll's answer can arrive after this phone's own change: read just before it (older)
  // or just after it (the same version the page already shows, since drawn afresh without
  // the dice the player has held since). Only a newer game than the one on show is swapped,
  // and none while a tap of this phone is on its way (the turn busy, outbox.js): its answer
  // swaps into the turn it was sent from, which the poll's would have replaced (its changes
  // lost, "no target" errors). Nor one asked by a region that is gone (the pad's fifth die
  // drew the turn again): htmx looks for its targets beside that region; the next poll asks.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const { requestConfig: asked, xhr } = event.detail;
    const live = asked.elt;
    if (asked.verb !== "get" || !live.matches("[data-live]")) return;
    const answered = /\d+/.exec(xhr.getResponseHeader("ETag"));
    if (!live.isConnected || (answered && answered <= +live.dataset.version) || live.getAttribute("aria-busy")) {
      event.detail.shouldSwap = false;
    }
  });
  document.addEventListener("visibilitychange", poll);
  window.addEventListener("online", poll);
  next();
})();
