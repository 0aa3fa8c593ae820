"""Our scripts and style sheet reach the phone minified, hashed and compressed; nothing
else is touched, and every minified script is still JavaScript that parses."""

import shutil
import subprocess

import pytest
from django.core.files.storage import FileSystemStorage

from scorecard.web.static_files import OURS, MinifiedStaticFiles, minified

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
