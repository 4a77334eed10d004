// The simulation page: start simulate/compare on the server, show its progress (polling),
// stop it, and draw the result from its numbers: win rates with their 95% intervals, the
// score distribution, the measures and (compare) the plain-words verdict. Text from the
// server is put in with textContent only (never as markup).

const data = JSON.parse(document.getElementById("sim-data").textContent);
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const STORE = "rulesplay.pasted";
let current = null;  // the running simulation's id
// One of the page's words (in the server's language), its {slots} filled from fields.
function w(key, fields = {}) {
  return (data.words[key] || key).replace(/\{(\w+)\}/g, (all, name) =>
    (name in fields ? String(fields[name]) : all));
}

function el(tag, cls, content) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (content !== undefined) node.textContent = content;
  return node;
}

function svg(tag, attrs, content) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (content !== undefined) node.textContent = content;
  return node;
}

const pct = (v) => (v * 100).toFixed(1) + "%";
const num = (v, digits = 2) => Number(v).toFixed(digits);

function table(headers, rows) {
  const box = el("div", "scroll-x");
  const t = el("table", "data");
  const head = el("tr");
  for (const h of headers) head.append(el("th", "", h));
  t.append(el("thead"));
  t.tHead.append(head);
  const body = el("tbody");
  for (const row of rows) {
    const tr = el("tr");
    for (const cell of row) tr.append(cell instanceof Node ? wrap(cell) : el("td", "", cell));
    body.append(tr);
  }
  t.append(body);
  box.append(t);
  return box;
}

function wrap(node) {
  const td = el("td");
  td.append(node);
  return td;
}

// Win rate per seat (or team): a bar each, its 95% interval as a whisker, the fair share
// as a dashed line.
function winChart(summary, sides) {
  const rows = summary.teams || summary.seats;
  const width = 360, height = 180, left = 44, bottom = 40, top = 10;  // (room for "100%")
  const plot = svg("svg", {viewBox: `0 0 ${width} ${height}`, class: "chart",
                           role: "img", "aria-label": "win rate by seat, with 95% intervals"});
  const y = (v) => top + (1 - v) * (height - top - bottom);
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    plot.append(svg("line", {x1: left, x2: width, y1: y(tick), y2: y(tick), class: "grid"}));
    plot.append(svg("text", {x: left - 4, y: y(tick) + 4, class: "tick", "text-anchor": "end"},
                    Math.round(tick * 100) + "%"));
  }
  const step = (width - left) / rows.length;
  rows.forEach((row, i) => {
    const x = left + i * step + step * 0.2, w = step * 0.6;
    plot.append(svg("rect", {x, y: y(row.win_rate), width: w,
                             height: y(0) - y(row.win_rate), class: "bar"}));
    const mid = x + w / 2;
    plot.append(svg("line", {x1: mid, x2: mid, y1: y(row.win_high), y2: y(row.win_low),
                             class: "whisker"}));
    for (const v of [row.win_low, row.win_high]) {
      plot.append(svg("line", {x1: mid - 6, x2: mid + 6, y1: y(v), y2: y(v), class: "whisker"}));
    }
    const name = summary.teams ? row.name : "seat " + row.seat;
    plot.append(svg("text", {x: mid, y: height - bottom + 16, class: "tick",
                             "text-anchor": "middle"}, name));
    plot.append(svg("text", {x: mid, y: height - bottom + 30, class: "tick",
                             "text-anchor": "middle"}, pct(row.win_rate)));
  });
  const fair = 1 / rows.length;
  plot.append(svg("line", {x1: left, x2: width, y1: y(fair), y2: y(fair), class: "fair"}));
  return plot;
}

