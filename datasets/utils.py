"""Downloading, checking and extracting dataset files, as ``torchvision.datasets.utils`` (standard library only)."""
from __future__ import annotations

import gzip
import hashlib
import http.client
import os
import shutil
import tarfile
import urllib.error
import urllib.request

from tqdm import tqdm

USER_AGENT = "minitorch"
TIMEOUT = 60  # seconds without an answer before a download gives up
# What a failed connection or transfer raises; dataset classes turn these into "place the files here" errors.
NETWORK_ERRORS = (urllib.error.URLError, http.client.HTTPException, ConnectionError, TimeoutError)

_TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz", ".tar.xz", ".txz")


def calculate_md5(fpath: str | os.PathLike, chunk_size: int = 1024 * 1024) -> str:
    md5 = hashlib.md5(usedforsecurity=False)
    with open(fpath, "rb") as f:
        while chunk := f.read(chunk_size):
            md5.update(chunk)
    return md5.hexdigest()


def check_md5(fpath: str | os.PathLike, md5: str) -> bool:
    return md5 == calculate_md5(fpath)


def check_integrity(fpath: str | os.PathLike, md5: str | None = None) -> bool:
    """True if ``fpath`` is a file and, when ``md5`` is given, has that checksum."""
    if not os.path.isfile(fpath):
        return False
    return md5 is None or check_md5(fpath, md5)


def download_url(url: str, root: str | os.PathLike, filename: str | None = None, md5: str | None = None) -> None:
    """Download ``url`` to ``root/filename`` with a progress bar, unless a file with that ``md5`` is already there.

    The file appears only once complete and verified; a checksum mismatch raises RuntimeError.
    """
    root = os.path.expanduser(root)
    fpath = os.path.join(root, filename or os.path.basename(url))
    os.makedirs(root, exist_ok=True)
    if check_integrity(fpath, md5):
        return
    partial = fpath + ".partial"
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response, open(partial, "wb") as f, \
                tqdm(total=response.length, desc=os.path.basename(fpath), unit="B", unit_scale=True,
                     unit_divisor=1024, disable=None) as bar:
            while chunk := response.read(1024 * 64):
                f.write(chunk)
                bar.update(len(chunk))
        if not check_integrity(partial, md5):
            raise RuntimeError(f"File not found or corrupted: {url} has md5 {calculate_md5(partial)}, "
                               f"expected {md5}.")
        os.replace(partial, fpath)
    finally:
        if os.path.exists(partial):
            os.remove(partial)


def _extract_tar(from_path: str, to_path: str) -> None:
    """Extract regular files and folders only, refusing links, devices and paths that leave ``to_path``."""
    dest = os.path.realpath(to_path)
    with tarfile.open(from_path) as tar:
        members = tar.getmembers()
        for member in members:
            target = os.path.realpath(os.path.join(dest, member.name))
            if os.path.commonpath([dest, target]) != dest:
                raise RuntimeError(f"Refusing to extract {from_path}: member {member.name!r} would be written "
                                   f"outside {dest}")
            if not (member.isfile() or member.isdir()):
                raise RuntimeError(f"Refusing to extract {from_path}: member {member.name!r} is not a regular file "
                                   "or folder")
        for member in members:
            target = os.path.join(dest, member.name)
            if member.isdir():
                os.makedirs(target, exist_ok=True)
                continue
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with tar.extractfile(member) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)


def extract_archive(from_path: str | os.PathLike, to_path: str | os.PathLike | None = None,
                    remove_finished: bool = False) -> str:
    """Extract a tar archive (plain or compressed) or decompress a ``.gz`` file into ``to_path``; returns it."""
    from_path = os.fspath(from_path)
    to_path = os.path.dirname(from_path) if to_path is None else os.fspath(to_path)
    name = os.path.basename(from_path)
    if name.endswith(_TAR_SUFFIXES):
        _extract_tar(from_path, to_path)
    elif name.endswith(".gz"):
        with gzip.open(from_path, "rb") as src, open(os.path.join(to_path, name[:-3]), "wb") as dst:
            shutil.copyfileobj(src, dst)
    else:
        raise RuntimeError(f"Archive type of {from_path} is not supported: expected one of "
                           f"{', '.join(_TAR_SUFFIXES)} or .gz")
    if remove_finished:
        os.remove(from_path)
    return to_path


def download_and_extract_archive(url: str, download_root: str | os.PathLike,
                                 extract_root: str | os.PathLike | None = None, filename: str | None = None,
                                 md5: str | None = None, remove_finished: bool = False) -> None:
    """``download_url`` then ``extract_archive`` (into ``download_root`` unless ``extract_root`` is given)."""
    download_root = os.path.expanduser(download_root)
    filename = filename or os.path.basename(url)
    download_url(url, download_root, filename, md5)
    extract_archive(os.path.join(download_root, filename), extract_root or download_root, remove_finished)
