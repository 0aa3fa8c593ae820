"""Static files as a phone downloads them: whitenoise's hashed names and brotli copies, with
our scripts minified into bundles and our style sheets minified.

Every page loads one file, `bundles/every-page.js`: htmx, its settings (js/htmx-settings.js)
and the scripts a game at the table runs; a digital game and the new-game form add one
small file each. One file, because brotli compresses our scripts after htmx with htmx's
words already learnt, and because a phone then downloads htmx and our scripts once, with the
first page it opens. Measured on the first load of a 4-player game page (brotli bytes of
scripts; English) and on the next kind of page the phone opens:

| scripts | first load | then another kind of page |
| --- | ---: | ---: |
| htmx, and a bundle of ours per kind of page (before) | 17,461 | 380 to 2,762 |
| htmx inside each kind of page's bundle | 17,132 | 14,922 to 17,077 |
| one file of htmx and all our scripts | 17,426 | 0 |
| one file of htmx and a game's scripts, two small extras (kept) | 17,191 | 0, 194 or 392 |

The kept one costs a phone whose first page is not a game 2,100 bytes more than before
(17,191 against htmx and the page's own 380 to 498), and saves the service worker the
digital and the watcher's bundles it used to fetch after a game page's load (4,098). It also
ends the `<meta name="htmx-config">` in every page (150 bytes): the settings travel in
htmx's own file, so a page that has htmx has them. A watcher's page and a digital game run
the pad's and the outbox's scripts too, which find nothing of theirs there and do nothing.

uglify-js (pinned in package.json, installed by `make`) mangles and compresses each bundle,
htmx included: its own build only mangles. BundleFinder makes a bundle when it is asked
for and its sources or the tool's options changed, so collectstatic, `runserver` and the
browser tests all serve the same minified code a phone gets.

rcssmin takes comments and spaces out of our style sheets at collectstatic; the scripts we
write stay readable, with their comments, in static/js (the bundles' sources).
"""

import hashlib
import os
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import rcssmin
import rjsmin
from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.finders import BaseFinder
from django.core.exceptions import ImproperlyConfigured
from django.core.files.storage import FileSystemStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage

OURS = settings.BASE_DIR / "static"
BUILT = settings.BASE_DIR / ".bundles"
UGLIFY = settings.BASE_DIR / "node_modules" / "uglify-js" / "bin" / "uglifyjs"
# Classic scripts, not modules: uglify-js takes its input for a module unless told, and then
# drops "use strict" (a module is strict anyway) and the page runs the code in sloppy mode.
# Several passes, and htmx's own build's `eval` mangling (htmx calls eval only when allowEval
# is on, which base.html turns off). `some` keeps a licence comment (/*! or @license), if any.
# `unsafe` assumes the built-ins are the browser's own (`s.charAt(i)` as `s[i]`, `0 ===
# s.indexOf(x)` as `!s.indexOf(x)`): 20 bytes fewer on the wire, 39 with the order below.
# `pure_getters` assumes reading a property does nothing else (neither htmx nor our scripts
# read one for its effect, such as a layout's `offsetHeight`): 13 bytes fewer (session 23).
UGLIFY_OPTIONS = [
    "--no-module", "--compress", "passes=3,unsafe,pure_getters", "--mangle", "eval",
    "--comments", "some",
]  # fmt: skip

# What the pages run. Every page loads one file: htmx, its settings and our scripts for a
# game at the table (see the module's docstring for why one file); a digital game and the
# new-game form load one small file more.
EVERY_PAGE = "bundles/every-page.js"
BUNDLES = {
    EVERY_PAGE: [
        "django_htmx/htmx-2.js",
        "js/htmx-settings.js",
        # brotli's order (17,215 bytes against 17,234 for the one before; session 23 moved
        # the pad after submit-on-change, 10 bytes fewer), keeping the one
        # that matters: requests.js, live.js, shell.js, outbox.js listen to the same htmx
        # events and run in this order (a stale poll's answer is refused after requests.js).
        "js/dice-pad.js",
        "js/requests.js",
        "js/live.js",
        "js/shell.js",
        "js/outbox.js",
    ],
    "bundles/dice-game.js": ["js/dice-game.js"],
    "bundles/family-choice.js": ["js/family-choice.js"],
    "bundles/print.js": ["js/print-button.js"],
    "bundles/share.js": ["js/share-button.js"],
    "bundles/phone-time.js": ["js/phone-time.js"],
}


