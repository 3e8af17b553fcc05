// A badge earned, announced live wherever the player is (the `badge` frame): a toast for a
// few seconds — at the top right, or on a phone at the bottom, clear of a result's heading
// and winner (extra.css) — that a tap sends away, and the same words for screen readers.
import { h, announce } from "./dom.js";
import { t } from "./i18n.js";
import { styled, medal, badgeWords } from "./extra.js";

await styled;

const SHOW_MS = 6000;

export function badgeToast(badge) {
  let stack = document.querySelector(".toasts");
  if (!stack) {
    stack = h("div.toasts");
    document.body.append(stack);
  }
  // Short: several badges often come at once (a first win is also quick, lean…).
  const toast = h("div.toast", { title: badgeWords(badge).description, onclick: () => toast.remove() },
    h("p.toasttitle", {}, t("badgeNew")), medal(badge));
  stack.append(toast);
  announce(t("badgeEarned", { title: badgeWords(badge).title }));
  setTimeout(() => toast.remove(), SHOW_MS);
}
