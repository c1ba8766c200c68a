// Runs only in a browser without ES modules (index.html loads it with `nomodule`): the
// page cannot start there, so show the shell's bilingual message naming the versions.
(function () {
  var failed = document.getElementById("boot-failed");
  var bar = document.getElementById("boot-progress");
  if (failed) failed.removeAttribute("hidden");
  if (bar) bar.setAttribute("hidden", "");
})();
