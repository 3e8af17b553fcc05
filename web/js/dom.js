// A tiny hyperscript helper: h("button.primary", {onclick}, "text", child…).
export function h(tag, props = {}, ...children) {
  if (props instanceof Node || Array.isArray(props) || typeof props !== "object" || props === null) {
    children.unshift(props); // no props given: the second argument is a child
    props = {};
  }
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className += ` ${value}`;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "text") el.textContent = value;
    else setProp(el, key, value);
  }
  append(el, children);
  return el;
}

// Sets `props` on an element drawn before, as h() would on a new one; a prop now null or
// false is taken off. Listeners ("on…") stay those given when the element was made: a
// redraw that patches an element keeps it, so a finger already down on it is not lost.
export function patch(el, props) {
  for (const [key, value] of Object.entries(props)) {
    if (key.startsWith("on")) continue;
    if (key === "class" || key === "dataset" || key === "text") continue; // set once, by h()
    if (value === undefined || value === null || value === false) {
      if (typeof el[key] === "boolean") el[key] = false;
      else el.removeAttribute(key);
    } else setProp(el, key, value);
  }
  return el;
}

// One prop other than a listener, a class, data or text: a property where the element has
// one and the value is not a string (disabled, tabIndex), else an attribute (set only if
// it changes: a patch leaves what is already right alone).
function setProp(el, key, value) {
  if (key in el && typeof value !== "string") el[key] = value;
  else {
    const text = value === true ? "" : String(value);
    if (el.getAttribute(key) !== text) el.setAttribute(key, text);
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

// A redraw keeps keyboard focus on the element with the same id (events redraw screens).
export function clear(el, ...children) {
  const id = el.contains(document.activeElement) && document.activeElement.id;
  el.replaceChildren();
  append(el, children);
  if (id) document.getElementById(id)?.focus({ preventScroll: true });
  return el;
}

// Polite announcements for screen readers (moves, results); one region for the app.
export function announce(text) {
  const region = document.getElementById("live");
  if (!region) return;
  region.textContent = "";
  requestAnimationFrame(() => { region.textContent = text; });
}

// For texts set on a timer (the clocks tick several times per second shown): setting the
// same text again, even unchanged, costs a layout and a paint.
export function showText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

// How long a game took, "3:41" or "1:02:09": whole seconds gone by, cut down (a clock
// that counts down rounds up instead: formatClock). The duel's result and a player's
// pages show the same game's time alike.
export function duration(ms) {
  if (ms === null || ms === undefined) return "—";
  const total = Math.max(0, Math.floor(ms / 1000));
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const two = (n) => String(n).padStart(2, "0");
  return hours ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
}

// A countdown's time left: rounded up, so it shows 0:00 only once the time is out.
export function formatClock(ms) {
  if (ms === null || ms === undefined) return "—";
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const s = String(total % 60).padStart(2, "0");
  return `${m}:${s}`;
}

// "14:35": a moment (ISO 8601) as the player's own clock shows it.
// A moment (ISO text or ms) as hours and minutes, from its nearest whole second: the
// server says a start deadline to the millisecond over REST and to the second in frames,
// and 06:53:59.7 and 06:54:00 were shown to the two players as 06:53 and 06:54.
export function clockTime(iso) {
  const at = Math.round((typeof iso === "number" ? iso : Date.parse(iso)) / 1000) * 1000;
  return new Date(at).toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

// A yes/no question in the page's own dialog (not the browser's confirm()); resolves to
// true for yes. Escape or "no" answer false.
export function confirmBox(text, { yes, no, id }) {
  return new Promise((resolve) => {
    const answer = (value) => { dialog.close(value ? "yes" : "no"); };
    const dialog = h("dialog.confirm", { id, "aria-labelledby": `${id}-text` },
      h("p", { id: `${id}-text` }, text),
      h("div.row.end",
        h("button", { type: "button", id: `${id}-no`, onclick: () => answer(false) }, no),
        h("button.primary", { type: "button", id: `${id}-yes`, onclick: () => answer(true) }, yes)));
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "yes");
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