def minified(name: str, text: str) -> str:
    """A script or style sheet of ours without its comments and spaces; anything else as is."""
    if name.endswith(".js"):
        return rjsmin.jsmin(text)
    if name.endswith(".css"):
        return QUOTED_NAME.sub(r"[\1=\2]", LEADING_ZERO.sub("", rcssmin.cssmin(text)))
    return text


# A number's leading zero, which rcssmin keeps ("0.75rem" is ".75rem"): after a property's
# colon, a space, a comma or a bracket, never inside a name (our sheets quote no numbers).
LEADING_ZERO = re.compile(r"(?<=[:\s,(/-])0(?=\.\d)")

# An attribute selector's value that is a name needs no quotes (`[scope="row"]` is
# `[scope=row]`): 10 of them, 5 bytes of every first load after brotli.
QUOTED_NAME = re.compile(r'\[([a-z-]+)="([a-z][a-z0-9-]*)"\]')


def uglified(source: str) -> str:
    """The script as uglify-js minifies it: names mangled, code compressed."""
    node = shutil.which("node")
    if node is None or not UGLIFY.exists():
        raise ImproperlyConfigured(
            "The scripts are minified by uglify-js on Node.js: install Node.js and npm, "
            "then run `make venv` (it runs `npm ci`)."
        )
    done = subprocess.run(
        [node, str(UGLIFY), *UGLIFY_OPTIONS],
        input=source,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise ImproperlyConfigured(f"uglify-js failed: {done.stderr.strip()}")
    return done.stdout


def _tool_version() -> str:
    package = UGLIFY.parent.parent / "package.json"
    return package.read_text() if package.exists() else ""


def _sources(name: str) -> str:
    """A bundle's sources joined: each ends its statements, so none runs into the next. The
    file starts "use strict": a directive counts only at a script's start, and our scripts'
    own come after htmx's code (htmx's is inside its function)."""
    parts = ['"use strict"']
    for source in BUNDLES[name]:
        found = finders.find(source)
        if found is None:
            raise ImproperlyConfigured(f"{name}: no static file {source}")
        parts.append(Path(str(found)).read_text(encoding="utf-8"))
    return ";\n".join(parts)


def built_bundle(name: str) -> Path:
    """The bundle's minified file, made again only when its sources or the options changed.
    Written to a temporary name and renamed, so a reader never sees half a file."""
    sources = _sources(name)
    recipe = "\0".join([*UGLIFY_OPTIONS, _tool_version(), sources])
    digest = hashlib.sha256(recipe.encode()).hexdigest()
    target = BUILT / name
    stamp = BUILT / f"{name}.sources"
    if target.exists() and stamp.exists() and stamp.read_text() == digest:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}")
    temporary.write_text(uglified(sources), encoding="utf-8")
    os.replace(temporary, target)
    stamp.write_text(digest)
    return target


class BundleFinder(BaseFinder):
    """Finds each bundle (made on demand) for collectstatic, whitenoise and the dev server."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.storage = FileSystemStorage(location=str(BUILT))

    def find(self, path: str, find_all: bool = False) -> Any:
        if path not in BUNDLES:
            return [] if find_all else None
        found = str(built_bundle(path))
        return [found] if find_all else found

    def list(self, ignore_patterns: Any) -> Iterator[tuple[str, FileSystemStorage]]:
        for name in BUNDLES:
            built_bundle(name)
            yield name, self.storage


def _is_ours(source: Any) -> bool:
    location = getattr(source, "location", None)
    return location is not None and Path(location).resolve() == OURS.resolve()


class MinifiedStaticFiles(CompressedManifestStaticFilesStorage):
    """collectstatic has copied every file here before post-processing: our scripts and style
    sheet are minified in place, then hashed and compressed from that copy. The bundles come
    minified already (BundleFinder)."""

    def post_process(
        self, paths: dict[str, tuple[Any, str]], dry_run: bool = False, **options: Any
    ) -> Iterator[tuple[str, str, bool]]:
        if not dry_run:
            for name, (source, _) in list(paths.items()):
                if _is_ours(source) and name.endswith((".js", ".css")):
                    copy = Path(self.path(name))
                    copy.write_text(minified(name, copy.read_text(encoding="utf-8")), "utf-8")
                    paths[name] = (self, name)
        yield from super().post_process(paths, dry_run, **options)
