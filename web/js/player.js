// Player info from any name: duel stats and ratings, solo stats per suit count, the daily
// deal's streak, badges with the date earned (all fifteen, those not earned yet dimmed),
// and whether they are in my friend and ignore lists, with Add friend (a request: friends
// are mutual), Accept / Decline their request, Remove friend, and Ignore / Unignore, at
// the top of the page (none on my own page, nor for a name nobody has).
import { h, clear, announce, copyText } from "./dom.js";
import { t, levelName, problemText, addWords } from "./i18n.js";

import { api, session } from "./api.js";
import { icon } from "./face.js";
import { styled, suitsLabel, glyphs, duration, number, day, medal } from "./extra.js";
import { progressSection, replayScreen, historyStyled } from "./progress.js";
import { requestsApi } from "./social.js";

await Promise.all([styled, historyStyled]);

// This page's own words (loaded with it, not with the first page).
addWords({
  en: {
    removeFriend: "Remove friend", friendRemoved: "Friend removed.", isIgnored: "Ignored",
    unignore: "Unignore", unignored: "No longer ignored.", noSuchPlayer: "There is no player called “{name}”.",
    winsInRow: "{n} wins in a row", winsInRow_one: "1 win", lossesInRow: "{n} losses in a row", lossesInRow_one: "1 loss",
    otherDevice: "On another device", showLink: "Show the link", deviceLink: "Link for another device",
    otherDeviceLead: "Open this link on your phone or another computer to play there as {name}, with your ratings, badges and friends. Keep it to yourself: whoever opens it plays as you.",
  },
  fr: {
    removeFriend: "Retirer des amis", friendRemoved: "Ami retiré.", isIgnored: "Ignoré",
    unignore: "Ne plus ignorer", unignored: "Vous n'ignorez plus ce joueur.", noSuchPlayer: "Aucun joueur ne s'appelle « {name} ».",
    winsInRow: "{n} victoires de suite", winsInRow_one: "1 victoire", lossesInRow: "{n} défaites de suite", lossesInRow_one: "1 défaite",
    otherDevice: "Sur un autre appareil", showLink: "Afficher le lien", deviceLink: "Lien pour un autre appareil",
    otherDeviceLead: "Ouvrez ce lien sur votre téléphone ou un autre ordinateur pour y jouer en tant que {name}, avec vos cotes, badges et amis. Gardez-le pour vous : qui l'ouvre joue à votre place.",
  },
  de: {
    removeFriend: "Freund entfernen", friendRemoved: "Freund entfernt.", isIgnored: "Ignoriert",
    unignore: "Nicht mehr ignorieren", unignored: "Nicht mehr ignoriert.", noSuchPlayer: "Es gibt keinen Spieler namens „{name}“.",
    winsInRow: "{n} Siege in Folge", winsInRow_one: "1 Sieg", lossesInRow: "{n} Niederlagen in Folge", lossesInRow_one: "1 Niederlage",
    otherDevice: "Auf einem anderen Gerät", showLink: "Link anzeigen", deviceLink: "Link für ein anderes Gerät",
    otherDeviceLead: "Öffne diesen Link auf deinem Handy oder einem anderen Computer, um dort als {name} zu spielen, mit deinen Wertungen, Abzeichen und Freunden. Behalte ihn für dich: Wer ihn öffnet, spielt als du.",
  },
});
// Out of the first page (issue 25 needed its bytes): words only this page uses.
addWords({
  en: { losses: "Lost", ignored: "Ignored.", since: "Since", ignore: "Ignore" },
  fr: { losses: "Perdues", ignored: "Ignoré.", since: "Depuis", ignore: "Ignorer" },
  de: { losses: "Verloren", ignored: "Ignoriert.", since: "Seit", ignore: "Ignorieren" },
});

// The duel streak comes signed (wins > 0, losses < 0): said in words, not as "-1".
function streakText(streak) {
  if (!streak) return "—";
  return streak > 0 ? t("winsInRow", { n: streak }) : t("lossesInRow", { n: -streak });
}

