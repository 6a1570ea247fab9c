"""Time the hub's full scans on the Pico itself: ``mpremote run firmware/bench.py``.

Stop the hub first (press BOOTSEL once, see README.md). Prints how long a full scan
takes with whatever lies on the readers now, averaged over ``SCANS`` scans, and what one
SPI exchange costs (README.md's tables assume 40 us, and show 80 us).
"""

import time

import board

SCANS = 20

hub = board.open_hub()
hub.start()
scanner = hub.scanner
scanner.scan()                  # reads every tag afresh: the scans timed find them lying still
start = time.ticks_us()
for _ in range(SCANS):
    scanner.scan()
elapsed = time.ticks_diff(time.ticks_us(), start)
tags = len([entry for entry in scanner.state() if entry[1] is not None])
exchange = max(slot.reader.exchange_us for slot in scanner.slots)
print(f"{len(scanner.slots)} slots ({len(scanner.failures())} not answering), {tags} tags: "
      f"{elapsed / SCANS / 1000:.1f} ms a full scan, {exchange} us an SPI exchange")
