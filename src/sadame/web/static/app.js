// sadame: optional conveniences only; every page works without this file.
(function () {
  "use strict";
  // Avoid double submissions while a form posts.
  document.addEventListener("submit", function (event) {
    if (event.defaultPrevented) { return; }  // a page's own check stopped the submission
    var buttons = event.target.querySelectorAll("button[type=submit]");
    window.setTimeout(function () { buttons.forEach(function (b) { b.disabled = true; }); }, 0);
  });
  // On a puzzle page the box marked autofocus (the question box, or the answer box after an
  // answer) gets the cursor even where the browser skipped autofocus (e.g. a URL with a #fragment).
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector("main [autofocus]");
    if (box && (!document.activeElement || document.activeElement === document.body)) { box.focus(); }
  });
})();