// One side's final scores as a histogram (at most 30 bins, as the command's plot).
function histogram(side) {
  const width = 360, height = 110, bottom = 18, top = 6;
  const scores = side.scores;
  const lo = scores[0][0], hi = scores[scores.length - 1][0];
  const bins = Math.min(30, hi - lo + 1);
  const size = (hi - lo + 1) / bins;
  const counts = new Array(bins).fill(0);
  for (const [score, games] of scores) counts[Math.min(bins - 1, Math.floor((score - lo) / size))] += games;
  const most = Math.max(...counts);
  const plot = svg("svg", {viewBox: `0 0 ${width} ${height}`, class: "chart hist", role: "img",
                           "aria-label": "score distribution of " + side.name});
  const w = width / bins;
  counts.forEach((c, i) => {
    const h = (height - top - bottom) * c / most;
    plot.append(svg("rect", {x: i * w + 1, y: height - bottom - h, width: Math.max(1, w - 2),
                             height: h, class: "bar"}));
  });
  plot.append(svg("text", {x: 2, y: height - 4, class: "tick"}, String(lo)));
  plot.append(svg("text", {x: width - 2, y: height - 4, class: "tick", "text-anchor": "end"},
                  String(hi)));
  return plot;
}

function showResult(r, heading) {
  const box = el("section", "sim-one");
  box.append(el("h2", "", heading || r.title));
  box.append(el("p", "note", `${r.title} (${r.ruleset}): ${r.games} games, ${r.players} players, `
                            + `seed ${r.seed}`));
  const charts = el("div", "charts");
  const wins = el("figure");
  wins.append(winChart(r, r.sides), el("figcaption", "", w("win_rate_caption")));
  charts.append(wins);
  const scores = el("figure");
  for (const side of r.sides) {
    scores.append(el("div", "hist-name", side.name), histogram(side));
  }
  scores.append(el("figcaption", "", w("score_distribution")));
  charts.append(scores);
  box.append(charts);
  if (r.teams) {
    box.append(table(["Team", "Seats", "Win rate", "95% CI", "Mean score"], r.teams.map((t) => [
      t.name, t.seats.join(", "), pct(t.win_rate), pct(t.win_low) + ".." + pct(t.win_high),
      num(t.score.mean)])));
  }
  box.append(table(["Seat", "Bot", "Win rate", "95% CI", "Mean score", "Score sd"],
                   r.seats.map((s) => [String(s.seat), s.bot, pct(s.win_rate),
                                       pct(s.win_low) + ".." + pct(s.win_high),
                                       num(s.score.mean), num(s.score.sd)])));
  const fp = r.first_player, ties = r.ties;
  const rows = [
    ["First player's win rate", pct(fp.win_rate), `${pct(fp.low)}..${pct(fp.high)} (fair ${pct(fp.fair)})`],
    ["Ties (winners equal on score)", pct(ties.share), `${pct(ties.low)}..${pct(ties.high)}`],
    ["Score spread (best - worst)", num(r.spread.mean), "sd " + num(r.spread.sd)]];
  // (the language has phases, not rounds: the measure is named for the phase it counts)
  const lengths = {decisions: "decisions", tricks: "tricks",
                   rounds: r.rounds_phase ? `entries of phase '${r.rounds_phase}'`
                                          : "entries of the first phase to repeat"};
  for (const [key, words] of Object.entries(lengths)) {
    rows.push(["Length: " + words, num(r[key].mean, 1), "sd " + num(r[key].sd, 1)]);
  }
  rows.push(["Time per game", num(r.seconds_per_game * 1000, 1) + " ms", ""]);
  box.append(table(["Measure", "Value", "Spread / 95% CI"], rows));
  return box;
}

// A difference with its interval, drawn around zero (scaled per line).
function interval(d) {
  const reach = Math.max(Math.abs(d.low), Math.abs(d.high), 1e-9) * 1.1;
  const at = (v) => 50 + 50 * v / reach;
  const track = el("span", "interval" + (d.clear ? " clear" : ""));
  const span = el("span", "ci");
  span.style.left = at(d.low) + "%";
  span.style.width = Math.max(0.5, at(d.high) - at(d.low)) + "%";
  const dot = el("span", "dot");
  dot.style.left = at(d.diff) + "%";
  track.append(el("span", "zero"), span, dot);
  return track;
}

