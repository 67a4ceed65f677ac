"""Real processes for the end-to-end tests: the TenFoot binaries from $TENFOOT_BIN_DIR (the
broker, a headless screen), the Python examples run with the installed package's python, and
waits on what they print, each bounded and saying what it waited for."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import Callable, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "examples")
GRID = {"canvas": {"width": 1920, "height": 1080}, "initialFocus": "r0c0", "items": [
    {"id": f"r0c{c}", "title": f"Row 0 Col {c}", "frame": [100 + c * 340, 100, 300, 200]}
    for c in range(2)]}


def binary(name: str) -> str:
    """A TenFoot binary from $TENFOOT_BIN_DIR (required: these tests never skip)."""
    directory = os.environ.get("TENFOOT_BIN_DIR")
    if not directory:
        raise RuntimeError("TENFOOT_BIN_DIR is not set: point it at the built binaries "
                           "(swift build --show-bin-path), as scripts/test does")
    path = os.path.join(directory, name)
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"{path} is not an executable")
    return path


class Child:
    """A child process whose output lines are collected as they come."""

    def __init__(self, argv: List[str], env: dict, stdin=None, cwd: Optional[str] = None):
        self.argv = argv
        self.process = subprocess.Popen(argv, env=env, cwd=cwd, stdin=stdin,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.output: List[str] = []
        self.errors: List[str] = []
        self.changed = threading.Condition()
        self.readers = [threading.Thread(target=self._read, args=(stream, lines), daemon=True)
                        for stream, lines in ((self.process.stdout, self.output),
                                              (self.process.stderr, self.errors))]
        for reader in self.readers:
            reader.start()

    def _read(self, stream, lines: List[str]) -> None:
        for line in stream:
            with self.changed:
                lines.append(line.rstrip("\n"))
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def wait_for_line(self, what: str, predicate: Callable[[str], bool], start: int = 0,
                      timeout: float = 15.0, stderr: bool = False) -> Tuple[int, str]:
        """The first line from index `start` (of stdout, or stderr) that satisfies
        `predicate`, waited for at most `timeout` seconds."""
        lines = self.errors if stderr else self.output
        deadline = time.monotonic() + timeout
        index = start
        with self.changed:
            while True:
                while index < len(lines):
                    if predicate(lines[index]):
                        return index, lines[index]
                    index += 1
                remaining = deadline - time.monotonic()
                ended = not any(reader.is_alive() for reader in self.readers)
                if remaining <= 0 or (ended and index >= len(lines)):
                    raise AssertionError(
                        f"{os.path.basename(self.argv[0])}: no line for {what} within "
                        f"{timeout:g} s (exit {self.process.poll()}); last output: "
                        f"{self.output[-3:]}; errors: {self.errors[-5:]}")
                self.changed.wait(min(remaining, 0.5))

    def wait(self, timeout: float = 15.0) -> int:
        """The exit status, waited for at most `timeout` seconds."""
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{self.argv} did not exit within {timeout:g} s; "
                                 f"errors: {self.errors[-5:]}") from None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        self.process.wait(10)


def frame_of(line: str) -> Optional[dict]:
    """A headless screen's frame line, parsed (None for other lines)."""
    try:
        frame = json.loads(line)
    except ValueError:
        return None
    return frame if isinstance(frame, dict) and "seq" in frame else None


class Stack:
    """A broker over ipc:// in a private temporary directory (with --data-dir, so kill -9
    and a restart find its store), plus screens, apps and remotes against it."""

    def __init__(self, broker_arguments: Optional[List[str]] = None):
        self.directory = tempfile.mkdtemp(prefix="tenfoot-py-e2e-")
        os.chmod(self.directory, 0o700)
        self.data = os.path.join(self.directory, "broker")
        self.env = dict(os.environ, TENFOOT_RUNTIME_DIR=os.path.join(self.directory, "run"),
                        TENFOOT_STATE_DIR=os.path.join(self.directory, "state"),
                        PYTHONUNBUFFERED="1")
        self.env.pop("TENFOOT_BROKER", None)
        self.broker_arguments = ["--data-dir", self.data] + (broker_arguments or [])
        self.children: List[Child] = []
        self.broker = self.start_broker()

    def start_broker(self) -> Child:
        broker = self.spawn([binary("tenfoot-broker")] + self.broker_arguments)
        _, ready = broker.wait_for_line("the broker's ready line",
                                        lambda l: l.startswith("tenfoot-broker ready"))
        self.ready = dict(w.split("=", 1) for w in ready.split() if "=" in w)
        return broker

    @property
    def endpoints(self):
        """The broker's endpoints, for clients in this test process."""
        import tenfoot

        return tenfoot.Endpoints.of(self.ready["control"], self.ready["state"])

    def restart_broker(self) -> float:
        """kill -9 of the broker, then a new one on the same endpoints and data directory;
        returns the monotonic time the new one was ready."""
        self.broker.kill(signal.SIGKILL)
        self.broker = self.start_broker()
        return time.monotonic()

    def spawn(self, argv: List[str], **options) -> Child:
        child = Child(argv, options.pop("env", self.env), **options)
        self.children.append(child)
        return child

    def layout_file(self) -> str:
        path = os.path.join(self.directory, "grid.json")
        with open(path, "w") as handle:
            json.dump(GRID, handle)
        return path

    def screen(self, arguments: List[str]) -> Child:
        """A headless tenfoot-screen printing one JSON frame per applied state."""
        return self.spawn([binary("tenfoot-screen"), "--renderer", "headless", "--frames", "-"]
                          + arguments)

    def example(self, name: str, arguments: List[str] = ()) -> Child:
        """A Python example run by this python (the installed package's)."""
        return self.spawn([sys.executable, os.path.join(EXAMPLES, name)] + list(arguments),
                          cwd=self.directory)

    def close(self) -> None:
        for child in reversed(self.children):
            child.kill(signal.SIGKILL)
        shutil.rmtree(self.directory, ignore_errors=True)


def wait_for_frame(screen: Child, what: str, predicate: Callable[[dict], bool],
                   start: int = 0, timeout: float = 15.0) -> Tuple[int, dict]:
    """The first frame from line `start` satisfying `predicate`."""
    index, line = screen.wait_for_line(
        what, lambda l: (lambda f: f is not None and predicate(f))(frame_of(l)), start, timeout)
    return index, frame_of(line)
