// A choice that takes effect at once: changing it sends its form, so the whole page comes
// back with everything that choice changes (advice adds or removes the Win column too).
// Without scripts the form's own button (.without-scripts, hidden here) does the same.
"use strict";

document.addEventListener("change", (event) => {
  const form = event.target.closest("form[data-submit-on-change]");
  if (form) form.requestSubmit();
});