function showComparison(c) {
  const box = el("div");
  const verdict = el("section", "verdict");
  verdict.append(el("h2", "", w("verdict")));
  for (const sentence of c.verdict) verdict.append(el("p", "", sentence));
  box.append(verdict);
  const fmt = (d, v, signed) => d.percent ? (signed ? (v * 100 >= 0 ? "+" : "") + (v * 100).toFixed(1) + " pt" : pct(v))
                                           : (signed && v >= 0 ? "+" : "") + num(v);
  box.append(table(["Measure", "Base", "Variant", "Difference", "95% CI", "", ""],
                   c.differences.map((d) => [d.label, fmt(d, d.base), fmt(d, d.variant),
                                             fmt(d, d.diff, true),
                                             // (null ends: one game, no spread to bound it)
                                             d.low === null ? "\u2013"
                                               : fmt(d, d.low, true) + ".." + fmt(d, d.high, true),
                                             interval(d), d.clear ? "clear" : ""])));
  const both = el("div", "pair");
  both.append(showResult(c.base, `${w("base")}: ${c.base.ruleset}`),
              showResult(c.variant, `${w("variant")}: ${c.variant.ruleset}`));
  box.append(both);
  return box;
}

function showError(message, diagnostics) {
  const error = $("sim-error");
  error.hidden = !message;
  error.textContent = message || "";
  const list = $("sim-diags");
  list.replaceChildren();
  for (const d of diagnostics || []) {
    const item = el("li", d.severity);
    item.append(el("span", "head", d.head));
    if (d.source) item.append(el("pre", "source", d.source + "\n" + d.caret));
    list.append(item);
  }
}

function progress(view) {
  const box = $("sim-progress");
  box.hidden = false;
  box.querySelector(".bar span").style.width = (100 * view.done / view.games) + "%";
  box.querySelector(".count").textContent = w("progress", view)
    + (view.kind === "compare" ? w("each_ruleset") : "");
}

function finished(view) {
  current = null;
  $("sim-run").disabled = false;
  $("sim-stop").disabled = true;
  if (view.state === "failed") showError(view.message);
  else if (view.message) showError(view.message);
  const out = $("sim-result");
  out.replaceChildren();
  if (view.result) {
    out.append(view.kind === "compare" ? showComparison(view.result) : showResult(view.result));
  }
}

async function poll(id) {
  while (current === id) {
    const response = await fetch("/simulate/jobs/" + encodeURIComponent(id));
    const view = await response.json();
    if (!response.ok) { showError(view.error); finished({}); return; }
    progress(view);
    if (view.state !== "running") { finished(view); return; }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function run(event) {
  event.preventDefault();
  showError(null);
  $("sim-result").replaceChildren();
  const body = {ruleset: $("sim-ruleset").value, variant: $("sim-variant").value,
                players: $("sim-players").value, games: $("sim-games").value,
                bot: $("sim-bot").value, seed: $("sim-seed").value, text: $("sim-text").value};
  const response = await fetch("/simulate/start", {
    method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
  const answer = (response.headers.get("content-type") || "").includes("json")
    ? await response.json() : {error: await response.text()};
  if (!response.ok) { showError(answer.error, answer.diagnostics); return; }
  current = answer.id;
  $("sim-run").disabled = true;
  $("sim-stop").disabled = false;
  progress({done: 0, games: Number(body.games) || 1, kind: body.variant ? "compare" : "simulate"});
  poll(answer.id);
}

$("sim-form").addEventListener("submit", run);
$("sim-stop").addEventListener("click", async () => {
  if (current) await fetch("/simulate/jobs/" + encodeURIComponent(current) + "/stop", {
    method: "POST", headers: {"content-type": "application/json"}, body: "{}"});
});
$("sim-text").value = localStorage.getItem(STORE) || "";
const usePasted = () => {
  const pasted = [$("sim-ruleset").value, $("sim-variant").value].includes(data.pasted);
  if (pasted) $("sim-pasted-box").open = true;
};
$("sim-ruleset").addEventListener("change", usePasted);
$("sim-variant").addEventListener("change", usePasted);
if (data.from_playground) {
  // A pasted variant of a shipped game: compare it with its base, else simulate it.
  const base = /^extends\s+"([^"\n]+)"/m.exec($("sim-text").value);
  const names = [...$("sim-ruleset").options].map((o) => o.value);
  const named = base && names.find((n) => n === base[1] || n.endsWith("/" + base[1]));
  $("sim-ruleset").value = named || data.pasted;
  if (named) $("sim-variant").value = data.pasted;
  usePasted();
}
