// A seat's table: draws the seat's view (GET /api/t/TABLE/TOKEN), sends its actions
// (POST .../act) and polls for the other players' moves.  Everything drawn comes from the
// view the server built from this seat's observation.
"use strict";
const $ = (id) => document.getElementById(id);
const [, , TABLE, TOKEN] = location.pathname.split("/");
const API = `/api/t/${TABLE}/${TOKEN}`;
let view = null;
let chosen = new Set();      // cards chosen for a discard
let busy = false;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) suitText(e, text);
  return e;
}

async function load() {
  const r = await fetch(view ? `${API}?since=${view.version}` : API);
  const d = await r.json();
  if (!r.ok) { $("refused").textContent = d.error; return; }
  if (!d.unchanged && (!view || d.version !== view.version)) { view = d; chosen.clear(); draw(); }
}

async function act(action) {
  if (busy) return;
  busy = true;
  $("refused").textContent = "";
  try {
    const r = await fetch(`${API}/act`, { method: "POST", headers: { "Content-Type": "application/json" },
                                          body: JSON.stringify({ action }) });
    const d = await r.json();
    if (d.version !== undefined) { view = d; chosen.clear(); draw(); }
    if (d.refused || d.error) $("refused").textContent = "refused: " + (d.refused || d.error);
  } finally { busy = false; }
}

function cardButton(card, opts) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "cardbtn";
  b.dataset.card = card.c;
  b.append(cardFace(card));
  if (opts.legal) b.classList.add("legal");
  if (opts.chosen) b.classList.add("chosen");
  if (opts.onclick) b.addEventListener("click", opts.onclick); else b.disabled = true;
  return b;
}

function drawCards(box, cards, mine) {
  box.textContent = "";
  box.classList.toggle("playing", cards.some((c) => c.legal && c.legal.length));
  let group = null;
  for (const card of cards) {
    if (group !== null && card.g !== group) box.append(el("span", "gap"));
    group = card.g;
    const legal = card.legal && card.legal.length > 0;
    let onclick = null;
    if (view.choose && mine) {
      onclick = () => { chosen.has(card.c) ? chosen.delete(card.c) : chosen.add(card.c); draw(); };
    } else if (legal && card.legal.length === 1) {
      onclick = () => act(card.legal[0].action);
    } else if (legal) {              // several ways to play it (a card led naming a suit)
      onclick = () => {
        const bs = $("buttons"); bs.textContent = "";
        for (const a of card.legal) { const b = el("button", "call", a.label); b.addEventListener("click", () => act(a.action)); bs.append(b); }
      };
    } else if (mine && view.deciding && !view.from_dummy && view.buttons.length === 0) {
      onclick = () => act(`play ${card.c}`);   // the engine says why it may not be played
    }
    box.append(cardButton(card, { legal, chosen: chosen.has(card.c), onclick }));
  }
}

function draw() {
  const v = view;
  document.title = `rulekit — ${v.variant.name}`;
  $("title").textContent = v.variant.name;
  suitText($("header"), v.header);
  // the seats around the table
  const seats = $("seats"); seats.textContent = "";
  for (const s of v.seats) {
    const d = el("div", "seat" + (s.to_move ? " to-move" : "") + (s.you ? " you" : ""));
    d.append(el("b", "", s.label + (s.you && s.name !== "You" ? " (you)" : "")));
    d.append(el("span", "dim", ` ${s.controller}${s.dealer ? ", dealer" : ""}`));
    const backs = el("div", "backs");
    if (!s.you) for (let i = 0; i < s.cards; i++) backs.append(cardBack());
    d.append(backs);
    d.append(el("div", "dim", `${s.cards} cards, ${s.won} tricks`));
    seats.append(d);
  }
  const zones = $("zones"); zones.textContent = "";
  for (const z of v.zones) {
    const row = el("div", "zone"); row.append(el("span", "label", z.name));
    for (const c of z.cards) row.append(cardFace(c));
    for (let i = 0; i < z.hidden; i++) row.append(cardBack());
    zones.append(row);
  }
  const others = $("others"); others.textContent = "";
  for (const o of v.others) {
    const row = el("div", "zone other" + (o.yours && v.from_dummy ? " yours" : ""));
    row.append(el("span", "label", o.label + (o.yours ? " (you play it)" : "")));
    const cards = el("span", "cards"); drawCards(cards, o.cards, false); row.append(cards);
    others.append(row);
  }
  const trick = $("trick"); trick.textContent = "";
  for (const p of v.trick) { const d = el("div", "played"); d.append(cardFace(p.card)); d.append(el("div", "", p.name)); trick.append(d); }
  suitText($("last-trick"), v.last_trick ? "last trick: " + v.last_trick : "");
  const calls = $("calls"); calls.textContent = "";
  if (v.calls.length) { calls.append(el("span", "label", "calls ")); calls.append(el("span", "", v.calls.map(([n, a]) => `${n} ${a}`).join(" · "))); }
  const rows = $("rows"); rows.textContent = "";
  for (const [label, text] of v.rows) {
    const tr = document.createElement("tr"); tr.append(el("th", "", label)); tr.append(el("td", "", text)); rows.append(tr);
  }
  // whose turn, what to do
  let status = "";
  if (v.over) status = "The match is over.";
  else if (v.deciding) status = `Your turn (${v.phase}${v.from_dummy ? ", from the dummy" : ""})`
    + (v.choose ? `: choose ${v.choose.count} card${v.choose.count === 1 ? "" : "s"} to ${v.choose.word}` : "");
  else if (v.to_move >= 0) status = `${v.names[v.to_move]} to move (${v.phase})…`;
  $("status").textContent = status;
  const bs = $("buttons"); bs.textContent = "";
  for (const b of v.buttons) {
    const btn = el("button", "call", b.label + (b.worth !== null && b.worth !== undefined ? ` (${b.worth})` : ""));
    btn.type = "button"; btn.dataset.action = b.action;
    btn.addEventListener("click", () => act(b.action));
    bs.append(btn);
  }
  if (v.choose) {
    const btn = el("button", "call primary", `${v.choose.word} ${chosen.size}/${v.choose.count}`);
    btn.type = "button"; btn.id = "discard";
    btn.disabled = chosen.size !== v.choose.count;
    btn.addEventListener("click", () => act(`discard ${[...chosen].join(" ")}`));
    bs.append(btn);
  }
  const hand = $("hand");
  if (v.blind) { hand.textContent = ""; for (let i = 0; i < v.blind_count; i++) hand.append(cardBack()); }
  else drawCards(hand, v.hand, true);
  const prev = $("previous"); prev.textContent = "";
  for (const line of v.previous || []) prev.append(el("div", "", line));
  $("totals").textContent = "totals: " + v.totals.map(([c, t]) => `${c} ${t}`).join(", ")
    + (v.lower_wins ? " (lowest total wins)" : " (highest total wins)");
  $("sheet").textContent = v.sheet;
  const end = $("end"); end.textContent = "";
  if (v.over) {
    end.append(el("div", "winner", v.winner));
    const a = el("a", "record", "Download the record"); a.href = `${API}/record`; a.id = "record"; end.append(a);
    $("sheet").hidden = false;
  }
}

$("show-sheet").addEventListener("click", () => { $("sheet").hidden = !$("sheet").hidden; });
$("show-rules").addEventListener("click", async () => {
  const r = $("rules");
  if (r.hidden && !r.textContent) r.textContent = (await (await fetch(`${API}/rules`)).json()).text;
  r.hidden = !r.hidden;
});
load();
setInterval(() => { if (!busy && !document.hidden) load(); }, 1500);
