"""Fixtures for the real-browser tests: one JupyterLab server and one Chromium per session.

* ``jupyter_server``: a real ``jupyter lab`` (this venv's) serving a temp copy of
  the notebooks directory (``$GRADLAB_UI_NOTEBOOKS`` or the repo's ``notebooks/``).
  Tests that need extra notebooks write them under ``server.root`` (see
  ``server.add_notebook``), so one server serves the whole session.
* ``browser`` (session) / ``page`` (per test): Playwright driving Debian's
  ``chromium``; ``playwright install`` is never needed.

Run:  .venv/bin/python -m pytest tests/ui -q          (or -m ui from the repo root)
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
from pathlib import Path

import pytest

import jlab

REPO = jlab.REPO
CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SERVER_START_TIMEOUT = 90


def pytest_collection_modifyitems(config, items):
    # Every test in tests/ui is a ui test (the test modules also set pytestmark).
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.ui)


# ---------------------------------------------------------------------------
# JupyterLab server
# ---------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _write_settings(settings_dir: Path) -> None:
    files = {
        # No news / update toast over the screenshots, no toasts at all.
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
            "fetchNews": "false",
            "checkForUpdates": False,
            "doNotDisturbMode": True,
        },
        # Keep every cell attached to the DOM, so DOM-based detectors see all outputs.
        "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
        # The extension manager would query PyPI.
        "@jupyterlab/extensionmanager-extension/plugin.jupyterlab-settings": {"enabled": False},
    }
    for rel, data in files.items():
        p = settings_dir / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(data))


class JupyterServer:
    """A ``jupyter lab`` subprocess in its own process group."""

    def __init__(self, root: Path, workdir: Path):
        self.root = root
        self.workdir = workdir
        self.port = _free_port()
        self.token = secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = workdir / "jupyter-server.log"
        self.proc: subprocess.Popen | None = None

    # -- lifecycle -----------------------------------------------------------
    def start(self) -> "JupyterServer":
        settings = self.workdir / "settings"
        workspaces = self.workdir / "workspaces"
        for d in (settings, workspaces, self.workdir / "config", self.workdir / "runtime",
                  self.workdir / "ipython", self.workdir / "data"):
            d.mkdir(parents=True, exist_ok=True)
        _write_settings(settings)
        env = dict(os.environ)
        env.update(
            JUPYTERLAB_SETTINGS_DIR=str(settings),
            JUPYTERLAB_WORKSPACES_DIR=str(workspaces),
            JUPYTER_CONFIG_DIR=str(self.workdir / "config"),
            JUPYTER_RUNTIME_DIR=str(self.workdir / "runtime"),
            # a fresh data dir: a fresh trust database, so every notebook opens untrusted, as a student's does
            JUPYTER_DATA_DIR=str(self.workdir / "data"),
            IPYTHONDIR=str(self.workdir / "ipython"),
            PATH=str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", ""),
            PYTHONUNBUFFERED="1",
        )
        cmd = [
            sys.executable, "-m", "jupyter", "lab",
            "--allow-root", "--no-browser",
            "--ip=127.0.0.1", f"--port={self.port}", "--port-retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root}",
            f"--LabApp.workspaces_dir={workspaces}",
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.news_url=",
        ]
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            cmd, cwd=self.root, env=env, stdout=self._log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )
        self._wait_up()
        return self

    def _wait_up(self) -> None:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        last = None
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.stop()
                pytest.fail(f"jupyter lab exited with code {self.proc.returncode}\n{self.log_tail()}")
            try:
                jlab.rest(f"{self.url}/api/status?token={self.token}", token=self.token, timeout=5)
                return
            except (urllib.error.URLError, ConnectionError, OSError) as exc:
                last = exc
            time.sleep(0.5)
        self.stop()
        pytest.fail(f"jupyter lab did not answer /api/status within {SERVER_START_TIMEOUT}s "
                    f"(last error: {last})\n{self.log_tail()}")

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:  # be nice to the kernels first
                for k in self.api("GET", "/api/kernels") or []:
                    self.api("DELETE", f"/api/kernels/{k['id']}")
            except Exception:
                pass
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.proc.wait(timeout=10)
        self._log.close()

    # -- utilities -------------------------------------------------------------
    def log_tail(self, n: int = 80) -> str:
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return "(no server log)"
        return "---- jupyter server log (tail) ----\n" + "\n".join(lines[-n:])

    def api(self, method: str, path: str):
        sep = "&" if "?" in path else "?"
        return jlab.rest(f"{self.url}{path}{sep}token={self.token}", method=method, token=self.token)

    def add_notebook(self, rel: str, nb) -> str:
        """Write an nbformat notebook under the served root; return its server path."""
        import nbformat

        p = self.root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, str(p))
        return rel


@pytest.fixture(scope="session")
def notebooks_source() -> Path:
    return jlab.notebooks_dir()


@pytest.fixture(scope="session")
def jupyter_server(notebooks_source):
    base = Path(tempfile.mkdtemp(prefix="gradlab-ui-"))
    root = base / "root"
    if notebooks_source.is_dir():
        shutil.copytree(notebooks_source, root,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    else:
        root.mkdir(parents=True)
    server = JupyterServer(root, base / "server").start()
    try:
        yield server
    finally:
        server.stop()
        jlab.ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(server.log_path, jlab.ARTIFACTS / "jupyter-server.log")
        shutil.rmtree(base, ignore_errors=True)


# ---------------------------------------------------------------------------
# Browser
# ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = shutil.which("chromium")
    if path is None:
        pytest.fail(
            "Chromium could not be found on PATH (`shutil.which('chromium')` is None). "
            "The ui tests drive Debian's Chromium through Playwright; install it with "
            "`apt-get install chromium` (`playwright install` is not used).",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_FLAGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def _page(browser, jupyter_server, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(30_000)
    pg = context.new_page()
    try:
        yield pg
    finally:
        context.close()
        # Free the 2-core machine: no kernel outlives its test.
        try:
            for sess in jupyter_server.api("GET", "/api/sessions") or []:
                jupyter_server.api("DELETE", f"/api/sessions/{sess['id']}")
            for k in jupyter_server.api("GET", "/api/kernels") or []:
                jupyter_server.api("DELETE", f"/api/kernels/{k['id']}")
        except Exception:
            pass


@pytest.fixture
def window(browser, jupyter_server):
    """A page at a student's laptop size, 1280x800 (the size the layout and stored-output checks use)."""
    yield from _page(browser, jupyter_server, 1280, 800)


@pytest.fixture
def page(browser, jupyter_server):
    yield from _page(browser, jupyter_server, 1280, 900)
