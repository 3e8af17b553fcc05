// French, German and English. The language comes from the browser unless the player
// picked one; `t` formats a message with {named} parameters. English here; French and
// German in i18n-fr.js and i18n-de.js, loaded on demand.
const EN = {
  // Flows around a duel (issue 12): rematch, my tables, friends by name, invite landing, no-show.
  rematchAsked: "{name} asks for a rematch.", rematchWaiting: "You asked {name} for a rematch; waiting for an answer…", rematchDeclined: "{name} declined the rematch and left the table.", opponentLeft: "{name} left the table.", backToLobby: "Back to the lobby", myTables: "My tables", backToGame: "Back to my game", myGame: "My game", rematchShort: "Rematch?", allRunsDone: "All 8 runs done: your game is won!", satDown: "{name} sat down at your table.", goToTable: "Go to the table", findPlayer: "Find a player", isFriend: "Friends ✓", remove: "Remove", noPlayerFound: "Nobody by that name.", inviteTo: "{name} invites you to a duel: {suits}, {time}.", notStartedUntil: "{name} has not started yet; has until {time}.", did_not_start: "did not start", levelHelp: "Levels are rating bands for the table's suit count: beginner under 1350, intermediate 1350–1649, advanced 1650–1949, expert 1950 and up. New players start at 1500 (intermediate). “Any” opens the table to every level.",
  navSolo: "Solo", navDaily: "Daily deal", navBoards: "Leaderboards", navMain: "Main menu", navAlone: "Play alone",
  tagline: "Spider Solitaire, head to head on the same deal",
  tapToTurn: "Tap to turn it up", keepPlaying: "Keep playing", keySpaceName: "Space", keyUndoName: "Ctrl Z", undoShort: "Undo", notStarted: "not started yet",
  app: "Spider Duel", language: "Language", skip: "Skip to content",
  reconnecting: "Connection lost — reconnecting…",
  chooseName: "Choose your name", nameHint: "3 to 20 letters, digits, - or _; a letter first",
  play: "Play", lobby: "Lobby", openTables: "Open tables", noTables: "No open table matches.",
  filters: "Filters", suits: "Suits", any: "Any", level: "Opponent level",
  timeLimit: "Time limit", minutes: "{n} min", unlimited: "No limit", refresh: "Refresh",
  newGame: "New game", create: "Create", cancel: "Cancel", close: "Close",
  public: "Public", private: "Private", visibility: "Visibility", rated: "Rated",
  difficulty: "Difficulty", difficulties: { any: "Any deal", easy: "Easy", medium: "Medium", hard: "Hard" }, difficultyHelp: "Rated by the solver's effort; every easy, medium or hard deal is solvable.", oneSuit: "1 suit", twoSuits: "2 suits", fourSuits: "4 suits",
  join: "Join", myInvites: "My invites", noInvites: "No invitation.",
  accept: "Accept", decline: "Decline", invitedBy: "{name} invites you",
  friends: "Friends", noFriends: "No friend yet.", online: "online", offline: "offline",
  inviteFriend: "Invite a friend", copyLink: "Copy link", copy: "Copy", copied: "Copied.",
  inviteLink: "Invitation link", send: "Invite", waiting: "Waiting for an opponent…", friendName: "Friend's name", inviteSentTo: "Invitation sent to {name}.", inviteDeclined: "{name} declined your invitation.", duelWith: "A duel with {name}", levels: { any: "Any", beginner: "Beginner", intermediate: "Intermediate", advanced: "Advanced", expert: "Expert" },
  seatFree: "You are not at this table; a seat is free ({names} is there).", outsiderPlaying: "You are not at this table: {names} are playing. Their games can be watched once both are over, from their player pages.", notSeatedHere: "You are not at this table.", start: "Start my game", readyText: "{name} is at the table. Your clock starts when you open your game.", startBefore: "Open it before {time}, or it is lost as “did not start”.", startedTooLate: "You did not start in time: your game is lost.", watchName: "Watch {name}",
  table: "Table", you: "You", opponent: "Opponent", score: "Score", clock: "Time left",
  time: "Time", runs: "Runs", actions: "Actions", finished: "finished", playing: "playing",
  deal: "Deal", undo: "Undo", finish: "Finish", help: "Help",
  confirmFinish: "End your game now? Your score stands.",
  stock: "Stock, {n} deals left", stock_one: "Stock, {n} deal left", stockEmpty: "Stock empty", removedRuns: "Completed runs",
  column: "column {n}", emptyColumn: "empty column {n}",
  faceDownTop: "face-down card, column {n}, press F or Enter to flip",
  cardIn: "{card}, column {n}", picked: "Picked {card} and {count} card(s). Choose a column.",
  pickedOne: "Picked {card}. Choose a column.", dropCancelled: "Cancelled.",
  moved: "{card} to column {n}.", dealt: "Dealt a row.", flipped: "Turned up {card} in column {n}.",
  undone: "Undone.", runDone: "A run of {suit} is complete.", board: "Your board",
  opponentBoard: "{name}'s board", spectating: "Watching {name}", readOnly: "read-only",
  youFinished: "Your game is over. Waiting for {name}…", watch: "Watch",
  winner: "Winner: {name}", draw: "Draw",
  won: "won", finished_early: "finished early", timed_out: "timed out",
  leave: "Leave", replay: "Watch replay",
  addFriend: "Add friend",
  friendAdded: "Friend request sent.",
  keySpace: "Space: deal",
  hint: "Hint", hintSays: "Hint: {what}", hintMove: "move the {card} to column {n}", hintMoveRun: "move {count} cards, {card} down to {last}, to column {n}", hintFlip: "turn up the card in column {n}", hintDeal: "deal a row", hintUndo: "undo", hintNone: "none",
  rejected: "Not allowed: {reason}", error: "Something went wrong: {detail}",
  lang_en: "English", lang_fr: "Français", lang_de: "Deutsch",
  errors: {
    offline: "not connected: this move was not sent; play it again once the connection is back",
    no_such_player: "there is no such player", not_your_game: "that game is another player's",
    no_such_game: "there is no such game", game_in_progress: "that game is still being played",
    daily_already_played: "you have already played today's deal; come back tomorrow",
    daily_deal_today: "that is today's daily deal: play it on the Daily screen (as a solo game from tomorrow)",
    daily_duel_played: "you have played today's daily duel already; come back tomorrow", daily_duel_once: "a daily duel is a single match",
    daily_not_finished: "finish today's deal to see the others' times",
    no_such_day: "that day has not come yet", auto_complete_unavailable: "the game cannot be completed automatically yet",
    record_too_large: "that record is too large", bad_record: "that is not a valid game record",
    same_column: "that is the same column", bad_column: "no such column", bad_count: "not that many cards",
    not_movable: "these cards are not a run of one suit",
    bad_target: "a card goes only onto a card one rank higher", pointless: "that changes nothing",
    stock_empty: "the stock is empty", empty_column: "fill the empty columns before dealing",
    nothing_to_flip: "there is no face-down card to turn up", nothing_to_undo: "there is nothing to undo",
    undo_barrier: "a deal, a flip or an uncovered card cannot be undone", game_over: "the game is over",
    illegal: "that move is not allowed", bad_action: "that is not a move",
    stale_seq: "that move came too late; the board is up to date again",
    bad_seq: "that move came out of turn; the board is up to date again",
    seq_taken: "your other tab or device played first; the board shows the game as it is now",
    not_stored: "the move could not be saved; play it again", not_opened: "open your game first",
    no_such_match: "there is no such game", not_seated: "you are not playing at this table",
    spectate_refused: "you can watch once your own game is over",
    replay_not_ready: "the replay is ready once both games are over",
    room_error: "the table could not do that just now; try again",
    binary_frame: "the connection sent something the server does not understand; reload the page",
    frame_too_large: "that message was too large for the server",
    frame_too_deep: "that message was too complex for the server",
    bad_json: "the connection sent something the server does not understand; reload the page",
    bad_message: "the connection sent something the server does not understand; reload the page",
    hello_first: "the connection started badly; reload the page",
    already_hello: "the connection started twice; reload the page",
    unsupported_version: "this page is out of date; reload it",
    limit_exceeded: "too many requests at once; slow down a little",
    too_many_connections: "too many windows are open for you; close some",
    internal: "the server failed; try again", unavailable: "the server cannot reach its records just now; try again in a moment", not_authenticated: "you are not signed in; choose your name",
    no_token: "you are not signed in; choose your name",
    bad_token: "your session is not valid any more; choose your name again",
    unknown_player: "this player no longer exists; choose your name again",
    bad_request: "the server could not read that request", invalid_input: "that is not a valid value",
    validation_error: "some of that is not valid", forbidden: "you may not do that",
    not_found: "that does not exist (any more)", conflict: "that cannot be done right now",
    rate_limited: "too many attempts; wait a moment and try again",
    method_not_allowed: "the server does not allow that",
    not_acceptable: "the server cannot answer that request", too_large: "that request is too large",
    unsupported_media_type: "the server cannot read that request",
    internal_error: "the server failed; try again", name_taken: "that name is taken; choose another",
    bad_name: "use 3 to 20 letters, digits, - or _, starting with a letter",
    player_not_found: "there is no player with that name", already_friend: "already in your friend list", request_pending: "your request still waits for an answer", no_friend_request: "no such friend request",
    not_friend: "that player is not in your friend list; add them first", self: "that is you",
    ignored: "that player does not accept this from you", ignoring: "you ignore that player", already_ignored: "you already ignore that player",
    not_ignored: "you do not ignore that player", table_full: "both seats at that table are taken",
    table_not_full: "the table waits for a second player", table_expired: "that table has expired",
    table_closed: "that table is closed", table_not_found: "that table does not exist (any more)",
    private_table: "that table is private: you need an invitation",
    level_mismatch: "that table is for players of another level", already_seated: "you already sit at a table",
    match_in_progress: "a game is being played at this table", match_not_found: "there is no such match",
    match_not_over: "the match is not over yet", match_started: "the game has already started",
    game_not_found: "there is no such game", bad_time_limit: "that time limit is not offered",
    bad_suits: "play with 1, 2 or 4 suits", bad_preset: "those rules are not offered",
    bad_level: "there is no such level", bad_layout: "that layout does not fit the rules",
    bad_dates: "those dates are not valid", bad_page: "there is no such page",
    invite_not_found: "that invitation does not exist (any more)",
    invite_expired: "that invitation has expired", invite_closed: "that invitation was already answered",
    not_inviter: "only the player who invited can cancel", not_invitee: "that invitation is for someone else",
  },
  rank: ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"],
  suit: { s: "spades", h: "hearts", d: "diamonds", c: "clubs" },
  card: "{rank} of {suit}",
};



