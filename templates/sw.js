// The app shell on this phone (served as /sw.js by views/shell.py): the static files and the
// last card of each game page the phone showed, so a game reloaded without a connection
// still shows its card, marked as a saved copy, and its outbox. One cache per release; older
// ones are removed.
// Nothing is kept for anyone else: the cache is this browser's, and a game page or its poll
// that answers "not found" or "forbidden" (this browser was removed) or a join link (another
// household) empties it of every page.
"use strict";

const CACHE = "scorecard-{{ release }}";
const SHELL = {{ shell|safe }};
const STATIC = "{{ static_url }}";
// A game's page by its id or its link's token (not /games/new/, kept and listed as a game).
const GAME_PAGE = /^\/(games|score|watch)\/[\w-]{20,}\/$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  const old = (names) => names.filter((name) => name !== CACHE).map((name) => caches.delete(name));
  event.waitUntil(caches.keys().then((names) => Promise.all(old(names))).then(() => self.clients.claim()));
});

async function forgetPages() {
  const cache = await caches.open(CACHE);
  const pages = (await cache.keys()).filter((request) => GAME_PAGE.test(new URL(request.url).pathname));
  await Promise.all(pages.map((request) => cache.delete(request)));
}

// Network first; a good answer is kept as the page's last copy, and without a connection
// the last copy is shown, marked so the page says how old it is (outbox.js).
async function gamePage(url) {
  const cache = await caches.open(CACHE);
  const key = url.origin + url.pathname;
  const asked = () => fetch(url.href, { credentials: "same-origin" });
  let response;
  try {
    // The page's "online" comes a moment before this worker's own network: a reload then
    // fails once, and is asked again a second later rather than shown the copy once more.
    response = await asked().catch((error) => {
      if (!navigator.onLine) throw error;
      return new Promise((again) => setTimeout(again, 1000)).then(asked);
    });
  } catch (error) {
    const saved = await cache.match(key);
    // A game this phone never showed (its link came by message, offline): our page, which
    // lists the games it keeps, rather than the browser's error in its own words.
    if (!saved) return offlinePage(OFFLINE.unseen);
    const html = padAsAddressed(await saved.text(), url).replace('data-copy="live"', 'data-copy="saved"');
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
  if (response.status === 403 || response.status === 404) await forgetPages();
  else if (response.ok && !response.redirected) await cache.put(key, response.clone());
  return response;
}

// A saved copy's pad holds the dice its address holds (dice-pad.js writes them there as they
// are tapped), not those of the page the copy was made from: an offline reload showed an
// earlier page's dice, and the taps after it went on from them (a tester). Boxes drawn for
// other dice are left out: tapped, they would record those dice.
function padAsAddressed(html, url) {
  const field = /(id="dice-typed" name="dice" value=")([^"]*)"/;
  const drawn = field.exec(html);
  const turn = /class="dice-entry"[^>]*>[\s\S]*?name="turn" value="(\d+)"/.exec(html);
  if (!drawn || !turn) return html;
  const asked = url.searchParams.get("turn") === turn[1] ? url.searchParams.get("dice") || "" : "";
  const dice = asked.replace(/[^1-6]/g, "");
  if (dice === drawn[2].replace(/[^1-6]/g, "")) return html;
  return html.replace(field, `$1${dice}"`).replace(/<form [^>]*class="options">[\s\S]*?<\/form>/, "");
}

// Any other page needs the server: without a connection it is a page of ours that says so
// and lists the games this phone keeps (each opens without one), not the browser's error.
// So is a form sent as a page (a correction, a new game) without a connection: the page
// says to go back and send it again.
const OFFLINE = {{ offline|safe }};

async function otherPage(request) {
  try {
    return await fetch(request);
  } catch (error) {
    return offlinePage(OFFLINE.text);
  }
}

async function offlinePage(text) {
  const cache = await caches.open(CACHE);
  const links = [];
  for (const kept of await cache.keys()) {
    const path = new URL(kept.url).pathname;
    if (!GAME_PAGE.test(path)) continue;
    const html = await (await cache.match(kept)).text();
    const title = /<title>([^<]*)<\/title>/.exec(html);
    // Named by its players too: every game's title is its rule's (a helper's list said
    // "Yahtzee · Yahtzee score card" twice). The standings' names, escaped as they came.
    const rows = /id="standings-rows"[^>]*>([\s\S]*?)<\/tbody>/.exec(html);
    const names = rows ? [...rows[1].matchAll(/<th scope="row">([^<]*)<\/th>/g)].map((name) => name[1]) : [];
    const named = names.length ? `${names.join(", ")} · ` : "";
    // The title's first part, the game's rule: the rest is the site's name (a tester read
    // "Aino, Eero · Yahtzee · Yahtzee-pistekortti").
    links.push(`<li><a href="${path}">${named}${title ? title[1].split(" · ")[0] : path}</a></li>`);
  }
  const kept = links.length ? `<p>${OFFLINE.kept}</p><ul>${links.join("")}</ul>` : "";
  const html = `<!doctype html><html lang="${OFFLINE.lang}"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${OFFLINE.title}</title><link rel="stylesheet" href="${OFFLINE.css}">
<main><h1>${OFFLINE.title}</h1><p>${text}</p>${kept}</main></html>`;
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  // A form sent as a page is answered here only offline: the browser keeps its own answer
  // to a post for Back (a refused correction, brought back to be sent again), and not one
  // this worker fetched. (Online, an answer lost on the way is the browser's to say.)
  if (request.method === "POST" && request.mode === "navigate") {
    if (!navigator.onLine) event.respondWith(offlinePage(OFFLINE.sent));
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate" && url.pathname.startsWith("/join/")) forgetPages();
  if (request.mode === "navigate" && GAME_PAGE.test(url.pathname)) {
    event.respondWith(gamePage(url));
  } else if (request.mode === "navigate") {
    event.respondWith(otherPage(request));
  } else if (url.pathname.startsWith(STATIC)) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
  }
});

// A page opened before this worker took over asks to be kept ("keep"); a page that swapped
// a new card in sends itself as it is now ({ page }), so an offline reload shows the last
// card the phone saw; a page whose poll was answered "not found" asks to forget them all
// ("forget"): this browser was removed or its link revoked (shell.js).
self.addEventListener("message", (event) => {
  const url = event.source && new URL(event.source.url);
  if (!url || !GAME_PAGE.test(url.pathname)) return;
  if (event.data === "keep") event.waitUntil(gamePage(url));
  else if (event.data === "forget") event.waitUntil(forgetPages());
  else if (event.data && typeof event.data.page === "string") event.waitUntil(keepAsShown(url, event.data.page));
});

async function keepAsShown(url, html) {
  const cache = await caches.open(CACHE);
  const headers = { "Content-Type": "text/html; charset=utf-8" };
  await cache.put(url.origin + url.pathname, new Response(html, { headers }));
}
