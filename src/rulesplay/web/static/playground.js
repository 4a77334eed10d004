// The playground: check the ruleset in the editor, list its diagnostics and mark their
// lines, show its phase graph and options, and start a table against bots. Text from the
// server is put in with textContent only (never as markup).

const data = JSON.parse(document.getElementById("pg-data").textContent);
// One of the page's words (in the server's language), its {slots} filled from fields.
function w(key, fields = {}) {
  return (data.words[key] || key).replace(/\{(\w+)\}/g, (all, name) =>
    (name in fields ? String(fields[name]) : all));
}
const $ = (id) => document.getElementById(id);
const text = $("pg-text");
const gutter = $("pg-lines");
const status = $("pg-status");
const STORE = "rulesplay.pasted";
const PASTED = "pasted.rules";
let marks = new Map();   // line -> "error" | "warning"
let notes = new Map();   // line -> messages
let checkedText = null;  // the text the shown results are for
let seatChoices = ["random"];

function el(tag, cls, content) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (content !== undefined) node.textContent = content;
  return node;
}

function say(message, kind) {
  status.textContent = message;
  status.className = kind || "";
}

function drawGutter() {
  const count = text.value.split("\n").length;
  const frag = document.createDocumentFragment();
  for (let i = 1; i <= count; i++) {
    const span = el("span", marks.has(i) ? "mark " + marks.get(i) : "", String(i));
    if (notes.has(i)) span.title = notes.get(i).join("\n");
    frag.append(span, "\n");
  }
  gutter.replaceChildren(frag);
  gutter.scrollTop = text.scrollTop;
}

// The offset in the text of a 1-based line and column.
function offsetOf(line, col) {
  const lines = text.value.split("\n");
  let at = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) at += lines[i].length + 1;
  const here = lines[Math.min(line, lines.length) - 1] || "";
  return at + Math.min(Math.max(col - 1, 0), here.length);
}

function goTo(d) {
  const start = offsetOf(d.line, d.col);
  const end = d.end_line === d.line && d.end_col > d.col ? offsetOf(d.line, d.end_col) : start;
  text.focus();
  text.setSelectionRange(start, end);
  const height = parseFloat(getComputedStyle(text).lineHeight) || 20;
  text.scrollTop = Math.max(0, (d.line - 1) * height - text.clientHeight / 3);
  gutter.scrollTop = text.scrollTop;
}

function showDiagnostics(diags) {
  marks = new Map();
  notes = new Map();
  const list = $("pg-diags");
  list.replaceChildren();
  for (const d of diags) {
    const inText = d.file === PASTED && d.line > 0;
    if (inText) {
      if (marks.get(d.line) !== "error") marks.set(d.line, d.severity);
      notes.set(d.line, [...(notes.get(d.line) || []), d.message]);
    }
    const item = el("li", d.severity);
    const head = el(inText ? "button" : "span", "head", d.head);
    if (inText) {
      head.type = "button";
      head.addEventListener("click", () => goTo(d));
    }
    item.append(head);
    if (d.source) item.append(el("pre", "source", d.source + "\n" + d.caret));
    list.append(item);
  }
  drawGutter();
}

function showGraph(graph) {
  const box = $("pg-graph");
  box.replaceChildren();
  $("pg-graph-note").textContent = graph.note;
  if (graph.format === "svg") {
    // As a picture: nothing in the SVG can run or reach the page.
    const img = el("img", "graph");
    img.alt = "the phase graph";
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(graph.svg);
    box.append(img);
  } else {
    box.append(el("pre", "graph-text", graph.text));
  }
}

function showOptions(options) {
  const body = $("pg-options").querySelector("tbody");
  body.replaceChildren();
  for (const o of options) {
    const row = el("tr");
    row.append(el("td", "name", o.name), el("td", "", o.type), el("td", "default", o.default),
               el("td", "", o.doc));
    body.append(row);
  }
  $("pg-options").hidden = options.length === 0;
  const none = $("pg-no-options");
  none.hidden = options.length !== 0;
  none.textContent = w("no_options");
}

