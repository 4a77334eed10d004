// The new-table form: players, seats (a person or a bot with its budget), options; it posts
// JSON to /api/tables and shows the links it gets back (each human seat's secret link and
// the spectator link). Text is put with textContent only.

const words = JSON.parse(document.getElementById("page-words").textContent);
const form = document.getElementById("new-table");
const error = document.getElementById("new-error");
const players = form.elements.players;

function showSeats() {
  const n = Number(players.value);
  for (const row of form.querySelectorAll(".seat-row")) {
    const seat = Number(row.dataset.seat);
    row.hidden = seat >= n;
    const kind = row.querySelector("select").value;
    row.querySelector(".budget").hidden = kind !== "mcts";
  }
}

function seatSpec(row) {
  const kind = row.querySelector("select").value;
  if (kind !== "mcts") return kind;
  const budget = row.querySelector("input").value.trim();
  return budget ? `mcts:iterations=${budget}` : "mcts";
}

function linkItem(label, path) {
  const url = new URL(path, location.href).href;
  const li = document.createElement("li");
  const name = document.createElement("b");
  name.textContent = label + " ";
  const open = document.createElement("a");
  open.href = url;
  open.textContent = words.open;
  open.target = "_blank";
  open.rel = "noopener noreferrer";
  const copy = document.createElement("button");
  copy.type = "button";
  copy.textContent = words.copy;
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = words.copied;
    } catch {
      field.select();
    }
  });
  const field = document.createElement("input");
  field.readOnly = true;
  field.value = url;
  field.className = "link";
  li.append(name, open, " ", copy, field);
  return li;
}

form.addEventListener("change", showSeats);
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.textContent = "";
  const n = Number(players.value);
  const seats = [...form.querySelectorAll(".seat-row")].slice(0, n).map(seatSpec);
  const options = {};
  for (const input of form.querySelectorAll("[name^='opt-']")) {
    if (input.value !== "") options[input.name.slice(4)] = input.value;
  }
  const body = { ruleset: form.dataset.ruleset, players: n, seats, options };
  let reply;
  try {
    const response = await fetch("/api/tables", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), referrerPolicy: "no-referrer",
    });
    reply = await response.json();
    if (!response.ok) throw new Error(reply.error || response.statusText);
  } catch (problem) {
    error.textContent = String(problem.message || problem);
    return;
  }
  const list = document.getElementById("link-list");
  list.replaceChildren();
  for (const [seat, link] of Object.entries(reply.seat_links)) {
    const row = form.querySelector(`.seat-row[data-seat="${Number(seat)}"] span`);
    list.append(linkItem(row ? row.textContent : seat, link));
  }
  list.append(linkItem(words.spectators, reply.spectator_link));
  document.getElementById("links").hidden = false;
  form.querySelector("button[type=submit]").disabled = true;
});
showSeats();
