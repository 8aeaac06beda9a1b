"""`narrator run`: the box as systemd starts it.

Start-up renders the speech cache for the rule set (a no-op once rendered), loads the
recognizer, makes the pads live, then says "ready", lights the status LED and tells
systemd READY=1. An unfinished game in the state folder is resumed and the table is told
where it stands; otherwise nothing starts unasked: after a game's end (a restart between
games) the box waits to be asked for the next, as after any game's end, and a box that
has not played yet waits for a set-up (the page's, or the keypad's bare Enter and "next
game" for the set-up given: narrator.evening, the config's rule set and table, names from
`--names` or remembered on this box). After a
game ends, the host's Enter (or "next") starts the next one with the same names; the
page, keypad and voice start, continue or abandon games through `service.evening`.

Faults never lose the game: a device that throws is logged and started again, a missing
microphone turns voice commands off, a lost sound device only silences the box until it
is back (the speaker handles that), and every action is in the journal before it acts.

Where each part lives (this was one module, narrator/service.py, until issue 29):
  core       Service: the parts put together, `submit` (every input), `run` (the
             evening's loop), start-up, the watchdog, the cards shown after a game
  ports      Ports and the Protocols of what the service needs of them (VoiceInput...),
             input_method
  wiring     build_ports: the real devices named by the settings (`narrator run`)
  setups     initial_setup, unfinished_game
  fit        Fit: what this box can play (input method, answer place, set-up check)
  playing    Playing: the current box, phrase book and input method, shared by the parts
  starter    Starter: starting, resuming, holding a game; the unsaved game; the date a
             phone tells (was _new_box, _hold, _between_games, _unsaved_game...)
  faults     Faults: status LED and notices for the card, sound, microphone, journal
             (was _card_refused, _card_ok, _sound_changed, _voice_changed, _unsaved...)
  confirm    Desk: keypad start key, abandon and forfeit confirmations, refusals, voice
             decisions (was _key, _abandon, _forfeit, _confirmed, _refused, _voice_decision)
  announcer  Announcer: words between games, speakers per language, the page's address
             and voice-off notes said once (was _say_*, _speaker, _voice_for, announce)
  states     the small state machines: KeyTyping, Confirmation, CardOutage,
             Announcement, ToldOnce (were _typing, _asked, _card_told/_card_tries,
             _announced, _voice_told)
"""

from narrator.service.confirm import CONFIRM_SECONDS
from narrator.service.core import Service
from narrator.service.faults import CARD_RETRY_SECONDS, CARD_TRIES
from narrator.service.ports import Ports, Sink, VoiceInput, input_method
from narrator.service.setups import initial_setup, unfinished_game
from narrator.service.wiring import _voice_input, build_ports

__all__ = ["CARD_RETRY_SECONDS", "CARD_TRIES", "CONFIRM_SECONDS", "Ports", "Service", "Sink",
           "VoiceInput", "_voice_input", "build_ports", "initial_setup", "input_method",
           "unfinished_game"]
