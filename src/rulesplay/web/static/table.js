// The table: reads the seat token from the link's fragment (#seat=..., never sent in a
// request line), says it over the websocket, then draws each view the server sends for this
// seat: cards as cards, zones by kind, the legal moves as clickable cards and buttons, and
// the account beside the table. The seat's status line stays at the top of the window, and
// its legal moves and the zones it plays from stay docked at the bottom. Text is put with
// textContent only, never as markup; the page's own words come from the server (its
// language).

const data = JSON.parse(document.getElementById("table-data").textContent);
const words = JSON.parse(document.getElementById("page-words").textContent);
const token = new URLSearchParams(location.hash.slice(1)).get("seat");
const $ = (id) => document.getElementById(id);
let socket = null;
let view = null;
let picked = new Set();
let retry = 0;
let refused = false;

// One of the page's words, its {slots} filled from fields.
function w(key, fields = {}) {
  return (words[key] || key).replace(/\{(\w+)\}/g, (all, name) =>
    (name in fields ? String(fields[name]) : all));
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// ---------------------------------------------------------------- cards
function cardNode(cid, { small = false, chip = false } = {}) {
  const face = view.cards[cid];
  chip = chip && !face.texts.length && !face.vars.length;
  const node = el("div", "card" + (small ? " small" : "") + (chip ? " chip" : ""));
  node.dataset.card = cid;
  if (face.colour) node.style.setProperty("--suit", face.colour);
  else node.classList.add("plain");
  if (face.corner && !chip) node.append(el("span", "corner", face.corner));
  node.append(el("span", "label", face.label));
  if (!small) {
    for (const text of face.texts) node.append(el("span", "text", text));
  }
  for (const tag of face.vars) node.append(el("span", "tag", tag));
  node.title = [face.label, ...face.texts, ...face.vars].join("\n");
  return node;
}

function backNode(count, label) {
  const node = el("div", "card back");
  node.append(el("span", "count", count));
  node.title = label;
  return node;
}

function sorted(cards) {
  return [...cards].sort((a, b) => view.cards[a].order - view.cards[b].order);
}

function zoneNode(zone, { small = false, mine = false } = {}) {
  const box = el("section", `zone zone-${zone.area}`);
  box.dataset.zone = zone.zone;
  box.append(el("h3", "zone-label", zone.title));
  const row = el("div", "cards");
  if (zone.cards !== null) {
    const cards = mine && !zone.public ? sorted(zone.cards) : zone.cards;
    for (const cid of cards) row.append(cardNode(cid, { small }));
  } else if (zone.top !== null) {
    row.append(backNode(zone.count - 1, zone.label), cardNode(zone.top, { small }));
  }
  if (zone.count === 0) row.append(el("span", "empty", "—"));
  box.append(row);
  return box;
}

// Zones whose cards are shown get a box each; face-down piles (and, among many zones, the
// empty ones) share one line of counts.
function drawZones(container, zones, options) {
  const piles = el("div", "piles");
  const many = options.chips || zones.length > 4;
  for (const zone of zones) {
    if ((zone.cards === null && zone.top === null) || (many && zone.count === 0)) {
      const pile = el("span", "pile", zone.title);
      pile.dataset.zone = zone.zone;
      piles.append(pile);
    } else {
      container.append(zoneNode(zone, options));
    }
  }
  if (piles.childElementCount) container.append(piles);
}

// The seat's own zones: those it plays or picks cards from (and any holding a legal card
// now) are docked beside the moves; the rest, its face-down and empty zones among them,
// lie on the table above the dock.
function drawOwn(v) {
  const moving = new Set();
  if (v.moves) {
    for (const action of v.moves.actions) if (action.card) moving.add(action.card);
    if (v.moves.set) for (const cid of v.moves.set.cards) moving.add(cid);
  }
  const own = v.zones.filter((z) => z.area === "mine");
  const holds = (z) => (z.cards || []).some((cid) => moving.has(cid));
  const docked = own.filter((z) => z.hand || holds(z));
  const rest = own.filter((z) => !docked.includes(z));
  const mine = $("mine");
  mine.replaceChildren();
  const line = el("div", "piles");
  for (const zone of docked) {
    if (zone.count === 0 || (zone.cards === null && zone.top === null)) {
      const pile = el("span", "pile", zone.title);
      pile.dataset.zone = zone.zone;
      line.append(pile);
    } else {
      mine.append(zoneNode(zone, { mine: true }));
    }
  }
  if (line.childElementCount) mine.append(line);
  const yours = $("yours-zones");
  yours.replaceChildren();
  drawZones(yours, rest, { small: true, mine: true, chips: true });
  $("yours").hidden = rest.length === 0;
}

// ---------------------------------------------------------------- moves
function send(action) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify({ type: "move", action, version: view.version }));
  document.body.classList.add("sent");
}

