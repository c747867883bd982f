// sadame: optional conveniences only; every page works without this file.
(function () {
  "use strict";
  // Avoid double submissions while a form posts.
  document.addEventListener("submit", function (event) {
    var buttons = event.target.querySelectorAll("button[type=submit]");
    window.setTimeout(function () { buttons.forEach(function (b) { b.disabled = true; }); }, 0);
  });
  // On a puzzle page, keep the newest question in view and the cursor in the question box.
  document.addEventListener("DOMContentLoaded", function () {
    var question = document.getElementById("question");
    if (question && window.location.hash === "#ask") { question.focus(); }
  });
})();
