// Card faces and backs. The art is one static sprite, /img/cards.svg (written by
// web/art/make_cards.py), fetched once — the HTTP cache keeps it by its ETag — and put in the
// page, so every card can <use> its symbols. Corner indexes are drawn here, not in the art,
// at a size of their own (at least 12 px, see board.js), so they stay legible on a phone.
const SPRITE = "/img/cards.svg";
let loading = null;

export function loadSprite() {
  loading ??= fetch(SPRITE)
    .then((response) => (response.ok ? response.text() : ""))
    .then((text) => {
      const holder = document.createElement("div");
      holder.className = "sprite";
      holder.setAttribute("aria-hidden", "true");
      holder.innerHTML = text;
      document.body.prepend(holder);
    })
    .catch(() => {}); // no art: cards still show their indexes' places, and play goes on
  return loading;
}

const index = (rank, suit, cls) =>
  `<svg class="${cls}" viewBox="0 0 1900 1000" aria-hidden="true"><use href="#r-${rank}" width="1000" height="1000"/>`
  + `<use href="#${suit}" x="950" y="100" width="800" height="800"/></svg>`;

const faces = new Map();

// The inside of a face-up card: index top left, the art, the index turned round bottom
// right. Small cards show one large pip instead of the pip layout (courts keep their picture).
export function faceHtml(name, small = false) {
  const key = small ? `${name}-` : name;
  let html = faces.get(key);
  if (!html) {
    const [rank, suit] = name;
    const art = small && !"JQK".includes(rank) ? suit : name;
    html = index(rank, suit, "ix") + `<svg class="art" aria-hidden="true"><use href="#${art}"/></svg>`
      + index(rank, suit, "ix ix2");
    faces.set(key, html);
  }
  return html;
}

// Small inline icons (24 × 24, stroked in the text colour) for buttons and badges.
const ICONS = {
  deal: '<rect x="3" y="7" width="11" height="14" rx="2"/><path d="M8 3h11a2 2 0 0 1 2 2v12M8.5 11v6M6 14.5 8.5 17l2.5-2.5"/>',
  undo: '<path d="M9 14 4 9l5-5"/><path d="M4 9h10.5a5.5 5.5 0 0 1 0 11H11"/>',
  hint: '<path d="M9 18h6m-5 3h4M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3z"/>',
  finish: '<path d="M5 21V4h11l-2 4 2 4H5"/>',
  leave: '<path d="M14 4h4a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-4M10 17l-5-5 5-5M5 12h11"/>',
  turn: '<path d="M20 12a8 8 0 1 1-2.3-5.6"/><path d="M20 4v5h-5"/>',
  eye: '<path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z"/><circle cx="12" cy="12" r="3"/>',
  plus: '<path d="M12 5v14M5 12h14"/>',
  invite: '<circle cx="9" cy="8" r="4"/><path d="M2 21a7 7 0 0 1 14 0M19 8v6m-3-3h6"/>',
  refresh: '<path d="M20 12a8 8 0 1 1-2.3-5.6"/><path d="M20 4v5h-5"/>',
  trophy: '<path d="M8 21h8m-4-4v4M7 4h10v5a5 5 0 0 1-10 0zM7 6H4a3 3 0 0 0 3 4m10-4h3a3 3 0 0 1-3 4"/>',
  replay: '<path d="M4 12a8 8 0 1 0 2.3-5.6"/><path d="M4 4v5h5M10 9l5 3-5 3z"/>',
  copy: '<rect x="8" y="8" width="12" height="12" rx="2"/><path d="M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2"/>',
  back: '<path d="M15 18l-6-6 6-6"/>',
  friend: '<circle cx="9" cy="8" r="4"/><path d="M2 21a7 7 0 0 1 14 0M16 11l2 2 4-4"/>',
  block: '<circle cx="12" cy="12" r="9"/><path d="m5.6 5.6 12.8 12.8"/>',
  search: '<circle cx="11" cy="11" r="7"/><path d="m20 20-4.5-4.5"/>',
  // solo play, the daily deal, leaderboards, rescue (a lifebuoy), auto-complete (fast forward)
  solo: '<rect x="5" y="3" width="14" height="18" rx="2"/><path d="m12 8 2.5 4-2.5 4-2.5-4z"/>',
  daily: '<rect x="3" y="5" width="18" height="16" rx="2"/><path d="M3 10h18M8 3v4m8-4v4"/>',
  boards: '<path d="M4 21v-8h5v8m0 0V8h6v13m0 0v-6h5v6M3 21h18"/>',
  rescue: '<circle cx="12" cy="12" r="9"/><circle cx="12" cy="12" r="4"/><path d="m5.6 5.6 3.6 3.6m5.6 5.6 3.6 3.6m0-12.8-3.6 3.6m-5.6 5.6-3.6 3.6"/>',
  auto: '<path d="m4 6 7 6-7 6zm9 0 7 6-7 6z"/>',
};

export function icon(name) {
  const span = document.createElement("span");
  span.className = "icon";
  span.setAttribute("aria-hidden", "true");
  span.innerHTML = `<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${ICONS[name]}</svg>`;
  return span;
}
