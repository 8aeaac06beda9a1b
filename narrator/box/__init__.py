"""The running box in one room: the referee loop and what it runs on.

  referee    Box: inputs -> engine -> journal -> performer, one action at a time;
             supervise (a device in its own task, started again when it fails)
  rulings    the box's own rulings on an action (no corrections at night, no "next
             speaker" before the speech has begun, an undo as the table hears it)
  session    Session, the Protocol of a game and where its actions are kept; Unrecorded
  performer  Performer: carries the engine's effects out through the ports, in order
  windows    WindowTimers: the timers of the engine's windows, on the clock port
  status     the box's own cues and the status LED (StatusLight)
  notices    Notices: what the organiser must know about the box itself
  warmup     the speech a game will need, rendered ahead
  service    Service: `narrator run`'s parts put together, the inputs' entry point and
             the evening's loop (start up, play games until stopped, the watchdog)
  ports      Ports and the Protocols of what the service needs of them (VoiceInput...)
  wiring     build_ports: the real devices named by the settings
  setups     initial_setup, unfinished_game
  fit        Fit: what this box can play (input method, answer place, set-up check)
  playing    Playing: the current box, phrase book and input method, shared by the parts
  starter    Starter: starting, resuming, holding a game; the unsaved game
  faults     Faults: status LED and notices for the card, sound, microphone, journal
  desk       Desk: keypad start key, abandon and forfeit confirmations, refusals
  announcer  Announcer: words between games, speakers per language, the page's address
  states     the small state machines (KeyTyping, Confirmation, CardOutage...)
  evening    Evening: the evening's operations (start, next, abandon) and its loop's waits
  judging    a judge at the table: whose night choices a game takes
  memory     the last set-up played and whether the last game ended, kept in the state folder

Nothing is imported here: import the module that holds what you need.
"""