// English is on the first page; French and German load on demand, only where shown
// (i18n-fr.js, i18n-de.js): each is ~4 KB gzipped that an English page does not carry.
// Until a language has loaded, the page stays in the one it had (English at first), so
// every table `t` reads is complete.
const TABLES = { en: EN, fr: {}, de: {} };
const LOADERS = { fr: () => import("./i18n-fr.js"), de: () => import("./i18n-de.js") };
export const LANGUAGES = Object.keys(TABLES);
const KEY = "spider.lang";
const loaded = new Set(["en"]);
let current = "en";
const listeners = new Set();

function pick() {
  const saved = localStorage.getItem(KEY);
  if (saved in TABLES) return saved;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const base = wanted.slice(0, 2).toLowerCase();
    if (base in TABLES) return base;
  }
  return "en";
}

// The words of the first page win over those that screens loaded on demand added
// before (addWords), as they do once loaded.
async function load(code) {
  if (loaded.has(code)) return;
  const { default: words } = await LOADERS[code]();
  TABLES[code] = { ...TABLES[code], ...words };
  loaded.add(code);
}

// At boot, before the first drawing: the saved or the browser's language (English if its
// words cannot be loaded).
export async function startLang() {
  const code = pick();
  try {
    await load(code);
    current = code;
  } catch (error) {
    console.error(error);
  }
  document.documentElement.lang = current;
}

