// Times in this phone's own time zone: the zone, as the browser names it, goes to the server
// in a cookie (web/phone_time.py), and a page whose times were drawn for another offset from
// UTC than the phone's now is drawn again once. Not when the cookie was refused (it is read
// back first), nor once it holds this zone.
"use strict";

(() => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const cookie = `tz=${zone}`;
  const written = () => document.cookie.split("; ").includes(cookie);
  if (!zone || written()) return;
  const drawnFor = +document.currentScript.dataset.offset;
  const secure = location.protocol === "https:" ? ";secure" : "";
  document.cookie = `${cookie};path=/;max-age=31536000;samesite=lax${secure}`;
  if (written() && drawnFor !== -new Date().getTimezoneOffset()) location.reload();
})();
