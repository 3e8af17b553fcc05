// The board's drawing and slides: a part of createBoard (board.js), sharing its `b`.
import { h, clear } from "./dom.js";
import { isRed } from "./cards.js";
import { movableRun, moveProblem } from "./rules.js";
import { t, cardName, suitName } from "./i18n.js";
import { layoutBoard } from "./layout.js";
import { faceHtml, icon } from "./face.js";

// A phone-sized screen counts as touch even with a mouse: its cards are finger-sized anyway.
const touchScreen = () => matchMedia("(pointer: coarse)").matches || innerWidth < 600 || innerHeight < 500;

export function drawing(b) {
  const { tableau, stockEl, runsEl, tray, surface } = b;

  // ---- drawing
  function render() {
    const hadFocus = surface.contains(document.activeElement);
    b.box = { width: tableau.clientWidth, height: tableau.clientHeight };
    // The tableau's top padding and a few pixels of felt under the longest column.
    const room = { width: b.box.width, height: b.box.height - 8 };
    const sizes = b.sizes = layoutBoard({ ...room, columns: b.view.columns, touch: touchScreen() });
    const vars = { "--cw": sizes.cw, "--ch": sizes.ch, "--gap": sizes.gap, "--ix": sizes.ix, "--pad": sizes.pad };
    for (const [name, value] of Object.entries(vars)) surface.style.setProperty(name, `${value}px`);
    if (b.trayHost) for (const [name, value] of Object.entries(vars)) tray.style.setProperty(name, `${value}px`);
    surface.classList.toggle("small", sizes.small);
    tableau.replaceChildren(...b.view.columns.map((column, col) => renderColumn(b, column, col)));
    renderStock();
    renderRuns();
    markHint();
    b.clampFocus();
    b.markFocus(hadFocus);
  }

  // A hint lights up its cards and target (or the card to turn, or the stock) for a
  // moment. The board keeps what it lit and lights it again on every redraw: on a phone
  // the hint's words resize the tableau, whose redraw dropped the light at once.
  function light(action, ms = 2500) {
    b.lit = action;
    markHint();
    setTimeout(() => { if (b.lit === action) { b.lit = null; markHint(); } }, ms);
  }

  function markHint() {
    for (const el of [...tableau.querySelectorAll(".hinted"), ...stockEl.querySelectorAll(".hinted")]) el.classList.remove("hinted");
    const a = b.lit;
    if (!a) return;
    const column = (c) => tableau.querySelector(`.column[data-col="${c}"]`);
    const shown = a.op === "move" ? [...[...column(a.from)?.querySelectorAll(".card:not(.back)") ?? []].slice(-a.count), column(a.to)]
      : a.op === "flip" ? [column(a.col)?.querySelector(".back[role=button]")]
        : a.op === "deal" ? [stockEl.querySelector(".pilebox")] : [];
    for (const el of shown) el?.classList.add("hinted");
  }

  function renderStock() {
    const { readOnly } = b;
    const deals = b.view.deals_left;
    const name = deals ? t("stock", { n: deals }) : t("stockEmpty");
    const piles = Array.from({ length: deals }, (_, i) =>
      h("div.mini.back.pile", { style: `--i:${i}`, "aria-hidden": "true" }));
    clear(stockEl, h("div.pilebox", {
      role: "button", tabindex: readOnly ? -1 : 0, "aria-label": name,
      "aria-disabled": readOnly || !deals ? "true" : null,
      style: `--n:${Math.max(1, deals)}`,
      dataset: { stock: "1" }, title: readOnly ? name : `${name} — ${t("keySpace")}`,
      onclick: () => !readOnly && b.act({ op: "deal" }),
      onkeydown: (e) => {
        if (e.key === "Enter") { e.preventDefault(); e.stopPropagation(); if (!readOnly) b.act({ op: "deal" }); }
      },
    }, piles, deals ? null : h("div.mini.slot", { "aria-hidden": "true" })));
  }

  // Each completed run is a small stack showing its king, as on the duel site.
  function renderRuns() {
    runsEl.style.setProperty("--n", Math.max(1, b.view.removed.length));
    runsEl.replaceChildren(...b.view.removed.map((code, i) => {
      const run = h("div.mini.run.face", {
        role: "listitem", dataset: { i }, style: `--i:${i}`,
        class: code === "h" || code === "d" ? "red" : "black", title: suitName(code),
      }, h("span.sr", {}, `${t("removedRuns")}: ${suitName(code)}`));
      run.insertAdjacentHTML("afterbegin", faceHtml(`K${code}`, true));
      return run;
    }));
  }

  return { render, light, markHint };
}

