// Progressive enhancement only: everything works without this file.
"use strict";

// Copy buttons: <button data-copy="#input-id"> copies that input's value.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const field = document.querySelector(button.dataset.copy);
  if (!field) return;
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    document.execCommand("copy");
  }
  const label = button.textContent;
  button.textContent = "Copied";
  setTimeout(() => {
    button.textContent = label;
  }, 1500);
});

// The header's menu (a phone's): it opens and closes by itself without script; here it
// also closes when the player taps outside it, or presses Escape in it.
document.addEventListener("click", (event) => {
  for (const menu of document.querySelectorAll("details.site-menu[open]")) {
    if (!menu.contains(event.target)) menu.open = false;
  }
});
document.addEventListener("keydown", (event) => {
  const menu = event.key === "Escape" && event.target.closest && event.target.closest("details.site-menu[open]");
  if (!menu) return;
  menu.open = false;
  menu.querySelector("summary").focus();
});

// A link htmx has just swapped in gets its handlers when the swap settles: a key
// pressed in those few milliseconds (Enter on a square's link, End for the replay's
// link) would follow the plain link and load the whole page. Give it them first.
document.addEventListener(
  "click",
  (event) => {
    const control = event.target.closest && event.target.closest("a[hx-get]");
    if (control && window.htmx) window.htmx.process(control);
  },
  true,
);

// Keep keyboard focus on the same square after the board is redrawn.
document.addEventListener("htmx:beforeSwap", () => {
  const active = document.activeElement;
  window.maerstanasFocus = active && active.id ? active.id : null;
});
document.addEventListener("htmx:afterSettle", () => {
  const id = window.maerstanasFocus;
  if (!id) return;
  // Once: an answer settles once for each part it swaps (the game, and out of band
  // the announcement), and the player may have moved on after the first.
  window.maerstanasFocus = null;
  const again = document.getElementById(id);
  if (again) again.focus();
  else {
    const board = document.querySelector("#board button[name=move]");
    if (board) board.focus();
  }
});

// Resigning takes its own control away: the focus goes to the result, which says what
// happened, not back to the top of the page. The answer to Resign is the game's page
// afresh (a redirect), so the request leaves word for the page it brings; a control
// that goes with a redraw of the game leaves the focus to the result too.
function focusResult() {
  const result = document.querySelector("#game [data-result]");
  if (!result) return;
  result.setAttribute("tabindex", "-1");
  result.focus();
}
document.addEventListener("htmx:beforeRequest", (event) => {
  const action = event.detail.elt.getAttribute("hx-post") || "";
  if (!action.endsWith("/resign")) return;
  try {
    sessionStorage.setItem("maerstanas.resigned", location.pathname);
  } catch {
    // Storage refused (a private window): the page opens at its top.
  }
});
document.addEventListener("DOMContentLoaded", () => {
  let resigned = null;
  try {
    resigned = sessionStorage.getItem("maerstanas.resigned");
    sessionStorage.removeItem("maerstanas.resigned");
  } catch {
    return;
  }
  if (resigned === location.pathname) focusResult();
});
let focusInSwap = false;
document.addEventListener("htmx:beforeSwap", (event) => {
  const active = document.activeElement;
  focusInSwap = Boolean(active && active !== document.body && event.detail.target.contains(active));
});
document.addEventListener("htmx:afterSettle", () => {
  if (!focusInSwap) return;
  focusInSwap = false;
  const active = document.activeElement;
  if (!active || active === document.body || !active.isConnected) focusResult();
});

// An answer that arrives for a part of the page another answer has replaced since
// (a poll crossing a move) has nowhere to go: swapping it would draw an older game
// over the newer, and its out-of-band parts (#announce) would look for their places
// in the old part alone. Events of a
// part taken out of the page no longer reach the document, so each part a request
// will redraw is watched itself, from the request on.
const watchedTargets = new WeakSet();
function dropIfGone(event) {
  if (!event.detail.target.isConnected) event.detail.shouldSwap = false;
}
document.addEventListener("htmx:beforeRequest", (event) => {
  const target = event.detail.target;
  if (!target || watchedTargets.has(target)) return;
  watchedTargets.add(target);
  target.addEventListener("htmx:beforeSwap", dropIfGone);
});