function setId(choice) {
  const order = view.moves.set.cards;
  const chosen = order.filter((cid) => picked.has(cid));
  return `${choice.choice}:${chosen.join("+")}`;
}

function drawMoves(moves) {
  const choices = $("choices");
  choices.replaceChildren();
  $("prompt").textContent = moves ? moves.prompt : "";
  $("moves").hidden = !moves;
  if (!moves) return;
  const byCard = new Map();
  for (const action of moves.actions) if (action.card) byCard.set(action.card, action);
  // cards of the seat's own zones are played where they lie
  const seen = new Set();
  const own = [...document.querySelectorAll("#mine .card[data-card]")];
  const playsOwn = own.some((node) => byCard.has(node.dataset.card));
  for (const node of own) {
    const cid = node.dataset.card;
    const action = byCard.get(cid);
    if (action) {
      seen.add(cid);
      node.classList.add("legal");
      node.tabIndex = 0;
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", action.label);
      node.addEventListener("click", () => send(action.id));
      node.addEventListener("keydown", (e) => { if (e.key === "Enter") send(action.id); });
    } else if (moves.set && moves.set.cards.includes(cid)) {
      node.classList.add("pickable");
      node.tabIndex = 0;
      node.setAttribute("role", "checkbox");
      node.addEventListener("click", () => toggle(cid, node));
    } else if (playsOwn) {
      node.classList.add("unplayable");
    }
  }
  for (const action of moves.actions) {
    if (action.card && !seen.has(action.card)) {
      const node = cardNode(action.card, { chip: true });
      node.classList.add("legal");
      node.tabIndex = 0;
      node.setAttribute("role", "button");
      node.addEventListener("click", () => send(action.id));
      choices.append(node);
    } else if (!action.card) {
      const button = el("button", "move", action.label);
      button.type = "button";
      button.addEventListener("click", () => send(action.id));
      choices.append(button);
    }
  }
  if (moves.set) {
    const confirm = el("button", "move confirm", "");
    confirm.type = "button";
    confirm.id = "confirm-set";
    confirm.addEventListener("click", () => send(setId(moves.set)));
    choices.append(confirm);
    updateSet();
  }
}

function toggle(cid, node) {
  if (picked.has(cid)) picked.delete(cid); else picked.add(cid);
  node.classList.toggle("picked", picked.has(cid));
  node.setAttribute("aria-checked", String(picked.has(cid)));
  updateSet();
}

function updateSet() {
  const set = view.moves.set;
  const button = $("confirm-set");
  const n = picked.size;
  const want = set.low === set.high ? `${set.low}` : `${set.low}–${set.high}`;
  button.textContent = w("play_chosen", { n, want });
  const okSize = n >= set.low && n <= set.high;
  button.disabled = !okSize || (set.sets !== null && !set.sets.includes(setId(set)));
}

// ---------------------------------------------------------------- the view
function drawStatus(v, you) {
  const status = $("status");
  status.className = "status";
  if (v.error) {
    status.textContent = v.error;
    status.classList.add("bad");
  } else if (v.terminal) {
    status.textContent = w("over", { title: v.title });
  } else if (v.moves) {
    status.textContent = `${v.phase} · ${v.your_turn}`;
    status.classList.add("turn");
  } else {
    status.textContent = w("to_move", { phase: v.phase, seat: v.to_move_name })
      + (v.busy ? " …" : "");
  }
  document.title = `${v.moves ? "● " : ""}${v.title} · ${you}`;
}

