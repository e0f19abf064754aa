// The live countdown of the console's deadlines (forumbot's own script): every <time class="countdown">
// shows the time left until its datetime attribute, once a second; data-passed is shown after it.
(function () {
  function left(ms) {
    var s = Math.floor(ms / 1000), d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600),
        m = Math.floor(s % 3600 / 60), r = s % 60;
    function two(n) { return (n < 10 ? "0" : "") + n; }
    return (d ? d + "d " : "") + two(h) + ":" + two(m) + ":" + two(r);
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("time.countdown").forEach(function (el) {
      var ms = Date.parse(el.getAttribute("datetime")) - now;
      el.textContent = ms > 0 ? left(ms) : el.getAttribute("data-passed");
    });
  }
  tick();
  setInterval(tick, 1000);
})();
