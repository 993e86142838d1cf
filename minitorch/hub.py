"""Downloading and caching weight files as ``torch.hub`` does (its ``load_state_dict_from_url`` part).

Files are cached in the same folder as PyTorch's, ``$TORCH_HOME/hub/checkpoints`` (``$TORCH_HOME``
defaults to ``$XDG_CACHE_HOME/torch``, that is ``~/.cache/torch``), so a file that PyTorch or torchvision
already downloaded is used as it is. Downloads show a tqdm progress bar, are written to a temporary file
next to their destination that is renamed only once complete (and checked, when asked, against the
sha256 prefix in the file name ``name-<hex>.ext``), and a failed connection names the URL and the path
to put the file at by hand.
"""
from __future__ import annotations

import hashlib
import http.client
import os
import re
import sys
import urllib.error
import urllib.request
from typing import Any, BinaryIO
from urllib.parse import urlparse

from tqdm import tqdm

from minitorch import serialization

__all__ = ["download_url_to_file", "get_dir", "load_state_dict_from_url", "set_dir"]

# the sha256 prefix in a file name such as resnet18-f37072fd.pth
HASH_REGEX = re.compile(r"-([a-f0-9]*)\.")
ENV_TORCH_HOME = "TORCH_HOME"
ENV_XDG_CACHE_HOME = "XDG_CACHE_HOME"
DEFAULT_CACHE_DIR = "~/.cache"
READ_DATA_CHUNK = 128 * 1024
TIMEOUT = 60  # seconds without an answer before a download gives up
_NETWORK_ERRORS = (urllib.error.URLError, http.client.HTTPException, ConnectionError, TimeoutError)

_hub_dir: str | None = None


def _get_torch_home() -> str:
    xdg_torch = os.path.join(os.getenv(ENV_XDG_CACHE_HOME, DEFAULT_CACHE_DIR), "torch")
    return os.path.expanduser(os.getenv(ENV_TORCH_HOME, xdg_torch))


def get_dir() -> str:
    """The hub folder: the one given to ``set_dir``, else ``$TORCH_HOME/hub`` (read at each call)."""
    if _hub_dir is not None:
        return _hub_dir
    return os.path.join(_get_torch_home(), "hub")


def set_dir(d: str | os.PathLike) -> None:
    """Use the folder ``d`` as the hub folder from now on."""
    global _hub_dir
    _hub_dir = os.path.expanduser(os.fspath(d))


def download_url_to_file(url: str, dst: str | os.PathLike, hash_prefix: str | None = None,
                         progress: bool = True) -> None:
    """Download ``url`` to ``dst``, showing a progress bar on stderr when ``progress``.

    ``dst`` appears only once the whole file has arrived and, when ``hash_prefix`` is given, its sha256
    starts with it; otherwise nothing is left behind. A failed connection or an HTTP error raises
    RuntimeError naming ``url`` and ``dst``.
    """
    dst = os.path.expanduser(os.fspath(dst))
    request = urllib.request.Request(url, headers={"User-Agent": "minitorch.hub"})

    def write(fh: BinaryIO) -> None:
        sha256 = hashlib.sha256()
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            length = response.headers.get("Content-Length")
            size = int(length) if length else None
            received = 0
            with tqdm(total=size, disable=not progress, unit="B", unit_scale=True, unit_divisor=1024) as bar:
                while buffer := response.read(READ_DATA_CHUNK):
                    fh.write(buffer)
                    sha256.update(buffer)
                    received += len(buffer)
                    bar.update(len(buffer))
        # a connection closed early ends the stream without an error
        if size is not None and received != size:
            raise ConnectionError(f"the connection closed after {received} of {size} bytes")
        if hash_prefix is not None:
            digest = sha256.hexdigest()
            if digest[:len(hash_prefix)] != hash_prefix:
                raise RuntimeError(f'invalid hash value (expected "{hash_prefix}", got "{digest}")')

    try:
        serialization._write_atomically(dst, write)
    except _NETWORK_ERRORS as e:
        reason = e if isinstance(e, urllib.error.HTTPError) else getattr(e, "reason", e)
        raise RuntimeError(f"Could not download {url} ({reason}). Without network access, download the file "
                           f"elsewhere and put it at {dst}") from e


def load_state_dict_from_url(url: str, model_dir: str | None = None, map_location: Any = None,
                             progress: bool = True, check_hash: bool = False, file_name: str | None = None,
                             weights_only: bool = False) -> dict[str, Any]:
    """The object saved in the file at ``url``, from the cache when it is there, else downloaded into it.

    The cache is ``model_dir`` (default ``<get_dir()>/checkpoints``) and the file's name there is
    ``file_name`` or the URL's last part. With ``check_hash``, a download must have a sha256 that starts
    with the hex digits after the last ``-`` of that name (files already cached are not checked, as in
    PyTorch). The file is read with ``minitorch.load(map_location=..., weights_only=...)``.
    """
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    os.makedirs(model_dir, exist_ok=True)
    filename = file_name if file_name is not None else os.path.basename(urlparse(url).path)
    cached_file = os.path.join(model_dir, filename)
    if not os.path.exists(cached_file):
        sys.stdout.write(f'Downloading: "{url}" to {cached_file}\n')
        hash_prefix = None
        if check_hash:
            match = HASH_REGEX.search(filename)
            hash_prefix = match.group(1) if match else None
        download_url_to_file(url, cached_file, hash_prefix, progress=progress)
    return serialization.load(cached_file, map_location=map_location, weights_only=weights_only)
