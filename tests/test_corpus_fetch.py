"""Fetching source distributions from a fake package index on 127.0.0.1 (marked slow: the real one)."""

from __future__ import annotations

import hashlib
import io
import json
import socket
import tarfile
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from dure.cache import cache_root
from dure.cli import main
from dure.corpus import (
    PackageSpec,
    Repository,
    cached_root,
    fetch_many,
    fetch_package,
    list_cached,
    load_manifest,
    resolve_repositories,
)
from dure.corpus.fetch import MARKER
from dure.errors import FetchError, PackageNotFoundError, UnknownPackageError

FILES = {"demo-1.0/pyproject.toml": b"[project]\nname = 'demo'\n", "demo-1.0/demo/__init__.py": b"X = 1\n"}


def make_tar(files: dict[str, bytes], *, links: dict[str, str] | None = None) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for name, target in (links or {}).items():
            info = tarfile.TarInfo(name)
            info.type = tarfile.SYMTYPE
            info.linkname = target
            tar.addfile(info)
    return buffer.getvalue()


def make_zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as bundle:
        for name, data in files.items():
            bundle.writestr(name, data)
    return buffer.getvalue()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def spec_for(data: bytes, *, name: str = "demo", version: str = "1.0") -> PackageSpec:
    return PackageSpec(
        name=name, version=version, sha256=sha(data), domain="test", has_tests=False, tests=None
    )


@dataclass
class FakeIndex:
    """A simple-API index serving ``routes`` (path -> (content type, body)); everything else is a 404."""

    server: ThreadingHTTPServer
    routes: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)
    thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/simple/"

    def publish(self, filename: str, data: bytes, *, html: bool = False, name: str = "demo") -> None:
        """List ``filename`` (next to a wheel that must be ignored) on the project page of ``name``."""
        wheel = filename.removesuffix(".tar.gz").removesuffix(".zip") + "-py3-none-any.whl"
        self.routes[f"/files/{filename}"] = ("application/octet-stream", data)
        if html:
            anchors = "".join(
                f'<a href="../../files/{each}#sha256={sha(data)}">{each}</a><br/>'
                for each in (wheel, filename)
            )
            self.routes[f"/simple/{name}/"] = ("text/html", f"<html><body>{anchors}</body></html>".encode())
            return
        entries = [
            {"filename": each, "url": f"../../files/{each}", "hashes": {"sha256": sha(data)}}
            for each in (wheel, filename)
        ]
        page = {"meta": {"api-version": "1.1"}, "name": name, "files": entries}
        self.routes[f"/simple/{name}/"] = ("application/vnd.pypi.simple.v1+json", json.dumps(page).encode())

    def stop(self) -> None:
        if self.thread is not None:
            self.server.shutdown()
            self.thread.join()
            self.thread = None
        self.server.server_close()


@pytest.fixture
def index(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeIndex]:
    for variable in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(variable, raising=False)  # 127.0.0.1 must be reached directly
    fake: FakeIndex

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            fake.requests.append(self.path)
            route = fake.routes.get(self.path)
            if route is None:
                self.send_error(404)
                return
            content_type, body = route
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    fake = FakeIndex(ThreadingHTTPServer(("127.0.0.1", 0), Handler))
    fake.thread = threading.Thread(target=fake.server.serve_forever, args=(0.02,), daemon=True)
    fake.thread.start()
    yield fake
    fake.stop()


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def files_in(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if not path.is_dir()] if folder.exists() else []


# --- success, idempotency, offline ----------------------------------------------------------------


def test_fetch_unpacks_the_sdist_root(index: FakeIndex, cache: Path) -> None:
    data = make_tar(FILES)
    index.publish("demo-1.0.tar.gz", data)
    root = fetch_package(spec_for(data), cache=cache, index=index.url)
    assert root == cache / "sources" / "demo-1.0"
    assert (root / "demo" / "__init__.py").read_bytes() == b"X = 1\n"
    assert json.loads((root / MARKER).read_text())["sha256"] == sha(data)
    assert not (cache / "tmp").exists()
    assert index.requests == ["/simple/demo/", "/files/demo-1.0.tar.gz"]


def test_second_fetch_needs_no_network(index: FakeIndex, cache: Path) -> None:
    data = make_tar(FILES)
    index.publish("demo-1.0.tar.gz", data)
    spec = spec_for(data)
    first = fetch_package(spec, cache=cache, index=index.url)
    index.stop()
    assert fetch_package(spec, cache=cache, index=index.url) == first
    assert cached_root(spec, cache=cache) == first
    assert [(source.name, source.version, source.root) for source in list_cached(cache)] == [
        ("demo", "1.0", first)
    ]


def test_progress_is_reported(index: FakeIndex, cache: Path) -> None:
    data = make_tar(FILES)
    index.publish("demo-1.0.tar.gz", data)
    messages: list[str] = []
    fetch_package(spec_for(data), cache=cache, index=index.url, progress=messages.append)
    assert len(messages) == 1
    assert messages[0].startswith("fetching demo 1.0 from http://127.0.0.1:")


