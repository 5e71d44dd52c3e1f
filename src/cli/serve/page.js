// The optcube page: a facelet editor, the server's drawing, and a live solve. Everything the
// page says about a position comes from the server (`optcube serve`), which checks it as the
// command line does; the page only paints and shows.
"use strict";

const FACES = "URFDLB";
const SOLVED = [...FACES].map((f) => f.repeat(9)).join("");
// Where each face's 3x3 block sits in the net (column, row), as `optcube show` draws it.
const ORIGIN = [[3, 0], [6, 3], [3, 3], [3, 6], [0, 3], [9, 3]];
const $ = (id) => document.getElementById(id);

let cells = [...SOLVED]; // one face letter a sticker, "?" where not painted yet
let brush = "U";
let goals = [];
let maskFree = new Array(54).fill(false); // the painted mask: true where a sticker is free
let steps = null; // facelets before each move of the solution shown, and after the last
let stepMoves = [];
let step = 0;
let searching = null; // the running search's AbortController

function netCells(container, onClick) {
  container.innerHTML = "";
  const out = [];
  for (let f = 0; f < 6; f++) {
    for (let i = 0; i < 9; i++) {
      const b = document.createElement("button");
      const k = 9 * f + i;
      b.className = "sticker";
      b.dataset.i = k;
      b.style.gridColumn = ORIGIN[f][0] + (i % 3) + 1;
      b.style.gridRow = ORIGIN[f][1] + Math.floor(i / 3) + 1;
      if (i === 4) {
        b.classList.add("centre");
        b.title = FACES[f] + " centre (fixed)";
        b.tabIndex = -1;
      } else {
        b.addEventListener("click", () => onClick(k));
      }
      container.appendChild(b);
      out.push(b);
    }
  }
  return out;
}

const stickers = netCells($("net"), (k) => {
  cells[k] = brush;
  changed();
});
const maskStickers = netCells($("mask-net"), (k) => {
  maskFree[k] = !maskFree[k];
  showMask();
});

function paint() {
  stickers.forEach((b, k) => {
    b.className = "sticker c-" + (cells[k] === "?" ? "q" : cells[k]) + (k % 9 === 4 ? " centre" : "");
  });
  $("facelets").value = cells.join("");
}

function showMask() {
  const goal = $("goal").value;
  const named = goals.find((g) => g.name === goal);
  maskStickers.forEach((b, k) => {
    const free = goal === "mask" ? maskFree[k] : named && named.mask ? named.mask[k] === "x" : false;
    b.className = "sticker c-" + (free ? "x" : SOLVED[k]) + (k % 9 === 4 ? " centre" : "");
  });
}

function maskString() {
  return [...SOLVED].map((c, k) => (maskFree[k] ? "x" : c)).join("");
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const r = await fetch(path, init);
  const v = await r.json();
  if (!r.ok) throw new Error(v.error || r.statusText);
  return v;
}

function status(text, ok) {
  const s = $("status");
  s.textContent = text;
  s.className = ok ? "valid" : "invalid";
}

// The goal's or mask's gray, for the drawing.
function drawingGoal() {
  const g = $("goal").value;
  if (g === "mask") return { mask: maskString() };
  return g ? { goal: g } : {};
}

let checking = 0;
async function changed() {
  paint();
  clearSolution();
  const missing = cells.filter((c) => c === "?").length;
  if (missing) {
    status(`${missing} sticker${missing > 1 ? "s" : ""} not painted yet`, false);
    $("solve").disabled = true;
    return;
  }
  const mine = ++checking;
  try {
    const v = await api("/api/position", { facelets: cells.join(""), ...drawingGoal() });
    if (mine !== checking) return;
    status(v.solved ? "valid position: solved" : "valid position", true);
    $("drawing").innerHTML = v.svg;
    $("solve").disabled = false;
  } catch (e) {
    if (mine !== checking) return;
    status(e.message, false);
    $("solve").disabled = true;
  }
}

function clearSolution() {
  if (searching) return;
  steps = null;
  $("stepper").hidden = true;
  $("upper").textContent = "";
  $("result").textContent = "";
  $("result").className = "";
  $("solutions").innerHTML = "";
  $("iterations").hidden = true;
  $("iterations").querySelector("tbody").innerHTML = "";
  $("elapsed").textContent = "";
}