// A poll answered before a move was made can arrive after the move's own answer:
// never let an older revision of the game replace a newer one. News of the player's
// own move can come by the stream before the move's answer; the board it then asks
// for is the one the answer has drawn already, and drawing it twice would take the
// focus from wherever the player has moved it since.
const LIVE_TRIGGERS = new Set(["sse:move", "live-poll"]);
document.addEventListener("htmx:beforeSwap", (event) => {
  const game = document.getElementById("game");
  if (!game || event.detail.target !== game) return;
  const match = /data-revision="(\d+)"/.exec(event.detail.serverResponse || "");
  if (!match) return;
  const fresh = Number(match[1]);
  const shown = Number(game.dataset.revision);
  const trigger = event.detail.requestConfig?.triggeringEvent?.type;
  if (fresh < shown || (fresh === shown && LIVE_TRIGGERS.has(trigger))) {
    event.detail.shouldSwap = false;
  }
});

// Live pages: the game's stream (#live, htmx's SSE extension) says when the game
// changed, and the board then asks for its fresh part. News of a revision the page
// already shows (its own move, or a reconnect) asks for nothing.
document.addEventListener("htmx:confirm", (event) => {
  const trigger = event.detail.triggeringEvent;
  if (!trigger || trigger.type !== "sse:move" || !trigger.detail) return;
  const game = document.getElementById("game");
  if (game && Number(trigger.detail.lastEventId) <= Number(game.dataset.revision)) {
    event.preventDefault();
  }
});

// The newest revision the stream has announced. A board drawn by an answer that
// was on its way meanwhile (the player's own move, as the computer's reply came)
// can be older: the board then asks again, so no news is ever left unshown.
let newestRevision = 0;
const heard = new WeakSet();
document.addEventListener("htmx:sseOpen", (event) => {
  const source = event.detail.source;
  if (!source || heard.has(source)) return;
  heard.add(source);
  source.addEventListener("move", (message) => {
    newestRevision = Math.max(newestRevision, Number(message.lastEventId) || 0);
  });
});

function catchUp() {
  const game = document.querySelector("#live #game[hx-get]");
  if (game && newestRevision > Number(game.dataset.revision)) htmx.trigger(game, "live-poll");
}
document.addEventListener("htmx:afterSettle", catchUp);

// While the stream is down (a proxy that buffers it, a server restarting), the board
// asks for news every second instead, until the stream is back.
let streamOpen = false;
document.addEventListener("htmx:sseOpen", () => {
  streamOpen = true;
});
document.addEventListener("htmx:sseError", () => {
  streamOpen = false;
});
setInterval(() => {
  if (streamOpen) {
    catchUp();
    return;
  }
  const game = document.querySelector("#live #game[hx-get]");
  if (game) htmx.trigger(game, "live-poll");
}, 1000);

