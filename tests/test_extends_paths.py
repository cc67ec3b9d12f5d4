"""``extends:`` opens only files under the house file's folder or ``RULEKIT_PATH``."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rulekit.variant import check_file, load_variant

ROOT = Path(__file__).parent.parent


def only(ds):
    assert len(ds) == 1, [str(d) for d in ds]
    return ds[0]


@pytest.fixture
def folders(tmp_path):
    (tmp_path / "house").mkdir()
    (tmp_path / "base").mkdir()
    shutil.copy(ROOT / "variants" / "fivehundred.yaml", tmp_path / "base" / "five.yaml")
    # a secret beside the house file and a foreign file that looks like YAML
    (tmp_path / "house" / ".env").write_text("PASSWORD=hunter2\n")
    (tmp_path / "secret.yaml").write_text("password: hunter2\n")
    return tmp_path


def test_absolute_path_is_refused_unread(folders, monkeypatch):
    """`extends: /abs/file` outside the folder is refused at the extends: line and
    none of its lines is printed."""
    f = folders / "house" / "h.yaml"
    f.write_text(f"id: h\nextends: {folders / 'secret.yaml'}\n")
    d = only(check_file(str(f)))
    assert (d.file, d.line, d.column, d.path) == (str(f), 2, 10, "extends")
    assert "lies outside the folders a variant may extend from; it is not opened" in d.message
    assert "hunter2" not in str(d) and "password" not in str(d)


def test_etc_shadow_is_never_opened(tmp_path, monkeypatch):
    """`extends: /etc/shadow` (readable or not) is refused without opening it."""
    opened = []
    real_read = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: opened.append(str(self)) or real_read(self))
    f = tmp_path / "h.yaml"
    f.write_text("id: h\nextends: /etc/shadow\n")
    d = only(check_file(str(f)))
    assert "'/etc/shadow' lies outside" in d.message and (d.line, d.column) == (2, 10)
    assert opened == [str(f)]


def test_dot_dot_leaving_the_folder_is_refused(folders):
    """`../` out of the house file's folder is refused ..."""
    f = folders / "house" / "h.yaml"
    f.write_text("id: h\nextends: ../secret.yaml\n")
    d = only(check_file(str(f)))
    assert "'../secret.yaml' lies outside" in d.message
    assert "hunter2" not in str(d)


def test_dot_env_is_not_a_variant_file(folders):
    """`extends: ./.env` (inside the folder, not .yaml) is refused unread, so the
    password line is not printed."""
    f = folders / "house" / "h.yaml"
    f.write_text("id: h\nextends: ./.env\n")
    d = only(check_file(str(f)))
    assert d.message == ("base variant './.env' is not a .yaml file; it is not opened "
                         "(expected an installed id or a variant .yaml file)")
    assert "hunter2" not in str(d)


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_symlink_beside_the_file_to_a_foreign_file_is_refused(folders):
    """A link inside the folder that points outside it is judged by its target."""
    (folders / "house" / "base.yaml").symlink_to(folders / "secret.yaml")
    f = folders / "house" / "h.yaml"
    f.write_text("id: h\nextends: base.yaml\n")
    d = only(check_file(str(f)))
    assert "'base.yaml' lies outside" in d.message and "hunter2" not in str(d)


def test_rulekit_path_allows_a_shared_base_folder(folders, monkeypatch):
    """A folder named in RULEKIT_PATH may be extended from, by path or by bare name."""
    f = folders / "house" / "h.yaml"
    f.write_text("id: h\nextends: ../base/five.yaml\nmatch:\n  target: 300\n")
    assert check_file(str(f))                           # refused without the search path
    monkeypatch.setenv("RULEKIT_PATH", str(folders / "base"))
    assert check_file(str(f)) == []
    f.write_text("id: h\nextends: five\nmatch:\n  target: 300\n")
    v = load_variant(str(f))
    assert v.match.target == 300 and v.players == 3


def test_files_in_subfolders_and_installed_ids_still_work(folders):
    """The ordinary cases are unchanged: a base under the folder, an installed id."""
    (folders / "house" / "sub").mkdir()
    shutil.copy(folders / "base" / "five.yaml", folders / "house" / "sub" / "five.yaml")
    f = folders / "house" / "h.yaml"
    f.write_text("id: h\nextends: sub/five.yaml\n")
    assert check_file(str(f)) == []
    f.write_text("id: h\nextends: fivehundred\n")
    assert check_file(str(f)) == []


def test_a_broken_allowed_base_is_still_quoted(folders):
    """A .yaml base under the folder is a variant file: its problems keep their
    position and excerpt."""
    (folders / "house" / "b.yaml").write_text("id: b\nname: B\nmatch: {target: 1 2}\n")
    f = folders / "house" / "h.yaml"
    f.write_text("id: h\nextends: b.yaml\n")
    ds = check_file(str(f))
    assert any(d.file.endswith("b.yaml") and d.line == 3 and "1 2" in str(d) for d in ds), [str(d) for d in ds]