function showSteps(facelets, moves) {
  steps = facelets;
  stepMoves = moves ? moves.split(" ").filter((m) => m) : [];
  $("stepper").hidden = stepMoves.length === 0;
  const box = $("moves");
  box.innerHTML = "";
  stepMoves.forEach((m, k) => {
    const s = document.createElement("span");
    s.className = "move";
    s.textContent = m;
    s.addEventListener("click", () => goTo(k + 1));
    box.appendChild(s);
  });
  goTo(0);
}

async function goTo(k) {
  if (!steps) return;
  step = Math.max(0, Math.min(stepMoves.length, k));
  [...$("moves").children].forEach((s, j) => {
    s.className = "move" + (j < step ? " done" : "") + (j === step - 1 ? " now" : "");
  });
  try {
    const v = await api("/api/position", { facelets: steps[step], ...drawingGoal() });
    $("drawing").innerHTML = v.svg;
  } catch (e) {
    $("result").textContent = e.message;
  }
}

function fmt(n) {
  return n.toLocaleString("en-US");
}

function iterationRow(bound) {
  const body = $("iterations").querySelector("tbody");
  let row = body.querySelector(`tr[data-bound="${bound}"]`);
  if (!row) {
    row = document.createElement("tr");
    row.dataset.bound = bound;
    row.innerHTML = `<td>${bound}</td><td>searching…</td><td></td>`;
    body.appendChild(row);
  }
  $("iterations").hidden = false;
  return row;
}

function onEvent(e) {
  switch (e.event) {
    case "tick":
      $("elapsed").textContent = `${e.seconds.toFixed(0)} s`;
      break;
    case "upper_bound":
      $("upper").textContent = `two-phase: ${e.solution} (${e.length} moves, ${e.seconds.toFixed(3)} s); proving the shortest…`;
      showSteps(e.steps, e.solution);
      break;
    case "progress": {
      const eta = e.eta === null ? "" : `, about ${Math.ceil(e.eta)} s left`;
      $("result").textContent = `${e.label}: ${(100 * e.share).toFixed(0)} %${eta}`;
      break;
    }
    case "loading":
      $("result").textContent = `loading the tables ${e.tables} (a first use builds them first)…`;
      break;
    case "loaded":
      $("result").textContent = `tables ${e.tables} ready: ${(e.bytes / 1e6).toFixed(0)} MB in ${e.seconds.toFixed(1)} s`;
      info();
      break;
    case "started":
      iterationRow(e.bound);
      break;
    case "iteration": {
      const row = iterationRow(e.bound);
      row.cells[1].textContent = fmt(e.nodes);
      row.cells[2].textContent = e.seconds.toFixed(2);
      break;
    }
    case "witness":
      if (e.found) iterationRow(e.bound).cells[1].textContent = "two-phase found one";
      break;
    case "result":
      showResult(e.result);
      break;
    case "error":
      $("result").textContent = e.error;
      $("result").className = "invalid";
      break;
  }
}

function showResult(r) {
  const res = $("result");
  const unit = r.metric === "qtm" ? "quarter turns" : "moves";
  if (r.solution !== null && r.solution !== undefined) {
    const title = { twophase: "two-phase", thistlethwaite: "Thistlethwaite" }[r.solver];
    const how = r.optimal ? "optimal" : title ? `${title}, not proven shortest` : "";
    res.innerHTML = "";
    res.append("solution: ");
    const b = document.createElement("b");
    b.id = "solution";
    b.textContent = r.solution || "(already solved)";
    res.append(b, ` (${r.length} ${unit}${how ? ", " + how : ""})`);
    res.className = "";
    showSteps(r.steps, r.solution);
  } else if (r.interrupted) {
    res.textContent = `cancelled: no solution shorter than ${r.lower_bound} ${unit}`;
  } else {
    res.textContent = r.lower_bound !== undefined
      ? `no solution of at most ${r.lower_bound - 1} ${unit} exists`
      : "no solution found in time";
  }
  if (r.solutions && r.solutions.length > 1) {
    $("solutions").innerHTML = "";
    for (const s of r.solutions) {
      const li = document.createElement("li");
      li.textContent = s;
      $("solutions").appendChild(li);
    }
  }
}