// Replay by keyboard: ← and → step through the moves, Home and End go to the first
// position and to the game as it is now, as the links do.
const REPLAY_KEYS = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "live" };
document.addEventListener("keydown", (event) => {
  const step = REPLAY_KEYS[event.key];
  if (!step || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
  if (target.closest && target.closest(".board__grid")) return; // arrows move over squares
  const link = document.querySelector(`[data-replay-step="${step}"]`);
  if (!link) return;
  event.preventDefault();
  link.click(); // htmx redraws the game's part; without it, the link loads the page
});

// "Your turn" signals. The title follows the game (each redraw brings its own);
// here the tab's icon gets a mark while it is the player's turn, and, if the player
// turned them on (remembered in this browser), a short sound and a notification
// while the tab is hidden. Nothing leaves the browser: the sound is synthesised.
const icon = document.querySelector("link[rel=icon][data-turn-icon]");
const plainIcon = icon ? icon.getAttribute("href") : "";
let wasMyTurn = null;

function signalSetting(name) {
  try {
    return localStorage.getItem(`maerstanas.signal.${name}`) === "on";
  } catch {
    return false;
  }
}

function sound(frequency, seconds, loudness) {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  const context = new Context();
  const tone = context.createOscillator();
  const volume = context.createGain();
  tone.frequency.value = frequency;
  volume.gain.setValueAtTime(loudness, context.currentTime);
  volume.gain.exponentialRampToValueAtTime(0.001, context.currentTime + seconds);
  tone.connect(volume).connect(context.destination);
  tone.start();
  tone.stop(context.currentTime + seconds);
  tone.onended = () => context.close();
}

function beep() {
  sound(660, 0.25, 0.15);
}

// A soft click as a stone is placed (a move made, heard or stepped to), for players
// who turn it on; it is off unless they do, and the choice is kept in this browser.
let shownPly = null;
function clickOnMove() {
  const game = document.getElementById("game");
  const ply = game ? game.dataset.ply : null;
  if (ply != null && shownPly != null && ply !== shownPly && signalSetting("moves")) {
    sound(320, 0.07, 0.12);
  }
  shownPly = ply;
}
document.addEventListener("DOMContentLoaded", clickOnMove);
document.addEventListener("htmx:afterSettle", clickOnMove);

function showTurn() {
  const game = document.getElementById("game");
  const mine = Boolean(game && game.hasAttribute("data-your-turn"));
  if (icon) icon.setAttribute("href", mine ? icon.dataset.turnIcon : plainIcon);
  if (mine && wasMyTurn === false) {
    if (signalSetting("sound")) beep();
    if (signalSetting("notify") && document.hidden && "Notification" in window &&
        Notification.permission === "granted") {
      const news = document.getElementById("announce");
      new Notification(document.title, { body: news ? news.textContent : "" });
    }
  }
  wasMyTurn = game ? mine : null;
  document.querySelectorAll("[data-signals]").forEach((box) => {
    box.hidden = false;
    box.querySelectorAll("[data-signal]").forEach((input) => {
      input.checked = signalSetting(input.dataset.signal);
    });
  });
}
document.addEventListener("DOMContentLoaded", showTurn);
document.addEventListener("htmx:afterSettle", showTurn);

document.addEventListener("change", async (event) => {
  const input = event.target.closest("[data-signal]");
  if (!input) return;
  let on = input.checked;
  if (on && input.dataset.signal === "notify" && "Notification" in window) {
    on = (await Notification.requestPermission()) === "granted";
    input.checked = on;
  }
  try {
    localStorage.setItem(`maerstanas.signal.${input.dataset.signal}`, on ? "on" : "off");
  } catch {
    // Storage refused (a private window): the choice lasts for this page only.
  }
  if (on && input.dataset.signal === "sound") beep();
  if (on && input.dataset.signal === "moves") sound(320, 0.07, 0.12);
});

// The move list keeps its newest move (or the moment looked back at) in sight.
function showLatestMove() {
  const list = document.getElementById("move-list");
  if (!list) return;
  const current = list.querySelector(".is-current");
  // Scrolled within the list only: the page itself stays where the player left it.
  if (current) list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
  else list.scrollTop = list.scrollHeight;
}
document.addEventListener("DOMContentLoaded", showLatestMove);
// After the swap has been laid out: the list's height is known only then.
document.addEventListener("htmx:afterSettle", () => requestAnimationFrame(showLatestMove));

// The board is one stop of the Tab key: the arrow keys move over its squares (a
// roving tab index), Enter or Space plays the square's move, and on a square that
// cannot be played they say why.
const MOVES = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

function squareTargets() {
  return Array.from(
    document.querySelectorAll("#board [data-square] > button, #board [data-square] > .sq__pick, #board [data-square] > .sq__body"),
  );
}

function rovingBoard() {
  const targets = squareTargets();
  if (!targets.length) return;
  const focused = targets.find((target) => target === document.activeElement);
  const open = targets.find((target) => target.tagName === "BUTTON") || targets.find((target) => target.tagName === "A");
  // Nothing focused or open yet: the middle of the board.
  const middle = targets[Math.floor(targets.length / 2)];
  const current = focused || targets.find((t) => t.id === window.maerstanasSquare) || open || middle;
  targets.forEach((target) => target.setAttribute("tabindex", target === current ? "0" : "-1"));
}
document.addEventListener("DOMContentLoaded", rovingBoard);
document.addEventListener("htmx:afterSettle", rovingBoard);
document.addEventListener("focusin", (event) => {
  if (event.target.closest && event.target.closest("#board [data-square]")) {
    window.maerstanasSquare = event.target.id;
    squareTargets().forEach((t) => t.setAttribute("tabindex", t === event.target ? "0" : "-1"));
  }
});

document.addEventListener("keydown", (event) => {
  const cell = event.target.closest && event.target.closest("#board [data-square]");
  if (!cell || event.altKey || event.ctrlKey || event.metaKey) return;
  const move = MOVES[event.key];
  if (move) {
    // The board says its columns' letters and how many rows it has (game.boards).
    const grid = cell.closest("[data-columns]");
    const letters = grid ? grid.dataset.columns : "";
    const name = cell.dataset.square;
    const column = letters.indexOf(name[0]) + move[1];
    const row = Number(name.slice(1)) + move[0];
    if (column < 0 || column >= letters.length || row < 1 || row > Number(grid.dataset.rows)) return;
    const next = document.getElementById(`sq-${letters[column]}${row}`);
    if (next) {
      event.preventDefault();
      next.focus();
    }
    return;
  }
  if (event.key === "Escape") {
    // A piece picked up is put back (a move in two steps): the same as its link.
    const back = document.querySelector("#board [data-put-back]");
    if (back) {
      event.preventDefault();
      back.click();
    }
    return;
  }
  if (event.key === " " && event.target.matches("a")) {
    event.preventDefault();
    event.target.click();
    return;
  }
  if ((event.key === "Enter" || event.key === " ") && !event.target.matches("button, a")) {
    event.preventDefault();
    preview(event.target.dataset.reason || event.target.getAttribute("aria-label"));
  }
});

function preview(text) {
  const line = document.getElementById("board-preview");
  if (line) line.textContent = text || "";
}

// Touch: the first tap on a square shows what its move would do (the stones a
// thunder-stone clears, the stone a Woden-stone takes) or why it cannot be played;
// a second tap on the same square plays it. A mouse click plays at once.
let lastPointer = "mouse";
document.addEventListener("pointerdown", (event) => {
  lastPointer = event.pointerType || "mouse";
}, true);
document.addEventListener("click", (event) => {
  const cell = event.target.closest && event.target.closest("#board [data-square]");
  if (!cell) return;
  if (cell.querySelector(".sq__pick")) return; // a piece to pick up (a move in two steps): its link
  const button = cell.querySelector("button");
  if (!button) { // a square that cannot be played: say why, to a mouse too
    const body = cell.querySelector(".sq__body");
    preview(body && (body.dataset.reason || body.getAttribute("aria-label")));
    return;
  }
  // A tafl move is two taps already, the piece and its square: the second plays it.
  if (lastPointer !== "touch" || cell.closest(".board--tafl")) return;
  if (button.classList.contains("is-armed")) return; // the second tap: play
  event.preventDefault();
  event.stopPropagation();
  document.querySelectorAll("#board .is-armed").forEach((armed) => armed.classList.remove("is-armed"));
  button.classList.add("is-armed");
  const clears = button.dataset.clears;
  const board = button.closest("[data-placing]");
  const what = board && board.dataset.placing === "woden"
    ? `takes the stone on ${cell.dataset.square}`
    : clears ? `clears ${clears.split(" ").join(", ")}` : `places a stone on ${cell.dataset.square}`;
  preview(`${button.value}: ${what}. Tap again to play it.`);
}, true);

// Clocks: the server says each side's time left when it drew the board; the running
// one ticks down here, warns under ten seconds, and at zero the board asks the
// server, which alone says whether time ran out.
const drawnAt = new WeakMap();
const WARNING_MS = 10000;
function clockText(ms) {
  if (ms < WARNING_MS) return `0:${(ms / 1000).toFixed(1).padStart(4, "0")}`;
  const seconds = Math.floor(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}
let flagAsked = 0;
function askAtZero() {
  const game = document.querySelector("#game[hx-get]");
  if (!game || Date.now() - flagAsked < 2000) return;
  flagAsked = Date.now();
  const url = game.getAttribute("hx-get").replace(/\/poll\/\d+/, "/poll/4294967295");
  htmx.ajax("GET", url, { target: game, swap: "outerHTML" });
}
function tickClocks() {
  const now = performance.now();
  for (const clock of document.querySelectorAll("[data-clock][data-running]")) {
    if (!drawnAt.has(clock)) drawnAt.set(clock, now);
    const left = Math.max(0, Number(clock.dataset.ms) - (now - drawnAt.get(clock)));
    const time = clock.querySelector("[data-clock-time]");
    if (time) time.textContent = clockText(left);
    clock.classList.toggle("is-low", left < WARNING_MS);
    if (left === 0) askAtZero();
  }
  for (const deadline of document.querySelectorAll(".deadline--first[data-left-ms]")) {
    if (!drawnAt.has(deadline)) drawnAt.set(deadline, now);
    const left = Math.max(0, Number(deadline.dataset.leftMs) - (now - drawnAt.get(deadline)));
    const seconds = deadline.querySelector("[data-seconds-left]");
    if (seconds) seconds.textContent = String(Math.ceil(left / 1000));
    if (left === 0) askAtZero();
  }
}
setInterval(tickClocks, 100);

// The challenge form shows the terms of the speed chosen.
function showSpeedParts(form) {
  const speed = form.querySelector("input[name=speed]:checked");
  for (const part of form.querySelectorAll("[data-speed-part]")) {
    part.hidden = !speed || part.dataset.speedPart !== speed.value;
  }
}
document.addEventListener("change", (event) => {
  const form = event.target.closest("[data-challenge-form]");
  if (form) showSpeedParts(form);
});
document.querySelectorAll("[data-challenge-form]").forEach(showSpeedParts);

// The live lobby: its stream sends the challenges changed since the revision the
// page shows; rows are drawn for anyone, and the page shows which are its own.
function fitRow(lobby, row) {
  const mine = row.dataset.owner === lobby.dataset.me;
  row.classList.toggle("challenge--mine", mine);
  row.querySelector(mine ? ".challenge__accept" : ".challenge__cancel")?.remove();
  // The side played, said to the creator as theirs and to anyone else as the other.
  row.querySelector(`[data-side-text="${mine ? "others" : "owner"}"]`)?.remove();
  for (const form of row.querySelectorAll("form")) {
    if (!form.querySelector("[name=csrfmiddlewaretoken]")) {
      const token = document.createElement("input");
      token.type = "hidden";
      token.name = "csrfmiddlewaretoken";
      token.value = lobby.dataset.csrf;
      form.prepend(token);
    }
  }
  const button = row.querySelector(".challenge__accept button");
  if (button && row.hasAttribute("data-rated") && !lobby.hasAttribute("data-account")) {
    button.disabled = true;
    button.title = "A rated game is between accounts: log in to accept it";
  }
}
function countChallenges(lobby) {
  const list = lobby.querySelector("[data-challenges]");
  const count = list.querySelectorAll("[data-challenge]").length;
  const shown = lobby.querySelector("[data-challenge-count]");
  if (shown) shown.textContent = String(count);
  const empty = lobby.querySelector("[data-no-challenges]");
  if (empty) empty.hidden = count > 0;
}
async function reloadLobby(lobby, part) {
  const url = part ? `${location.pathname}?part=mine` : location.pathname;
  const answer = await fetch(url, { headers: { Accept: "text/html" } });
  if (!answer.ok) return;
  const html = new DOMParser().parseFromString(await answer.text(), "text/html");
  const selector = part ? "#lobby-mine" : "[data-challenges]";
  const fresh = html.querySelector(selector);
  const old = lobby.querySelector(selector);
  if (fresh && old) old.replaceWith(fresh);
  const started = lobby.querySelector("[data-started]");
  if (started) location.assign(started.dataset.started);
  countChallenges(lobby);
}
// A stream the server refused (a client's or the server's limit of live pages: 429,
// 503) is not opened again by the browser, as a stream cut off is: the page catches up
// by itself every so often and tries the stream again.
const REOPEN_MILLISECONDS = 15000;
function listen(url, handlers, catchUp) {
  const source = new EventSource(url());
  for (const [name, handler] of Object.entries(handlers)) source.addEventListener(name, handler);
  source.addEventListener("error", () => {
    if (source.readyState !== EventSource.CLOSED) return;
    setTimeout(() => {
      catchUp();
      listen(url, handlers, catchUp);
    }, REOPEN_MILLISECONDS);
  });
}
function openLobby(lobby) {
  const list = lobby.querySelector("[data-challenges]");
  const url = () => `${lobby.dataset.liveUrl}?since=${lobby.dataset.revision}`;
  const onLobby = (message) => {
    const change = JSON.parse(message.data);
    for (const gone of change.gone) {
      const row = document.getElementById(`challenge-${gone.id}`);
      if (!row) continue;
      const mine = row.dataset.owner === lobby.dataset.me;
      row.remove();
      if (mine && gone.status === "accepted") location.assign(`/lobby/${gone.id}/`);
    }
    for (const added of change.rows) {
      const holder = document.createElement("template");
      holder.innerHTML = added.html.trim();
      const row = holder.content.firstElementChild;
      fitRow(lobby, row);
      const old = document.getElementById(row.id);
      if (old) old.replaceWith(row);
      else list.prepend(row);
    }
    lobby.dataset.revision = String(change.revision);
    countChallenges(lobby);
  };
  const handlers = {
    lobby: onLobby,
    reload: () => reloadLobby(lobby, false),
    personal: () => reloadLobby(lobby, true),
  };
  listen(url, handlers, () => {
    reloadLobby(lobby, false);
    reloadLobby(lobby, true);
  });
}
const lobbyElement = document.getElementById("lobby");
if (lobbyElement && window.EventSource) openLobby(lobbyElement);

// The watch page: its stream says when a game listed, or the list itself, changed;
// the page asks for the list again and puts it in place, boards and counts with it,
// keeping the focus on the game it was on.
(() => {
  const watch = document.getElementById("watch");
  if (!watch || !window.EventSource) return;
  let asking = false;
  let again = false;
  async function reloadWatch() {
    if (asking) {
      again = true;
      return;
    }
    asking = true;
    try {
      const answer = await fetch(watch.dataset.listUrl, { headers: { Accept: "text/html" } });
      if (!answer.ok) return;
      const holder = document.createElement("template");
      holder.innerHTML = (await answer.text()).trim();
      const fresh = holder.content.querySelector("#watch-list");
      const old = document.getElementById("watch-list");
      if (!fresh || !old) return;
      const focused = document.activeElement?.closest("[data-watch-game]")?.dataset.watchGame;
      old.replaceWith(fresh);
      if (focused) {
        fresh.querySelector(`[data-watch-game="${CSS.escape(focused)}"] a`)?.focus();
      }
    } catch {
      // The next event asks again.
    } finally {
      asking = false;
      if (again) {
        again = false;
        reloadWatch();
      }
    }
  }
  listen(() => watch.dataset.liveUrl, { watch: reloadWatch }, reloadWatch);
})();

// The new-game and challenge forms show only the parts that apply: the computer's
// level for a game against the computer, the colour for a game against someone
// ([data-for-modes]), and each game's own levels and rules for that game
// ([data-for-game]). Without script every part stays in sight, its legend saying when
// and for which game it applies.
function showFormParts(form) {
  const mode = form.querySelector("input[name=mode]:checked")?.value;
  const game = form.querySelector("input[name=game]:checked")?.value;
  for (const part of form.querySelectorAll("[data-for-modes], [data-for-game]")) {
    const modes = part.dataset.forModes?.split(" ");
    const forGame = part.dataset.forGame;
    part.hidden = Boolean(mode && modes && !modes.includes(mode)) ||
      Boolean(game && forGame && forGame !== game);
  }
  // One level is sent whatever the game: the one checked among the game's own, or,
  // when it is another game's, the game's level checked last, or its weakest.
  const levels = game && form.querySelector(`[data-levels-of="${CSS.escape(game)}"]`);
  const checked = form.querySelector("input[name=level]:checked");
  if (levels && !(checked && levels.contains(checked))) {
    const inputs = [...levels.querySelectorAll("input[name=level]")];
    const choice = inputs.find((input) => input.value === levels.dataset.kept) || inputs[0];
    if (choice) choice.checked = true;
  }
}
for (const form of document.querySelectorAll(".new-game__form, [data-challenge-form]")) {
  form.addEventListener("change", (event) => {
    const levels = event.target.closest("[data-levels-of]");
    if (event.target.name === "level" && levels) levels.dataset.kept = event.target.value;
    if (["mode", "game"].includes(event.target.name)) showFormParts(form);
  });
  // A page the browser brings back keeps the choices made before.
  window.addEventListener("pageshow", () => showFormParts(form));
  showFormParts(form);
}

// The tournament form shows the length of the system chosen: an arena's minutes, a
// Swiss's rounds, a round-robin's cycles.
function showSystemParts(form) {
  const system = form.querySelector("input[name=system]:checked")?.value;
  for (const part of form.querySelectorAll("[data-system-part]")) {
    part.hidden = Boolean(system) && part.dataset.systemPart !== system;
  }
}
for (const form of document.querySelectorAll("[data-tournament-form]")) {
  form.addEventListener("change", () => showSystemParts(form));
  window.addEventListener("pageshow", () => showSystemParts(form));
  showSystemParts(form);
}

// Tournaments. An event's page: its stream pushes the shared part (standings, games)
// as the event changes, and says "personal" when the player's own channel changed (a
// game of theirs started), when the page asks for its personal part. The page marks
// its player's row, and goes to their game as it starts. The list page asks for its
// list again as any event changes.
async function partOf(url) {
  const answer = await fetch(url, { headers: { Accept: "text/html" } });
  if (!answer.ok) return null;
  const holder = document.createElement("template");
  holder.innerHTML = (await answer.text()).trim();
  return holder.content;
}
function followEvent(page) {
  const shared = page.querySelector("[data-tournament-shared]");
  const mine = page.querySelector("[data-tournament-me]");
  const me = page.dataset.me;
  // The names the player blocked: their lines in the chat, pushed to everyone, are hidden.
  const blockedList = document.getElementById("tournament-blocked")?.textContent;
  const blocked = new Set(blockedList ? JSON.parse(blockedList) : []);
  let myGame = mine.querySelector("[data-my-game]")?.dataset.myGame;
  function goToMyGame(url) {
    if (url && url !== myGame) location.assign(url);
    myGame = url;
  }
  function settle() {
    page.dataset.status = shared.querySelector("[data-event-status]")?.dataset.eventStatus ||
      page.dataset.status;
    for (const line of shared.querySelectorAll("[data-message][data-author]")) {
      if (blocked.has(line.dataset.author)) line.remove();
    }
    if (!me) return;
    for (const row of shared.querySelectorAll("tr[data-player]")) {
      row.classList.toggle("standings__me", row.dataset.player === me);
    }
    const playing = [...shared.querySelectorAll("[data-pairing]:not([data-result])")].find(
      (game) => game.dataset.dark === me || game.dataset.light === me,
    );
    if (playing) goToMyGame(playing.dataset.gameUrl);
  }
  async function reloadShared() {
    const part = await partOf(`${page.dataset.partUrl}?part=shared&page=${page.dataset.page}`);
    if (!part) return;
    shared.replaceChildren(...part.childNodes);
    settle();
  }
  async function reloadMine() {
    const part = await partOf(`${page.dataset.partUrl}?part=me`);
    if (!part) return;
    // A line being typed in the chat stays as it was, focus and all.
    const typing = mine.querySelector("[data-chat-form] input[name=text]");
    const typed = typing?.value;
    const focused = typing !== null && document.activeElement === typing;
    mine.replaceChildren(...part.childNodes);
    const input = mine.querySelector("[data-chat-form] input[name=text]");
    if (input && typed) input.value = typed;
    if (input && focused) input.focus();
    goToMyGame(mine.querySelector("[data-my-game]")?.dataset.myGame);
    showCountdowns();
  }
  function onStandings(message) {
    const change = JSON.parse(message.data);
    page.dataset.revision = String(change.revision);
    if (page.dataset.page !== "1") {
      reloadShared();
      return;
    }
    const holder = document.createElement("template");
    holder.innerHTML = change.html.trim();
    shared.replaceChildren(...holder.content.childNodes);
    settle();
    showCountdowns();
  }
  settle();
  const url = () => `${page.dataset.liveUrl}?since=${page.dataset.revision}`;
  listen(url, { standings: onStandings, personal: reloadMine }, () => {
    reloadShared();
    reloadMine();
  });
}
function followList(list) {
  const groups = list.querySelector("[data-tournament-groups]");
  async function reload() {
    const asked = new URLSearchParams(location.search);
    asked.set("part", "list");
    const part = await partOf(`${location.pathname}?${asked}`);
    const fresh = part?.querySelector("[data-tournament-groups]");
    if (fresh) groups.replaceChildren(...fresh.childNodes);
    const revision = fresh?.dataset.revision;
    if (revision) list.dataset.revision = revision;
  }
  const url = () => `${list.dataset.liveUrl}?since=${list.dataset.revision}`;
  listen(url, { changed: (message) => {
    list.dataset.revision = message.data;
    reload();
  } }, reload);
}
// A start or an end to come says how long is left: "(in 12:05)".
function showCountdowns() {
  for (const time of document.querySelectorAll("time[data-countdown]")) {
    const left = Date.parse(time.dateTime) - Date.now();
    let shown = time.nextElementSibling;
    if (!shown || !shown.hasAttribute("data-countdown-left")) {
      shown = document.createElement("span");
      shown.setAttribute("data-countdown-left", "");
      time.after(shown);
    }
    const seconds = Math.max(0, Math.round(left / 1000));
    const parts = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60];
    const clock = parts.map((n, i) => (i ? String(n).padStart(2, "0") : String(n))).join(":");
    shown.textContent = left > 0 ? ` (in ${clock})` : "";
  }
}
(() => {
  if (!window.EventSource) return;
  const page = document.querySelector("[data-tournament-page]");
  if (page) followEvent(page);
  const list = document.querySelector("[data-tournaments]");
  if (list) followList(list);
  if (document.querySelector("time[data-countdown]")) setInterval(showCountdowns, 1000);
  showCountdowns();
})();