function drawSeats(v) {
  const seats = $("seats");
  seats.replaceChildren();
  for (const s of v.seats) {
    if (s.you) continue;
    const box = el("section", "seat" + (v.to_move === s.seat ? " to-move" : ""));
    const head = el("h2", "seat-name", s.name);
    head.append(el("small", "kind", " " + (s.kind === "human" ? w("person")
      : w("bot", { kind: s.kind }))));
    box.append(head);
    const facts = [];
    if (s.score !== null) facts.push(`${w("score")} ${s.score}`);
    for (const [label, value] of s.vars) facts.push(`${label} ${value}`);
    if (facts.length) box.append(el("p", "seat-facts", facts.join(" · ")));
    drawZones(box, v.zones.filter((z) => z.area === "seat" && z.owner === s.seat
                                    && z.count > 0), { small: true });
    seats.append(box);
  }
}

function draw(v, you) {
  view = v;
  picked = new Set();
  document.body.classList.remove("sent");
  Object.assign(document.body.dataset, {
    version: v.version, turn: v.moves ? "yes" : "no", over: v.terminal ? "yes" : "no" });
  drawStatus(v, you);
  $("you").textContent = `${you} · ${v.title}`;
  const facts = $("facts");
  facts.replaceChildren();
  const me = v.seats.find((s) => s.you);
  const list = [...v.facts];
  if (me && me.score !== null) list.unshift([w("score"), me.score]);
  if (me) for (const pair of me.vars) list.push(pair);
  for (const [label, value] of list) facts.append(el("span", "fact", `${label}: ${value}`));
  drawSeats(v);
  const shared = $("shared");
  shared.replaceChildren();
  drawZones(shared, v.zones.filter((z) => z.area === "shared"), {});
  drawOwn(v);
  // once the game is over the dock holds nothing to play: it is left out when empty
  $("me").hidden = v.seat === null
    || (v.terminal && !$("mine").querySelector(".card"));
  drawMoves(v.moves);
  const account = $("account");
  const atEnd = account.scrollTop + account.clientHeight >= account.scrollHeight - 30;
  if (v.account_from === 0) account.replaceChildren();
  for (const [kind, text] of v.account) account.append(el("li", `line-${kind}`, text));
  if (atEnd || v.account_from === 0) account.scrollTop = account.scrollHeight;
  const result = $("result");
  result.hidden = !v.result;
  if (v.result) {
    // (on a phone each seat's row is a block of "title value" lines: see table.css)
    const table = el("table", "scores");
    const head = el("tr");
    const isNumber = (cell) => /^[-+−]?[\d.,]+%?$/.test(String(cell).trim());
    v.result.head.forEach((title, k) => head.append(
      el("th", v.result.rows.every((row) => isNumber(row[k])) ? "num" : "", title)));
    table.append(el("thead"));
    table.tHead.append(head);
    const body = el("tbody");
    v.result.rows.forEach((row, i) => {
      const line = el("tr", v.result.bold[i] ? "winner" : "");
      row.forEach((cell, k) => {
        const td = el("td", isNumber(cell) ? "num" : "", cell);
        td.dataset.label = v.result.head[k];
        line.append(td);
      });
      body.append(line);
    });
    table.append(body);
    result.replaceChildren(el("h2", "", v.result.winner), table);
    if (v.log) {
      const link = el("a", "", w("download_log"));
      link.href = v.log;
      link.download = "";
      result.append(link);
    }
  }
}

function say(text) {
  const box = $("notice");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(say.timer);
  say.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}${data.socket}`);
  let you = "spectator";
  socket.addEventListener("open", () => {
    retry = 0;
    socket.send(JSON.stringify({ type: "hello", token }));
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "hello") {
      you = message.you;
      if (message.seat === null) you = w("watching");
    } else if (message.type === "view") {
      draw(message, you);
    } else if (message.type === "error") {
      if (!view) refused = true;
      document.body.classList.remove("sent");
      say(message.message);
      if (!view) $("status").textContent = message.message;
    }
  });
  socket.addEventListener("close", () => {
    if (refused) return;
    $("status").textContent = w("reconnecting");
    retry = Math.min(retry + 1, 5);
    setTimeout(connect, 1000 * retry);
  });
}

connect();
