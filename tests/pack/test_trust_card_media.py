"""The trust card says how heavy a pack's media is ("素材有多少 MB") counting every picture,
sound, video and font in the archive -- declared assets, panels' and presentation kits' files
alike -- and, on a line of its own, the browser code (HTML, JS, CSS) tier-2 views run. Counted
from the archive itself with the real ``lw pack build`` / ``lw pack verify``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

LW = str(Path(sys.executable).with_name("lw"))
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "blackmoor"
MEDIA = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".svg", ".avif", ".mp3", ".ogg", ".oga", ".opus", ".wav",
         ".flac", ".m4a", ".aac", ".mp4", ".webm", ".woff2", ".woff", ".ttf", ".otf")


def lw(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env.update({"LW_HOME": str(home), "LANG": "C"})
    done = subprocess.run([LW, *args], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def test_the_card_counts_every_media_file_and_the_browser_code(tmp_path: Path) -> None:
    home = tmp_path / "home"
    source = tmp_path / "blackmoor"
    shutil.copytree(EXAMPLE, source)
    (source / "ui" / "map").mkdir()
    (source / "ui" / "map" / "index.html").write_text('<!doctype html><script src="map.js"></script>', encoding="utf-8")
    (source / "ui" / "map" / "map.js").write_text("document.body.textContent = 'map';", encoding="utf-8")
    with (source / "ui" / "panels.yaml").open("a", encoding="utf-8") as f:
        f.write("  - id: map\n    title: Map\n    slot: modal\n    entry: ui/map/index.html\n"
                "    assets: [ui/map/index.html, ui/map/map.js]\n    fallback: null\n")
    lw(home, "pack", "build", str(source), "-o", str(tmp_path / "dist"))
    (archive,) = (tmp_path / "dist").glob("*.lwpack")
    with zipfile.ZipFile(archive) as z:
        members = [(i.filename, i.file_size) for i in z.infolist() if not i.is_dir()]
    media = [(n, s) for n, s in members if n.lower().endswith(MEDIA)]
    code = [(n, s) for n, s in members if n.startswith("ui/map/")]
    assert media and any(n.startswith("ui/") for n, _ in media)  # a panel's picture counts too
    assert any(n.endswith("hooks.js") for n, _ in members)  # a hook's JS: the code line, not a browser view
    card = lw(home, "pack", "verify", str(archive)).stdout
    shown = re.search(r"^media: (\d+) file\(s\), ([\d.]+) KB$", card, re.M)
    assert shown and int(shown.group(1)) == len(media), card
    assert abs(float(shown.group(2)) - sum(s for _, s in media) / 1000) < 0.051
    views = re.search(r"^browser views: (\d+) file\(s\) of HTML, JavaScript or CSS", card, re.M)
    assert views and int(views.group(1)) == len(code), card
