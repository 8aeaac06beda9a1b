"""The tournament of many tables: the collector that runs on a laptop (or one box).

- `signing`: the tournament key and the HMAC over each request and answer (both sides use it)
- `seating`: every round's seating for any field, by weighted rules (`seating.yaml`):
  `field` (who plays which round, sit-outs), `tablesearch` (who plays with whom, at which
  table number), `tablenumbers` (numbering exactly, judges' conflicts), `seatorder` (the
  seats), `seating_rules` (the weights' file), `seating_figures` (how good a seating is)
- `store`: the tournament in SQLite: players, boxes, seating, protocols, corrections
- `standings`: points by the rule set's scoring, per player
- `exports`: Polemica JSON per game, standings CSV, the printable sheet
- `discovery`: the boxes announced on the network (mDNS, `_narrator._tcp`)
- `collector`: the collector's web server: the page, the boxes' protocols, sending rounds
- `page`, `words/`: the page's HTML and its words in English and Russian
- `demo`: `narrator tournament --demo N`: simulated boxes on this computer

The box's side (announcing itself, taking a round, delivering protocols) is
narrator.uplink; it imports nothing from here but `signing`.
"""
