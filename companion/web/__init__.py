"""The phone page: the box serves the live table to the browsers of the local network.

``snapshot`` turns what the session shows into a plain, JSON-ready value (on the session's
thread, from the same view values and the same words as the OLED); ``page`` is the app
loop's watcher that hands each snapshot to the server; ``server`` (aiohttp, imported only
when the page is on) sends them to every open page as server-sent events. Nothing here
imports hardware.
"""