async function solve() {
  clearSolution();
  const req = {
    facelets: cells.join(""),
    solver: $("solver").value,
    metric: $("metric").value,
  };
  const g = $("goal").value;
  if (g === "mask") req.mask = maskString();
  else if (g) req.goal = g;
  if ($("all").checked) req.all = true;
  searching = new AbortController();
  $("solve").disabled = true;
  $("cancel").disabled = false;
  $("result").textContent = "solving…";
  try {
    const r = await fetch("/api/solve/live", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(req),
      signal: searching.signal,
    });
    if (!r.ok) throw new Error((await r.json()).error);
    const reader = r.body.getReader();
    const text = new TextDecoder();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += text.decode(value, { stream: true });
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        onEvent(JSON.parse(buf.slice(0, nl)));
        buf = buf.slice(nl + 1);
      }
    }
  } catch (e) {
    if (e.name !== "AbortError") {
      $("result").textContent = e.message;
      $("result").className = "invalid";
    }
  } finally {
    searching = null;
    $("solve").disabled = false;
    $("cancel").disabled = true;
    info();
  }
}

async function info() {
  const v = await api("/api/info");
  const set = v.sets.find((s) => s.name === v.set);
  const mem = set ? `${(set.memory_bytes / 1e6).toFixed(0)} MB` : "";
  $("tables").textContent = `set ${v.set}${mem ? ` (${mem})` : ""} in ${v.pdb_dir}` +
    (v.loaded_bytes ? `, loaded: ${(v.loaded_bytes / 1e6).toFixed(0)} MB in memory` : ", loaded at the first solve") +
    (v.set_reason ? `. ${v.set_reason}` : "");
  const body = $("sets").querySelector("tbody");
  body.innerHTML = "";
  for (const s of v.sets) {
    const tr = document.createElement("tr");
    const build = s.first_build_seconds ? `${Math.round(s.first_build_seconds / 60)} min` : "by hand";
    const cells = [s.name, `${(s.memory_bytes / 1e6).toFixed(0)} MB`, build, s.present ? "yes" : "", s.help];
    for (const c of cells) {
      const td = document.createElement("td");
      td.textContent = c;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  if (!goals.length) {
    goals = v.goals;
    for (const g of goals) {
      const o = document.createElement("option");
      o.value = g.name;
      o.textContent = `${g.name}: ${g.about}`;
      $("goal").appendChild(o);
    }
    const o = document.createElement("option");
    o.value = "mask";
    o.textContent = "a mask painted in gray…";
    $("goal").appendChild(o);
  }
}

document.querySelectorAll(".swatch").forEach((s) => {
  s.classList.add("c-" + s.dataset.c);
  s.addEventListener("click", () => {
    brush = s.dataset.c;
    document.querySelectorAll(".swatch").forEach((t) => t.classList.toggle("chosen", t === s));
  });
});
document.querySelector(".swatch").classList.add("chosen");
$("reset").onclick = () => { cells = [...SOLVED]; changed(); };
$("clear").onclick = () => { cells = [...SOLVED].map((c, k) => (k % 9 === 4 ? c : "?")); changed(); };
$("random").onclick = async () => { cells = [...(await api("/api/random")).facelets]; changed(); };
$("set-scramble").onclick = async () => {
  try {
    const v = await api("/api/position", { scramble: $("scramble").value });
    cells = [...v.facelets];
    changed();
  } catch (e) {
    status(e.message, false);
  }
};
$("scramble").addEventListener("keydown", (e) => { if (e.key === "Enter") $("set-scramble").click(); });
$("facelets").addEventListener("change", () => {
  const t = $("facelets").value.trim().toUpperCase();
  cells = [...t.padEnd(54, "?").slice(0, 54)].map((c) => (FACES.includes(c) ? c : "?"));
  if (t.length !== 54) status(`a facelet string has 54 letters, this one ${t.length}`, false);
  else changed();
});
$("goal").onchange = () => { $("mask-box").hidden = $("goal").value !== "mask"; showMask(); changed(); };
$("solve").onclick = solve;
$("cancel").onclick = async () => { await api("/api/cancel", {}); };
$("first").onclick = () => goTo(0);
$("prev").onclick = () => goTo(step - 1);
$("next").onclick = () => goTo(step + 1);
$("last").onclick = () => goTo(stepMoves.length);

info().then(showMask);
changed();
