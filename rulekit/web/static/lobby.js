// The lobby: choose a variant (installed or uploaded), the seats, and deal.
"use strict";
const $ = (id) => document.getElementById(id);
let variants = [];
let uploaded = null;   // {text, players, name} once a file checks out

function playerCounts() {
  if (uploaded) return uploaded.players;
  const v = variants.find((x) => x.id === $("variant").value);
  return v ? v.players : [];
}

function drawCounts() {
  const sel = $("count");
  const keep = Number(sel.value);
  sel.textContent = "";
  for (const n of playerCounts()) {
    const o = document.createElement("option"); o.value = n; o.textContent = n; sel.append(o);
  }
  if (playerCounts().includes(keep)) sel.value = keep;
  drawSeats();
}

function drawSeats() {
  const box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.textContent = "";
  const n = Number($("count").value) || 0;
  for (let i = 0; i < n; i++) {
    const label = document.createElement("label");
    label.textContent = `Seat ${i + 1} `;
    const sel = document.createElement("select");
    sel.className = "seat"; sel.name = `seat${i}`;
    for (const [v, t] of [["human", "human"], ["bot", "sensible bot"], ["random", "random bot"]]) {
      const o = document.createElement("option"); o.value = v; o.textContent = t; sel.append(o);
    }
    sel.value = old[i] || (i === 0 ? "human" : "bot");
    label.append(sel);
    box.append(label);
  }
}

async function checkFile() {
  const out = $("upload-result");
  out.textContent = "checking…";
  uploaded = null;
  const text = $("text").value;
  const r = await fetch("/api/check", { method: "POST", headers: { "Content-Type": "application/json" },
                                        body: JSON.stringify({ text }) });
  const d = await r.json();
  out.textContent = "";
  if (!r.ok) { out.className = "refused"; out.textContent = d.error; drawCounts(); return; }
  if (d.ok) {
    uploaded = { text, players: d.players, name: d.name };
    out.className = "ok"; out.textContent = `${d.name}: valid (${d.players.join(" or ")} players)`;
  } else {
    out.className = "refused";
    const ul = document.createElement("ul"); ul.className = "problems";
    for (const p of d.problems) { const li = document.createElement("li"); li.textContent = p; ul.append(li); }
    out.append(ul);
  }
  drawCounts();
}

async function deal() {
  $("lobby-error").textContent = "";
  const players = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  const body = uploaded ? { text: uploaded.text, players } : { variant: $("variant").value, players };
  const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
                                         body: JSON.stringify(body) });
  const d = await r.json();
  if (!r.ok) {
    $("lobby-error").textContent = d.error + (d.problems ? "\n" + d.problems.join("\n") : "");
    return;
  }
  if (d.seats.length === 1) { location.href = d.seats[0].url; return; }
  location.href = d.host;     // several humans (or none): the page of the seats' links
}

(async () => {
  variants = await (await fetch("/api/variants")).json();
  const sel = $("variant");
  for (const v of variants) {
    const o = document.createElement("option"); o.value = v.id; o.textContent = `${v.name} (${v.id})`; sel.append(o);
  }
  sel.addEventListener("change", () => { uploaded = null; $("upload-result").textContent = ""; drawCounts(); });
  $("count").addEventListener("change", drawSeats);
  $("check").addEventListener("click", checkFile);
  $("file").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (f) { $("text").value = await f.text(); await checkFile(); }
  });
  $("deal").addEventListener("click", deal);
  $("pad").addEventListener("click", async () => {
    const r = await fetch("/api/pads", { method: "POST", headers: { "Content-Type": "application/json" },
                                         body: JSON.stringify({ variant: $("variant").value, players: Number($("count").value) }) });
    const d = await r.json();
    if (!r.ok) { $("lobby-error").textContent = d.error; return; }
    location.href = d.url;
  });
  drawCounts();
})();
