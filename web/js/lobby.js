// First visit (choose a name) and the lobby: open tables, new game, invites, friends.
import { h, clear, announce } from "./dom.js";
import { t, lang, levelName, difficultyLabel, problemText } from "./i18n.js";
import { api } from "./api.js";
import { faceHtml, icon, loadSprite } from "./face.js";
import { tableSummary, hostName, hostId, glyphs } from "./summary.js";

export function nameScreen(app, { then, inviteCode }) {
  const el = h("section.screen.narrow.welcome");
  let error = "";
  let typed = ""; // kept across a redraw, so a refused name can be corrected, not retyped
  let invite = null; // a link's landing: who invites to what, before the name is chosen
  // The form is drawn once the invitation's line is known: drawn before, it jumped down
  // when the line came (a banner is taller than the tagline), and a quick tap on Play
  // landed beside the moved button and was lost.
  let waiting = Boolean(inviteCode);
  loadSprite();
  const lead = () => (invite ? h("p.banner.invite-from", { id: "invite-from" }, closed(invite) ? closedText(invite) : inviteText(invite))
    : h("p.lead", {}, t("tagline")));
  if (inviteCode) {
    api.invite(inviteCode).then((info) => { invite = info; }, () => null)
      .finally(() => { waiting = false; render(); });
  }
  function render() {
    const input = h("input", {
      id: "name", name: "name", required: true, minlength: 3, maxlength: 20,
      pattern: "[A-Za-z][A-Za-z0-9_\\-]{2,19}", autocomplete: "nickname", "aria-describedby": "name-hint name-error",
      "aria-invalid": error ? "true" : "false", value: typed,
    });
    const fan = h("div.fan", { "aria-hidden": "true" }, ["Ks", "Qh", "As"].map((name) => {
      const card = h("div.card", { class: name[1] === "h" ? "red" : "black" });
      card.innerHTML = faceHtml(name);
      return card;
    }));
    if (waiting) return clear(el, fan, h("h1", {}, t("app")));
    clear(el,
      fan,
      h("h1", {}, t("app")),
      lead(),
      // novalidate: the browser's own bubble would speak its language, not the page's
      // ("Please match the requested format." on a German screen); submit says it instead.
      h("form.panel", { onsubmit: submit, novalidate: true },
        h("label", { for: "name" }, t("chooseName")), input,
        h("p.hint", { id: "name-hint" }, t("nameHint")),
        h("p.error", { id: "name-error", role: "alert" }, error),
        h("button.primary.big", { type: "submit" }, t("play"))));
    queueMicrotask(() => input.focus());
  }
  async function submit(event) {
    event.preventDefault();
    const name = new FormData(event.target).get("name").trim();
    typed = name;
    if (!event.target.elements.name.checkValidity()) {
      error = problemText({ code: "bad_name" });
      return render();
    }
    try {
      await app.signIn(await api.register(name));
      // The landing said who invites to what: with the name chosen, straight to the table
      // (refused, e.g. already answered: the lobby's invite panel says why).
      const seat = inviteCode && await api.accept(inviteCode).catch(() => null);
      if (seat) app.go(`#/table/${seat.id}`);
      else then();
    } catch (problem) {
      // The name field's own rule says more than a generic "not valid".
      error = problemText(problem.code === "validation_error" ? { code: "bad_name" } : problem);
      render();
    }
  }
  render();
  return { el, render };
}

const LEVELS = ["any", "beginner", "intermediate", "advanced", "expert"];
// The deal's difficulty (docs/solo-and-daily.md section 8): "any" deals at random.
const DIFFICULTIES = ["any", "easy", "medium", "hard"];
const TIMES = [300, 600, 900, 1200, 1800];

