// The share page's "Share the link" buttons: the phone's own share sheet (a message, a chat)
// where it has one, else the link copied, and said so. Without scripts they stay hidden, and
// the link itself can be pressed long or its code scanned.
"use strict";

for (const button of document.querySelectorAll("[data-share]")) {
  button.hidden = false;
  button.addEventListener("click", async () => {
    const url = button.dataset.share;
    try {
      if (navigator.share) return await navigator.share({ url });
      await navigator.clipboard.writeText(url);
      button.nextElementSibling.textContent = button.dataset.copied;
    } catch {
      // The share sheet was closed, or the clipboard refused: the link is still on the page.
    }
  });
}
