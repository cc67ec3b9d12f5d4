"""A plain wheel, installed into a fresh virtual environment and run from a folder outside
the clone, finds the variants, the grammar and the schema (issue: packaging)."""
from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# one worker of a parallel run builds the one wheel of this module: two builds at once would share
# the clone's build/ folder
pytestmark = pytest.mark.xdist_group("wheel")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        pytest.skip(f"cannot build a wheel here: {r.stderr[-400:]}")
    return next(out.glob("rulekit-*.whl"))


def test_wheel_contains_data_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for vid in ("fivehundred", "rams", "bridge", "whist"):
        assert f"rulekit/variants/{vid}.yaml" in names
    assert "rulekit/grammar/rulekit.lark" in names
    assert "rulekit/schemas/variant.schema.json" in names
    assert "rulekit/cli/app.py" in names


def test_wheel_runs_outside_the_clone(wheel, tmp_path):
    """The venv is made without the base interpreter's site-packages (which
    hold none of the project's packages on a fresh machine). Its dependencies come from the
    test venv's own site-packages through a ``.pth`` line, so no network and nothing outside
    the venv that ``.ci/run`` creates; the wheel's ``rulekit`` comes first on ``sys.path``."""
    env_dir = tmp_path / "venv"
    venv.create(env_dir, system_site_packages=False, with_pip=True)
    py = env_dir / "bin" / "python"
    r = subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # A plain directory line in a .pth file adds the folder without running the editable
    # install's own .pth hooks there, so the test venv's editable rulekit stays out of sight.
    (Path(site) / "rulekit-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    code = ("import rulekit, sys; assert 'site-packages' in rulekit.__file__, rulekit.__file__;"
            "from rulekit.variant import load_variant, builtin_ids;"
            "print(len(builtin_ids()), load_variant('fivehundred-must-trump').players)")
    r = subprocess.run([str(py), "-c", code], cwd=outside, capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    count, players = r.stdout.split()
    assert int(count) >= 7 and players == "3"
    script = env_dir / "bin" / "rulekit"
    r = subprocess.run([str(script), "list"], cwd=outside, capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and "fivehundred" in r.stdout


def test_every_package_is_listed():
    """pyproject lists packages explicitly (package-dir mapping); a new sub-package must be added."""
    import tomllib
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "rulekit").rglob("__init__.py")}
    assert found <= listed, f"add to pyproject.toml packages: {sorted(found - listed)}"
