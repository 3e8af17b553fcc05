// The REST API (docs/api.md): every path the client calls is in this module.
const BASE = "/api";
const TOKEN = "spider.token";

export class ApiError extends Error {
  constructor(problem, status) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code;
  }
}

export const session = {
  get token() { return localStorage.getItem(TOKEN); },
  set token(value) {
    if (value) localStorage.setItem(TOKEN, value);
    else localStorage.removeItem(TOKEN);
  },
  me: null,
};

export async function call(method, path, body, query) {
  const url = new URL(BASE + path, location.origin);
  for (const [key, value] of Object.entries(query || {})) {
    if (value !== "" && value !== null && value !== undefined) url.searchParams.set(key, value);
  }
  const headers = { Accept: "application/json" };
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = response.status === 204 ? null : await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(data || {}, response.status);
  return data;
}

const enc = encodeURIComponent;

export const api = {
  register: (name) => call("POST", "/players", { name }),
  me: () => call("GET", "/players/me"),
  player: (name) => call("GET", `/players/by-name/${enc(name)}`),
  tables: (filters) => call("GET", "/tables", undefined, filters),
  table: (id) => call("GET", `/tables/${id}`),
  createTable: (settings) => call("POST", "/tables", settings),
  join: (id) => call("POST", `/tables/${id}/join`),
  leave: (id) => call("POST", `/tables/${id}/leave`),
  newGame: (id) => call("POST", `/tables/${id}/new-game`),
  inviteLink: (id) => call("POST", `/tables/${id}/invites`, {}),
  inviteFriend: (id, name) => call("POST", `/tables/${id}/invites`, { to: name }),
  // Lists come in pages (docs/api.md): the lobby asks for the largest one.
  invites: () => call("GET", "/me/invites", undefined, { page_size: 100 }),
  invite: (code) => call("GET", `/invites/${enc(code)}`),
  accept: (code) => call("POST", `/invites/${enc(code)}/accept`),
  decline: (code) => call("POST", `/invites/${enc(code)}/decline`),
  myTables: () => call("GET", "/tables/mine", undefined, { page_size: 100 }),
  searchPlayers: (prefix) => call("GET", "/players", undefined, { search: prefix, page_size: 8 }),
  removeFriend: (id) => call("DELETE", `/me/friends/${id}`),
  friends: (page) => call("GET", "/me/friends", undefined, { page_size: 100, page }),
  addFriend: (name) => call("POST", "/me/friend-requests", { name }), // a request (issue 25)
  ignores: (page) => call("GET", "/me/ignores", undefined, { page_size: 100, page }),
  ignore: (name) => call("POST", "/me/ignores", { name }),
  unignore: (id) => call("DELETE", `/me/ignores/${id}`),
  match: (id) => call("GET", `/matches/${id}`),
  // Solo games, the daily deal, leaderboards and badges (docs/solo-and-daily.md, section 4).
  startSolo: (body) => call("POST", "/solo/games", body),
  currentSolo: () => call("GET", "/solo/games/current"),
  soloGame: (id) => call("GET", `/solo/games/${id}`),
  abandonSolo: (id) => call("POST", `/solo/games/${id}/abandon`),
  playerSoloGames: (id, query) => call("GET", `/players/${id}/solo/games`, undefined, query),
  daily: () => call("GET", "/daily"),
  startDaily: () => call("POST", "/daily/start"),
  dailyDuel: () => call("POST", "/daily/duel"),
  dailyBoard: (day, query) => call("GET", `/daily/${enc(day)}/board`, undefined, query),
  soloBoard: (query) => call("GET", "/leaderboards/solo", undefined, query),
  streakBoard: (query) => call("GET", "/leaderboards/daily-streaks", undefined, query),
  ratingBoard: (query) => call("GET", "/leaderboard", undefined, query),
  badges: () => call("GET", "/badges"),
  playerBadges: (id) => call("GET", `/players/${id}/badges`),
};
