"""The reader hub: answers the host's requests and reports what the slot scanner sees.

Each :meth:`Hub.step` first answers the requests that came in (so a ``state`` line tells
the board as of the last full scan), then scans once and reports the changes. Every line
out gets the next sequence number, so the host can tell when one went missing.

``state`` lists the slots whose reader answers, as ``<slot>:<UID>`` once per tag on it or
``<slot>:-`` when it is empty; a slot whose reader does not answer is left out, and an
``err`` line for it follows the ``state`` line.
"""

from protocol import SEQ_MODULO, LineReader, frame, parse

VERSION = "1.0"


class Hub:
    """The hub's side of the line protocol around a ``Scanner``."""

    def __init__(self, scanner):
        self.scanner = scanner
        self._seq = 0
        self._requests = LineReader()

    def start(self):
        """The lines to send at power-up: ``hello``, then an ``err`` per silent reader."""
        lines = [self._hello()]
        for event in self.scanner.start():
            lines.append(self._line(_words(event)))
        return lines

    def step(self, received):
        """Answer the requests in ``received`` (the bytes from the host since the last
        step), scan once; the lines to send."""
        lines = []
        for raw in self._requests.feed(received):
            request = parse(raw)
            # A broken request is dropped: the host asks again when no answer comes.
            if request is not None:
                lines += self._answer(request[1])
        for event in self.scanner.scan():
            lines.append(self._line(_words(event)))
        return lines

    def _answer(self, verb):
        if verb == "hello?":
            return [self._hello()]
        if verb == "ping":
            return [self._line("pong")]
        if verb == "state?":
            entries = [str(slot) + ":" + (uid or "-") for slot, uid in self.scanner.state()]
            lines = [self._line(" ".join(["state"] + entries))]
            for slot, reason in self.scanner.failures():
                lines.append(self._line(f"err {slot} {reason}"))
            return lines
        return []

    def _hello(self):
        return self._line(f"hello totem-hub {VERSION} slots={len(self.scanner.slots)}")

    def _line(self, body):
        line = frame(self._seq, body)
        self._seq = (self._seq + 1) % SEQ_MODULO
        return line


def _words(event):
    return " ".join(str(word) for word in event)
