// A tap is never lost (README: "A tap on a flaky connection"). Each post from the turn
// carries a key made at tap time, so the server writes it once however often it arrives.
// While it is on its way the turn is busy; one that cannot arrive (offline, a timeout, a
// 502/503/504) waits here (localStorage, one tap per game page, with its key), shown on the
// card (said as a server out of reach: a 502 is not a lost connection), and is sent again
// by itself; it can be cancelled. Only on pages that can record;
// the service worker and the saved copy's notice are shell.js's. Texts: #outbox's data-.
"use strict";

(() => {
  const STORE = "outbox";
  const RETRY = [1000, 2000, 4000, 5000]; // ms; "online" also sends at once
  const here = location.pathname;
  const $ = (id) => document.getElementById(id);
  const box = $("outbox");
  if (!box) return;
  const text = box.dataset;
  let sendingTimer = 0;
  let retryTimer = 0;
  let tries = 0;
  let sending = false; // a tap on its way, htmx's or a resend: one at a time

  // 128 random bits, as four numbers (crypto.randomUUID is missing where the page is not
  // a secure context, as on http://192.168…).
  const newKey = () => crypto.getRandomValues(new Uint32Array(4)).join("_");

  function taps() {
    try {
      return JSON.parse(localStorage.getItem(STORE)) || {};
    } catch {
      return {};
    }
  }

  function pending() {
    return taps()[here];
  }

  function keep(tap) {
    const all = taps();
    if (tap) all[here] = tap;
    else delete all[here];
    try {
      localStorage.setItem(STORE, JSON.stringify(all));
    } catch {} // private mode: nothing is kept past this page
  }

  function status(words, tap) {
    $("outbox-status").textContent = words;
    $("outbox-tap").textContent = tap ? `${text.tap} ${tap.label}` : "";
    $("outbox-tap").hidden = $("outbox-cancel").hidden = !tap;
    box.hidden = !words;
  }

  // Controls the rules disabled stay so; a new turn swapped in starts usable.
  function busy(on) {
    const turn = $("turn");
    if (!turn) return;
    if (on) turn.setAttribute("aria-busy", "true");
    else turn.removeAttribute("aria-busy");
    for (const control of turn.querySelectorAll(on ? ":is(button,input,select):enabled" : "[data-busy]")) {
      control.disabled = on;
      control.toggleAttribute("data-busy", on);
    }
  }

  // The tap answered (or given up): nothing kept, nothing said, the turn usable.
  function settle() {
    keep(null);
    status("");
    busy(false);
  }

  function showPending(tap) {
    busy(true);
    const mark = tap.mark && $("turn") && $("turn").querySelector(tap.mark);
    if (mark) mark.classList.add("pending");
    status(text.waiting, tap);
  }

  // (configRequest's detail is the config; later events carry it.)
  const isTap = (detail) => {
    const config = detail.requestConfig || detail;
    return config.verb === "post" && config.elt.closest("#turn");
  };
  const lost = (status) => !status || (status > 501 && status < 505); // none, 502-504

  // requests.js says every other failure.
  window.outbox = { keeps: (event) => isTap(event.detail) && lost(event.detail.xhr.status) };

  function label(submitter, form) {
    const named = (el) => (el.getAttribute("aria-label") || el.textContent).replace(/\s+/g, " ").trim();
    const choice = form.querySelector("select[name=box]");
    if (choice) return `${named(choice.selectedOptions[0])} ${form.elements.points.value}`;
    return named(submitter || form.querySelector("button"));
  }

  function markOf(submitter) {
    if (!submitter) return "";
    if (submitter.id) return `#${submitter.id}`;
    if (submitter.name) return `[name="${submitter.name}"][value="${CSS.escape(submitter.value)}"]`;
    return "";
  }

  document.addEventListener("htmx:configRequest", (event) => {
    if (!isTap(event.detail)) return;
    if (pending() || $("turn").getAttribute("aria-busy")) return event.preventDefault(); // a second tap
    event.detail.headers["Idempotency-Key"] = newKey();
  });

  // Kept as it goes: a page reloaded while its answer is on its way sends it again (with
  // its key, so it is written once), where it was lost without a word (a tester).
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (!isTap(event.detail)) return;
    busy(true);
    const config = event.detail.requestConfig;
    const submitter = config.triggeringEvent && config.triggeringEvent.submitter;
    const form = config.elt.closest("form") || config.elt;
    const tap = { key: config.headers["Idempotency-Key"], path: config.path, mark: markOf(submitter) };
    tap.body = new URLSearchParams(config.formData).toString();
    tap.label = label(submitter, form);
    keep(tap);
    sending = true;
    sendingTimer = setTimeout(() => status(text.sending), 300);
    // Its end is its request's (after htmx's swap), not htmx:afterRequest: htmx says that on
    // the form that asked, and on a form of a turn drawn again meanwhile it reached nobody;
    // the turn stayed busy and every later tap was refused without a word (found in CI: a box
    // tapped while Show's answer was on its way).
    const xhr = event.detail.xhr;
    xhr.addEventListener("loadend", () => {
      clearTimeout(sendingTimer);
      sending = false;
      if (!lost(xhr.status)) return settle();
      showPending(tap);
      retryLater();
    });
  });

  function retryLater() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(send, RETRY[Math.min(tries++, RETRY.length - 1)]);
  }

  async function send() {
    const tap = pending();
    if (!tap || sending) return;
    sending = true;
    clearTimeout(retryTimer);
    // On its way it can no longer be called back, so no Cancel: its answer draws the turn
    // (cancelled, it was written anyway, and its late answer wiped the next player's dice).
    status(text.sending);
    let answer = null;
    try {
      const response = await fetch(tap.path, {
        method: "POST",
        body: new URLSearchParams(tap.body), // sent url-encoded, as htmx sends a form
        headers: {
          "HX-Request": "true",
          "Idempotency-Key": tap.key,
          "X-CSRFToken": csrfToken(), // htmx-settings.js
        },
      });
      answer = { status: response.status, html: await response.text(), inPlace: response.headers.get("X-In-Place") };
    } catch {} // no connection yet: sent again later, with the same key
    sending = false;
    if (!answer || lost(answer.status)) return showPending(tap), retryLater();
    tries = 0;
    settle();
    if (answer.status < 400 || answer.inPlace) htmx.swap("#turn", answer.html, { swapStyle: "outerHTML" });
    // A refusal drawn on the card says its reason there; this line says which tap it was.
    if (answer.status >= 400) window.requestProblem.say(`${text.refused} ${tap.label}. ${answer.inPlace ? "" : answer.html.trim()}`);
  }

  // Asked first, naming the tap as the bar does, then the button's words (no sentence of
  // our own: "Don't send it?" lost French's space before "?" and Spanish's "¿"): the bar
  // lies over the boxes, and a tap meant for one cancelled a roll without a word (helpers).
  $("outbox-cancel").addEventListener("click", (event) => {
    if (!confirm(`${$("outbox-tap").textContent}\n\n${event.target.textContent}`)) return;
    settle();
    for (const mark of document.querySelectorAll("#turn .pending")) mark.classList.remove("pending");
  });

  window.addEventListener("online", send);
  document.addEventListener("visibilitychange", () => !document.hidden && send());

  const waiting = pending();
  if (waiting) {
    showPending(waiting);
    send();
  }
})();