// The lobby's state is one object, `st`, that the functions below share (the screen's
// closure would otherwise be one 300-line function): what the REST calls brought, what
// the player typed or chose, and the screen's element.
export function lobbyScreen(app, { inviteCode }) {
  const st = {
    app, inviteCode, el: h("section.screen.lobby"),
    tables: [], invites: [], friends: [], mine: [],
    matches: new Map(), // match id → GET /matches/{id}, for My tables
    says: null, // mytables.js: My tables' words, loaded with the first table of mine
    found: null, // players found by name: null before a search
    foundFor: "", // the name start they were found for
    searches: 0, // the newest search wins over answers still on their way
    asked: new Set(), // ids of players I asked to be friends from here
    seatNews: null, // a table of mine someone just sat down at
    requests: null, // social.js: friend requests waiting (friends are mutual)
    inviteInfo: null,
    filters: { suits: "", level: "", min_time_limit: "", max_time_limit: "" },
    message: "",
    // Quick duel (quick.js, on demand): its button and how many are looking; kept across redraws.
    quick: h("div.quick"),
    quickStop: null,
    loads: 0,
  };
  st.render = () => render(st);
  st.load = () => load(st);
  import("./quick.js").then((m) => { st.quickStop = m.quickDuel(app, st.quick); }).catch(console.error);
  const stop = app.listen((m) => lobbyNews(st, m));
  app.socket?.send({ type: "subscribe_lobby" }, "lobby");
  st.render();
  st.load();
  return {
    el: st.el, render: st.render,
    destroy() { stop(); st.quickStop?.(); app.socket?.forget("lobby"); app.socket?.send({ type: "unsubscribe_lobby" }); },
  };
}

async function load(st) {
  const { app, inviteCode } = st;
  const turn = ++st.loads; // only the newest answer counts when filters change quickly
  const results = await Promise.allSettled([
    api.tables(st.filters), api.invites(), api.friends(),
    inviteCode ? api.invite(inviteCode) : Promise.resolve(null), api.myTables(),
  ]);
  if (turn !== st.loads) return;
  const [a, b, c, d, e] = results.map((r) => (r.status === "fulfilled" ? r.value : null));
  st.tables = items(a);
  st.invites = items(b);
  st.friends = items(c);
  st.inviteInfo = d;
  st.mine = items(e);
  const failed = results.find((r) => r.status === "rejected");
  if (failed && inviteCode && results[3].status === "rejected") st.message = problemText(failed.reason);
  app.socket?.send({ type: "watch_presence", player_ids: st.friends.map((f) => f.id) }, "presence");
  st.requests?.friendsAre(st.friends); // a request row goes in the frame its friend row comes
  st.render();
  import("./social.js").then((s) => { if (!st.requests) { st.requests = s.friendRequests(app, st.load); st.render(); } st.requests.refresh(st.friends); });
  // Who finished, who won: in the match, not the table (a finished match is kept).
  if (!st.mine.length) return;
  const open = st.mine.filter((m) => m.match_id && st.matches.get(m.match_id)?.status !== "finished");
  [st.says] = await Promise.all([import("./mytables.js").catch(() => null),
    ...open.map((m) => api.match(m.match_id).then((x) => st.matches.set(m.match_id, x), () => null))]);
  if (turn === st.loads) st.render();
}

function lobbyNews(st, m) {
  const { app } = st;
  if (m.type === "lobby" && m.change === "seat_taken" && m.table?.owner_id === app.me?.id
      && (m.table.seats || []).length > 1) {
    st.seatNews = m.table; // someone sat down at my table: say so, with the way there
    announce(t("satDown", { name: (m.table.seats.find((s) => s.player_id !== app.me.id) || {}).name ?? "" }));
  }
  // A match of mine settled (its result comes to every connection of mine): My tables
  // says how it ended without a reload.
  if (m.type === "lobby" || m.type === "invite" || m.type === "match_result") st.load();
  // News of a friend (a request answered): a friend error said before is old now.
  if (m.type === "friend" && st.message) { st.message = ""; st.render(); }
  if (m.type === "presence") {
    const friend = st.friends.find((f) => f.id === m.player_id);
    if (friend) { friend.online = m.online; st.render(); }
  }
}

function render(st) {
  clear(st.el,
    head(st),
    st.quick,
    st.message ? h("p.error.panel", { role: "alert" }, st.message) : null,
    st.seatNews ? renderSeatNews(st) : null,
    st.inviteCode ? renderInvite(st) : null,
    st.mine.length ? renderMine(st) : null,
    h("div.columns2",
      h("section.panel.tables", { "aria-labelledby": "tables-h" },
        h("h2", { id: "tables-h" }, t("openTables")), renderFilters(st), renderTables(st)),
      h("div",
        playAlone(),
        h("section.panel", { "aria-labelledby": "invites-h" },
          h("h2", { id: "invites-h" }, t("myInvites")), renderInvites(st)),
        h("section.panel", { "aria-labelledby": "friends-h" },
          h("h2", { id: "friends-h" }, t("friends")), st.requests?.el, renderFriends(st), renderFind(st)))));
}

