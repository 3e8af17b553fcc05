// Boot: header, language, help, the socket and a hash router over the screens.
import { h, $, clear } from "./dom.js";
import { t, lang, setLang, startLang, onLangChange, LANGUAGES, problemText } from "./i18n.js";
import { api, session } from "./api.js";
import { createSocket } from "./socket.js";
import { lobbyScreen, nameScreen, asksRematch } from "./lobby.js";
import { icon } from "./face.js";

const main = $("#main");
const listeners = new Set();
let screen = null;
let toasts = Promise.resolve();

// What every screen may use: the player, the socket, navigation, socket messages.
export const app = {
  me: null,
  socket: null,
  go(hash) {
    if (location.hash === hash) route();
    else location.hash = hash;
  },
  listen(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  inviteUrl: (code) => `${location.origin}/#/invite/${code}`,
};

function startSocket() {
  if (app.socket || !session.token) return;
  app.socket = createSocket({
    token: session.token,
    onMessage: (message, meta) => {
      listeners.forEach((listener) => listener(message, meta));
      // A badge earned is announced wherever the player is (its module loads then). One
      // chain: badges earned together toast in the order they came (separate import()s of
      // a module still loading settle in any order).
      if (message.type === "badge") {
        toasts = toasts.then(() => import("./toast.js")).then((m) => m.badgeToast(message.badge)).catch(console.error);
      }
      // Friend news where the lobby's Friends panel (which says it) is not on screen.
      if (message.type === "friend" && !/^#?\/?$/.test(location.hash)) {
        toasts = toasts.then(friendToast(message)).catch(console.error);
      }
      // A change at one of my tables (a match starts or ends there): the header follows.
      const mine = message.table?.seats?.some((seat) => seat.player_id === app.me?.id);
      if ((message.type === "lobby" && mine) || message.type === "match_result") showMyGame();
    },
    onStatus: showStatus,
  });
}

// A friend request for me (Answer: in the lobby), or mine accepted (their page).
const friendToast = (news) => async () => {
  const [{ newsToast }, { friendNewsText }] = await Promise.all([import("./toast.js"), import("./social.js")]);
  const text = friendNewsText(news);
  if (!text) return;
  newsToast(text, news.change === "requested" ? ["#/", t("sxRequests")]
    : [`#/player/${encodeURIComponent(news.name)}`, news.name]);
};

function showStatus(state) {
  if (state === "unauthorized") {
    session.token = null;
    app.me = null;
    app.socket = null;
    return route();
  }
  const el = $("#status");
  document.body.classList.toggle("offline", state === "reconnecting");
  el.hidden = state !== "reconnecting";
  el.textContent = state === "reconnecting" ? t("reconnecting") : "";
}

async function signedIn() {
  if (app.me) return true;
  if (!session.token) return false;
  try {
    app.me = await api.me();
  } catch (error) {
    if (error.status === 401) session.token = null;
    else throw error;
    return false;
  }
  startSocket();
  renderHeader();
  return true;
}

// Called by the name screen once the server gave us a token.
app.signIn = async ({ token, player }) => {
  session.token = token;
  app.me = player;
  startSocket();
  renderHeader();
};

// The duel table (its board, game session and HUD) is on the way to every duel, but not
// the first page: it loads on its route, and in the background as soon as the first
// screen is drawn (boot, below), so opening a table rarely waits for it.
const tableModule = () => import("./table.js");

const ROUTES = [
  [/^#\/table\/(\d+)$/, async (id) => (await tableModule()).tableScreen(app, { tableId: Number(id) })],
  [/^#\/invite\/([\w-]+)$/, (code) => lobbyScreen(app, { inviteCode: code })],
  // Player info is not on the way to a game: its module loads when first needed.
  [/^#\/player\/(.+)$/, async (name) => (await import("./player.js")).playerScreen(app, { name: decodeURIComponent(name) })],
  // Solo, the daily deal and the leaderboards load on demand too (docs/web.md, "Budget").
  // A daily game is played at #/daily/ID (so the header shows Daily), a solo one at #/solo/ID.
  [/^#\/(?:solo|daily)\/(\d+)$/, async (id) => (await import("./soloplay.js")).soloPlayScreen(app, { gameId: Number(id) })],
  [/^#\/solo(?:\?(.*))?$/, async (query) => (await import("./solo.js")).soloScreen(app, { query })],
  [/^#\/daily$/, async () => (await import("./daily.js")).dailyScreen(app)],
  [/^#\/leaderboards(?:\/(\w+))?$/, async (kind) => (await import("./boards.js")).boardsScreen(app, { kind })],
  [/^/, () => lobbyScreen(app, {})],
];

let routing = 0;

async function route() {
  // A link from my other device (my player page): its token becomes this browser's, the
  // address forgets it, and the page starts afresh as that player.
  const key = location.hash.match(/^#\/key\/([\w.-]+)$/)?.[1];
  if (key) {
    session.token = key;
    history.replaceState(null, "", "#/");
    return location.reload();
  }
  const turn = ++routing; // a newer route() wins over one still waiting
  // A dialog belongs to the screen it was opened on (the help stayed over the next one).
  for (const open of document.querySelectorAll("dialog[open]")) open.close();
  screen?.destroy?.();
  screen = null;
  clear(main);
  let known;
  try {
    known = await signedIn();
  } catch (problem) {
    main.append(h("p.error", { role: "alert" }, problemText(problem)));
    return;
  }
  let made;
  if (!known) {
    made = nameScreen(app, { then: route, inviteCode: location.hash.match(/^#\/invite\/([\w-]+)$/)?.[1] });
  } else {
    for (const [pattern, make] of ROUTES) {
      const match = location.hash.match(pattern);
      if (match) { made = await make(...match.slice(1)); break; }
    }
  }
  if (turn !== routing) return made.destroy?.();
  screen = made;
  main.append(screen.el);
  screen.show?.();
  if (known) showMyGame();
}

// The header's way back to a game in progress at one of my tables, from any other screen;
// or, when none is, to a table whose other player asks me for a rematch (its result page
// has Accept / Decline).
let myGame = null;
let asking = null;
let mineOver = false; // my game of that match is over; the other still plays (I watch)
async function showMyGame() {
  const tables = (await api.myTables().catch(() => null))?.items ?? [];
  const playing = tables.filter((table) => table.match_status === "playing");
  const mine = await Promise.all(playing.map((table) => api.match(table.match_id)
    .then((match) => match.games?.find((g) => g.player_id === app.me?.id)).catch(() => null)));
  // The game whose clock runs first, then one still to open, then one I only watch: the
  // link led to a table not started yet while my clock ran at another.
  const order = (game) => (game?.status === "playing" ? (game.started_at ? 0 : 1) : 2);
  const best = playing.map((table, i) => [order(mine[i]), i]).sort((a, b) => a[0] - b[0] || a[1] - b[1])[0];
  myGame = best ? playing[best[1]] : null;
  asking = myGame ? null : tables.find((table) => asksRematch(table, app.me)) ?? null;
  mineOver = ["won", "finished", "timed_out", "did_not_start"].includes(best ? mine[best[1]]?.status : null);
  const target = myGame || asking;
  let link = $("#mygame");
  if (!link) {
    link = h("a.mygame", { id: "mygame" });
    $("#who").before(link);
  }
  const here = target && location.hash === `#/table/${target.id}`;
  link.hidden = !target || here;
  link.href = target ? `#/table/${target.id}` : "#/";
  fillMyGame(link);
}

// The full words on a wide screen, two words on a phone (CSS picks), one name for both.
function fillMyGame(link) {
  const name = asking?.seats.find((s) => s.player_id !== app.me?.id)?.name;
  // Not "Back to my game" once mine is over: the table shows the other's game then.
  const long = asking ? t("rematchAsked", { name }) : t(mineOver ? "goToTable" : "backToGame");
  link.setAttribute("aria-label", long);
  clear(link, h("span.long", { "aria-hidden": "true" }, long),
    h("span.short", { "aria-hidden": "true" }, t(asking ? "rematchShort" : mineOver ? "table" : "myGame")));
}

const NARROW_HEADER = matchMedia("(max-width: 480px)"); // as app.css's narrowest header

function renderHeader() {
  document.documentElement.lang = lang();
  $("#skip").textContent = t("skip");
  $("#lang-label").textContent = t("language");
  $("#help-open").setAttribute("aria-label", t("help"));
  $("#help-open").title = `${t("help")} (H)`;
  const select = $("#lang");
  // A phone's header has room for "EN", not "English" (it showed "Engl", "Deut").
  const short = NARROW_HEADER.matches;
  clear(select, LANGUAGES.map((code) => h("option", { value: code, selected: code === lang(), lang: code },
    short ? code.toUpperCase() : t(`lang_${code}`))));
  renderNav();
  clear($("#who"), app.me ? h("a", { href: `#/player/${encodeURIComponent(app.me.name)}` },
    h("span.avatar", { "aria-hidden": "true", "data-initial": app.me.name[0] }), h("span", {}, app.me.name)) : null);
}

// Solo, Daily and Leaderboards in the header, beside the brand (the lobby is the brand).
const NAV = [["#/solo", "solo", "navSolo"], ["#/daily", "daily", "navDaily"], ["#/leaderboards", "boards", "navBoards"]];

function renderNav() {
  let nav = $("#nav");
  if (!nav) {
    nav = h("nav.nav", { id: "nav" });
    $("#brand").after(nav);
  }
  nav.setAttribute("aria-label", t("navMain"));
  nav.hidden = !app.me;
  const here = location.hash.split(/[/?]/)[1] || "";
  clear(nav, NAV.map(([href, name, key]) => h("a", {
    href, title: t(key), "aria-current": href.slice(2) === here ? "page" : null,
  }, icon(name), h("span.navlabel", {}, t(key)))));
}

// The help and its words load on demand, the first time it opens (help.js).
export const openHelp = () => import("./help.js").then((m) => m.openHelp()).catch(console.error);

function boot() {
  renderHeader();
  $("#lang").addEventListener("change", (event) => setLang(event.target.value).catch((error) => {
    console.error(error); // its words could not be loaded: the page stays as it is
    renderHeader();
  }));
  NARROW_HEADER.addEventListener("change", renderHeader);
  $("#help-open").addEventListener("click", openHelp);
  $("#skip").addEventListener("click", (event) => { event.preventDefault(); main.focus(); });
  document.addEventListener("keydown", (event) => {
    if (event.key.toLowerCase() === "h" && !event.ctrlKey && !event.metaKey && !event.altKey
        && !event.target.closest("input, textarea, select, dialog")) {
      event.preventDefault();
      openHelp();
    }
  });
  onLangChange(() => {
    // What the live region last said is in the old language: a screen reader reading it
    // again ("Winner: alice" on a French page) would mix the two.
    $("#live").textContent = "";
    renderHeader();
    if ($("#mygame")) fillMyGame($("#mygame"));
    if ($("#help").open) openHelp();
    showStatus(document.body.classList.contains("offline") ? "reconnecting" : "online");
    screen?.render?.();
  });
  window.addEventListener("hashchange", route);
  window.addEventListener("hashchange", renderNav);
  route().finally(() => setTimeout(() => tableModule().catch(() => null), 0));
}

startLang().then(boot);
