// The Solo start screen: a deal number (or a random one), 1, 2 or 4 suits, "solvable deals
// only" and the relaxed rule with what they do to the points; the game in progress, if any.
// A "play this deal" link (#/solo?number=…&suits=…&solvable_only=1&relaxed=0) fills the form.
// A player types 1–999,999; a link may carry a duel's number, up to 2**48 − 1 (docs/api.md).
import { h, clear, announce, confirmBox } from "./dom.js";
import { t, problemText } from "./i18n.js";
import { api } from "./api.js";
import { icon } from "./face.js";
import { styled, suitsLabel, glyphs } from "./extra.js";

await styled;

const PICK_MAX = 999_999; // what a player types (the hint's range)
const LINK_MAX = 2 ** 48 - 1; // a duel's "play this deal" number: exact (JS is, below 2**53)

// What the options do to a win's points (docs/points.md): × 1.2 for a random deal, × 0.8
// under the relaxed rule, both × 0.96.
export const optionsFactor = ({ solvable_only: solvable, relaxed }) => (solvable ? 1 : 1.2) * (relaxed ? 0.8 : 1);

// The options of my last deal (suits, solvable only, relaxed), kept in this browser: the
// form opens on them, unless a "play this deal" link says otherwise.
const LAST_OPTIONS = "spider.soloOptions";

function lastOptions() {
  try {
    return JSON.parse(localStorage.getItem(LAST_OPTIONS)) || {};
  } catch {
    return {}; // none yet, or not readable: the defaults
  }
}

