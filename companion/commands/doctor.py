"""``totem-companion doctor``: check the configured display, reader and buttons.

Says plainly what was found and, for each problem, how to fix it. Exit status 0 when all
is well, 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys

from companion.config import config_from_args
from companion.files import printable


def run(args: argparse.Namespace) -> int:
    """Check every configured part, print the findings; 0 when all is well, 1 otherwise."""
    from hardware.checks import check_all
    from hardware.platform import is_raspberry_pi

    config = config_from_args(args).resolved(is_raspberry_pi())
    reports = check_all(config)
    out = sys.stdout
    # The parts' names and ports come from the configuration, which may hold escape codes.
    for report in reports:
        print(printable(f"{report.part:<9}{report.spec}"), file=out)
        for finding in report.findings:
            print(printable(f"  {'ok' if finding.ok else 'FAIL':<6}{finding.text}"), file=out)
            if finding.fix:
                print(printable(f"        fix: {finding.fix}"), file=out)
    problems = sum(not finding.ok for report in reports for finding in report.findings)
    print("all good" if not problems else
          f"{problems} problem{'s' if problems > 1 else ''} found", file=out)
    return 0 if not problems else 1
