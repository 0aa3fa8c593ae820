// The app shell on every game page, the watcher's too: the service worker (sw.js), which
// keeps the last card this phone saw for a reload without a connection, and the notice on
// such a saved copy; and the screen kept awake during a game. Texts: #outbox's data-.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const box = $("outbox");
  if (!box) return;
  const text = box.dataset;

  // A copy the service worker saved says how old it is.
  if (text.copy === "saved") {
    const at = new Date(text.rendered * 1000); // seconds since 1970, as the server drew it
    const time = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
    $("offline-copy").textContent = `${text.saved} ${time}`;
    $("offline-copy").hidden = false;
  }

  // The card as this phone shows it now, as a page to open later: what scripts showed for
  // the moment (a failed request, a busy turn, a toggle only they work) is taken out again.
  function pageAsShown() {
    const copy = document.documentElement.cloneNode(true);
    // Not rounded: rounded up, a copy kept at 23:16:59.6 said 23:17 (CI).
    copy.querySelector("#outbox").dataset.rendered = Date.now() / 1000;
    for (const shown of copy.querySelectorAll("#request-problem,#reconnecting,#outbox,#wake-lock")) {
      shown.hidden = true;
    }
    for (const busy of copy.querySelectorAll("[aria-busy]")) busy.removeAttribute("aria-busy");
    for (const control of copy.querySelectorAll("[data-busy]")) {
      control.disabled = false;
      control.removeAttribute("data-busy");
    }
    return `<!doctype html>\n${copy.outerHTML}`;
  }

  // After a card is swapped in (a tap, a live poll) the worker keeps it as the page's copy,
  // from this phone's memory: no second request, and it is the card the player last saw.
  // A copy that was itself opened offline is not kept again.
  // No service worker in a page not served securely (or in a browser without them).
  const workers = navigator.serviceWorker;
  const tell = (message) => workers.ready.then((worker) => worker.active && worker.active.postMessage(message));
  let keepTimer = 0;
  document.addEventListener("htmx:afterSettle", () => {
    if (text.copy !== "live" || !workers) return;
    clearTimeout(keepTimer);
    keepTimer = setTimeout(() => tell({ page: pageAsShown() }), 200);
  });

  // A saved copy whose poll (or pad) the server answered: the connection is back, and the
  // page is reloaded to the card as the server has it now (a tap still waiting is kept in
  // the outbox, which sends it again after the reload). Not at the "online" event: a phone
  // may never have said it was offline (a Wi-Fi without a way out, a server down), and
  // Chromium 150 says nothing to a page it opened offline.
  // A game's poll or pad answered "not found" or "forbidden": this browser was removed from
  // its household, or its link revoked. Its saved games go at once, not at its next visit.
  // (Only reads: a refused post is a 403 for a stale page, and says nothing about access.)
  document.addEventListener("htmx:afterRequest", (event) => {
    const status = event.detail.xhr.status;
    if (event.detail.requestConfig.verb !== "get") return;
    if (text.copy === "saved" && status && status < 500) return location.reload();
    if ((status === 403 || status === 404) && workers) tell("forget");
  });

  window.addEventListener("load", () => {
    if (!workers) return;
    // Its address is fixed: the root's, for a scope of every page (test_shell.py checks it).
    workers.register("/sw.js", { scope: "/" }).catch(() => {});
    if (!workers.controller) tell("keep");
  });

  // The screen stays on during a game unless turned off. The toggle goes with the game's last
  // entry and comes back with its undo (out of band), so it is looked for each time.
  if (!("wakeLock" in navigator)) return;
  const wanted = () => localStorage.getItem("wake-lock") !== "off";
  let lock = null;
  async function hold() {
    const toggle = $("wake-lock");
    if (!toggle) return lock?.release?.(); // a finished game's screen may sleep
    toggle.hidden = false;
    toggle.setAttribute("aria-pressed", wanted());
    if (!wanted() || document.hidden || lock) return;
    lock = true; // asked for: each region a swap settles asks again at once
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.onrelease = () => (lock = null);
    } catch {
      lock = null; // refused (battery saver): the toggle still says what was asked
    }
  }
  document.addEventListener("click", (event) => {
    if (event.target.id !== "wake-lock") return;
    localStorage.setItem("wake-lock", wanted() ? "off" : "on");
    if (!wanted()) lock?.release?.();
    hold();
  });
  document.addEventListener("visibilitychange", hold);
  document.addEventListener("htmx:afterSettle", hold);
  hold();
})();