export function soloScreen(app, { query = "" }) {
  const el = h("section.screen.narrow.solostart");
  const asked = new URLSearchParams(query);
  const linked = asked.get("number") ?? "";
  const last = linked ? {} : lastOptions();
  const suits = Number(asked.get("suits") ?? last.suits);
  const form = {
    random: !linked,
    number: linked,
    suits: [1, 2, 4].includes(suits) ? suits : 1,
    solvable_only: linked ? asked.get("solvable_only") !== "0" : last.solvable_only !== false,
    relaxed: linked ? asked.get("relaxed") === "1" : last.relaxed === true,
  };
  let current = null;
  let error = "";
  let starting = false;

  async function load() {
    current = await api.currentSolo().catch(() => null); // null: none in progress (200)
    render();
  }

  function render() {
    const factor = optionsFactor(form);
    const seg = (name, value, text, glyph) => h("label", {},
      h("input", { type: "radio", name, value, checked: String(form[name === "deal" ? "random" : name]) === String(value),
        onchange: () => update(name, value) }),
      glyph ? glyphs(glyph) : null, text);
    const numberField = h("input", {
      id: "deal-number", name: "number", type: "text", inputmode: "numeric", autocomplete: "off",
      pattern: "[0-9]*", maxlength: 15, value: form.number, disabled: form.random, "aria-describedby": "number-hint number-error",
      placeholder: t(form.random ? "numberDrawn" : "numberExample"), // not an empty box
      "aria-label": t("dealNumber"), oninput: (e) => { form.number = e.target.value.trim(); sayNumberHint(); },
    });
    const toggle = (name, label, help) => h("div.option",
      h("label.switch.choice", {}, h("input", { type: "checkbox", id: `opt-${name}`, name, checked: form[name],
        "aria-describedby": `${name}-help`, onchange: (e) => update(name, e.target.checked) }),
      h("span.track", { "aria-hidden": "true" }), label),
      h("p.hint", { id: `${name}-help` }, help));
    clear(el,
      h("h1", {}, icon("solo"), " ", t("soloTitle")),
      h("p.lead", {}, t("soloLead")),
      current ? h("section.panel.current", { "aria-labelledby": "cur-h" },
        h("h2", { id: "cur-h" }, t("inProgress")),
        h("div.row", h("span.grow", {}, t("continueDeal", { n: current.number, suits: suitsLabel(current.options.suits) })),
          h("a.button.primary", { href: `#/solo/${current.id}`, id: "continue" }, t("continueGame")))) : null,
      h("form.panel.soloform", { onsubmit: start, novalidate: true },
        h("fieldset", {}, h("legend", {}, t("dealNumber")),
          h("div.seg", seg("deal", true, t("randomDeal")), seg("deal", false, t("dealNumber"))),
          h("div.row.numberrow", numberField),
          h("p.hint", { id: "number-hint" }, numberHint())),
        h("fieldset", {}, h("legend", {}, t("suits")),
          h("div.seg", seg("suits", 1, t("oneSuit"), 1), seg("suits", 2, t("twoSuits"), 2), seg("suits", 4, t("fourSuits"), 4))),
        h("fieldset", {}, h("legend", {}, t("options")),
          toggle("solvable_only", t("solvableOnly"), t("solvableOnlyHelp")),
          toggle("relaxed", t("relaxedRule"), t("relaxedRuleHelp"))),
        h("p.factor", { id: "points-factor", class: factor === 1 ? "" : factor > 1 ? "up" : "down" },
          t("multiplier", { x: factor.toLocaleString(document.documentElement.lang) })),
        h("p.hint", {}, t("pointsHelp")),
        h("p.error", { id: "number-error", role: "alert" }, error),
        current ? h("p.hint", {}, t("abandonsCurrent")) : null,
        h("button.primary.big", { type: "submit", id: "start-solo", disabled: starting }, icon("deal"), t("startSolo")),
        // The start waits for the solver (a solvable 4-suit deal: seconds on a busy server):
        // say so, or the dimmed button looks like nothing happened.
        starting ? h("p.banner.waiting", { id: "dealing" },
          h("span.spinner", { "aria-hidden": "true" }), t(waitsLong() ? "dealingSlow" : "dealing")) : null));
  }

  // A link's number (a duel's deal, up to 2**48 − 1) is past what a player types: the hint
  // says where it came from rather than "1 to 999,999" beside a 14-digit number.
  const numberHint = () => t(!form.random && form.number === linked && Number(linked) > PICK_MAX
    ? "linkedNumberHint" : "dealNumberHint");
  const sayNumberHint = () => { el.querySelector("#number-hint").textContent = numberHint(); };

  // A solvable 4-suit deal is the one the solver may need seconds for (docs/solo-and-daily.md).
  const waitsLong = () => form.suits === 4 && form.solvable_only;

  function update(name, value) {
    if (name === "deal") {
      form.random = value;
      if (!value) queueMicrotask(() => el.querySelector("#deal-number")?.focus());
    } else {
      form[name] = value;
    }
    error = "";
    render();
  }

  async function start(event) {
    event.preventDefault();
    const body = { options: { suits: form.suits, solvable_only: form.solvable_only, relaxed: form.relaxed } };
    if (!form.random) {
      const n = Number(form.number);
      const max = form.number === linked ? LINK_MAX : PICK_MAX; // a link's number as it came
      if (!/^\d+$/.test(form.number) || n < 1 || n > max) {
        error = t("dealNumberHint");
        render();
        return el.querySelector("#deal-number").focus();
      }
      body.number = n;
    }
    // Dealing gives up the game in progress (it earns no points): ask first, as Give up does.
    if (current && !(await confirmBox(t("confirmNewDeal", { n: current.number }),
      { yes: t("dealAnyway"), no: t("keepCurrent"), id: "confirm-newdeal" }))) return;
    localStorage.setItem(LAST_OPTIONS, JSON.stringify(body.options));
    starting = true; // a 4-suit solvable deal may take the solver a few seconds
    render();
    announce(t(waitsLong() ? "dealingSlow" : "dealing"));
    try {
      const answer = await api.startSolo(body);
      app.go(`#/solo/${answer.game.id}`);
    } catch (problem) {
      starting = false;
      error = problemText(problem);
      render();
    }
  }

  render();
  load();
  return { el, render };
}
