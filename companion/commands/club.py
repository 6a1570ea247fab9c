"""``totem-companion club sync|serve|add-box|acl|server-login``: the club (companion/club, docs/club.md).

* ``sync [--broker HOST:PORT] [--box NAME] [--data DIR]``: the box's finished games waiting
  for the club are sent; prints what was sent, acknowledged, refused (with the club's
  reason) and is still pending; exit 0 once nothing is pending, 1 with one line when the
  broker or the club cannot be reached.
* ``serve --broker HOST:PORT [--db PATH|URL] [--web PORT]``: the club server, until Ctrl-C
  or SIGTERM. Its broker password: ``--password-file`` or ``$TOTEM_CLUB_PASSWORD``.
* ``add-box NAME``: a new box's line for the broker's password file and its ``[club]`` section.
* ``acl``: the broker's ACL file; ``server-login``: the club server's own login.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys

from companion.club import names, trust
from companion.errors import UsageError, UserError


def run(args: argparse.Namespace) -> int:
    """Run the club action of ``args``."""
    action: str = args.club_command
    if action == "add-box":
        return _add_box(args)
    if action == "acl":
        print(trust.ACL, end="")
        return 0
    if action == "server-login":
        password = trust.new_password()
        print("# For the broker's password file (e.g. /etc/mosquitto/club.passwd):")
        print(trust.password_line(names.CLUB_USER, password))
        print("\n# For the club server (club serve reads it from there, or from --password-file):")
        print(f"TOTEM_CLUB_PASSWORD={password}")
        return 0
    if action == "sync":
        return _sync(args)
    return _serve(args)


def _add_box(args: argparse.Namespace) -> int:
    box = names.check_box(args.name, "NAME")
    names.check_broker(args.broker)
    password = trust.new_password()
    print("# For the broker's password file (e.g. /etc/mosquitto/club.passwd), then reload Mosquitto:")
    print(trust.password_line(box, password))
    print(f"\n# For the box's configuration ({box}):")
    print(trust.box_section(args.broker, box, password), end="")
    return 0


def _sync(args: argparse.Namespace) -> int:
    from companion.club.box import ClubAddress, sync
    from companion.club.outbox import Outbox
    from companion.config import config_from_args

    config = config_from_args(args)
    broker: str = args.broker or config.club_broker
    box: str = args.box or config.club_box
    if not broker:
        raise UsageError("no club: give --broker HOST:PORT or set [club] broker in the configuration")
    names.check_broker(broker)
    names.check_box(box)
    if not args.wait > 0 or args.wait > 3600:
        raise UsageError(f"--wait: expected seconds from 0 to 3600, got {args.wait:g}")
    outbox = Outbox(config.data_dir)
    result = sync(outbox, ClubAddress(broker, box, config.club_user, config.club_password,
                                      config.club_tls, config.club_ca), wait=args.wait)
    print(f"sent {result.sent}")
    print(f"acknowledged {result.acknowledged}")
    print(f"refused {len(result.refused)}")
    for key, reason in result.refused:
        print(f"  {key[:12]}: {reason}")
    print(f"pending {result.pending}")
    if result.pending:
        raise UserError(f"the club did not answer for {result.pending} games within {args.wait:g} s: "
                        f"is its server running? (they stay in the outbox)")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from companion.club.pages import make_app, serve
    from companion.club.server import ClubServer
    from companion.club.store import Store, is_postgres
    from companion.config import config_from_args

    config = config_from_args(args)
    names.check_broker(args.broker)
    if not 1024 <= args.web <= 65535:
        raise UsageError(f"--web: expected a port from 1024 to 65535, got {args.web}")
    where: str = args.db or str(config.data_dir / "club.sqlite")
    password = os.environ.get("TOTEM_CLUB_PASSWORD", "")
    if args.password_file:
        from companion.files import SMALL_BYTES, read_text
        password = read_text(args.password_file, "a password file", SMALL_BYTES).strip()
    store = Store(where)
    server = ClubServer(store, args.broker, password)
    server.start()
    shown = "PostgreSQL" if is_postgres(where) else where
    stop = asyncio.Event()

    def started() -> None:
        print(f"club: games from {args.broker} into {shown}; pages on http://{args.bind}:{args.web}/", flush=True)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(number, stop.set)
        await serve(make_app(store, server, config.language), args.bind, args.web, started, stop)

    try:
        asyncio.run(main())
    except OSError as exc:
        raise UserError(f"cannot serve the club's pages on port {args.web}: {exc.strerror}") from None
    finally:
        server.stop()
        store.close()
    print(f"club: stopped ({server.counts.kept} games kept, {server.counts.repeated} repeated, "
          f"{server.counts.refused} refused)", file=sys.stderr)
    return 0
