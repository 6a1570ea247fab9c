// The live table: the box's snapshot of each frame, its HTML made and escaped by the box
// (render.py); the page's own parts are made here with textContent (a player's name is
// never markup). Nothing comes from elsewhere. No game is named here: a game's table comes
// laid out by the game's phone.py.
"use strict";

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, String(value));
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function setText(id, text) {
  const node = document.getElementById(id);
  node.textContent = text || "";
  node.hidden = !text;
  return node;
}

// Where a table has no room for its whole words, its three-letter codes instead (EAG for
// Eagle): measured with every cell on one line; without the script the words wrap.
function fitCodes(root) {
  for (const part of root.querySelectorAll(".fit")) {
    if (!part.querySelector("abbr.short")) continue;
    part.classList.remove("codes");
    part.classList.add("measure");
    const box = part.parentElement;
    const short = box.scrollWidth > box.clientWidth ||
      [...part.querySelectorAll("th, td, .stack > div")].some((cell) => cell.scrollWidth > cell.clientWidth + 1);
    part.classList.remove("measure");
    part.classList.toggle("codes", short);
  }
}

// The box made the screen and the table as HTML (companion/web/render.py), every word
// escaped there: the same as in the page served without the script.
function draw(shot) {
  document.documentElement.lang = shot.lang;
  setText("status", "");
  const live = document.getElementById("live");
  live.innerHTML = shot.html || "";
  fitCodes(live);
}

let words = { waiting: "…", offline: "…" };
let csrf = null;  // given by the box when this page is paired; sent with every change

function label(shot) {
  for (const [id, key] of [["pair-title", "pair"], ["ask", "ask"], ["code-label", "code"], ["pair", "pair_button"],
                           ["name-label", "name"], ["add", "add"], ["past-title", "past"], ["players-title", "players"],
                           ["settings-title", "settings"], ["backup", "backup"]])
    document.getElementById(id).textContent = shot.words[key];
}

async function send(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const answer = await fetch(path, { method: "POST", headers, body: JSON.stringify(body), credentials: "same-origin" });
  return { status: answer.status, body: await answer.json().catch(() => ({})) };
}

// The box's settings as selects of the values it offers, in its words; made again only when
// they changed (a select being chosen is not swept away by the next frame).
let shownSettings = null;
function settingsForm(shot) {
  const now = JSON.stringify(shot.settings || []);
  if (now === shownSettings) return;
  shownSettings = now;
  document.getElementById("settings").replaceChildren(...(shot.settings || []).map((setting) => {
    const select = el("select");  // each choice is the whole line, "Sound: off"; the label names it
    for (const [value, line] of setting.choices) {
      const option = el("option", { value }, line);
      option.selected = value === setting.value;
      select.append(option);
    }
    select.addEventListener("change", async () => {
      const answer = await send("/settings", { key: setting.key, value: select.value, game: setting.game });
      // The box's screen confirms a setting it took; the page only says what it refused.
      if (answer.status === 403) unpaired();
      document.getElementById("said").textContent =
        answer.status === 400 ? words.bad_setting : answer.status === 403 ? words.wrong : "";
    });
    const row = el("label", { class: "setting" });
    row.append(el("span", {}, setting.label), select);
    return row;
  }));
}

async function pastGames() {
  const answer = await fetch("/games", { credentials: "same-origin" });
  if (!answer.ok) return;
  const { games, statistics } = await answer.json();
  const list = document.getElementById("games");
  list.replaceChildren(...games.map((game) => {
    const item = el("div", { class: "game" });
    item.append(el("div", { class: "meta" }, `${game.when} · ${words["game." + game.game] || game.game}`));
    const line = el("div");
    game.players.forEach((player, seat) => {
      if (seat) line.append(" · ");
      // A kept unfinished game (a paired phone's only) has no winners yet.
      line.append(el("span", { class: game.finished && game.winners.includes(seat) ? "winner" : "" },
                     `${player.name} ${player.total ?? player.points}`));
    });
    const link = el("a", { href: `/games/${encodeURIComponent(game.file)}`, download: game.file }, words.record);
    const step = el("button", { type: "button", class: "frames" }, words.frames);
    const shown = el("ol", { class: "frame" });
    step.addEventListener("click", () => stepThrough(game.file, shown));
    item.append(line, link, " ", step);
    if (game.bgstats) {
      // BG Stats' own link, and its QR code for a phone other than this one (drawn when opened).
      const qr = el("details", { class: "bgstats" });
      const picture = el("img", { alt: words.bgstats_qr, width: 240, height: 240 });
      qr.append(el("summary", {}, words.bgstats_qr), picture);
      qr.addEventListener("toggle", () => { if (qr.open && !picture.src) picture.src = `/games/${encodeURIComponent(game.file)}/bgstats.svg`; });
      item.append(" ", el("a", { href: game.bgstats, class: "bgstats" }, words.bgstats), qr);
    }
    item.append(shown);
    return item;
  }));
  // Each game's statistics, its own columns, laid out by the box (companion/web/render.py).
  const stats = document.getElementById("stats");
  stats.innerHTML = statistics || "";
  fitCodes(stats);
}

