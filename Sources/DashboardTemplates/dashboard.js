// Live stage progress on a job's page: each event for the job (server-sent, over the session)
// fetches the stages fragment again and swaps it in (at most one fetch at a time). Without JavaScript the page still works;
// a reload shows the same thing.
(function () {
  "use strict";
  var stages = document.getElementById("stages");
  if (!stages || stages.dataset.terminal === "true") return;
  var pending = false;
  function refresh() {
    if (pending) return;
    pending = true;
    fetch(stages.dataset.live, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        var terminal = r.headers.get("X-Reelwork-Terminal") === "true";
        return r.text().then(function (html) { stages.innerHTML = html; return terminal; });
      })
      .then(function (terminal) {
        pending = false;
        if (terminal) { stop(); window.location.reload(); }
      })
      .catch(function () { pending = false; });
  }
  var source = null, timer = null;
  function stop() { if (source) source.close(); if (timer) clearInterval(timer); }
  if (window.EventSource && stages.dataset.events) {
    // The job's events (GET /v1/events's stream over the session); EventSource reconnects by
    // itself with the last id it saw, so a dropped connection misses nothing.
    source = new EventSource(stages.dataset.events);
    source.onopen = function () { stages.dataset.stream = "open"; };
    source.onerror = function () { stages.dataset.stream = "reconnecting"; };
    // Every event type, named by the page (the server's JobEvent.Kind), not here.
    (stages.dataset.eventTypes || "").split(" ").forEach(function (type) {
      source.addEventListener(type, function () { stages.dataset.eventsSeen = String(Number(stages.dataset.eventsSeen || 0) + 1); refresh(); });
    });
  }
  // A slow safety net: a missed event is corrected within a few seconds.
  timer = setInterval(refresh, source ? 5000 : 1000);
})();

// Buttons that stop work ask first (the page's forms say what in data-confirm); without
// JavaScript they act at once, as plain forms do.
document.addEventListener("submit", function (event) {
  var question = event.target.getAttribute && event.target.getAttribute("data-confirm");
  if (question && !window.confirm(question)) event.preventDefault();
});
