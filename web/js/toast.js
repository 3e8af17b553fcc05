// A badge earned, announced live wherever the player is (the `badge` frame): a toast at the
// top of the page for a few seconds, and the same words for screen readers.
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
  const toast = h("div.toast", { title: badgeWords(badge).description },
    h("p.toasttitle", {}, t("badgeNew")), medal(badge));
  stack.append(toast);
  announce(t("badgeEarned", { title: badgeWords(badge).title }));
  setTimeout(() => toast.remove(), SHOW_MS);
}
