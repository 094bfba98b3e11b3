"""The package registry, as far as fetching needs it: find one source distribution through the simple API.

The simple repository API is what pip reads: JSON (PEP 691) from PyPI and modern mirrors, HTML (PEP 503) from
older ones, so ``$PIP_INDEX_URL`` mirrors work too. ``$DURE_INDEX_URL`` overrides both.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from html.parser import HTMLParser
from http.client import HTTPResponse
from urllib.parse import urldefrag, urljoin, urlsplit

from dure.corpus.manifest import PackageSpec, canonical_name
from dure.errors import FetchError, PackageNotFoundError

PYPI_SIMPLE = "https://pypi.org/simple/"
SIMPLE_JSON = "application/vnd.pypi.simple.v1+json"
TIMEOUT = 60.0  # seconds without data before a connection counts as lost
SDIST_SUFFIXES = (".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".zip")


@dataclass(frozen=True, slots=True)
class SdistLink:
    """Where a source distribution file lives, and the hash the index declares for it (if any)."""

    url: str
    filename: str
    sha256: str | None


def index_url() -> str:
    """The simple-API base URL: ``$DURE_INDEX_URL``, else ``$PIP_INDEX_URL``, else PyPI."""
    base = os.environ.get("DURE_INDEX_URL") or os.environ.get("PIP_INDEX_URL") or PYPI_SIMPLE
    return base if base.endswith("/") else base + "/"


@contextmanager
def open_url(url: str, package: str, accept: str = "*/*") -> Iterator[HTTPResponse]:
    """GET ``url``; HTTP 404 is :class:`PackageNotFoundError`, any other failure :class:`FetchError`."""
    request = urllib.request.Request(url, headers={"Accept": accept, "User-Agent": "dure-corpus-fetch"})
    try:
        response = urllib.request.urlopen(request, timeout=TIMEOUT)
    except urllib.error.HTTPError as problem:
        problem.close()
        if problem.code == 404:
            raise PackageNotFoundError(
                package, f"not found on the package index (HTTP 404 for {url})"
            ) from None
        raise FetchError(package, f"HTTP {problem.code} {problem.reason} for {url}") from None
    except urllib.error.URLError as problem:
        host = urlsplit(url).netloc
        raise FetchError(package, f"no network: cannot reach {host} ({problem.reason})") from None
    except OSError as problem:  # timeouts and resets raised outside URLError
        raise FetchError(package, f"no network: {url}: {problem}") from None
    with response:
        yield response


def find_sdist(spec: PackageSpec, base: str | None = None) -> SdistLink:
    """The source distribution of ``spec.name == spec.version`` listed by the index at ``base``."""
    page = urljoin(base or index_url(), canonical_name(spec.name) + "/")
    try:
        with open_url(page, spec.name, accept=f"{SIMPLE_JSON}, text/html;q=0.1") as response:
            content_type = response.headers.get_content_type()
            body = response.read()
    except OSError as problem:
        raise FetchError(spec.name, f"no network: reading {page}: {problem}") from None
    try:
        text = body.decode("utf-8")
        links = _json_links(text, page) if content_type == SIMPLE_JSON else _html_links(text, page)
    except (UnicodeDecodeError, ValueError, KeyError, TypeError) as problem:
        raise FetchError(spec.name, f"unreadable index page {page}: {problem}") from None
    candidates = [link for link in links if _is_sdist_of(link.filename, spec)]
    if not candidates:
        reason = f"no source distribution of version {spec.version} on the package index ({page})"
        raise PackageNotFoundError(spec.name, reason)
    pinned = [link for link in candidates if link.sha256 == spec.sha256]
    return (pinned or candidates)[0]


def _is_sdist_of(filename: str, spec: PackageSpec) -> bool:
    suffix = next((suffix for suffix in SDIST_SUFFIXES if filename.endswith(suffix)), None)
    if suffix is None:
        return False
    name, _, version = filename[: -len(suffix)].rpartition("-")
    return canonical_name(name) == canonical_name(spec.name) and version == spec.version


def _json_links(text: str, page: str) -> list[SdistLink]:
    data = json.loads(text)
    links = []
    for entry in data["files"]:
        hashes = entry.get("hashes") or {}
        links.append(SdistLink(urljoin(page, entry["url"]), entry["filename"], hashes.get("sha256")))
    return links


def _html_links(text: str, page: str) -> list[SdistLink]:
    parser = _AnchorParser()
    parser.feed(text)
    parser.close()
    links = []
    for href, filename in parser.anchors:
        url, fragment = urldefrag(urljoin(page, href))
        algorithm, _, digest = fragment.partition("=")
        name = filename.strip() or url.rsplit("/", 1)[-1]
        links.append(SdistLink(url, name, digest.lower() if algorithm == "sha256" else None))
    return links


class _AnchorParser(HTMLParser):
    """Collects ``(href, text)`` of every ``<a>`` of a PEP 503 page."""

    def __init__(self) -> None:
        super().__init__()
        self.anchors: list[tuple[str, str]] = []
        self._href: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._href = dict(attrs).get("href")
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.anchors.append((self._href, "".join(self._text)))
            self._href = None