def test_html_index_pages_work(index: FakeIndex, cache: Path) -> None:
    data = make_tar(FILES)
    index.publish("demo-1.0.tar.gz", data, html=True)
    root = fetch_package(spec_for(data), cache=cache, index=index.url)
    assert (root / "demo" / "__init__.py").is_file()


def test_zip_sdist_and_normalised_file_names(index: FakeIndex, cache: Path) -> None:
    data = make_zip({"Demo_Pkg-1.0/demo_pkg.py": b"Y = 2\n"})
    index.publish("Demo_Pkg-1.0.zip", data, name="demo-pkg")
    root = fetch_package(spec_for(data, name="Demo.Pkg"), cache=cache, index=index.url)
    assert root == cache / "sources" / "demo-pkg-1.0"
    assert (root / "demo_pkg.py").read_bytes() == b"Y = 2\n"


def test_stale_tree_without_marker_is_replaced(index: FakeIndex, cache: Path) -> None:
    data = make_tar(FILES)
    index.publish("demo-1.0.tar.gz", data)
    stale = cache / "sources" / "demo-1.0"
    stale.mkdir(parents=True)
    (stale / "junk.txt").write_text("half a tree")
    root = fetch_package(spec_for(data), cache=cache, index=index.url)
    assert not (root / "junk.txt").exists()
    assert (root / "demo" / "__init__.py").is_file()
    assert not (cache / "tmp").exists()


def test_two_concurrent_fetches_agree(index: FakeIndex, cache: Path) -> None:
    data = make_tar(FILES)
    index.publish("demo-1.0.tar.gz", data)
    spec = spec_for(data)
    results: list[Path | BaseException] = []

    def run() -> None:
        try:
            results.append(fetch_package(spec, cache=cache, index=index.url))
        except BaseException as problem:  # reported through the assertion below
            results.append(problem)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [cache / "sources" / "demo-1.0"] * 4
    assert sorted(path.name for path in (cache / "sources").iterdir()) == ["demo-1.0"]
    assert not (cache / "tmp").exists()


# --- failures leave the cache clean ---------------------------------------------------------------


def test_sha_mismatch_leaves_the_cache_clean(index: FakeIndex, cache: Path) -> None:
    data = make_tar(FILES)
    index.publish("demo-1.0.tar.gz", data)
    spec = spec_for(make_tar({"demo-1.0/other.py": b""}))
    with pytest.raises(FetchError, match="sha256 mismatch") as caught:
        fetch_package(spec, cache=cache, index=index.url)
    assert caught.value.package == "demo"
    assert files_in(cache) == []
    assert not (cache / "sources" / "demo-1.0").exists()
    assert not (cache / "tmp").exists()


def test_unknown_package_is_a_404(index: FakeIndex, cache: Path) -> None:
    with pytest.raises(PackageNotFoundError, match="HTTP 404"):
        fetch_package(spec_for(b"x", name="nothing"), cache=cache, index=index.url)
    assert files_in(cache) == []


def test_unknown_version_is_not_found(index: FakeIndex, cache: Path) -> None:
    data = make_tar(FILES)
    index.publish("demo-1.0.tar.gz", data)
    with pytest.raises(PackageNotFoundError, match=r"no source distribution of version 2\.0"):
        fetch_package(spec_for(data, version="2.0"), cache=cache, index=index.url)
    assert files_in(cache) == []


