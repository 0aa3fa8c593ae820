// A shared game stays current on every phone: while the page is visible, it asks every two
// seconds whether the game changed since the version on show (If-None-Match). The server
// answers 304 with no body when nothing changed, or every region of the page, out of band.
// A link that was revoked answers 404: the page says so and stops asking.
// Without this script the page is still right at every load.
"use strict";

(() => {
  const POLL_MS = 2000;
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
