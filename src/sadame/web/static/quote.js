// sadame quote checker: refuse, before sending, a form larger than the server accepts, so the
// text the user pasted stays in both boxes (the server's 413 would replace the page).
(function () {
  "use strict";
  // The size the browser will send: application/x-www-form-urlencoded, line breaks as CRLF
  // (a kana or kanji becomes %E3%81%82, 9 bytes).
  function fieldSize(name, value) {  // one field's share of the encoded form, "name=value"
    var params = new URLSearchParams();
    params.append(name, String(value).replace(/\r\n|\r|\n/g, "\r\n"));
    return params.toString().length;
  }
  function encodedSize(form) {  // the fields joined by "&"
    var size = -1;
    new FormData(form).forEach(function (value, name) { size += fieldSize(name, value) + 1; });
    return Math.max(size, 0);
  }
  // Which box to split: the bigger one (splitting it is enough unless the other alone is over the
  // limit too), so the message never tells a user with a small source to split the source.
  function tooBig(sourceBytes, outputBytes, limit) {
    if (Math.min(sourceBytes, outputBytes) > limit) { return "原文と出力"; }
    return outputBytes > sourceBytes ? "出力" : "原文";
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
      var source = form.elements.source.value, output = form.elements.output.value;
      var part = tooBig(fieldSize("source", source), fieldSize("output", output), limit);
      alert.textContent = part + "が大きすぎるため送信できません（原文 " + fmt(source.length) + " 文字、出力 " +
        fmt(output.length) + " 文字で、送信すると " + fmt(size) + " バイト。上限は " + fmt(limit) +
        " バイトで、日本語なら原文と出力をあわせて約 " + fmt(Math.floor(limit / 9)) + " 文字です）。" +
        part + (part === "原文と出力" ? "をどちらも" : "を") + "分けて確認してください。入力した文はそのまま残っています。";
      alert.hidden = false;
      alert.scrollIntoView({block: "center"});
    });
  });
})();
