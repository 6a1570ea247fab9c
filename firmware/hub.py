"""The reader hub: answers the host's requests and reports what the slot scanner sees.

Each :meth:`Hub.step` first answers the requests that came in (so a ``state`` line tells
the board as of the last full scan), then scans once and reports the changes. Before the
first scan is done there is no board to tell: the first step scans first and answers
after, so a host that asks ``state?`` at once after a restart hears of every still piece
(and not of an empty board). Every line out gets the next sequence number, so the host
can tell when one went missing.

``hello`` is followed by a ``chip <slot> <VersionReg>`` line for each reader that
answers (``chip 3 89``: a clone chip), so that ``doctor`` can say which chips the hub
has; a reader set up again after it failed gives its ``chip`` line too.

``state`` lists the slots whose reader answers, as ``<slot>:<UID>`` once per tag on it or
``<slot>:-`` when it is empty; a slot whose reader does not answer is left out, and an
``err`` line for it follows the ``state`` line.
"""

from protocol import SEQ_MODULO, LineReader, frame, parse_resync

#: 1.1: ``chip`` lines, any reader chip taken, still tags kept on small hubs.
VERSION = "1.1"
#: What :meth:`Hub.step` returns when its lines went to ``send``: one list, never changed.
NO_LINES = []


class Hub:
    """The hub's side of the line protocol around a ``Scanner``."""

    def __init__(self, scanner):
        self.scanner = scanner
        self._seq = 0
        self._requests = LineReader()
        self._scanned = False
        self._out = None            # where the lines of the step under way go
        # Made once: a function made at every step would be garbage.
        self._report = self._report_events

    def start(self):
        """The lines to send at power-up: ``hello``, then a ``chip`` per reader that
        answers and an ``err`` per silent one."""
        lines = [self._line(self._hello_body())]
        for event in self.scanner.start():
            lines.append(self._line(_words(event)))
        return lines

    def step(self, received, send=None):
        """Answer the requests in ``received`` (the bytes from the host since the last
        step), scan once; the lines to send. With ``send`` (a function of a line), each
        line goes out as soon as it is made, and none is returned: the events of a
        reading are told before the next slot is read."""
        # Nothing is allocated by a step in which nothing comes and nothing changes.
        requests = None
        for raw in self._requests.feed(received):
            request = parse_resync(raw)
            # A broken request is dropped: the host asks again when no answer comes.
            if request is not None:
                if requests is None:
                    requests = []
                requests.append(request[1])
        lines = [] if send is None else NO_LINES
        out = lines.append if send is None else send
        if self._scanned and requests is not None:
            self._answer_all(requests, out)
        if send is None:
            self._tell(self.scanner.scan(), out)
        else:
            self._out = out
            self._tell(self.scanner.scan(self._report), out)
            self._out = None
        if not self._scanned:
            self._scanned = True
            if requests is not None:
                self._answer_all(requests, out)
        return lines

    def _report_events(self, events):
        self._tell(events, self._out)

    def _tell(self, events, out):
        for event in events:
            out(self._line(_words(event)))

    def _answer_all(self, verbs, out):
        for verb in verbs:
            for line in self._answer(verb):
                out(line)

    def _answer(self, verb):
        if verb == "hello?":
            lines = [self._line(self._hello_body())]
            for slot, version in self.scanner.chips():
                lines.append(self._line(f"chip {slot} {version:02X}"))
            return lines
        if verb == "ping":
            return [self._line("pong")]
        if verb == "state?":
            entries = [str(slot) + ":" + (uid or "-") for slot, uid in self.scanner.state()]
            lines = [self._line(" ".join(["state"] + entries))]
            for slot, reason in self.scanner.failures():
                lines.append(self._line(f"err {slot} {reason}"))
            return lines
        return []

    def _hello_body(self):
        return f"hello totem-hub {VERSION} slots={len(self.scanner.slots)}"

    def _line(self, body):
        line = frame(self._seq, body)
        self._seq = (self._seq + 1) % SEQ_MODULO
        return line


def _words(event):
    return " ".join(str(word) for word in event)
