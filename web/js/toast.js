// A badge earned, announced live wherever the player is (the `badge` frame): a toast for a
// few seconds that a tap sends away, and the same words for screen readers. One toast
// gathers every badge of the moment (a first win is often also quick, lean…): a stack of
// them covered a result's table, and on a phone its buttons, where a tap meant for New
// game or Leave sent a toast away instead. At the top right; on a phone over the app bar
// (extra.css), off the result's heading and winner under it.
import { h, announce } from "./dom.js";
import { t } from "./i18n.js";
import { styled, medal, badgeWords } from "./extra.js";

await styled;

const SHOW_MS = 6000;

// Badges at the top (they come with a result); news at the bottom, off a table's
// buttons, which a toast over them for 6 s would take taps from (on a phone, where
// those buttons are at the bottom, over the app bar: extra.css).
function toastStack(news = false) {
  const kind = news ? "div.toasts.newstoasts" : "div.toasts.badgetoasts";
  let stack = document.querySelector(kind.slice(3));
  if (!stack) {
    stack = h(kind);
    document.body.append(stack);
  }
  return stack;
}

export function badgeToast(badge) {
  const stack = toastStack();
  announce(t("badgeEarned", { title: badgeWords(badge).title }));
  const gathering = stack.querySelector(".badgetoast");
  if (gathering) {
    const medals = gathering.querySelector(".toastmedals");
    medals.append(medal(badge));
    // How many more than the one named: "+2" (no words to translate), after their discs.
    const more = medals.querySelector(".toastmore") ?? h("span.toastmore", { "aria-hidden": "true" });
    more.textContent = `+${medals.querySelectorAll(".medal").length - 1}`;
    medals.append(more);
    gathering.title += ` · ${badgeWords(badge).title}: ${badgeWords(badge).description}`;
    return keep(gathering);
  }
  const toast = h("div.toast.badgetoast", { title: `${badgeWords(badge).title}: ${badgeWords(badge).description}`, onclick: () => toast.remove() },
    h("p.toasttitle", {}, t("badgeNew")), h("div.toastmedals", {}, medal(badge)));
  stack.append(toast);
  keep(toast);
}

// News for me from another screen than the one that answers it (a friend request while I
// play: the lobby's Friends panel answers it, and showed it only once I went back there):
// a toast with the way there (`link`: [href, words]), and the same words for screen readers.
export function newsToast(text, link = null) {
  announce(text);
  const toast = h("div.toast.newstoast", { onclick: () => toast.remove() },
    h("p.toastnews", {}, text), link ? h("a", { href: link[0] }, link[1]) : null);
  toastStack(true).append(toast);
  keep(toast);
}

// Shown SHOW_MS from its newest badge on.
function keep(toast) {
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => toast.remove(), SHOW_MS);
}