// Every item of one of my lists (friends, ignores), page after page.
async function everyone(list) {
  const all = [];
  for (let page = 1; ; page++) {
    const answer = await list(page);
    all.push(...(answer?.items ?? []));
    if (!answer?.items?.length || all.length >= answer.total) return all;
  }
}

// A replay of one of the player's games has an address under their page:
// #/player/NAME/replay/solo/ID (solo and daily games) or …/replay/duel/GAME_ID.
const REPLAY = /^(.+)\/replay\/(solo|duel)\/(\d+)$/;

// The player page's state is one object, `st`, shared by the functions below.
export function playerScreen(app, { name: path }) {
  const replay = path.match(REPLAY);
  if (replay) return replayScreen(app, { name: replay[1], kind: replay[2], gameId: Number(replay[3]) });
  const st = {
    app, name: path, el: h("section.screen.narrow.player-info"),
    info: null,
    earned: [], // the player's badges, earliest first
    table: [], // every badge there is
    message: "",
    // Is this player in my friend list, my ignore list? null while not known (the lists did
    // not load): then both offers are shown, and the server's answer tells.
    friend: null,
    ignoring: null,
    request: null, // a friend request between us: "in" (they asked me), "out" (I asked)
    known: false, // the buttons wait for the lists, so that the first one shown is right
    showKey: false, // my link for another device, shown on request only (it is a key)
    past: null, // the games list, statistics and rating chart (progress.js), once known
  };
  st.render = () => render(st);
  st.render();
  load(st);
  return { el: st.el, render: st.render };
}

async function load(st) {
  const { app, name } = st;
  try {
    st.info = await api.player(name);
  } catch (problem) {
    st.message = problem.code === "player_not_found" ? t("noSuchPlayer", { name }) : problemText(problem);
  }
  const { info } = st;
  if (info) st.past = progressSection({ player: info, self: isSelf(st) });
  st.render();
  if (!info) return;
  // Solo stats and badges come with the solo layer; a server without it shows duels only.
  const badges = Promise.all([api.playerBadges(info.id).catch(() => []), api.badges().catch(() => [])]);
  if (app.me && !isSelf(st)) {
    const [friends, ignores, requests] = await Promise.all([everyone(api.friends).catch(() => null),
      everyone(api.ignores).catch(() => null), requestsApi.list().catch(() => null)]);
    st.friend = friends && friends.some((p) => p.id === info.id);
    st.request = requests?.incoming.some((p) => p.id === info.id) ? "in"
      : requests?.outgoing.some((p) => p.id === info.id) ? "out" : null;
    st.ignoring = ignores && ignores.some((p) => p.id === info.id);
    st.known = true;
    st.render();
  }
  [st.earned, st.table] = await badges;
  st.render();
}

