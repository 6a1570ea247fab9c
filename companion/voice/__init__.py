"""The box's voice: what is said for the screen shown (``lines.py``, pure: view in, words
out) and the app loop's watcher that hands it to a speaker (``narrator.py``). The speaker
itself, espeak-ng on its own thread, is ``hardware/speaker.py``; the wiring is in
``companion/commands/app.py``.
"""