// The heading and its buttons, the same elements at every redraw (in one language): a
// redraw between a press and its release made them new elements, and the click was lost
// (the lobby's lists arriving just after sign-up; seen twice in CI under load).
function head(st) {
  if (st.head?.lang !== lang()) {
    st.head = { lang: lang(), el: h("div.row.head", {},
      h("h1", {}, t("lobby")),
      h("button.primary", { type: "button", onclick: () => openNewGame(st, true), id: "new-game" }, icon("plus"), t("newGame")),
      h("button", { type: "button", onclick: () => openNewGame(st, false), id: "invite-friend" }, icon("invite"), t("inviteFriend"))) };
  }
  return st.head.el;
}

// My tables: the way back to a game I walked away from (logo, player info, a reload).
function renderMine(st) {
  const { app } = st;
  return h("section.panel.mine", { "aria-labelledby": "mine-h" },
    h("h2", { id: "mine-h" }, t("myTables")),
    h("ul.list", {}, st.mine.map((table) => {
      const other = (table.seats || []).find((s) => s.player_id !== app.me?.id);
      const [state, on] = st.says?.mineState(table, other, st.matches.get(table.match_id), app.me?.id) ?? ["", table.match_status === "playing"];
      if (asksRematch(table, app.me)) return rematchRow(st, table, other);
      // The name shown is the player at the table with me now, not its host.
      return h("li",
        tableSummary(table, other?.name ?? ""),
        h("span.muted.grow", { id: `mine-state-${table.id}` }, state),
        h("button", { type: "button", class: on ? "primary" : "", id: `back-${table.id}`,
          onclick: () => app.go(`#/table/${table.id}`) }, on ? t("backToGame") : t("goToTable")));
    })));
}

// The other player asked for a rematch while I was away from the result: the answers
// here too (Accept: to the table, where the new match starts; Decline: leave it).
function rematchRow(st, table, other) {
  return h("li.rematch", tableSummary(table, other.name),
    h("span.grow", { role: "status" }, t("rematchAsked", { name: other.name })),
    h("span.answers",
      h("button.primary", { type: "button", id: `rematch-accept-${table.id}`, onclick: () => rematch(st, table.id, true) }, t("accept")),
      h("button", { type: "button", id: `rematch-decline-${table.id}`, onclick: () => rematch(st, table.id, false) }, t("decline"))));
}

async function rematch(st, tableId, yes) {
  try {
    await (yes ? api.newGame(tableId) : api.leave(tableId));
  } catch (problem) {
    return showError(st, problem);
  }
  if (yes) st.app.go(`#/table/${tableId}`);
  else st.load();
}

function renderSeatNews(st) {
  const { app, seatNews } = st;
  const other = (seatNews.seats || []).find((s) => s.player_id !== app.me?.id);
  return h("p.banner.seat-news", { role: "status" }, t("satDown", { name: other?.name ?? "" }), " ",
    h("button.primary", { type: "button", id: "seat-news-go", onclick: () => app.go(`#/table/${seatNews.id}`) }, t("goToTable")));
}

function renderInvite(st) {
  const { inviteInfo, inviteCode } = st;
  const from = inviteInfo?.inviter_name ?? "";
  if (inviteInfo && closed(inviteInfo)) {
    return h("section.panel.invite", { "aria-labelledby": "invite-h" },
      h("h2", { id: "invite-h" }, t("invitedBy", { name: from })), h("p", { id: "invite-closed" }, closedText(inviteInfo)));
  }
  return h("section.panel.invite", { "aria-labelledby": "invite-h" },
    h("h2", { id: "invite-h" }, t("invitedBy", { name: from })),
    inviteInfo ? h("p", {}, inviteText(inviteInfo)) : null,
    inviteInfo ? tableSummary(inviteInfo.table || inviteInfo) : null,
    h("div.row",
      h("button.primary", { type: "button", id: "accept-invite", onclick: () => accept(st, inviteCode) }, t("accept")),
      h("button", { type: "button", onclick: () => decline(st, inviteCode) }, t("decline"))));
}