function drawSeats() {
  const seats = $("pg-seats");
  const count = Number($("pg-players").value);
  const before = [...seats.querySelectorAll("select")].map((s) => s.value);
  seats.replaceChildren();
  for (let i = 0; i < count; i++) {
    const label = el("label", "", w("seat_n", { n: i }) + " ");
    const pick = el("select");
    pick.name = "seat" + i;
    for (const choice of ["human", ...seatChoices]) pick.append(el("option", "", choice));
    pick.value = before[i] || (i === 0 ? "human" : seatChoices[0]);
    label.append(pick);
    seats.append(label);
  }
}

function showGame(result) {
  $("pg-title").textContent = result.title;
  showGraph(result.graph);
  showOptions(result.options);
  seatChoices = result.bots;
  const players = $("pg-players");
  const was = Number(players.value);
  players.replaceChildren(...result.players.map((n) => el("option", "", String(n))));
  players.value = String(result.players.includes(was) ? was : result.usual);
  drawSeats();
  $("pg-links").replaceChildren();
  $("pg-out").hidden = false;
}

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST", headers: {"content-type": "application/json"},
    body: JSON.stringify(body)});
  const type = response.headers.get("content-type") || "";
  const answer = type.includes("json") ? await response.json()
                                        : {error: await response.text()};
  return [response.status, answer];
}

async function check() {
  const source = text.value;
  localStorage.setItem(STORE, source);
  say(w("checking"));
  let status_, result;
  try {
    [status_, result] = await post("/playground/check", {text: source});
  } catch (err) {
    say(w("no_answer", { why: err }), "error");
    return;
  }
  if (status_ !== 200) {
    say(result.error || w("refused", { code: status_ }), "error");
    return;
  }
  checkedText = source;
  showDiagnostics(result.diagnostics);
  const errors = result.diagnostics.filter((d) => d.severity === "error").length;
  const warnings = result.diagnostics.length - errors;
  if (!result.ok) {
    $("pg-out").hidden = true;
    say(w(errors === 1 ? "one_error" : "n_errors", { n: errors }), "error");
    return;
  }
  say(warnings ? w(warnings === 1 ? "one_warning" : "n_warnings", { n: warnings }) : w("ok"),
      "ok");
  showGame(result);
}

async function play(event) {
  event.preventDefault();
  const links = $("pg-links");
  if (text.value !== checkedText) {
    links.replaceChildren(el("p", "error", w("changed_long")));
    return;
  }
  const seats = [...$("pg-seats").querySelectorAll("select")].map((s) => s.value);
  const [code, answer] = await post("/playground/play", {
    text: text.value, players: Number($("pg-players").value), seats});
  links.replaceChildren();
  if (code !== 200) {
    links.append(el("p", "error", answer.error || w("refused", { code })));
    return;
  }
  links.append(el("p", "", w("started")));
  const list = el("ul", "table-links");
  const add = (label, href) => {
    if (typeof href !== "string" || !href.startsWith("/")) return;
    const a = el("a", "", label);
    a.href = href;
    const li = el("li");
    li.append(a);
    list.append(li);
  };
  for (const [seat, href] of Object.entries(answer.seat_links)) {
    add(w("seat_n", { n: seat }), href);
  }
  add(w("watch_spectator"), answer.spectator_link);
  links.append(list);
}

let escaped = false;
text.addEventListener("keydown", (event) => {
  if (event.key === "Escape") { escaped = true; return; }
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    check();
  } else if (event.key === "Tab" && !escaped && !event.shiftKey) {
    event.preventDefault();  // indentation is the language's: Tab writes four spaces
    text.setRangeText("    ", text.selectionStart, text.selectionEnd, "end");
    drawGutter();
  }
  escaped = false;
});
text.addEventListener("input", () => {
  if (marks.size) { marks = new Map(); notes = new Map(); }
  drawGutter();
  if (checkedText !== null && text.value !== checkedText) say(w("changed"));
});
text.addEventListener("scroll", () => { gutter.scrollTop = text.scrollTop; });
$("pg-check").addEventListener("click", check);
$("pg-players").addEventListener("change", drawSeats);
$("pg-play").addEventListener("submit", play);
$("pg-simulate").addEventListener("click", () => localStorage.setItem(STORE, text.value));

if (!text.value && !data.problem && new URLSearchParams(location.search).get("from") === null) {
  text.value = localStorage.getItem(STORE) || "";
}
drawGutter();
if (data.problem) say(data.problem, "error");
else if (text.value.trim()) check();
