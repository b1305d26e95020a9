// The page's only script: it follows the live view (server-sent events)
// and sets text, never markup. Cards change by reloading the page, unless
// the person is typing; then a banner offers the reload.
(function () {
  "use strict";
  var cards = document.getElementById("cards");
  var shown = cards ? cards.getAttribute("data-ids") : "";
  var runs = document.getElementById("runs");
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text) { e.textContent = text; }
    return e;
  }
  // newRun adds a run that started after the page was drawn.
  function newRun(r) {
    var none = runs.querySelector(".empty");
    if (none) { none.remove(); }
    var box = el("div", "runbox"), head = el("div");
    box.id = r.key;
    head.append(el("b", "rname", r.run), " ", el("span", "state"));
    box.append(head, el("div", "meta", r.project + (r.coder ? " · " + r.coder : "")), el("pre", "lines"));
    runs.append(box);
    return box;
  }
  var es = new EventSource("/events");
  es.addEventListener("cards", function (ev) {
    var ids = JSON.parse(ev.data).join(" ");
    if (ids === shown) { return; }
    var a = document.activeElement;
    var typing = a && (a.tagName === "TEXTAREA" || a.tagName === "INPUT" || a.tagName === "SELECT") && a.value;
    if (typing) { document.getElementById("stale").hidden = false; return; }
    es.close();
    window.location.replace("/");
  });
  es.addEventListener("runs", function (ev) {
    JSON.parse(ev.data).forEach(function (r) {
      var box = document.getElementById(r.key);
      if (!box) { box = newRun(r); }
      box.querySelector(".state").textContent = r.state;
      box.querySelector(".lines").textContent = (r.lines || []).join("\n");
    });
  });
})();
