// Find-as-you-type on the concepts page: the list is the server's own, asked for as the
// person types (the form still works without this script).
(function () {
  var input = document.getElementById("find-concept");
  if (!input) return;
  var timer = null;
  var asked = 0;
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var mine = ++asked;
      var q = input.value.trim();
      var url = q ? "/concepts?partial=1&q=" + encodeURIComponent(q) : "/concepts?partial=1";
      fetch(url, { credentials: "same-origin" })
        .then(function (r) { return r.text(); })
        .then(function (html) {
          if (mine !== asked) return; // a later keystroke asked since
          var list = document.getElementById("concept-list");
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("concept-list");
          if (list && fresh) list.replaceWith(fresh);
          history.replaceState(null, "", q ? "/concepts?q=" + encodeURIComponent(q) : "/concepts");
        });
    }, 150);
  });
})();