function renderColumn(b, column, col) {
  const { view, rules, picked, readOnly, sizes } = b;
  const n = col + 1;
  const place = sizes.columns[col];
  const el = h("div.column", {
    role: "group",
    "aria-label": t("column", { n }),
    dataset: { col },
    style: `height:${place.height}px`,
  });
  if (picked && picked.col !== col && !moveProblem(view, rules, picked.col, col, picked.count)) {
    el.classList.add("target");
  }
  const top = (i) => `top:${place.tops[i]}px`;
  for (let i = 0; i < column.down; i++) {
    const isTop = i === column.down - 1 && !column.up.length;
    const back = h("div.card.back", { style: top(i) });
    if (isTop) {
      back.setAttribute("role", "button");
      back.setAttribute("aria-label", t("faceDownTop", { n }));
      back.dataset.col = col;
      back.dataset.index = -1;
      back.tabIndex = -1;
      if (rules.flip === "manual" && !readOnly) {
        // A face-down top card is turned by a tap (duel preset): say so on the card.
        back.classList.add("turnable");
        back.title = t("tapToTurn");
        back.append(icon("turn"));
      }
    } else {
      back.setAttribute("aria-hidden", "true");
    }
    el.append(back);
  }
  if (!column.down && !column.up.length) {
    el.append(h("div.slot", {
      role: "button", tabindex: -1, style: "top:0",
      "aria-label": t("emptyColumn", { n }), dataset: { col, index: -1 },
    }));
  }
  const movableFrom = column.up.length - movableRun(column);
  column.up.forEach((name, i) => {
    const card = h("div.card.face", {
      role: "button",
      tabindex: -1,
      style: top(column.down + i),
      "aria-label": t("cardIn", { card: cardName(name), n }),
      dataset: { col, index: i, card: name },
      class: `${isRed(name) ? "red" : "black"}${i >= movableFrom ? " movable" : ""}`,
    });
    card.innerHTML = faceHtml(name, sizes.small);
    if (picked && picked.col === col && i >= column.up.length - picked.count) {
      card.classList.add("picked");
    }
    const dragged = b.dragging;
    if (dragged?.col === col && dragged.names[i - dragged.index] === name) card.classList.add("lifted");
    el.append(card);
  });
  return el;
}

// ---- animation (FLIP: first, last, invert, play)
export function snapshot(b, action) {
  if (!b.view || !action) return null;
  const rects = new Map();
  if (action.op === "move") {
    const lifted = document.querySelector(".ghost.dropped"); // not one still in the air
    const source = lifted ? [...lifted.children]
      : [...b.tableau.children[action.from].querySelectorAll(".card:not(.back)")]
        .slice(-action.count);
    source.forEach((el, i) => rects.set(i, el.getBoundingClientRect()));
  } else if (action.op === "deal") {
    rects.set("stock", b.stockEl.getBoundingClientRect());
  }
  return rects;
}

export function play(b, before, action) {
  const moving = [];
  if (action.op === "move") {
    const cards = [...b.tableau.children[action.to].querySelectorAll(".card:not(.back)")];
    // After a completed run the moved cards may be gone; animate what is still there.
    cards.slice(-action.count).forEach((el, i) => before.has(i) && moving.push([el, before.get(i)]));
  } else if (action.op === "deal") {
    const from = before.get("stock");
    for (const column of b.tableau.children) {
      const last = column.querySelector(".card:not(.back):last-child");
      if (last) moving.push([last, from]);
    }
  }
  moving.forEach(([el, from], i) => {
    const to = el.getBoundingClientRect();
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    el.animate?.([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
      { duration: 200, delay: action.op === "deal" ? i * 30 : 0, easing: "ease-out", fill: "backwards" });
  });
}
