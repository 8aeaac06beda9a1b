"""The organiser's page: a small web server inside the box, on the daemon's loop.

view.py decides what is public and reading.py reads it off the box; server.py serves it
(aiohttp), pages.py renders it, live.py pushes changes to open pages, auth.py guards
corrections with the PIN; the set-up, archive and deal pages live in their own modules,
and site.py puts them together for `narrator run`.
"""
