// The organiser's page: live updates (server-sent events), the day timer, corrections.
// No framework and no build step: the box renders the HTML, this only swaps it in.
"use strict";
(function () {
  const live = document.getElementById("live");
  let timerEnd = null;

  // The phone knows the date; the box (no network, no real-time clock) may not. A signed-in
  // organiser's page tells it, for the protocols' dates (narrator/web/phone_time.py).
  // Told again each time the live part (re)connects: a page left open through a power cut
  // reconnects to a box that forgot it (its clock may be its last shutdown's).
  const signedIn = !!document.querySelector('form[action="/logout"]');
  function tellTime() {
    if (!signedIn) return;
    fetch("/api/clock", {method: "POST", credentials: "same-origin",
                         headers: {"Content-Type": "application/json"},
                         body: JSON.stringify({now: Date.now()})}).catch(function () {});
  }
  tellTime();

  function startTimer() {
    const el = live && live.querySelector(".timer");
    timerEnd = null;
    if (!el) return;
    const left = parseFloat(el.dataset.left);
    if (el.dataset.running === "1") timerEnd = performance.now() + left * 1000;
  }
  function tick() {
    const el = live && live.querySelector(".timer");
    if (!el || timerEnd === null) return;
    const left = Math.max(0, Math.ceil((timerEnd - performance.now()) / 1000));
    el.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    el.classList.toggle("low", left <= 10);
  }
  if (live && live.dataset.stream) {
    startTimer();
    setInterval(tick, 200);
    let opened = false;
    const connect = function () {
      const stream = new EventSource(live.dataset.stream);
      stream.onopen = function () { if (opened) tellTime(); opened = true; };
      // The browser retries a dropped stream by itself, but gives up for good when the box
      // answers with an error (a restart caught half-way): a page left open would then
      // never update again, so it starts a new stream.
      stream.onerror = function () {
        if (stream.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
      };
      stream.onmessage = onMessage;
    };
    const onMessage = function (event) {
      const msg = JSON.parse(event.data);
      // Another game (the next one, or the first after set-up): its seats and controls
      // differ, so the whole page is fetched again.
      // The end of the game changes the corrections too (next game, no more fouls).
      if ((msg.game || "") !== (live.dataset.game || "") ||
          (msg.over ? "1" : "0") !== (live.dataset.over || "0")) { location.reload(); return; }
      live.innerHTML = msg.html;
      live.dataset.updated = String(Date.now());
      startTimer();
      tick();
      live.dispatchEvent(new Event("swapped"));
    };
    connect();
  }

  // Set-up: another rule set, table size or language changes the form's shape; the box
  // renders it again with what was typed so far.
  const setup = document.getElementById("setup");
  if (setup) {
    setup.querySelectorAll("[data-refresh]").forEach(function (el) {
      el.addEventListener("change", function () {
        const query = new URLSearchParams(new FormData(setup));
        location.href = "/setup?" + query.toString();
      });
    });
  }

  // A select shows one line of its choice and cuts the rest ("as the box is set (pads if
  // it has them, els"): a choice too long for its box is written out in full under it.
  const measure = document.createElement("canvas").getContext("2d");
  function fullText(select) {
    let line = select.nextElementSibling;
    if (!line || !line.classList.contains("fulltext")) {
      line = document.createElement("small");
      line.className = "fulltext";
      select.after(line);
    }
    const option = select.options[select.selectedIndex];
    const text = option ? option.text : "";
    const style = getComputedStyle(select);
    measure.font = style.font;
    // The room for the text: the box less its padding and the arrow (about 2em).
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      - 2 * parseFloat(style.fontSize);
    const cut = measure.measureText(text).width > room;
    line.textContent = cut ? text : "";
    line.hidden = !cut;
  }
  document.querySelectorAll("form select").forEach(function (select) {
    fullText(select);
    select.addEventListener("change", function () { fullText(select); });
    window.addEventListener("resize", function () { fullText(select); });
  });

  if (document.querySelector("[data-wait]")) setTimeout(function () { location.reload(); }, 700);

  // Dealing without cards: the role shows only while the finger is down.
  const deal = document.getElementById("deal");
  if (deal) {
    const show = deal.querySelector(".show");
    const card = deal.querySelector(".card");
    let asked = 0;
    async function reveal(event) {
      event.preventDefault();
      const mine = ++asked;
      const response = await fetch("/api/deal/peek?seat=" + deal.dataset.seat,
                                   {method: "POST", credentials: "same-origin"});
      const data = await response.json();
      if (mine === asked) card.textContent = response.ok ? data.role : data.error;
    }
    function hide() { asked++; card.textContent = ""; }
    show.addEventListener("pointerdown", reveal);
    ["pointerup", "pointerleave", "pointercancel", "blur"].forEach(function (name) {
      show.addEventListener(name, hide);
    });
    show.addEventListener("keydown", function (event) { if (event.key === "Enter") reveal(event); });
    show.addEventListener("contextmenu", function (event) { event.preventDefault(); });
    deal.querySelector(".pass").addEventListener("click", async function () {
      hide();
      const response = await fetch("/api/deal/next", {method: "POST", credentials: "same-origin"});
      const data = await response.json();
      location.href = data.closed ? "/game" : "/deal";
    });
  }

  const controls = document.getElementById("controls");
  if (!controls) return;
  const words = JSON.parse(document.getElementById("words").textContent);
  const result = document.getElementById("result");
  const confirmBox = document.getElementById("confirm");
  const hint = document.getElementById("taphint");
  const toggle = controls.querySelector("[data-toggle]");
  const countButton = controls.querySelector('button[data-kind="count"]');
  const addButton = controls.querySelector('.daybar button[data-kind="add_time"]');
  const bestButton = controls.querySelector('button[data-mode="best"]');
  const modeButtons = controls.querySelectorAll("button[data-mode]");
  let picked = null;
  // A tap's meaning for the next seat tile tapped, when the organiser chose one: a foul,
  // who nominates whom (the nominating seat first), a best move's seats.
  let mode = null;
  let by = null;
  let best = [];
  let fading = null;  // the timer that clears a "Done."
  document.body.classList.add("host");

  function tapKind() {
    const seats = live && live.querySelector("ol.seats");
    return seats ? (seats.dataset.tap || "") : "";
  }
  // The live part is the box's; the bar follows it: the pause button says what applies,
  // "Count" shows while a ballot is open, the hint says what a tap on a seat does now.
  function follow() {
    const status = live && live.querySelector(".status");
    const paused = !!status && status.dataset.paused === "1";
    if (toggle) {
      toggle.dataset.kind = paused ? "resume" : "pause";
      toggle.textContent = paused ? words.resume : words.pause;
    }
    const tap = tapKind();
    if (countButton) countButton.hidden = tap !== "hand";
    // A ballot has no speech to add time to: its place is the count's.
    if (addButton) addButton.hidden = tap === "hand";
    if (live) live.querySelectorAll("li.seat").forEach(function (li) {
      li.classList.toggle("chosen", mode === "best" && best.indexOf(parseInt(li.dataset.seat, 10)) >= 0);
    });
    if (bestButton) bestButton.textContent = mode === "best" && best.length ?
      words.send_best + " (" + best.join(", ") + ")" : words.best_move;
    // The mode chosen shows on its button, and its instruction in the bar's line, in
    // sight whatever the scroll (the hint above the numbers may be off the screen).
    modeButtons.forEach(function (b) {
      const on = b.dataset.mode === mode;
      b.classList.toggle("on", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    const text = tapHint();
    if (mode) say(text, "mode");
    else if (result.classList.contains("mode")) clear();
    if (hint) hint.textContent = text;
  }
  function tapHint() {
    const tap = tapKind();
    if (mode === "foul") return words.tap_foul;
    if (mode === "by") return by === null ? words.tap_by : words.tap_by_then.replace("{seat}", String(by));
    if (mode === "best") return words.tap_best;
    return tap ? words["tap_" + tap] : words.tap_pick;  // else a tile picks its seat for the corrections
  }
  if (live) live.addEventListener("swapped", follow);
  follow();

  // The line says what the last action did ("Done.", a refusal) or what a tap does in the
  // mode chosen; "Done." goes after a few seconds, and any next tap clears the line, so an
  // old "Done." never reads as the answer to a later action.
  function say(text, how) {
    clearTimeout(fading);
    result.textContent = text;
    result.className = "result " + (how === true ? "ok" : how === "mode" ? "mode" : "refused");
    if (how === true) fading = setTimeout(function () { clear(); }, 4000);
    if (how !== "mode") result.scrollIntoView({block: "nearest"});
  }
  function clear() {
    clearTimeout(fading);
    result.textContent = "";
    result.className = "result";
  }
  // A question covers the page with a veil: nothing under it can be tapped by mistake
  // (the undo's question sat over "Next game"); a tap on the veil is "Cancel".
  const veil = document.createElement("div");
  veil.className = "veil";
  veil.hidden = true;
  document.body.appendChild(veil);
  function ask(question) {
    return new Promise(function (resolve) {
      function answer(yes) { confirmBox.hidden = true; veil.hidden = true; resolve(yes); }
      confirmBox.querySelector(".question").textContent = question;
      confirmBox.hidden = false;
      veil.hidden = false;
      // On a phone the box may open below the screen's edge: bring it to the finger.
      confirmBox.scrollIntoView({block: "nearest"});
      confirmBox.querySelector(".yes").onclick = function () { answer(true); };
      confirmBox.querySelector(".no").onclick = function () { answer(false); };
      veil.onclick = function () { answer(false); };
    });
  }
  async function send(url, body) {
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify(body || {}),
    });
    if (response.status === 401) { location.href = "/login?next=/game"; return; }
    let data = {};
    try { data = await response.json(); } catch (e) { data = {}; }
    if (response.ok) say(words.done, true);
    else say(words.refused + " " + (data.error || response.status), false);
    return response.ok;
  }
  function pick(seat) {
    picked = seat;
    controls.querySelectorAll(".seatpick").forEach(function (b) {
      b.classList.toggle("picked", parseInt(b.dataset.seat, 10) === seat);
    });
  }

  // A seat tapped (a tile, or a number of the corrections' row while a mode is chosen):
  // the organiser's choice of a moment (foul, who nominates whom, best move) first, else
  // what the keypad's `N Enter` does now.
  async function seatTapped(seat) {
    const tile = live && live.querySelector('li.seat[data-seat="' + seat + '"]');
    if (mode === "foul") {
      mode = null; follow();
      await send("/api/action", {kind: "foul", seat: seat});
      return;
    }
    if (mode === "by") {
      if (by === null) { by = seat; follow(); return; }
      const from = by;
      mode = null; by = null; follow();
      if (from === seat && !(await ask(words.confirm_self.replace("{seat}", String(seat))))) return;
      await send("/api/action", {kind: "nominate", target: seat, by: from});
      return;
    }
    if (mode === "best") {
      const at = best.indexOf(seat);
      if (at >= 0) best.splice(at, 1); else if (best.length < 3) best.push(seat);
      follow();
      return;
    }
    const tap = tapKind();
    if (tap === "nominate") {
      // The speaker's own tile: a slip more often than a choice; asked first.
      if (tile && tile.classList.contains("speaking") &&
          !(await ask(words.confirm_self.replace("{seat}", String(seat))))) return;
      await send("/api/action", {kind: "nominate", target: seat});
    } else if (tap === "second") await send("/api/action", {kind: "second", by: seat});
    else if (tap === "hand") {
      const up = !!tile && tile.classList.contains("hand");
      await send("/api/action", up ? {kind: "lower_hand", voter: seat} : {kind: "vote", voter: seat});
    } else pick(seat);
  }
  if (live) live.addEventListener("click", function (event) {
    const tile = event.target.closest("li.seat");
    if (!tile || !live.contains(tile)) return;
    if (!mode) clear();
    seatTapped(parseInt(tile.dataset.seat, 10));
  });

  controls.addEventListener("click", async function (event) {
    const button = event.target.closest("button");
    if (!button || !controls.contains(button) || button.closest("#confirm")) return;
    if (button.classList.contains("seatpick")) {
      // While a mode waits for a seat, the numbers under its hint are seats too.
      if (mode) seatTapped(parseInt(button.dataset.seat, 10));
      else pick(parseInt(button.dataset.seat, 10));
      return;
    }
    const kind = button.dataset.kind;
    if (!kind) return;
    clear();
    const chosen = button.dataset.mode;
    if (chosen === "best" && mode === "best") {
      const seats = best;
      mode = null; best = []; follow();
      if (seats.length) await send("/api/action", {kind: "best_move", seats: seats});
      return;
    }
    if (chosen) {
      // The next seat tapped (or two: who, then whom) completes it, whatever seat was
      // picked for the corrections before; the same button again: off, and said so.
      const off = mode === chosen;
      mode = off ? null : chosen;
      by = null; best = [];
      follow();
      if (off) say(words.mode_off.replace("{what}", tapHint()), "mode");
      return;
    }
    if ("seatNeeded" in button.dataset && picked === null) { say(words.pick_seat_first, false); return; }
    if (button.dataset.confirm) {
      const question = words[button.dataset.confirm].replace("{seat}", String(picked));
      if (!(await ask(question))) return;
    }
    if ("undo" in button.dataset) {
      const response = await fetch("/api/undo", {credentials: "same-origin"});
      if (response.status === 401) { location.href = "/login?next=/game"; return; }
      const data = await response.json();
      if (!response.ok) { say(words.refused + " " + data.error, false); return; }
      if (!(await ask(words.confirm_undo.replace("{what}", data.undo)))) return;
      await send("/api/action", {kind: "undo", step: data.step});
      return;
    }
    if (button.dataset.evening) {
      if (await send("/api/" + button.dataset.evening, {}) && button.dataset.evening === "next-game") {
        location.href = "/game";
      }
      return;
    }
    const body = {kind: kind};
    if ("seatNeeded" in button.dataset) body.seat = picked;
    if (kind === "add_time") body.seconds = 30;
    await send("/api/action", body);
  });
})();