def test_connection_refused_is_no_network(cache: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(FetchError, match=r"no network: cannot reach 127\.0\.0\.1"):
        fetch_package(spec_for(b"x"), cache=cache, index=f"http://127.0.0.1:{port}/simple/")
    assert files_in(cache) == []


def test_missing_file_on_the_index(index: FakeIndex, cache: Path) -> None:
    data = make_tar(FILES)
    index.publish("demo-1.0.tar.gz", data)
    del index.routes["/files/demo-1.0.tar.gz"]
    with pytest.raises(PackageNotFoundError):
        fetch_package(spec_for(data), cache=cache, index=index.url)
    assert files_in(cache) == []


@pytest.mark.parametrize(
    "archive",
    [
        pytest.param(make_tar({**FILES, "demo-1.0/../../evil.py": b"boom"}), id="dotdot"),
        pytest.param(make_tar({**FILES, "/tmp/evil.py": b"boom"}), id="absolute"),
        pytest.param(make_tar(FILES, links={"demo-1.0/passwd": "/etc/passwd"}), id="absolute-link"),
        pytest.param(make_tar(FILES, links={"demo-1.0/up": "../../../.."}), id="escaping-link"),
    ],
)
def test_unsafe_tarball_is_rejected(index: FakeIndex, cache: Path, tmp_path: Path, archive: bytes) -> None:
    index.publish("demo-1.0.tar.gz", archive)
    with pytest.raises(FetchError, match="unsafe archive"):
        fetch_package(spec_for(archive), cache=cache, index=index.url)
    assert files_in(cache) == []
    assert not (tmp_path / "evil.py").exists()


def test_unsafe_zip_is_rejected(index: FakeIndex, cache: Path) -> None:
    archive = make_zip({"demo-1.0/ok.py": b"", "demo-1.0/../../evil.py": b"boom"})
    index.publish("demo-1.0.zip", archive)
    with pytest.raises(FetchError, match="unsafe archive"):
        fetch_package(spec_for(archive), cache=cache, index=index.url)
    assert files_in(cache) == []


def test_corrupt_archive_is_an_error(index: FakeIndex, cache: Path) -> None:
    archive = b"not a tarball at all"
    index.publish("demo-1.0.tar.gz", archive)
    with pytest.raises(FetchError, match="cannot unpack"):
        fetch_package(spec_for(archive), cache=cache, index=index.url)
    assert files_in(cache) == []


# --- resolving targets, and the command line ------------------------------------------------------


def write_manifest(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "fake.toml"
    path.write_text(
        f'[corpus]\nname = "fake"\n\n[[package]]\nname = "demo"\nversion = "1.0"\nsha256 = "{sha(data)}"\n'
        'domain = "test"\nhas_tests = false\n'
    )
    return path


def test_resolve_a_manifest_file(index: FakeIndex, cache: Path, tmp_path: Path) -> None:
    data = make_tar(FILES)
    index.publish("demo-1.0.tar.gz", data)
    manifest = write_manifest(tmp_path, data)
    (repository,) = resolve_repositories(str(manifest), cache=cache, index=index.url)
    assert repository == Repository(
        "demo", "1.0", cache / "sources" / "demo-1.0", load_manifest(manifest).packages[0]
    )
    by_name = resolve_repositories("demo", corpus=manifest, cache=cache, index=index.url)
    assert by_name == [repository]


def test_resolve_a_local_directory(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    assert resolve_repositories(str(tmp_path / "mine")) == [Repository("mine", None, tmp_path / "mine")]


def test_resolve_unknown_target(tmp_path: Path) -> None:
    with pytest.raises(UnknownPackageError, match="'no-such-package'"):
        resolve_repositories("no-such-package", cache=tmp_path)


def test_fetch_many_collects_errors(index: FakeIndex, cache: Path) -> None:
    data = make_tar(FILES)
    index.publish("demo-1.0.tar.gz", data)
    good, bad = spec_for(data), spec_for(data, name="missing")
    outcomes = fetch_many([bad, good], cache=cache, index=index.url)
    assert [outcome.root for outcome in outcomes] == [None, cache / "sources" / "demo-1.0"]
    assert isinstance(outcomes[0].error, PackageNotFoundError)


def test_cli_fetch_and_list(
    index: FakeIndex,
    cache: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = make_tar(FILES)
    index.publish("demo-1.0.tar.gz", data)
    manifest = write_manifest(tmp_path, data)
    monkeypatch.setenv("DURE_CACHE", str(cache))
    monkeypatch.setenv("DURE_INDEX_URL", index.url)
    assert main(["corpus", "fetch", "--corpus", str(manifest)]) == 0
    out, err = capsys.readouterr()
    assert out == f"demo\t1.0\t{cache / 'sources' / 'demo-1.0'}\n"
    assert "fetching demo 1.0" in err
    index.stop()
    assert main(["corpus", "list", "--corpus", str(manifest)]) == 0
    out, err = capsys.readouterr()
    assert f"demo\t1.0\tcached\tno-tests\t{cache / 'sources' / 'demo-1.0'}" in out.splitlines()
    assert "1 of 1 packages cached" in err


def test_cli_errors(
    index: FakeIndex,
    cache: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DURE_CACHE", str(cache))
    monkeypatch.setenv("DURE_INDEX_URL", index.url)
    assert main(["corpus", "fetch", "no-such-package"]) == 3
    assert "dure: error: unknown package 'no-such-package'" in capsys.readouterr().err
    manifest = write_manifest(tmp_path, b"unpublished")
    assert main(["corpus", "fetch", "--corpus", str(manifest)]) == 1
    err = capsys.readouterr().err
    assert "dure: error: demo: not found on the package index" in err
    assert "1 of 1 packages could not be fetched" in err
    assert main(["corpus", "fetch", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"{tmp_path.name}\tlocal\t{tmp_path}\n"


# --- the cache root -------------------------------------------------------------------------------


def test_cache_root_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DURE_CACHE", str(tmp_path / "a"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "b"))
    assert cache_root() == tmp_path / "a"
    monkeypatch.delenv("DURE_CACHE")
    assert cache_root() == tmp_path / "b" / "dure"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_root() == tmp_path / "home" / ".cache" / "dure"


# --- the real registry ----------------------------------------------------------------------------


@pytest.mark.slow
def test_fetch_a_default_package_from_pypi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DURE_INDEX_URL", raising=False)
    spec = load_manifest("default").get("docstring-parser")
    assert spec is not None
    root = fetch_package(spec, cache=tmp_path)
    assert (root / "docstring_parser" / "__init__.py").is_file()
    assert fetch_package(spec, cache=tmp_path) == root
