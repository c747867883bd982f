// sadame: optional conveniences only; every page works without this file.
(function () {
  "use strict";
  // Avoid double submissions while a form posts.
  document.addEventListener("submit", function (event) {
    var buttons = event.target.querySelectorAll("button[type=submit]");
    window.setTimeout(function () { buttons.forEach(function (b) { b.disabled = true; }); }, 0);
  });
  // On a puzzle page the cursor goes back to the box of the last move: the question box
  // (also set by the autofocus attribute) or, after an answer, the answer box.
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById(window.location.hash === "#answer" ? "answer-text" : "question");
    if (box) { box.focus(); }
  });
})();
