"""The box's side of a tournament (the collector is narrator.tournament):

- `pairing`: the tournament key entered on the box's page, and the collector that sent
  the last round, kept in the state folder (mode 0600);
- `announce`: the box on the club's network by mDNS/DNS-SD (`_narrator._tcp`);
- `rounds`: the page's routes: the key's form, and the collector's round, taken into the
  set-up page for the table's confirmation;
- `outbox`: every finished game of the tournament delivered until the collector
  acknowledges it, across restarts;
- `simulated`: `narrator run --simulate`: simulated players on a fast clock (demo, tests).

No box needs the network to play: all of this runs beside the game and never holds it.
"""