function render(st) {
  const { app, info, name, past } = st;
  const tile = (label, value, wide, id) => h("div", { class: wide ? "wide" : "" }, h("dt", {}, label), h("dd", { id }, value ?? "—"));
  clear(st.el,
    h("div.profile", h("span.avatar", { "aria-hidden": "true", "data-initial": name[0] }), h("h1", {}, name)),
    h("div.row.contact",
      st.known && info && app.me && !isSelf(st) ? [
        // No Add friend for a player I ignore (the server refuses it): unignore first.
        st.ignoring && !st.friend ? null : friendState(st),
        st.ignoring
          ? h("span.row", h("span.badge", { id: "ignore-state" }, icon("block"), t("isIgnored")),
            h("button", { type: "button", id: "unignore", onclick: () => act(st, () => api.unignore(info.id), "unignored", "not_ignored", false, "ignore") }, t("unignore")))
          : h("button", { type: "button", id: "ignore", onclick: () => act(st, () => api.ignore(name), "ignored", "already_ignored", true, "unignore") }, icon("block"), t("ignore"))] : null),
    st.message ? h("p.banner", { role: "status" }, st.message) : null,
    info ? h("h2", {}, t("duels")) : null,
    info ? h("dl.stats.stats-grid", {},
      tile(t("games"), info.games_played),
      tile(t("wins"), info.won),
      tile(t("losses"), info.lost),
      tile(t("streak"), streakText(info.streak), false, "duel-streak"),
      tile(t("since"), info.since ? new Date(info.since).toLocaleDateString(document.documentElement.lang, { dateStyle: "medium" }) : null, true),
      (info.ratings || []).map((r) => tile(`${t("rating")} (${suitsLabel(r.suits)})`,
        `${Math.round(r.rating)} · ${levelName(r.band)}`, true))) : null,
    info?.solo ? soloStats(info.solo) : null,
    info?.daily ? h("section", { "aria-labelledby": "daily-h" }, h("h2", { id: "daily-h" }, t("daily")),
      h("dl.stats.stats-grid", { id: "daily-stats" },
        tile(t("played"), info.daily.played), tile(t("wonCount"), info.daily.won),
        tile(t("streakNow"), t("days", { n: info.daily.current_streak })),
        tile(t("streakBest"), t("days", { n: info.daily.best_streak })),
        tile(t("lastWon"), day(info.daily.last_won), true))) : null,
    past ? (past.render(), past.el) : null,
    info && (st.earned.length || st.table.length) ? badgeList(st) : null,
    info && isSelf(st) ? deviceLink(st) : null,
    h("div.row", h("a.button", { href: "#/" }, icon("back"), t("back"))));
}

// Friends are mutual: Add friend asks; their request waits for my Accept / Decline; mine
// can be withdrawn. Each press shows the new state and focuses what undoes it.
function friendState(st) {
  const { info } = st;
  const button = (id, text, call, primary) => h(primary ? "button.primary" : "button", { type: "button", id, onclick: call }, text);
  if (st.friend) {
    return h("span.row", h("span.badge.friend", { id: "friend-state" }, t("isFriend")), // kept together when the row wraps
      button("remove-friend", t("removeFriend"), () => change(st, () => api.removeFriend(info.id), t("friendRemoved"), { friend: false }, "add-friend")));
  }
  if (st.request === "in") {
    return h("span.row", h("span", { id: "friend-state" }, t("sxRequestFrom", { name: info.name })),
      button("accept-friend", t("accept"), () => change(st, () => requestsApi.accept(info.id), t("sxNowFriends", { name: info.name }), { friend: true }, "remove-friend"), true),
      button("decline-friend", t("decline"), () => change(st, () => requestsApi.decline(info.id), t("sxDeclined"), {}, "add-friend")));
  }
  if (st.request === "out") {
    return h("span.row", h("span.badge", { id: "friend-state" }, t("sxRequestSent")),
      button("withdraw-friend", t("sxCancelRequest"), () => change(st, () => requestsApi.withdraw(info.id), "", {}, "add-friend")));
  }
  return h("button.primary", { type: "button", id: "add-friend", onclick: () => ask(st) }, icon("friend"), t("sxAddFriend"));
}

async function ask(st) {
  let outcome;
  try {
    outcome = await requestsApi.ask(st.name);
  } catch (problem) {
    // An answer that says it was so already still tells the state.
    if (problem.code === "already_friend") st.friend = true;
    if (problem.code === "request_pending") st.request = "out";
    st.message = problemText(problem);
    announce(st.message);
    return st.render();
  }
  st.friend = outcome.status === "friends"; // they had asked me: friends at once
  st.request = st.friend ? null : "out";
  st.message = st.friend ? t("sxNowFriends", { name: st.info.name }) : t("sxRequestTo", { name: st.info.name });
  announce(st.message);
  st.render();
  st.el.querySelector(st.friend ? "#remove-friend" : "#withdraw-friend")?.focus();
}

