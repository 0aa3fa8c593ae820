// htmx's settings, in the same file as htmx (static_files.BUNDLES), run before htmx starts
// (at DOMContentLoaded): a page that has htmx has them. They were a <meta name="htmx-config">
// in every page, 150 bytes of each page on the wire.
// No <style> of htmx's own (the content security policy refuses inline styles); a request
// gives up after 15 s (the outbox keeps a tap that timed out); no eval and no scripts in
// answers; a settled swap copies only these attributes; 204 and 304 swap nothing, any other
// answer from 400 up is an error requests.js says in place. No copy of a page in the
// browser's storage when an answer changes the address (the pad's dice, views/play.py): the
// service worker keeps the card, and forgets it with the household (sw.js). A swap settles at
// once: htmx readies a new form only as it settles (20 ms later by default), and a tap in
// between posted it without htmx, and so without the CSRF token (a 403 page).
Object.assign(htmx.config, {
  historyCacheSize: 0,
  defaultSettleDelay: 0,
  includeIndicatorStyles: false,
  timeout: 15000,
  allowEval: false,
  allowScriptTags: false,
  attributesToSettle: ["class", "width", "height"],
  responseHandling: [
    { code: "204", swap: false },
    { code: "304", swap: false },
    { code: "[23]..", swap: true, error: false },
    { code: "...", swap: false, error: true },
  ],
});

// Django's CSRF token goes with every request htmx sends (and the outbox's), read from its
// cookie as it is sent: the page no longer carries it (81 bytes of each first load), and a
// token renewed meanwhile is the one sent. The cookie's name is Django's default
// (CSRF_COOKIE_NAME, checked by test_first_load.py).
const csrfToken = () => (/\bcsrftoken=(\w+)/.exec(document.cookie) || [])[1];
document.addEventListener("htmx:configRequest", (event) => {
  event.detail.headers["X-CSRFToken"] = csrfToken();
});
