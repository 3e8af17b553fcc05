// The solo table's drawing (soloplay.js keeps the state and answers events): the duel
// table's heads-up display with one player panel, the game buttons, the clock counting
// up; the result sheet once the game is over. Every function reads the screen's state
// `st` and calls back through `st.acts`, never the other way round.
import { h, clear, announce, copyText, showText } from "./dom.js";
import { t } from "./i18n.js";
import { createBoard } from "./board.js";
import { icon } from "./face.js";
import { stat, drawButtons } from "./hud.js";
import { suitsLabel, glyphs, duration, day } from "./extra.js";
import { soloResultView } from "./soloresult.js";
import { playLink } from "./result.js";

export const COST_PER_SUIT = 250; // a rescue that plays costs 250 × suits points (docs/points.md)

export function renderSolo(st) {
  const { el, game } = st;
  el.classList.remove("game");
  if (st.over) {
    return clear(el, soloResultView({ game: st.over, badges: st.badges, onNewDeal: () => st.app.go("#/solo") }));
  }
  if (!game) {
    return clear(el, h("div.page.narrow", st.notice ? h("p.error", { role: "alert" }, st.notice)
      : h("p.banner.waiting", { role: "status" }, h("span.spinner", { "aria-hidden": "true" }), t("dealNo", { n: "…" }))));
  }
  el.classList.add("game");
  const boardHost = h("div.boardhost");
  const trayHost = h("div.trayhost");
  const statusHost = h("div.statushost");
  clear(el,
    h("h1.sr", {}, title(game)),
    h("div.players", { id: "scores" }),
    trayHost,
    h("div.controls", { id: "actions" }),
    h("div.statusbar", statusHost),
    boardHost);
  st.board?.destroy();
  st.board = createBoard({ root: boardHost, trayHost, statusHost, rules: game.rules, onAction: st.acts.act, title: t("board") });
  st.board.update(game.view, { animate: false });
  renderHud(st);
}

function title(game) {
  return game.kind === "daily" ? t("dailyOf", { date: day(game.dailyDate) }) : t("dealNo", { n: game.number });
}

export function renderHud(st) {
  renderPanel(st);
  renderButtons(st);
}

export function renderPanel(st) {
  const { el, game } = st;
  const host = el.querySelector("#scores");
  if (!host || !game) return;
  const link = game.kind === "solo" ? playLink(game.number, game.options) : null;
  clear(host, h("div.player.me.soloplayer", { role: "group", "aria-label": t("you") },
    // The suit count: in words, and as pips alone where a phone has no room for them.
    h("div.who", h("span.name", {}, title(game)), h("span.tag", {}, h("span.sr", {}, suitsLabel(game.options.suits)),
      h("span.pips", { "aria-hidden": "true" }, glyphs(game.options.suits)),
      h("span.words", { "aria-hidden": "true" }, suitsLabel(game.options.suits))),
      link ? h("button.roundbtn.copylink", {
        type: "button", id: "copy-deal-link", title: t("playLink"), "aria-label": t("playLink"),
        onclick: async () => announce((await copyText(link)) ? t("copied") : link),
      }, icon("copy")) : null),
    h("div.clock", h("span.sr", {}, t("elapsed")), h("span", { id: "solo-clock" }, duration(elapsedNow(game)))),
    h("div.stats",
      stat(t("score"), game.score, "solo-score"),
      stat(t("runs"), `${game.view.removed.length}/8`, "solo-runs"),
      stat(t("actions"), game.view.actions ?? "—", "solo-actions"))));
}

export function renderButtons(st) {
  const { el, game, acts, busy } = st;
  const host = el.querySelector("#actions");
  if (!host || !game) return;
  const off = !st.playable();
  const cost = COST_PER_SUIT * game.options.suits;
  drawButtons(host, [
    { id: "deal", icon: "deal", text: t("deal"), props: { disabled: off || !game.view.stock, onclick: () => st.board.deal(), "aria-keyshortcuts": "Space", "data-key": t("keySpaceName"), "data-short": t("dealShort") } },
    { id: "undo", icon: "undo", text: t("undo"), props: { disabled: off, "aria-disabled": !off && !game.view.can_undo ? "true" : null, onclick: () => st.board.undo(), "aria-keyshortcuts": "Control+Z", "data-key": t("keyUndoName"), "data-short": t("undoShort") } },
    { id: "redo", icon: "undo", text: t("hxRedo"), props: { class: "redo", disabled: off || !st.redo.size, onclick: acts.redoNext, "aria-keyshortcuts": "Control+Y Control+Shift+Z", "data-key": t("hxRedoKey"), "data-short": t("redoShort") } },
    { id: "hint", icon: "hint", text: t("hint"), props: { disabled: off, onclick: acts.hint, "aria-keyshortcuts": "I", "data-key": "I" } },
    game.auto && !busy
      ? { id: "auto-complete", icon: "auto", text: t("autoComplete"), props: { class: "primary", onclick: acts.autoComplete, "aria-keyshortcuts": "A", "data-key": "A" } }
      : { id: "rescue", icon: "rescue", text: t("rescue"), note: t("rescueCost", { n: cost }), props: {
        disabled: off, onclick: acts.rescue, "aria-keyshortcuts": "R", "data-key": "R", "data-short": t("rescueShort"),
        "aria-label": `${t("rescue")} (${t("rescueCost", { n: cost })})`,
      } },
    { id: "give-up", icon: "leave", text: t("giveUp"), props: { class: "quit", disabled: off, onclick: acts.giveUp, "data-short": t("giveUpShort") } },
  ]);
}

// The clock counts up from the server's figure, between frames.
const elapsedNow = (game) => (game.status === "playing" ? game.elapsed + (Date.now() - game.at) : game.elapsed);

export function tickSoloClock(st) {
  const node = st.el.querySelector("#solo-clock");
  if (node && st.game) showText(node, duration(elapsedNow(st.game)));
}
