// The scorepad page: the pad's question now, one answer at a time (refusals with the pad's
// reason), undo, stop, the sheet and its exports.
"use strict";
const $ = (id) => document.getElementById(id);
const [, , PAD, TOKEN] = location.pathname.split("/");
const API = `/api/pad/${PAD}/${TOKEN}`;

function draw(d) {
  document.title = `rulekit — ${d.variant.name} scorepad`;
  $("title").textContent = `${d.variant.name} — scorepad`;
  $("header").textContent = d.header || "";
  const ol = $("answers"); ol.textContent = "";
  for (const [q, a] of d.answers) { const li = document.createElement("li"); li.textContent = `${q}: ${a}`; ol.append(li); }
  $("form").hidden = !d.question;
  if (d.question) { $("prompt").textContent = d.question.prompt; $("help").textContent = d.question.help; }
  $("refused").textContent = d.refused ? "refused: " + d.refused : "";
  $("said").textContent = d.said || "";
  $("winner").textContent = d.winner || "";
  $("sheet").textContent = d.sheet;
  $("stop").disabled = d.over;
  for (const f of ["csv", "json", "txt"]) $(f).href = `${API}/sheet.${f}`;
  $("answer").value = "";
  $("answer").focus();
}

async function send(what, text) {
  const r = await fetch(`${API}/${what}`, { method: "POST", headers: { "Content-Type": "application/json" },
                                            body: JSON.stringify({ text: text || "" }) });
  const d = await r.json();
  if (!r.ok) { $("refused").textContent = d.error; return; }
  draw(d);
}

$("form").addEventListener("submit", (e) => { e.preventDefault(); send("answer", $("answer").value); });
$("undo").addEventListener("click", () => send("undo"));
$("stop").addEventListener("click", () => send("stop"));
(async () => {
  const r = await fetch(API);
  const d = await r.json();
  if (!r.ok) { $("refused").textContent = d.error; return; }
  draw(d);
})();