export const lang = () => current;

export async function setLang(code) {
  if (!(code in TABLES) || code === current) return;
  await load(code);
  current = code;
  localStorage.setItem(KEY, code);
  document.documentElement.lang = code;
  listeners.forEach((listener) => listener(code));
}

// Returns the way to stop listening (a part of a screen that outlives no screen).
export function onLangChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Screens loaded on demand bring their own words (solo-words.js), merged in here so the
// first page does not carry them: {en: {...}, fr: {...}, de: {...}}.
// A word of the first page always wins over one of the same name loaded later: the solo
// words once replaced "difficulty" (the New game dialog's label) with their table of
// difficulty names, and the dialog said "[object Object]".
export function addWords(tables) {
  for (const [code, words] of Object.entries(tables)) {
    for (const [key, text] of Object.entries(words)) if (!(key in TABLES[code])) TABLES[code][key] = text;
  }
}

// A count "n" picks the singular form `${key}_one` where the language has one for it
// ("1 day", "0 jour"), by the language's own plural rules.
export function t(key, params = {}) {
  const one = typeof params.n === "number" && new Intl.PluralRules(current).select(params.n) === "one";
  const text = (one && (TABLES[current][`${key}_one`] ?? EN[`${key}_one`])) || (TABLES[current][key] ?? EN[key] ?? key);
  return String(text).replace(/\{(\w+)\}/g, (_, name) => params[name] ?? "");
}

// "seven of hearts", "sept de cœur", "Herz Sieben".
export function cardName(name, { article = false } = {}) {
  const table = TABLES[current];
  const rankIndex = "A23456789TJQK".indexOf(name[0]);
  const named = t("card", { rank: table.rank[rankIndex], suit: table.suit[name[1]] });
  return article && table.article ? table.article[rankIndex] + named : named;
}

export const suitName = (code) => TABLES[current].suit[code];
export const levelName = (code) => TABLES[current].levels[code] ?? code;
export const difficultyLabel = (code) => TABLES[current].difficulties[code] ?? code;
// A server error code in words (rule refusals, the live connection, the REST API: every
// code the server sends has a text in each language); "" for a code not known here.
export const reason = (code) => (code && TABLES[current].errors[code]) || "";

// What to tell the player about a failed request or a refused frame ({code, message}):
// the code's own sentence; only a code this client does not know gets "Something went
// wrong" with the server's (English) detail.
export function problemText(problem) {
  const text = reason(problem?.code);
  if (!text) return t("error", { detail: problem?.message || problem?.code || "" });
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}
// The server's (English) reason for a hint, in the current language: "joins ♥ run".
export function tip(text) {
  const s = text.match(/[♠♥♦♣]/u)?.[0] ?? "";
  return (TABLES[current].tips?.[s ? text.replace(s, "{s}") : text] ?? text).replace("{s}", s);
}
