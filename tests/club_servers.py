"""A real Mosquitto and a real PostgreSQL for the club's tests, each started on a free
loopback port with its own files under the test's folder (never a mock of either).

The broker is set up as a café would (docs/club.md): logins from ``trust.password_line``,
the ACL of ``trust.ACL``, persistence on. PostgreSQL is a throw-away cluster made with
``initdb`` (as ``nobody`` when the tests run as root: the server refuses root), trust
authentication on 127.0.0.1 only.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from companion.club import trust

MOSQUITTO = shutil.which("mosquitto") or next((p for p in ("/usr/sbin/mosquitto",) if os.path.exists(p)), None)
PG_BIN = next((Path(p) for p in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
               if (Path(p) / "initdb").exists()), None) if Path("/usr/lib/postgresql").is_dir() else None
#: Seconds a server is given to start or stop: generous, waited on, never slept.
STARTING = 20.0


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, up: bool = True, timeout: float = STARTING) -> None:
    """Wait until ``port`` on 127.0.0.1 accepts connections (or, ``up`` False, refuses them)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                if up:
                    return
        except OSError:
            if not up:
                return
        time.sleep(0.02)  # polling a port, bounded by the deadline
    raise TimeoutError(f"port {port} not {'open' if up else 'closed'} after {timeout} s")


class Broker:
    """A Mosquitto of its own: ``start``, ``stop`` (as systemd would: SIGTERM), ``address``."""

    def __init__(self, folder: Path, logins: dict[str, str], tls: tuple[Path, Path, Path] | None = None) -> None:
        self.folder = folder
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "passwd").write_text("".join(trust.password_line(u, p) + "\n" for u, p in logins.items()))
        (folder / "acl").write_text(trust.ACL)
        user = "user root\n" if os.geteuid() == 0 else ""  # as root it would become "mosquitto" and lose its files
        # tls: (CA, certificate, key): the listener speaks TLS only.
        certificates = f"cafile {tls[0]}\ncertfile {tls[1]}\nkeyfile {tls[2]}\n" if tls else ""
        (folder / "mosquitto.conf").write_text(
            f"listener {self.port} 127.0.0.1\n{certificates}allow_anonymous false\n"
            f"password_file {folder / 'passwd'}\nacl_file {folder / 'acl'}\n"
            f"persistence true\npersistence_location {folder}/\n{trust.BROKER_LIMITS}{user}"
            f"log_dest file {folder / 'mosquitto.log'}\n")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.folder / "mosquitto.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.port)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(STARTING)
        self.process = None


def certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A CA and a certificate it signed for 127.0.0.1, made with openssl: (CA, certificate, key)."""
    folder.mkdir(parents=True, exist_ok=True)
    ca, ca_key = folder / "ca.pem", folder / "ca.key"
    cert, key, request = folder / "broker.pem", folder / "broker.key", folder / "broker.csr"
    run = lambda *args: subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60)  # noqa: E731
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=club test CA",
        "-keyout", str(ca_key), "-out", str(ca))
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(request))
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", str(request), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial", "-days", "2",
        "-extfile", str(folder / "san.ext"), "-out", str(cert))
    for path in (ca, cert, key):
        path.chmod(0o644)
    return ca, cert, key


class Postgres:
    """A throw-away PostgreSQL cluster; ``database()`` makes a fresh database and gives its URL."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="club-pg-"))
        self.port = free_port()
        self.runas: list[str] = []
        if os.geteuid() == 0:
            os.chown(self.folder, pwd.getpwnam("nobody").pw_uid, -1)
            self.runas = ["runuser", "-u", "nobody", "--"]
        self.count = 0

    def _run(self, *command: str) -> None:
        subprocess.run([*self.runas, *command], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=60)

    def start(self) -> None:
        data = self.folder / "data"
        self._run(str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "club", "--no-sync", "-E", "UTF8")
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(data), "-w", "-l", str(self.folder / "log"), "-o",
                  f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off", "start")

    def restart(self) -> None:
        """Stop the server at once (as a crash would) and start it again."""
        data = str(self.folder / "data")
        self._run(str(PG_BIN / "pg_ctl"), "-D", data, "-m", "immediate", "stop")
        self._run(str(PG_BIN / "pg_ctl"), "-D", data, "-w", "-l", str(self.folder / "log"), "-o",
                  f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off", "start")

    def database(self) -> str:
        import psycopg
        self.count += 1
        name = f"club{self.count}"
        with psycopg.connect(f"postgresql://club@127.0.0.1:{self.port}/postgres", autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return f"postgresql://club@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        subprocess.run([*self.runas, str(PG_BIN / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate",
                        "stop"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        shutil.rmtree(self.folder, ignore_errors=True)


def needs_mosquitto() -> None:
    if MOSQUITTO is None:
        pytest.skip("no mosquitto (./setup.sh test installs Debian's mosquitto; or apt-get install mosquitto)")


def needs_postgres() -> None:
    if PG_BIN is None:
        pytest.skip("no PostgreSQL server (apt-get install postgresql): the PostgreSQL half is skipped")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("no psycopg (pip install 'psycopg[binary]'): the PostgreSQL half is skipped")
