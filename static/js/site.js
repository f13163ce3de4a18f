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
