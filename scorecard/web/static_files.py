"""Static files as a phone downloads them: whitenoise's hashed names and brotli copies, with
our scripts in one minified bundle per kind of page and our style sheets minified.

A page loads htmx and one bundle of ours (BUNDLES), never six small scripts: each file a
phone fetches pays brotli's overhead and starts without the words the others taught it, and
our six scripts were 3,994 bytes apart against 3,217 joined. uglify-js (pinned in
package.json, installed by `make`) mangles and compresses each bundle, htmx included: its
own build only mangles. BundleFinder makes a bundle when it is asked for and its sources or
the tool's options changed, so collectstatic, `runserver` and the browser tests all serve
the same minified code a phone gets.

rcssmin takes comments and spaces out of our style sheets at collectstatic; the scripts we
write stay readable, with their comments, in static/js (the bundles' sources).
"""

import hashlib
import os
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
UGLIFY_OPTIONS = ["--no-module", "--compress", "passes=3", "--mangle", "eval", "--comments", "some"]

# What each kind of page runs, in order. htmx is a bundle of its own: the same file on every
# page, so a phone keeps it from one page to the next.
_EVERY_PAGE = ["js/requests.js"]
_GAME_PAGE = [*_EVERY_PAGE, "js/live.js", "js/shell.js"]
_SCORING = ["js/submit-on-change.js", "js/outbox.js"]
BUNDLES = {
    "bundles/htmx-2.js": ["django_htmx/htmx-2.js"],
    "bundles/page.js": _EVERY_PAGE,
    "bundles/new-game.js": [*_EVERY_PAGE, "js/family-choice.js"],
    "bundles/live-sheet.js": [*_EVERY_PAGE, "js/live.js"],
    "bundles/game-watched.js": _GAME_PAGE,
    "bundles/game-at-table.js": [*_GAME_PAGE, "js/dice-pad.js", *_SCORING],
    "bundles/game-digital.js": [*_GAME_PAGE, "js/dice-game.js", *_SCORING],
}


def minified(name: str, text: str) -> str:
    """A script or style sheet of ours without its comments and spaces; anything else as is."""
    if name.endswith(".js"):
        return rjsmin.jsmin(text)
    if name.endswith(".css"):
        return rcssmin.cssmin(text)
    return text


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
    """A bundle's sources joined: each ends its statements, so none runs into the next."""
    parts = []
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
