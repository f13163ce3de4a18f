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

// Keep keyboard focus on the same square after the board is redrawn.
document.addEventListener("htmx:beforeSwap", () => {
  const active = document.activeElement;
  window.maerstanasFocus = active && active.id ? active.id : null;
});
document.addEventListener("htmx:afterSettle", () => {
  const id = window.maerstanasFocus;
  if (!id) return;
  const again = document.getElementById(id);
  if (again) again.focus();
  else {
    const board = document.querySelector("#board button[name=move]");
    if (board) board.focus();
  }
});

// A poll answered before a move was made can arrive after the move's own answer:
// never let an older revision of the game replace a newer one.
document.addEventListener("htmx:beforeSwap", (event) => {
  const game = document.getElementById("game");
  if (!game || event.detail.target !== game) return;
  const match = /data-revision="(\d+)"/.exec(event.detail.serverResponse || "");
  if (match && Number(match[1]) < Number(game.dataset.revision)) {
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
// position and to the game as it is now. The links do it without this.
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
  window.location.assign(link.href);
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

function beep() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  const context = new Context();
  const tone = context.createOscillator();
  const volume = context.createGain();
  tone.frequency.value = 660;
  volume.gain.setValueAtTime(0.15, context.currentTime);
  volume.gain.exponentialRampToValueAtTime(0.001, context.currentTime + 0.25);
  tone.connect(volume).connect(context.destination);
  tone.start();
  tone.stop(context.currentTime + 0.25);
  tone.onended = () => context.close();
}

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
  return Array.from(document.querySelectorAll("#board [data-square] > button, #board [data-square] > .sq__body"));
}

function rovingBoard() {
  const targets = squareTargets();
  if (!targets.length) return;
  const focused = targets.find((target) => target === document.activeElement);
  const open = targets.find((target) => target.tagName === "BUTTON");
  const current = focused || targets.find((t) => t.id === window.maerstanasSquare) || open || targets[24];
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
    const name = cell.dataset.square;
    const column = "ABCDEFG".indexOf(name[0]) + move[1];
    const row = Number(name.slice(1)) + move[0];
    if (column < 0 || column > 6 || row < 1 || row > 7) return;
    const next = document.getElementById(`sq-${"ABCDEFG"[column]}${row}`);
    if (next) {
      event.preventDefault();
      next.focus();
    }
    return;
  }
  if ((event.key === "Enter" || event.key === " ") && !event.target.matches("button")) {
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
  const button = cell.querySelector("button");
  if (!button) { // a square that cannot be played: say why, to a mouse too
    const body = cell.querySelector(".sq__body");
    preview(body && (body.dataset.reason || body.getAttribute("aria-label")));
    return;
  }
  if (lastPointer !== "touch") return;
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
