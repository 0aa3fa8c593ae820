"""Static files as a phone downloads them: whitenoise's hashed names and brotli copies, with
our own scripts and style sheet minified first.

Our files keep their comments, which say why; on the wire they were a quarter of our
scripts' brotli bytes (about 3 KB of a game page's first load). rjsmin and rcssmin only take
out comments and spaces, and `node --check` reads every minified script in the tests.
Third-party files (htmx, the admin's) come minified or are left as they are.
"""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import rcssmin
import rjsmin
from django.conf import settings
from whitenoise.storage import CompressedManifestStaticFilesStorage

OURS = settings.BASE_DIR / "static"


def minified(name: str, text: str) -> str:
    """A script or style sheet of ours without its comments and spaces; anything else as is."""
    if name.endswith(".js"):
        return rjsmin.jsmin(text)
    if name.endswith(".css"):
        return rcssmin.cssmin(text)
    return text


def _is_ours(source: Any) -> bool:
    location = getattr(source, "location", None)
    return location is not None and Path(location).resolve() == OURS.resolve()


class MinifiedStaticFiles(CompressedManifestStaticFilesStorage):
    """collectstatic has copied every file here before post-processing: our scripts and style
    sheet are minified in place, then hashed and compressed from that copy."""

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