function renderFilters(st) {
  const { filters } = st;
  const select = (name, label, options) => h("label", {}, label,
    h("select", { name, id: `f-${name}`, onchange: (e) => {
      filters[name] = e.target.value;
      if (name === "max_time_limit") filters.min_time_limit = e.target.value;
      st.load();
    } },
      options.map(([value, text]) => h("option", { value, selected: String(filters[name]) === String(value) }, text))));
  return h("form.filters", { "aria-label": t("filters"), onsubmit: (e) => e.preventDefault() },
    select("suits", t("suits"), [["", t("any")], [1, t("oneSuit")], [2, t("twoSuits")], [4, t("fourSuits")]]),
    select("level", t("level"), [["", t("any")], ...LEVELS.slice(1).map((l) => [l, levelName(l)])]),
    select("max_time_limit", t("timeLimit"), [["", t("any")], ...TIMES.map((s) => [s, t("minutes", { n: s / 60 })])]),
    h("button", { type: "button", onclick: st.load, "aria-label": t("refresh"), title: t("refresh") }, icon("refresh")));
}

function renderTables(st) {
  const mine = st.app.me?.id;
  if (!st.tables.length) return h("p.muted", {}, t("noTables"));
  return h("ul.list", {}, st.tables.map((table) => h("li",
    h("span.avatar", { "aria-hidden": "true", "data-initial": hostName(table)[0] || "?" }),
    tableSummary(table),
    h("button.primary", {
      type: "button", id: `join-${table.id}`, onclick: () => join(st, table.id),
      "aria-label": `${t("join")} — ${hostName(table)}`,
    }, hostId(table) === mine ? t("table") : t("join")))));
}

function renderInvites(st) {
  if (!st.invites.length) return h("p.muted", {}, t("noInvites"));
  // Who invites to what ("bob invites you to a duel: 2 suits, 10 min."), the answers
  // side by side under it.
  return h("ul.list.invites", {}, st.invites.map((invite) => h("li",
    h("span.grow", {}, inviteText(invite)),
    h("span.answers",
      h("button.primary", { type: "button", id: `accept-invite-${invite.table_id}`, onclick: () => accept(st, invite.code) }, t("accept")),
      h("button", { type: "button", onclick: () => decline(st, invite.code) }, t("decline"))))));
}

function renderFriends(st) {
  if (!st.friends.length) return h("p.muted", {}, t("noFriends"));
  return h("ul.list", {}, st.friends.map((friend) => h("li",
    h("span", { class: `dot ${friend.online ? "on" : ""}`, "aria-hidden": "true" }),
    h("a.grow", { href: `#/player/${encodeURIComponent(friend.name)}` }, friend.name),
    h("span.muted", {}, friend.online ? t("online") : t("offline")),
    h("button", { type: "button", id: `invite-${friend.id}`, onclick: () => inviteToNewTable(st, friend.name),
      "aria-label": `${t("send")} — ${friend.name}` }, icon("invite"), t("send")))));
}

// Find a player by the start of their name, then add them (or see that they are a friend).
function renderFind(st) {
  const { app, found } = st;
  const input = st.el.querySelector("#find-name") || h("input", {
    id: "find-name", name: "find", autocomplete: "off", maxlength: 20, oninput: () => typed(st, input.value.trim()),
  });
  const typing = document.activeElement === input;
  const friendIds = new Set(st.friends.map((f) => f.id));
  const form = h("form.row.field.find", { role: "search", onsubmit: (e) => { e.preventDefault(); search(st, input.value.trim()); } },
    h("label", { for: "find-name" }, t("findPlayer")), input,
    h("button", { type: "submit", id: "find-go" }, icon("search"), t("findPlayer")));
  if (typing) queueMicrotask(() => input.focus());
  // Never myself (nothing to add): found alone, I got an empty list without a word.
  const others = found?.filter((p) => p.id !== app.me?.id);
  const results = found === null ? null : !others.length ? h("p.muted", { id: "none-found" }, t("noPlayerFound"))
    : h("ul.list.found", {}, others.map((p) => h("li",
      h("a.grow", { href: `#/player/${encodeURIComponent(p.name)}` }, p.name),
      friendIds.has(p.id)
        ? [h("span.badge.friend", { id: `friend-state-${p.id}` }, t("isFriend")),
          h("button", { type: "button", id: `unfriend-${p.id}`, onclick: () => unfriend(st, p.id),
            "aria-label": `${t("remove")} — ${p.name}` }, t("remove"))]
        // Asked already (here or elsewhere): said, not offered again (a second ask fails).
        : st.asked.has(p.id) || st.requests?.askedAlready(p.id)
          ? h("span.badge", { id: `asked-${p.id}` }, t("friendAdded"))
          : h("button.primary", { type: "button", id: `befriend-${p.id}`, onclick: () => befriend(st, p),
            "aria-label": `${t("addFriend")} — ${p.name}` }, icon("plus"), t("addFriend")))));
  return h("div.findbox", form, results);
}

