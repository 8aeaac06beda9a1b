// The judge's page (narrator/web/judge.py): the night step open now, asked for twice a
// second while the page is open; a seat tapped is only chosen here until Confirm sends it.
"use strict";
(function () {
  const wrap = document.querySelector(".jwrap");
  let key = wrap ? wrap.dataset.key : null;
  let busy = false;

  function holder() { return document.getElementById("judge"); }

  function show(state) {
    if (state.key === key) return;
    key = state.key;
    const old = holder();
    if (!old) return;
    const box = document.createElement("div");
    box.innerHTML = state.html;
    old.replaceWith(box.firstElementChild);
    wire();
  }

  function refresh() {
    if (busy) return;
    fetch("/api/judge", {credentials: "same-origin", cache: "no-store"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) { if (state) show(state); })
      .catch(function () {});
  }

  function wire() {
    const form = document.querySelector("#judge form.jentry");
    if (!form) return;
    const meeting = form.dataset.meeting === "1";
    const confirm = form.querySelector(".jconfirm");
    const result = form.querySelector(".jresult");
    const picks = form.querySelectorAll("button[data-seat]");
    picks.forEach(function (button) {
      button.addEventListener("click", function () {
        if (meeting) {
          button.classList.toggle("chosen");
        } else {
          picks.forEach(function (b) { b.classList.toggle("chosen", b === button); });
        }
        confirm.disabled = !form.querySelector("button.chosen");
      });
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const chosen = Array.from(form.querySelectorAll("button.chosen"))
        .map(function (b) { return parseInt(b.dataset.seat, 10); });
      if (!chosen.length) return;
      const body = {step: form.dataset.step, night: parseInt(form.dataset.night, 10)};
      if (meeting) body.seats = chosen; else body.target = chosen[0];
      confirm.disabled = true;
      busy = true;
      fetch("/api/judge", {method: "POST", credentials: "same-origin",
                           headers: {"Content-Type": "application/json"},
                           body: JSON.stringify(body)})
        .then(function (r) { return r.json().then(function (data) { return [r.ok, data]; }); })
        .then(function (answer) {
          busy = false;
          if (answer[0]) { show(answer[1]); return; }
          result.textContent = form.dataset.refused.replace("{reason}", answer[1].error || "");
          confirm.disabled = false;
        })
        .catch(function () { busy = false; confirm.disabled = false; });
    });
  }

  wire();
  setInterval(refresh, 500);
})();
