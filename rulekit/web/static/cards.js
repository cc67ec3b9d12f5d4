// Cards drawn as SVG by the page itself (no image files): rank and suit symbol, red for
// hearts and diamonds; a card back for the cards a seat does not see.
"use strict";
const SVG = "http://www.w3.org/2000/svg";
const RED = { H: true, D: true };

function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// a face-up card {c: "QS", t: "Q♠", s: "S"} as an <svg> element
function cardFace(card) {
  const svg = svgEl("svg", { viewBox: "0 0 60 84", class: "card" + (RED[card.s] ? " red" : ""),
                             role: "img", "aria-label": card.t, "data-card": card.c });
  svg.append(svgEl("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "face" }));
  const sym = card.s ? card.t.slice(-1) : "★";
  const rank = card.s ? card.t.slice(0, -1) : card.t;
  svg.append(svgEl("text", { x: 5, y: 18, class: "rank" }, rank));
  svg.append(svgEl("text", { x: 5, y: 32, class: "pip" }, sym));
  svg.append(svgEl("text", { x: 30, y: 62, class: "big", "text-anchor": "middle" }, sym));
  return svg;
}

function cardBack() {
  const svg = svgEl("svg", { viewBox: "0 0 60 84", class: "card back", role: "img", "aria-label": "face down" });
  svg.append(svgEl("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "backface" }));
  return svg;
}

// words with cards or suits as "Q♠" / "♥": the red suits coloured
function suitText(el, text) {
  el.textContent = "";
  const parts = String(text).split(/([♥♦])/);
  for (const p of parts) {
    if (p === "♥" || p === "♦") { const s = document.createElement("span"); s.className = "redsuit"; s.textContent = p; el.append(s); }
    else el.append(document.createTextNode(p));
  }
  return el;
}