// Found as the name is typed, a moment after the last key: results for a name no longer
// in the box (or an older search's answer coming in late) were shown as if for the new one.
const TYPING_PAUSE_MS = 300;

function typed(st, prefix) {
  clearTimeout(st.typing);
  if (prefix === st.foundFor) return;
  if (st.found !== null) {
    st.found = null; // not for this name any more
    st.foundFor = "";
    st.render();
  }
  // A name has only these (the server's rule); a slip is said on Find, not while typing.
  if (/^[A-Za-z0-9_-]+$/.test(prefix)) st.typing = setTimeout(() => search(st, prefix), TYPING_PAUSE_MS);
}

async function search(st, prefix) {
  clearTimeout(st.typing);
  if (!prefix) return;
  const mine = ++st.searches;
  try {
    const found = items(await api.searchPlayers(prefix));
    if (mine !== st.searches) return;
    [st.found, st.foundFor] = [found, prefix];
  } catch (problem) {
    if (mine !== st.searches) return;
    return showError(st, problem);
  }
  st.render();
}

async function befriend(st, player) {
  st.message = "";
  try {
    await api.addFriend(player.name);
    announce(t("friendAdded"));
  } catch (problem) {
    if (problem.code === "request_pending") st.asked.add(player.id);
    return showError(st, problem);
  }
  st.asked.add(player.id);
  st.load();
}

async function unfriend(st, id) {
  await api.removeFriend(id).catch((problem) => showError(st, problem));
  st.load();
}

// Invite a friend: a private table with the settings chosen, then the invitation.
function inviteToNewTable(st, name) {
  const { app } = st;
  const dialog = newGameDialog(false, async (settings) => {
    const table = await api.createTable(settings);
    await api.inviteFriend(table.id, name);
    app.sent = { tableId: table.id, name }; // the table's waiting screen says it
    app.go(`#/table/${table.id}`);
  }, t("duelWith", { name }), true);
  document.body.append(dialog);
  dialog.showModal();
}

function openNewGame(st, isPublic) {
  const dialog = newGameDialog(isPublic, async (settings) => {
    const table = await api.createTable(settings);
    st.app.go(`#/table/${table.id}`);
  });
  document.body.append(dialog); // outside the screen, which re-renders on lobby news
  dialog.showModal();
}

async function join(st, id) {
  try {
    await api.join(id);
  } catch (problem) {
    if (problem.status !== 409) return showError(st, problem);
  }
  st.app.go(`#/table/${id}`);
}

async function accept(st, code) {
  try {
    const answer = await api.accept(code);
    st.app.go(`#/table/${answer.id}`);
  } catch (problem) {
    showError(st, problem);
    if (problem.status === 409) st.load(); // closed meanwhile: it leaves the list
  }
}

async function decline(st, code) {
  await api.decline(code).catch((problem) => showError(st, problem));
  if (st.inviteCode) st.app.go("#/");
  else st.load();
}

function showError(st, problem) {
  st.message = problemText(problem);
  announce(st.message);
  st.render();
}

// Solo, the daily deal and the leaderboards, one tap from the lobby (also in the header).
function playAlone() {
  const link = (href, name, key, cls = "") => h("a.button", { href, class: cls }, icon(name), t(key));
  return h("section.panel.alone", { "aria-labelledby": "alone-h" },
    h("h2", { id: "alone-h" }, t("navAlone")),
    h("div.row", link("#/solo", "solo", "navSolo", "primary"), link("#/daily", "daily", "navDaily"),
      link("#/leaderboards", "boards", "navBoards")));
}

