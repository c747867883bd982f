// sadame quote checker: refuse, before sending, a form larger than the server accepts, so the
// text the user pasted stays in both boxes (the server's 413 would replace the page).
(function () {
  "use strict";
  // The size the browser will send: application/x-www-form-urlencoded, line breaks as CRLF
  // (a kana or kanji becomes %E3%81%82, 9 bytes).
  function encodedSize(form) {
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      params.append(name, String(value).replace(/\r\n|\r|\n/g, "\r\n"));
    });
    return params.toString().length;
  }
  function fmt(n) { return n.toLocaleString("ja-JP"); }
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("quote-form");
    var alert = document.getElementById("size-error");
    if (!form || !alert) { return; }
    var limit = parseInt(form.getAttribute("data-max-bytes"), 10);
    form.addEventListener("submit", function (event) {
      var size = encodedSize(form);
      if (!limit || size <= limit) { alert.hidden = true; return; }
      event.preventDefault();
      var source = form.elements.source.value.length, output = form.elements.output.value.length;
      alert.textContent = "原文と出力が大きすぎるため送信できません（原文 " + fmt(source) + " 文字、出力 " +
        fmt(output) + " 文字で、送信すると " + fmt(size) + " バイト。上限は " + fmt(limit) +
        " バイトで、日本語ならあわせて約 " + fmt(Math.floor(limit / 9)) + " 文字です）。" +
        "原文を分けて確認してください。入力した文はそのまま残っています。";
      alert.hidden = false;
      alert.scrollIntoView({block: "center"});
    });
  });
})();
