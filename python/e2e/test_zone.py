"""A zone failover with the Python app attached: two brokers of one zone on a throw-away
PostgreSQL, over CURVE; the menu app, a headless screen and a Python remote are given both
brokers. kill -9 of the active broker with a page open: the standby takes over, the page is
still open, the app resyncs (claiming the app role on the new broker) and keeps reacting."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import tenfoot
from support import Stack, binary, wait_for_frame
from test_secure import run

PG = os.environ.get("TENFOOT_POSTGRES_BIN", "/usr/lib/postgresql/15/bin")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Postgres:
    """A PostgreSQL cluster in a temporary directory (as the postgres user when root), on a
    free loopback port, trust authentication for role tenfoot: loopback tests only."""

    def __init__(self):
        if not os.access(os.path.join(PG, "initdb"), os.X_OK):
            raise RuntimeError(f"PostgreSQL is not installed in {PG} (scripts/bootstrap "
                               "installs it; TENFOOT_POSTGRES_BIN names another directory)")
        self.directory = tempfile.mkdtemp(prefix="tenfoot-py-pg-")
        if os.getuid() == 0:
            shutil.chown(self.directory, "postgres", "postgres")
        self.port = free_port()
        self.tool("initdb", "-D", f"{self.directory}/data", "-A", "trust", "-U", "tenfoot",
                  "--no-sync", "-E", "UTF8")
        self.tool("pg_ctl", "-D", f"{self.directory}/data", "-l", f"{self.directory}/log", "-w",
                  "-t", "20", "-o", f"-p {self.port} -k {self.directory} "
                  "-c listen_addresses=127.0.0.1", "start")
        self.url = f"postgres://tenfoot@127.0.0.1:{self.port}/postgres"

    def tool(self, name, *arguments):
        argv = [os.path.join(PG, name), *arguments]
        if os.getuid() == 0:
            argv = ["/usr/sbin/runuser", "-u", "postgres", "--"] + argv
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            raise RuntimeError(f"{name} failed: {done.stdout} {done.stderr}")

    def stop(self):
        try:
            self.tool("pg_ctl", "-D", f"{self.directory}/data", "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


class ZoneFailover(unittest.TestCase):
    def setUp(self):
        self.postgres = Postgres()
        self.addCleanup(self.postgres.stop)
        # A Stack only for its directory, environment and children: its own broker stops.
        self.stack = Stack()
        self.addCleanup(self.stack.close)
        self.stack.broker.kill()
        self.store = ["--store", self.postgres.url, "--zone", "hall"]
        self.ports = {n: [f"tcp://127.0.0.1:{free_port()}" for _ in range(3)] for n in "ab"}
        self.data = {n: os.path.join(self.stack.directory, f"broker-{n}") for n in "ab"}
        env = self.stack.env
        self.key = run([binary("tenfoot-broker"), "key", "--data-dir", self.data["a"]], env)
        os.makedirs(self.data["b"], mode=0o700)
        shutil.copy(os.path.join(self.data["a"], "broker-key.json"), self.data["b"])

    def allow(self, name, role, key, screens=()):
        run([binary("tenfoot-broker"), "remotes", "add", "--name", name, "--role", role,
             "--key", key] + [a for s in screens for a in ("--screen", s)] + self.store,
            self.stack.env)

    def start_broker(self, name):
        control, state, pairing = self.ports[name]
        broker = self.stack.spawn([binary("tenfoot-broker")] + self.store + [
            "--broker-name", name, "--control", control, "--state", state, "--pairing",
            pairing, "--data-dir", self.data[name]])
        broker.wait_for_line(f"{name}'s first line",
                             lambda l: l.startswith("tenfoot-broker standby"))
        return broker

    def test_kill_9_of_the_active_broker_with_a_page_open(self):
        directory = self.stack.directory
        env = self.stack.env
        screen_key = run([binary("tenfoot-screen"), "--print-key", "--state-dir",
                          f"{directory}/screen"], env)
        self.allow("tv", "screen", screen_key)
        app_key = self.stack.example("menu_app.py", ["--print-key", "--state-dir",
                                                     f"{directory}/app"])
        self.assertEqual(app_key.wait(30), 0, app_key.errors)
        self.allow("menu", "app", app_key.output[0], ["main"])
        remote_key = tenfoot.ClientTrust(
            tenfoot.state_directory("remote", f"{directory}/remote")).keys.public_key
        self.allow("py", "remote", remote_key)
        a = self.start_broker("a")
        a.wait_for_line("a active", lambda l: l.startswith("tenfoot-broker ready")
                        and "term=1" in l)
        b = self.start_broker("b")
        zone = ["--control", ",".join(self.ports[n][0] for n in "ab"),
                "--state", ",".join(self.ports[n][1] for n in "ab"),
                "--broker-key=" + self.key]
        screen = self.stack.screen(["--layout", self.stack.layout_file(), "--state-dir",
                                    f"{directory}/screen"] + zone)
        app = self.stack.example("menu_app.py", ["--attach", "--state-dir", f"{directory}/app"]
                                 + zone)
        menu, _ = wait_for_frame(screen, "the app's menu", lambda f: f["focused"] == "weather")
        endpoints = tenfoot.Endpoints.of(zone[1], zone[3])
        with tenfoot.Remote(endpoints, "main", state_dir=f"{directory}/remote",
                            broker_key=self.key) as remote:
            self.assertEqual(remote.press("select").focused, "page-weather")
            page, before = wait_for_frame(screen, "the page", lambda f: f["focused"] ==
                                          "page-weather", menu)
            joined = len(app.errors)
            killed = time.monotonic()
            a.kill(signal.SIGKILL)
            b.wait_for_line("b active", lambda l: l.startswith("tenfoot-broker ready")
                            and "term=2" in l)
            _, after = wait_for_frame(screen, "the page after the takeover",
                                      lambda f: f["epoch"] != before["epoch"]
                                      and f["focused"] == "page-weather", page)
            app.wait_for_line("the app's resync on b", lambda l: "resynced screen main" in l,
                              joined, stderr=True)
            print(f"\nmeasured: zone failover, kill -9 of the active broker -> the app resynced "
                  f"on the standby {(time.monotonic() - killed) * 1000:.0f} ms", file=sys.stderr)
            self.assertIn("page-weather", after["states"])
            self.assertEqual([remote.press(k).focused for k in ("menu", "down", "select")],
                             ["weather", "news", "page-news"])


if __name__ == "__main__":
    unittest.main()
