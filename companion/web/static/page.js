// The live table: the box's snapshot of each frame, drawn in HTML and SVG. Every word is
// put in with textContent (a player's name is never markup); nothing comes from elsewhere.
"use strict";

const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs, text) {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
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

function wakandaBoard(table) {
  const width = 6 * 100, pieceH = 34, tileH = 40;
  const tallest = Math.max(4, ...table.villages.map(v => v.pieces.length + (v.owner !== null ? 1 : 0)));
  const height = tallest * (pieceH + 4) + tileH + 12;
  const svg = el("svg:svg", { viewBox: `0 0 ${width} ${height}`, role: "img" });
  table.villages.forEach((village, i) => {
    const x = i * 100 + 6, bottom = height - tileH - 6;
    let y = bottom;
    for (const piece of village.pieces) {
      y -= pieceH + 4;
      svg.append(el("svg:rect", { class: "piece", x, y, width: 88, height: pieceH, rx: 5 }));
      svg.append(el("svg:text", { x: x + 44, y: y + pieceH / 2 + 6, "text-anchor": "middle", "font-size": 17 }, piece));
    }
    if (village.owner !== null) {
      y -= pieceH + 4;
      svg.append(el("svg:rect", { class: `owner${village.owner}`, x, y, width: 88, height: pieceH, rx: 12 }));
      const owner = table.players[village.owner];
      svg.append(el("svg:text", { class: "on-lit", x: x + 44, y: y + pieceH / 2 + 6, "text-anchor": "middle", "font-size": 16 },
                    owner ? owner.name : ""));
    }
    svg.append(el("svg:rect", { class: `tile ${village.state}`, x, y: bottom + 4, width: 88, height: tileH - 4, rx: 4 }));
    svg.append(el("svg:text", { class: village.state === "playable" ? "on-lit" : "", x: x + 44, y: bottom + tileH / 2 + 9,
                                "text-anchor": "middle", "font-size": 20 }, `${village.village} ${village.tile}`));
  });
  return svg;
}

function wakandaPlayers(table, words) {
  const rows = el("table");
  const head = el("tr");
  head.append(el("th", {}, ""), el("th", {}, words.hand), el("th", { class: "n" }, words.points));
  rows.append(head);
  for (const player of table.players) {
    const row = el("tr", { class: player.to_move ? "to-move" : "" });
    const hand = player.hand && player.hand.length ? player.hand.map(([piece, n]) => `${piece} ×${n}`).join(", ")
                                                   : `${player.hand_size}`;
    row.append(el("td", {}, (player.to_move ? "▶ " : "") + player.name), el("td", {}, hand),
               el("td", { class: "n" }, player.points));
    rows.append(row);
    if (player.villages.length) {
      const detail = el("tr");
      detail.append(el("td", {}, ""), el("td", { class: "meta", colspan: 2 },
                       player.villages.map(([tile, points]) => `${tile} ${points}`).join(" · ")));
      rows.append(detail);
    }
  }
  return rows;
}

function totemWarsRows(table, words) {
  const rows = el("table");
  const head = el("tr");
  for (const [label, cls] of [["", ""], ["", ""], ["", ""], [words.hand, "n"], [words.points, "n"], [words.taken, "n"]])
    head.append(el("th", { class: cls }, label));
  rows.append(head);
  for (const player of table.rows) {
    const row = el("tr", { class: player.to_move ? "to-move" : "" });
    const cards = el("svg:svg", { viewBox: "0 0 160 30", width: 160, height: 30 });
    let x = 0;
    for (let i = 0; i < player.down; i++, x += 16) cards.append(el("svg:rect", { class: "card", x, y: 2, width: 12, height: 26, rx: 2 }));
    for (let i = 0; i < player.scanned; i++, x += 16) cards.append(el("svg:rect", { class: "card scanned", x, y: 2, width: 12, height: 26, rx: 2 }));
    if (player.owed > 0) cards.append(el("svg:text", { x: x + 4, y: 22, "font-size": 18 }, `+${player.owed}`));
    const cell = el("td");
    cell.append(cards);
    row.append(el("td", {}, (player.to_move ? "▶ " : "") + player.name), el("td", {}, player.totem || ""), cell,
               el("td", { class: "n" }, player.hand_size), el("td", { class: "n" }, player.points),
               el("td", { class: "n" }, player.taken));
    rows.append(row);
  }
  return rows;
}

function draw(shot) {
  document.documentElement.lang = shot.lang;
  setText("status", "");
  setText("done", shot.done);
  setText("title", shot.title);
  setText("note", shot.note).classList.toggle("refused", !!shot.refused);
  const lines = document.getElementById("lines");
  lines.replaceChildren(...shot.lines.map((line, i) => el("li", { class: i === shot.selected ? "selected" : "" }, line)));
  const table = document.getElementById("table");
  table.replaceChildren();
  const t = shot.table;
  if (!t) return;
  if (t.game === "wakanda") {
    if (t.result) table.append(el("p", { class: "result" }, t.result));
    table.append(el("p", { class: "meta" }, t.phase), wakandaBoard(t), wakandaPlayers(t, t.words));
  } else if (t.game === "totem_wars") {
    if (t.instruction) table.append(el("p", {}, t.instruction));
    table.append(el("p", { class: "meta" }, `${t.round} · ${t.deck}`), totemWarsRows(t, t.words));
  }
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
    const select = el("select");  // each choice is the whole line, "Sound: off": it names the setting
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
    const row = el("div", { class: "setting" });
    row.append(select);
    return row;
  }));
}

async function pastGames() {
  const answer = await fetch("/games", { credentials: "same-origin" });
  if (!answer.ok) return;
  const { games, players } = await answer.json();
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
  const table = el("table");
  const head = el("tr");
  for (const key of ["", "games", "wins", "average", "best", "favourite", "rounds_won", "wars_won"])
    head.append(el("th", { class: key && key !== "favourite" ? "n" : "" }, key ? words[key] : ""));
  table.append(head);
  for (const player of players) {
    const row = el("tr");
    row.append(el("td", {}, player.name));
    for (const key of ["games", "wins", "average", "best"]) row.append(el("td", { class: "n" }, player[key]));
    row.append(el("td", {}, player.favourite || ""), el("td", { class: "n" }, player.rounds_won),
               el("td", { class: "n" }, player.wars_won));
    table.append(row);
  }
  document.getElementById("stats").replaceChildren(table);
}

// A past game's screens, one after the other: ◀ ▶ step, the words as the box showed them.
async function stepThrough(file, shown) {
  const answer = await fetch(`/games/${encodeURIComponent(file)}/frames`, { credentials: "same-origin" });
  if (!answer.ok) return;
  const { frames } = await answer.json();
  let at = frames.length - 1;  // the end first: the final score
  const back = el("button", { type: "button" }, "◀"), next = el("button", { type: "button" }, "▶");
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
  changes();
  stillPaired();
  document.getElementById("history").addEventListener("toggle", (event) => { if (event.target.open) pastGames(); });
  start();
});
