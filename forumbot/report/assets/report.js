/* forumbot season report: draws the charts from the JSON embedded in the page (#report-data) with the
   words of #report-words. Names are only ever given to ECharts as data (its tooltips escape HTML) or set
   as textContent, never as HTML. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var W = JSON.parse(document.getElementById("report-words").textContent);
  if (typeof echarts === "undefined") { return; }
  function fmt(s, x) { return String(s).replace("{}", x); }
  function chart(id, option) {
    var el = document.getElementById(id);
    if (!el) { return null; }
    var c = echarts.init(el, null, { renderer: "svg" });
    option.animation = false;
    c.setOption(option);
    el.setAttribute("data-drawn", "yes");
    window.addEventListener("resize", function () { c.resize(); });
    return c;
  }
  function uniq(xs) { var seen = {}, out = []; xs.forEach(function (x) { if (!seen[x]) { seen[x] = 1; out.push(x); } }); return out; }

  if (data.kind === "series") {
    var rows = data.rows;
    chart("series-chart", {
      tooltip: { trigger: "axis" }, legend: {},
      xAxis: { type: "category", data: rows.map(function (r) { return r.name; }), axisLabel: { rotate: 30 } },
      yAxis: { type: "value", minInterval: 1 },
      series: [
        { name: W.played, type: "bar", data: rows.map(function (r) { return r.played; }) },
        { name: W.won, type: "bar", data: rows.map(function (r) { return r.won; }) }
      ]
    });
    return;
  }

  // Each vote round: stacked bars, one stack per target, one segment per voter (votes, weights or points).
  data.votes.forEach(function (v) {
    var targets = uniq(v.totals.map(function (t) { return t.name; }).concat(
      [].concat.apply([], v.ballots.map(function (b) { return b.targets; }))));
    var series;
    if (v.hidden || !v.ballots.length) {
      series = [{ name: W.votes, type: "bar", data: targets.map(function (t) {
        var row = v.totals.filter(function (x) { return x.name === t; })[0]; return row ? row.value : 0; }),
        label: { show: true, position: "top" } }];
    } else {
      series = v.ballots.filter(function (b) { return !b.void; }).map(function (b) {
        return { name: b.voter, type: "bar", stack: "votes", emphasis: { focus: "series" },
          data: targets.map(function (t) { var i = b.targets.indexOf(t); return i < 0 ? 0 : b.points[i]; }) };
      });
    }
    chart("vote-chart-" + v.index, {
      tooltip: { trigger: "item" },
      grid: { left: 40, right: 20, top: 30, bottom: 60 },
      xAxis: { type: "category", data: targets, axisLabel: { rotate: targets.length > 8 ? 30 : 0 } },
      yAxis: { type: "value", name: v.ranked ? W.points : W.votes, minInterval: 1 },
      series: series
    });
  });

  if (data.scores) {
    var s = data.scores, xs = s.rounds.map(function (r) { return fmt(W.round, r); });
    chart("score-chart", {
      tooltip: { trigger: "axis" }, legend: { type: "scroll" },
      xAxis: { type: "category", data: xs }, yAxis: { type: "value", name: W.score },
      series: Object.keys(s.lines).map(function (name) { return { name: name, type: "line", data: s.lines[name] }; })
    });
    chart("index-chart", {
      tooltip: { trigger: "axis" },
      xAxis: { type: "category", data: xs }, yAxis: { type: "value", min: 0, max: 1 },
      series: [{ name: W.win_index, type: "line", data: s.win_index,
        markLine: { symbol: "none", label: { formatter: W.threshold + " {c}" }, data: [{ yAxis: s.threshold }] } }]
    });
  }

  // Deaths by round and cause.
  if (data.deaths.length) {
    var rounds = uniq(data.deaths.map(function (d) { return d.round; })).sort(function (a, b) { return a - b; });
    var reasons = uniq(data.deaths.map(function (d) { return d.reason; }));
    chart("death-chart", {
      tooltip: { trigger: "axis" }, legend: {},
      xAxis: { type: "category", data: rounds.map(function (r) { return fmt(W.round, r); }) },
      yAxis: { type: "value", minInterval: 1, name: W.deaths },
      series: reasons.map(function (why) {
        return { name: W.reasons[why] || why, type: "bar", stack: "deaths",
          data: rounds.map(function (r) { return data.deaths.filter(function (d) { return d.round === r && d.reason === why; }).length; }) };
      })
    });
  }

  // Living players per camp after each phase.
  if (data.camps) {
    var pts = data.camps.points;
    chart("camp-chart", {
      tooltip: { trigger: "axis" }, legend: {},
      xAxis: { type: "category", data: pts.map(function (p) { return (W.kinds[p.kind] || p.kind) + (p.round ? " " + fmt(W.round, p.round) : ""); }),
        axisLabel: { rotate: 30 } },
      yAxis: { type: "value", minInterval: 1, name: W.alive },
      series: data.camps.camps.map(function (c) {
        return { name: W.camps[c] || c, type: "line", step: "end", data: pts.map(function (p) { return p.counts[c]; }) };
      })
    });
  }
})();
