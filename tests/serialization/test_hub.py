"""minitorch.hub: PyTorch's cache folder, downloads from a local HTTP server (progress, hash check, atomic
writes, offline errors) and the cache used without a server. No test needs the internet."""
import functools
import hashlib
import http.server
import os
import pathlib
import re
import shutil
import socket
import threading

import pytest

import minitorch
from minitorch import hub
from minitorch.models import Weights, WeightsEnum
from locations import FIXTURES

# a state_dict written by torch.save (zip format), from tests/fixtures/make_torch_fixtures.py
FIXTURE = FIXTURES / "state_dict_zip.pt"
DIGEST = hashlib.sha256(FIXTURE.read_bytes()).hexdigest()
NAME = f"weights-{DIGEST[:8]}.pt"


@pytest.fixture
def torch_home(tmp_path, monkeypatch):
    """A fresh ``$TORCH_HOME``; returns its ``hub/checkpoints`` folder (not created)."""
    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "torch"))
    monkeypatch.setattr(hub, "_hub_dir", None)
    return tmp_path / "torch" / "hub" / "checkpoints"


class _Handler(http.server.SimpleHTTPRequestHandler):
    requests: list[str]
    truncate: bool

    def do_GET(self):
        self.requests.append(self.path)
        if self.truncate and self.path.endswith(".pt"):
            data = (pathlib.Path(self.directory) / self.path.lstrip("/")).read_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[:len(data) // 2])  # and the connection closes
            return
        super().do_GET()

    def log_message(self, *args):
        pass


@pytest.fixture
def server(tmp_path):
    """A local HTTP server for the folder ``served``, with ``NAME`` (the fixture) and ``weights-deadbeef.pt``
    (the same bytes under a wrong hash) in it. ``server.url(name)``, ``server.requests``, ``server.truncate``."""
    served = tmp_path / "served"
    served.mkdir()
    shutil.copy(FIXTURE, served / NAME)
    shutil.copy(FIXTURE, served / "weights-deadbeef.pt")
    handler = type("Handler", (_Handler,), {"requests": [], "truncate": False})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(served)))
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    httpd.handler = handler
    httpd.url = lambda name: f"http://127.0.0.1:{httpd.server_address[1]}/{name}"
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def closed_port_url(name):
    """A URL on 127.0.0.1 where nothing listens: the connection is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/{name}"


def assert_fixture(state):
    expected = minitorch.load(FIXTURE)
    assert list(state) == list(expected) and all(minitorch.equal(state[k], v) for k, v in expected.items())


def test_get_dir_is_pytorchs_cache_folder(monkeypatch, tmp_path):
    monkeypatch.setattr(hub, "_hub_dir", None)
    monkeypatch.delenv("TORCH_HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert hub.get_dir() == os.path.expanduser(os.path.join("~", ".cache", "torch", "hub"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert hub.get_dir() == str(tmp_path / "xdg" / "torch" / "hub")
    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "th"))
    assert hub.get_dir() == str(tmp_path / "th" / "hub")
    hub.set_dir(tmp_path / "mine")
    assert hub.get_dir() == str(tmp_path / "mine")


@pytest.mark.parametrize("env", [{}, {"XDG_CACHE_HOME": "/x"}, {"TORCH_HOME": "~/th"}])
def test_get_dir_agrees_with_torch(monkeypatch, env):
    torch = pytest.importorskip("torch")
    monkeypatch.setattr(hub, "_hub_dir", None)
    for name in ("TORCH_HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert hub.get_dir() == torch.hub.get_dir()


def test_download_shows_progress_checks_the_hash_and_caches(torch_home, server, capsys):
    url = server.url(NAME)
    state = hub.load_state_dict_from_url(url, check_hash=True)
    assert_fixture(state)
    out, err = capsys.readouterr()
    cached = torch_home / NAME
    assert out == f'Downloading: "{url}" to {cached}\n'
    size = FIXTURE.stat().st_size
    assert "100%" in err and f"{size / 1024:.2f}k/{size / 1024:.2f}k" in err  # tqdm's bar, in KiB
    assert sorted(os.listdir(torch_home)) == [NAME] and cached.read_bytes() == FIXTURE.read_bytes()
    # the second time: from the cache, without a request
    assert_fixture(hub.load_state_dict_from_url(url, check_hash=True))
    assert server.handler.requests == [f"/{NAME}"] and capsys.readouterr() == ("", "")


def test_progress_false_prints_no_bar(torch_home, server, capsys):
    hub.load_state_dict_from_url(server.url(NAME), progress=False, file_name="other.pt")
    out, err = capsys.readouterr()
    assert out.startswith("Downloading: ") and err == ""
    assert os.listdir(torch_home) == ["other.pt"]


def test_wrong_hash_is_refused_and_leaves_nothing(torch_home, server):
    expected = re.escape(f'invalid hash value (expected "deadbeef", got "{DIGEST}")')
    with pytest.raises(RuntimeError, match=expected):
        hub.load_state_dict_from_url(server.url("weights-deadbeef.pt"), check_hash=True, progress=False)
    assert os.listdir(torch_home) == []
    # without check_hash the name's hash is not looked at, as in PyTorch
    assert_fixture(hub.load_state_dict_from_url(server.url("weights-deadbeef.pt"), progress=False))


def test_download_url_to_file_checks_a_hash_prefix(tmp_path, server):
    dst = tmp_path / "out.pt"
    hub.download_url_to_file(server.url(NAME), dst, hash_prefix=DIGEST[:12], progress=False)
    assert dst.read_bytes() == FIXTURE.read_bytes()
    dst.write_bytes(b"the old file")
    with pytest.raises(RuntimeError, match="invalid hash value"):
        hub.download_url_to_file(server.url(NAME), dst, hash_prefix="0" * 8, progress=False)
    assert dst.read_bytes() == b"the old file" and os.listdir(tmp_path) == ["out.pt", "served"]


def test_a_broken_transfer_leaves_no_partial_file(torch_home, server, tmp_path):
    server.handler.truncate = True
    url = server.url(NAME)
    with pytest.raises(RuntimeError, match=re.escape(f"Could not download {url} (the connection closed after ")):
        hub.load_state_dict_from_url(url, progress=False)
    assert os.listdir(torch_home) == []
    dst = tmp_path / "kept.pt"
    dst.write_bytes(b"complete")
    with pytest.raises(RuntimeError, match="the connection closed after"):
        hub.download_url_to_file(url, dst, progress=False)
    assert dst.read_bytes() == b"complete" and sorted(os.listdir(tmp_path)) == ["kept.pt", "served", "torch"]


def test_no_network_names_the_url_and_where_to_put_the_file(torch_home):
    url = closed_port_url(NAME)
    expected = re.escape(f"Could not download {url} (") + ".*" + re.escape(
        f"). Without network access, download the file elsewhere and put it at {torch_home / NAME}")
    with pytest.raises(RuntimeError, match=expected):
        hub.load_state_dict_from_url(url)
    assert os.listdir(torch_home) == []


def test_http_error_names_the_url(torch_home, server):
    url = server.url("missing-0123abcd.pth")
    with pytest.raises(RuntimeError, match=re.escape(f"Could not download {url} (HTTP Error 404: ")):
        hub.load_state_dict_from_url(url, progress=False)


def test_cached_file_is_used_without_a_server(torch_home, tmp_path):
    torch_home.mkdir(parents=True)
    shutil.copy(FIXTURE, torch_home / NAME)
    assert_fixture(hub.load_state_dict_from_url(closed_port_url(NAME), check_hash=True))
    shutil.copy(FIXTURE, tmp_path / "elsewhere.pt")
    assert_fixture(hub.load_state_dict_from_url(closed_port_url(NAME), model_dir=str(tmp_path),
                                                file_name="elsewhere.pt"))


def test_downloaded_weights_entry_goes_through_the_hub(torch_home, server):
    """A weights enum entry with a URL: ``get_state_dict`` downloads into the hub cache, hash checked."""
    class Local_Weights(WeightsEnum):
        GOOD = Weights(url=server.url(NAME), transforms=None, meta={})
        BAD = Weights(url=server.url("weights-deadbeef.pt"), transforms=None, meta={})

    assert Local_Weights.GOOD.file == NAME and Local_Weights.GOOD.path == torch_home / NAME
    assert_fixture(Local_Weights.GOOD.get_state_dict(progress=False))
    with pytest.raises(RuntimeError, match="invalid hash value"):
        Local_Weights.BAD.get_state_dict(progress=False)
    assert_fixture(Local_Weights.BAD.get_state_dict(progress=False, check_hash=False))
