// Every phone at the table stays current: while visible, the page asks every 2 s whether
// the game changed (If-None-Match: its version). 304: nothing to do; 200: every region, out
// of band; 404: the link was revoked, so say so and stop. Without it, a reload does the same.
"use strict";

(() => {
  const POLL_MS = 2000; // the one place the interval lives (README: why polling, not a stream)
  let stopped = false;

  function poll() {
    const live = document.querySelector("[data-live]");
    if (!live || stopped || !window.htmx || document.visibilityState !== "visible") return;
    if (document.querySelector(".htmx-request")) return; // this phone's own change comes first
    htmx.ajax("GET", `${live.dataset.live}?live=1`, {
      source: live,
      swap: "none",
      headers: { "If-None-Match": `"${live.dataset.version}"` },
    });
  }

  document.addEventListener("htmx:afterRequest", (event) => {
    const status = event.detail.xhr.status;
    if (!event.detail.elt.matches("[data-live]") || (status !== 404 && status !== 410)) return;
    stopped = true;
    const notice = document.getElementById("link-gone");
    if (notice) notice.hidden = false;
  });
  document.addEventListener("visibilitychange", poll);
  setInterval(poll, POLL_MS);
})();
