// The sheet pages' Print button: a phone's browser keeps its own print command deep in a
// menu (Chrome on Android: ⋮, Share, Print). Without scripts the button stays hidden and the
// page's words say to print from the browser.
"use strict";

for (const button of document.querySelectorAll("[data-print]")) {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
}
