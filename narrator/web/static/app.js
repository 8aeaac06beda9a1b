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
  let picked = null;

  function say(text, ok) {
    result.textContent = text;
    result.className = "result " + (ok ? "ok" : "refused");
    result.scrollIntoView({block: "nearest"});
  }
  function ask(question) {
    return new Promise(function (resolve) {
      confirmBox.querySelector(".question").textContent = question;
      confirmBox.hidden = false;
      // On a phone the box may open below the screen's edge: bring it to the finger.
      confirmBox.scrollIntoView({block: "nearest"});
      confirmBox.querySelector(".yes").onclick = function () { confirmBox.hidden = true; resolve(true); };
      confirmBox.querySelector(".no").onclick = function () { confirmBox.hidden = true; resolve(false); };
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

  controls.addEventListener("click", async function (event) {
    const button = event.target.closest("button");
    if (!button || !controls.contains(button)) return;
    if (button.classList.contains("seatpick")) {
      controls.querySelectorAll(".seatpick").forEach(function (b) { b.classList.remove("picked"); });
      picked = parseInt(button.dataset.seat, 10);
      button.classList.add("picked");
      return;
    }
    const kind = button.dataset.kind;
    if (!kind) return;
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