// A past game's screens, one after the other: ◀ ▶ step, the words as the box showed them.
async function stepThrough(file, shown) {
  const answer = await fetch(`/games/${encodeURIComponent(file)}/frames`, { credentials: "same-origin" });
  if (!answer.ok) return;
  const { frames } = await answer.json();
  let at = frames.length - 1;  // the end first: the final score
  const back = el("button", { type: "button", "aria-label": words.back }, "◀");
  const next = el("button", { type: "button", "aria-label": words.forward }, "▶");
  const where = el("span", { class: "meta" });
  const lines = el("div");
  const show = () => {
    lines.replaceChildren(...frames[at].map((text) => el("li", {}, text)));
    where.textContent = ` ${at + 1}/${frames.length} `;
  };
  back.addEventListener("click", () => { at = Math.max(0, at - 1); show(); });
  next.addEventListener("click", () => { at = Math.min(frames.length - 1, at + 1); show(); });
  shown.replaceChildren(back, where, next, lines);
  show();
}

// A paired phone's page: the changes shown, the pairing hidden.
function paired(token) {
  csrf = token;
  document.getElementById("pairing").hidden = true;
  document.getElementById("paired").hidden = false;
}

// The box no longer knows this phone (Settings → Forget phones on the box): pair again.
function unpaired() {
  csrf = null;
  document.getElementById("pairing").hidden = false;
  document.getElementById("paired").hidden = true;
}

// After a reload the cookie is still there (HttpOnly: only the box reads it); the box says
// whether it still knows this phone and gives the page's CSRF token again.
async function stillPaired() {
  const answer = await fetch("/pair", { credentials: "same-origin" });
  if (!answer.ok) return;
  const state = await answer.json().catch(() => ({}));
  if (state.paired) paired(state.csrf);
}

function changes() {
  const said = (text) => { document.getElementById("said").textContent = text || ""; };
  document.getElementById("ask").addEventListener("click", async () => {
    // The code shows on the box's screen only; the box is asked for one now and then at most.
    const answer = await send("/pair/ask", {});
    said(answer.status === 429 ? words.busy : "");
  });
  document.getElementById("pair").addEventListener("click", async () => {
    const code = document.getElementById("code");
    const answer = await send("/pair", { code: code.value.trim() });
    code.value = "";
    if (answer.status === 200) {
      paired(answer.body.csrf);
      said("");
    } else {
      said(words.wrong);
    }
  });
  document.getElementById("add").addEventListener("click", async () => {
    const name = document.getElementById("name");
    const answer = await send("/name", { name: name.value });
    if (answer.status === 202) name.value = "";
    if (answer.status === 403) unpaired();
    // The box's screen confirms a name it took; the page only says what it refused.
    said(answer.status === 400 ? words.bad_name : answer.status === 403 ? words.wrong : "");
  });
}

function start() {
  setText("status", words.waiting);
  const stream = new EventSource("/events");
  stream.onmessage = (event) => {
    const shot = JSON.parse(event.data);
    words = shot.words;
    label(shot);
    settingsForm(shot);
    draw(shot);
  };
  stream.onerror = () => {
    // The browser tries again by itself; meanwhile the page says the box is not answering.
    setText("status", words.offline).classList.add("offline");
  };
  stream.onopen = () => document.getElementById("status").classList.remove("offline");
}

document.addEventListener("DOMContentLoaded", () => {
  // What needs the script is shown by it: without it, the table as the box served it.
  document.getElementById("history").hidden = false;
  document.getElementById("change").hidden = false;
  fitCodes(document.getElementById("live"));
  // A phone turned, a window made narrower: the codes where the words no longer fit.
  window.addEventListener("resize", () => fitCodes(document.getElementById("live")));
  changes();
  stillPaired();
  document.getElementById("history").addEventListener("toggle", (event) => { if (event.target.open) pastGames(); });
  start();
});
