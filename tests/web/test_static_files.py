"""Our scripts and style sheet reach the phone minified, hashed and compressed; nothing
else is touched, and every minified script is still JavaScript that parses."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.files.storage import FileSystemStorage
from whitenoise.compress import Compressor

from scorecard.web import static_files
from scorecard.web.static_files import (
    BUNDLES,
    EVERY_PAGE,
    OURS,
    BundleFinder,
    MinifiedStaticFiles,
    built_bundle,
    minified,
    uglified,
)

OUR_FILES = sorted(
    str(path.relative_to(OURS))
    for pattern in ("js/*.js", "css/*.css")
    for path in OURS.glob(pattern)
)


def collect(names, into, source):
    """What collectstatic does with these files: copy each, then post-process them all."""
    storage = MinifiedStaticFiles(location=str(into), base_url="/static/")
    for name in names:
        with source.open(name) as file:
            storage.save(name, file)
    paths = {name: (source, name) for name in names}
    for _ in storage.post_process(paths):
        pass
    return storage, {name: storage.stored_name(name) for name in names}


def test_our_scripts_and_style_sheet_are_minified_then_hashed_and_compressed(tmp_path):
    storage, processed = collect(OUR_FILES, tmp_path, FileSystemStorage(location=str(OURS)))
    for name in OUR_FILES:
        text = (OURS / name).read_text()
        served = (tmp_path / processed[name]).read_text()
        assert served == minified(name, text)
        assert len(served) < 0.8 * len(text), name
        assert (tmp_path / f"{processed[name]}.br").exists()
    assert processed["css/app.css"] != "css/app.css"


def test_another_app_s_files_are_hashed_as_they_are(tmp_path):
    source_dir = tmp_path / "elsewhere"
    (source_dir / "lib").mkdir(parents=True)
    (source_dir / "lib" / "kept.js").write_text("// a licence comment\nvar kept = 1;\n")
    _, processed = collect(["lib/kept.js"], tmp_path / "root", FileSystemStorage(str(source_dir)))
    served = (tmp_path / "root" / processed["lib/kept.js"]).read_text()
    assert served == "// a licence comment\nvar kept = 1;\n"


@pytest.mark.parametrize("name", [name for name in OUR_FILES if name.endswith(".js")])
def test_every_minified_script_still_parses(name, tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = tmp_path / "minified.js"
    script.write_text(minified(name, (OURS / name).read_text()))
    checked = subprocess.run([node, "--check", str(script)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_each_bundle_is_its_sources_minified_in_one_strict_script(tmp_path):
    """A page runs one bundle: classic scripts, so uglify must not take them for modules
    (it then drops "use strict", and the code runs in sloppy mode)."""
    for name, sources in BUNDLES.items():
        built = built_bundle(name).read_text()
        assert '"use strict";' in built[:40], name  # htmx's is its function's first line
        joined = sum(len(Path(finders.find(source)).read_text()) for source in sources)
        assert len(built) < 0.8 * joined, name
        script = tmp_path / "bundle.js"
        script.write_text(built)
        node = shutil.which("node")
        checked = subprocess.run([node, "--check", str(script)], capture_output=True, text=True)
        assert checked.returncode == 0, (name, checked.stderr)


def test_a_bundle_is_made_again_when_a_source_changes(tmp_path, monkeypatch):
    sources = tmp_path / "sources"
    (sources / "js").mkdir(parents=True)
    (sources / "js" / "one.js").write_text('"use strict";\nconst greeting = "hello";\n')
    (sources / "js" / "two.js").write_text('"use strict";\ndocument.title = greeting;\n')
    monkeypatch.setattr(static_files, "BUILT", tmp_path / "built")
    monkeypatch.setattr(static_files, "BUNDLES", {"bundles/both.js": ["js/one.js", "js/two.js"]})
    monkeypatch.setattr(static_files.finders, "find", lambda name: str(sources / name))
    first = built_bundle("bundles/both.js").read_text()
    assert first == '"use strict";const greeting="hello";document.title=greeting;\n'
    (sources / "js" / "two.js").write_text('"use strict";\ndocument.title = greeting + "!";\n')
    assert built_bundle("bundles/both.js").read_text().endswith('greeting+"!";\n')


def test_the_bundles_are_found_by_the_finders_and_collected_as_they_were_made(tmp_path):
    for name in BUNDLES:
        assert not (OURS / name).exists()  # a source of the same name would hide a bundle
        assert finders.find(name) == str(built_bundle(name))
    finder = BundleFinder()
    listed = dict(finder.list(None))
    assert set(listed) == set(BUNDLES)
    storage, processed = collect(list(BUNDLES), tmp_path, finder.storage)
    for name in BUNDLES:
        assert (tmp_path / processed[name]).read_text() == built_bundle(name).read_text()
        assert (tmp_path / f"{processed[name]}.br").exists()


def test_htmx_is_minified_smaller_than_the_copy_it_comes_with_and_is_the_same_version():
    shipped = Path(finders.find("django_htmx/htmx-2.min.js")).read_bytes()
    ours = uglified(Path(finders.find("django_htmx/htmx-2.js")).read_text()).encode()
    compressor = Compressor(quiet=True)
    assert len(compressor.compress_brotli(ours)) < len(compressor.compress_brotli(shipped)) - 250
    version = re.search(rb'version:"(2\.[0-9.]+)"', shipped).group(1)
    assert b'version:"' + version + b'"' in ours
    assert b'version:"' + version + b'"' in built_bundle(EVERY_PAGE).read_bytes()


def test_the_file_every_page_loads_starts_strict_and_sets_htmx_s_settings_after_htmx():
    """A "use strict" after htmx's code would be a plain string, and our scripts would run in
    sloppy mode; htmx's settings come after htmx and before anything of ours (the browser
    test tests/browser/test_htmx_settings.py reads them in a page)."""
    built = built_bundle(EVERY_PAGE).read_text()
    assert built.startswith('"use strict";var htmx=')
    htmx_ends = built.index('version:"2.')
    settings_at = built.index("includeIndicatorStyles:!1")
    ours_begin = built.index('classList.add("scripted")')
    assert htmx_ends < settings_at < ours_begin


def test_a_style_sheet_loses_leading_zeros_and_the_quotes_a_name_needs_not():
    sheet = '.a[scope="row"] { margin: 0.3rem -0.2rem; } a[href*="/games/"] { width: 10.5em; }'
    assert minified("x.css", sheet) == (
        '.a[scope=row]{margin:.3rem -.2rem}a[href*="/games/"]{width:10.5em}'
    )