function items(page) {
  return page?.items ?? [];
}

// At my table, the other player wants a new game and I have not said yes yet.
export const asksRematch = (table, me) => table.match_status !== "playing"
  && (table.seats || []).some((s) => s.player_id !== me?.id && s.wants_new_game)
  && !(table.seats || []).some((s) => s.player_id === me?.id && s.wants_new_game);

// A link already used, cancelled or expired says so before the name is chosen, and the
// lobby offers no Accept that could only be refused.
const closed = (invite) => invite.status && invite.status !== "pending";
const closedText = (invite) => problemText({ code: invite.status === "expired" ? "invite_expired" : "invite_closed" });

// "Alice invites you to a duel: 2 suits, 10 min." (a link's landing page, an invite panel)
function inviteText(invite) {
  const table = invite.game || invite.table || {};
  return t("inviteTo", {
    name: invite.inviter_name,
    suits: [null, t("oneSuit"), t("twoSuits"), null, t("fourSuits")][table.suits] ?? "",
    time: table.time_limit_seconds ? t("minutes", { n: Math.round(table.time_limit_seconds / 60) }) : t("unlimited"),
  });
}

// For a named friend (`title` says "A duel with bob") the table is private and has no
// opponent level: an invitation seats its invitee whatever their level, so the choice
// (and the bands' long explanation) meant nothing there.
function newGameDialog(isPublic, create, title = t("newGame"), forFriend = false) {
  const error = h("p.error", { role: "alert" });
  const choice = (name, value, text, checked, glyph) => h("label", {},
    h("input", { type: "radio", name, value, checked }),
    glyph ? glyphs(glyph) : null, text);
  const form = h("form", { method: "dialog", onsubmit: submit },
    h("h2", { id: "ng-title" }, title),
    h("fieldset", {}, h("legend", {}, t("suits")),
      h("div.seg", choice("suits", "1", t("oneSuit"), true, "♠"), choice("suits", "2", t("twoSuits"), false, "♠♥"),
        choice("suits", "4", t("fourSuits"), false, "♠♥♦♣"))),
    h("label", {}, t("difficulty"), h("select", { name: "difficulty", "aria-describedby": "difficulty-help" },
      DIFFICULTIES.map((d) => h("option", { value: d }, difficultyLabel(d))))),
    h("p.hint", { id: "difficulty-help" }, t("difficultyHelp")),
    h("label", {}, t("timeLimit"), h("select", { name: "time" },
      TIMES.map((s) => h("option", { value: s, selected: s === 600 }, t("minutes", { n: s / 60 }))))),
    forFriend ? null : [h("label", {}, t("level"), h("select", { name: "level", "aria-describedby": "level-help" },
      LEVELS.map((l) => h("option", { value: l }, levelName(l))))),
    h("p.hint", { id: "level-help" }, t("levelHelp")),
    h("fieldset", {}, h("legend", {}, t("visibility")),
      h("div.seg", choice("visibility", "public", t("public"), isPublic), choice("visibility", "private", t("private"), !isPublic)))],
    h("label.switch.choice", {}, h("input", { type: "checkbox", name: "rated", checked: isPublic }),
      h("span.track", { "aria-hidden": "true" }), t("rated")),
    error,
    h("div.row.end",
      h("button", { type: "button", onclick: () => dialog.close() }, t("cancel")),
      h("button.primary", { type: "submit", value: "create" }, t("create"))));
  const dialog = h("dialog", { "aria-labelledby": "ng-title", onclose: () => dialog.remove() }, form);

  async function submit(event) {
    event.preventDefault();
    const data = new FormData(form);
    try {
      await create({
        preset: "duel",
        suits: Number(data.get("suits")),
        time_limit_seconds: Number(data.get("time")),
        level: data.get("level") ?? "any",
        difficulty: data.get("difficulty"),
        public: !forFriend && data.get("visibility") === "public",
        rated: data.get("rated") === "on",
      });
      dialog.close();
    } catch (problem) {
      error.textContent = problemText(problem);
    }
  }
  return dialog;
}