// A friend-state change: the new state shown (request cleared unless set again), the
// message said, the focus on what undoes it; a refusal says why and changes nothing.
async function change(st, call, done, next, focus) {
  try {
    await call();
  } catch (problem) {
    st.message = problemText(problem);
    announce(st.message);
    return st.render();
  }
  st.request = null;
  if ("friend" in next) st.friend = next.friend;
  st.message = done;
  if (done) announce(done);
  st.render();
  st.el.querySelector(`#${focus}`)?.focus();
}

const isSelf = ({ app, info, name }) => app.me && (info ? info.id === app.me.id : app.me.name?.toLowerCase() === name.toLowerCase());

// My account on another device (a name cannot be taken twice): a link carrying my token
// after the "#", which the browser never sends, so no server log sees it.
function deviceLink(st) {
  const link = `${location.origin}/#/key/${session.token}`;
  const copy = async () => announce((await copyText(link)) ? t("copied") : "");
  return h("section", { "aria-labelledby": "device-h" },
    h("h2", { id: "device-h" }, t("otherDevice")),
    h("p", {}, t("otherDeviceLead", { name: st.info.name })),
    st.showKey
      ? h("div.row.field", h("input", { id: "device-link", readonly: true, value: link, "aria-label": t("deviceLink") }),
        h("button", { type: "button", id: "copy-device-link", onclick: copy }, icon("copy"), t("copy")))
      : h("button", { type: "button", id: "show-device-link", onclick: () => { st.showKey = true; st.render(); } }, t("showLink")));
}

function badgeList({ earned, table }) {
  const held = new Map(earned.map((b) => [b.code, b]));
  const rest = table.filter((b) => !held.has(b.code));
  return h("section", { "aria-labelledby": "badges-h" },
    h("h2", { id: "badges-h" }, `${t("badgesTitle")} (${earned.length}/${table.length || earned.length})`),
    earned.length ? null : h("p.muted.nobadge", {}, t("noBadges")),
    h("div.medals", { id: "badges" }, earned.map((b) => medal(b)), rest.map((b) => medal(b, { earned: false }))));
}

// Add or remove, in either list: the page then shows the new state, and the button that
// undoes it takes the focus. An answer that says it was so already ("already_friend")
// still tells the state.
async function act(st, call, done, already, now, next) {
  let changed = true;
  try {
    await call();
    st.message = t(done);
  } catch (problem) {
    st.message = problemText(problem);
    changed = problem.code === already;
  }
  if (changed) st.ignoring = now;
  if (changed && now) st.request = null; // an ignore ends the requests between us
  announce(st.message);
  st.render();
  if (changed) st.el.querySelector(`#${next}`)?.focus();
}

// Solo games per suit count: games, wins, best time, best points, points (all time, week).
function soloStats(rows) {
  const heads = [t("suits"), t("games"), t("wins"), t("bestTime"), t("bestPoints"), t("points"), t("pointsWeek")];
  return h("section", { "aria-labelledby": "solo-h" }, h("h2", { id: "solo-h" }, t("solo")),
    h("div.tablewrap", { tabindex: 0, role: "region", "aria-labelledby": "solo-h" }, h("table.scoresheet.solostats", { id: "solo-stats" },
      h("thead", {}, h("tr", {}, heads.map((text) => h("th", { scope: "col" }, text)))),
      h("tbody", {}, rows.map((r) => h("tr", {},
        h("th", { scope: "row" }, glyphs(r.suits), h("span.suitname", {}, " ", suitsLabel(r.suits))),
        h("td", {}, r.games), h("td", {}, r.wins), h("td", {}, duration(r.best_time_ms)),
        h("td", {}, number(r.best_points)), h("td", {}, number(r.points)), h("td", {}, number(r.points_week))))))),
    // Beside "Statistics", which counts solo and daily apart: say what these count.
    h("p.muted", { id: "solo-counted" }, t("soloCounted")));
}
