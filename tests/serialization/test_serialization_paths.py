"""save to a path: what happens to the file it replaces (mode, owner, group, links) and the paths it refuses.

Checks that need file permissions to apply run as user nobody in a child process when the tests run as root.
"""
import os
import pathlib
import re
import shutil
import stat
import tempfile
import traceback

import pytest

from minitorch.serialization import load, save

# ---- paths torch.save refuses --------------------------------------------------------------
# torch.save opens the path for writing. Its default (zip) writer then raises RuntimeErrors that do not
# name the file; minitorch raises what opening it does, as torch's legacy writer and open() do.

@pytest.fixture
def shared_dir():
    """A new directory anyone may write in (tmp_path's parents are private to their owner)."""
    path = pathlib.Path(tempfile.mkdtemp())
    path.chmod(0o777)
    yield path
    shutil.rmtree(path)


def unprivileged(check, groups=()):
    """Run ``check`` as a user that file permissions apply to: in a child process as nobody, a member of the
    ``groups`` too, if we are root."""
    if os.geteuid() != 0:
        check()
        return
    "".encode("cp437")  # imports the codec zipfile needs now: nobody may not be allowed to read Python's files
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            os.setgroups(list(groups))
            os.setgid(65534)
            os.setuid(65534)
            check()
            status = 0
        except BaseException:
            traceback.print_exc()
            raise
        finally:
            os._exit(status)
    assert os.waitpid(pid, 0)[1] == 0, "the check failed as user nobody (its traceback is in the captured stderr)"


def test_save_over_a_write_protected_file(shared_dir):
    path = shared_dir / "ckpt.pt"
    save({"v": 1}, path)
    path.chmod(0o444)

    def refused():
        with pytest.raises(PermissionError, match=re.escape(f"[Errno 13] Permission denied: '{path}'")):
            save({"v": 2}, path)
        assert load(path) == {"v": 1} and os.listdir(shared_dir) == ["ckpt.pt"]

    unprivileged(refused)
    if os.geteuid() == 0:  # root may write any file, and torch.save as root does
        save({"v": 3}, path)
        assert load(path) == {"v": 3} and stat.S_IMODE(path.stat().st_mode) == 0o444


def test_save_into_a_write_protected_directory(shared_dir):
    folder = shared_dir / "ro"
    folder.mkdir()
    save({"v": 1}, folder / "old.pt")
    (folder / "old.pt").chmod(0o666)
    folder.chmod(0o555)

    def refused():
        for name in ("new.pt", "old.pt"):  # torch.save writes over old.pt in place, but not atomically
            with pytest.raises(PermissionError, match=re.escape(
                    f"[Errno 13] Permission denied: no temporary file can be made in the directory {folder}, and "
                    f"saving writes one there before renaming it over the file: '{folder / name}'")):
                save({"v": 2}, folder / name)
        assert load(folder / "old.pt") == {"v": 1} and os.listdir(folder) == ["old.pt"]

    unprivileged(refused)


def test_save_to_an_empty_path_or_a_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    with pytest.raises(FileNotFoundError, match=re.escape("[Errno 2] No such file or directory: ''")):
        save({"v": 1}, "")
    with pytest.raises(IsADirectoryError, match=re.escape("[Errno 21] Is a directory: 'folder'")):
        save({"v": 1}, "folder")
    assert os.listdir(tmp_path) == ["folder"] and os.listdir(tmp_path / "folder") == []


@pytest.mark.parametrize("target", ["", "folder"])
def test_save_errors_are_those_of_torch_legacy_writer(target, tmp_path, monkeypatch):
    torch = pytest.importorskip("torch")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    with pytest.raises(OSError) as theirs:
        torch.save({"v": 1}, target, _use_new_zipfile_serialization=False)
    with pytest.raises(type(theirs.value)) as ours:
        save({"v": 1}, target)
    assert str(ours.value) == str(theirs.value)


# ---- saving over an existing file -------------------------------------------------------------------

@pytest.mark.parametrize("mode", [0o640, 0o600, 0o755], ids=oct)
def test_saving_over_a_file_keeps_its_mode(mode, tmp_path):
    path = tmp_path / "ckpt.pt"
    save({"v": 1}, path)
    path.chmod(mode)
    save({"v": 2}, path)
    assert load(path) == {"v": 2} and stat.S_IMODE(path.stat().st_mode) == mode
    assert os.listdir(tmp_path) == ["ckpt.pt"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root may give a file to another user")
def test_root_saving_over_a_users_file_keeps_its_owner_and_group(tmp_path):
    path = tmp_path / "ckpt.pt"
    save({"v": 1}, path)
    os.chown(path, 1234, 1234)
    path.chmod(0o640)
    save({"v": 2}, path)
    info = path.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (1234, 1234, 0o640)
    assert load(path) == {"v": 2}


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root may give a file to another user")
@pytest.mark.parametrize("groups, kept_group", [((), 65534), ((1234,), 1234)], ids=["not_in_group", "in_group"])
def test_saving_over_another_users_file_keeps_what_the_saver_may_set(groups, kept_group, shared_dir):
    path = shared_dir / "ckpt.pt"
    save({"v": 1}, path)
    os.chown(path, 1234, 1234)
    path.chmod(0o666)

    def replaced():  # nobody may write the file, but not give the new one to user 1234, nor to group 1234 unless in it
        save({"v": 2}, path)
        info = path.stat()
        assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (65534, kept_group, 0o666)

    unprivileged(replaced, groups)
    assert load(path) == {"v": 2}


def test_hard_links_to_a_replaced_file_keep_its_old_content(tmp_path):
    path, link = tmp_path / "ckpt.pt", tmp_path / "backup.pt"
    save({"v": 1}, path)
    os.link(path, link)
    save({"v": 2}, path)
    assert load(path) == {"v": 2} and load(link) == {"v": 1}
