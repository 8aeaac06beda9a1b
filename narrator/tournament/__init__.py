"""The tournament of many tables: the collector that runs on a laptop (or one box).

- `signing`: the tournament key and the HMAC over each request and answer (both sides use it)
- `wire`: what travels between a box and the collector, typed (the round sent, the game
  delivered, the box's status, the collector's receipt); both sides use it
- `event`: the tournament as the organiser set it up (kept in the store; a restart resumes it)
- `seating`: every round's seating for any field, by weighted rules (`seating.yaml`):
  `field` (who plays which round, sit-outs), `tablesearch` (who plays with whom, at which
  table number), `tablenumbers` (numbering exactly, judges' conflicts), `seatorder` (the
  seats), `seating_rules` (the weights' file), `seating_figures` (how good a seating is)
- `intake`: a delivered game checked against the seating and replayed through the engine
- `store`: the tournament in SQLite: players, boxes, seating, orders, games, corrections, refusals
- `corrections`, `bounds`: every change after a game as a record, within the rule set's bounds
- `standings`: points by the rule set's scoring, per player, from each game's result in force
- `hall`: every table's state in the current round
- `exports`: Polemica JSON per game, standings CSV (the printable sheet is the page's `sheet`)
- `discovery`: the boxes on the network, and the collector announced to them (mDNS)
- `collector`, `organiser`, `http`: the web server: the public page, the organiser's controls, the boxes' side
- `page`, `page_forms`, `language`, `words/`: the page's HTML and its words in English and Russian
- `demo`, `tables`: `narrator tournament --demo N`: simulated boxes on this computer

The box's side (announcing itself, taking a round, delivering its games, following its
collector) is narrator.uplink; it imports nothing from here but `signing` and `wire`.
"""
