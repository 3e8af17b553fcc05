// The lobby's My tables: what each line says of the table and of my game there, from
// GET /api/tables/mine and the table's latest match (GET /api/matches/{id}). Loaded on
// demand by lobby.js once I sit at a table, with its words, so the first page does not
// carry them (docs/web.md, "Budget").
import { t, addWords } from "./i18n.js";
import { clockTime } from "./dom.js";

addWords({
  en: {
    mtUnknown: "Match not over yet", mtNew: "Your game has not started yet",
    mtBy: "Your game has not started yet: start it before {time}", mtOn: "You are playing",
    mtDone: "Your game is over; {name} is still playing", mtDoneWait: "Your game is over; {name} has not started yet",
    mtOver: "Match over", mtWon: "Match over: you won", mtLost: "Match over: you lost", mtDraw: "Match over: a draw",
    mtLeft: "{name} left the table",
    mtLater: "Your game is over; your opponent will play this deal later", mtAlone: "Match over: nobody was paired with you in time",
  },
  fr: {
    mtUnknown: "Match pas encore terminé", mtNew: "Votre partie n'a pas encore commencé",
    mtBy: "Votre partie n'a pas encore commencé : commencez-la avant {time}", mtOn: "Vous jouez",
    mtDone: "Votre partie est finie ; {name} joue encore", mtDoneWait: "Votre partie est finie ; {name} n'a pas encore commencé",
    mtOver: "Match terminé", mtWon: "Match terminé : vous avez gagné", mtLost: "Match terminé : vous avez perdu",
    mtDraw: "Match terminé : égalité", mtLeft: "{name} a quitté la table",
    mtLater: "Votre partie est finie ; votre adversaire jouera cette donne plus tard", mtAlone: "Match terminé : personne ne vous a été associé à temps",
  },
  de: {
    mtUnknown: "Match noch nicht vorbei", mtNew: "Dein Spiel hat noch nicht begonnen",
    mtBy: "Dein Spiel hat noch nicht begonnen: starte es vor {time}", mtOn: "Du spielst",
    mtDone: "Dein Spiel ist vorbei; {name} spielt noch", mtDoneWait: "Dein Spiel ist vorbei; {name} hat noch nicht begonnen",
    mtOver: "Match vorbei", mtWon: "Match vorbei: du hast gewonnen", mtLost: "Match vorbei: du hast verloren",
    mtDraw: "Match vorbei: unentschieden", mtLeft: "{name} hat den Tisch verlassen",
    mtLater: "Dein Spiel ist vorbei; dein Gegner spielt dieses Blatt später", mtAlone: "Match vorbei: niemand wurde rechtzeitig mit dir gepaart",
  },
});

// [the line's words, whether my game waits for me (then "Back to my game")]. `other` is
// the player seated with me now (none: alone), `match` the table's latest match (null
// while not known or when it could not be read: then only what the table itself says).
// The opponent is named from the match, which names its players even after one left.
export function mineState(table, other, match, me) {
  const on = table.match_status === "playing";
  if (!table.match_id) return [other ? "" : t("waiting"), false];
  const game = match?.games?.find((g) => g.player_id === me);
  const them = match?.games?.find((g) => g.player_id !== me);
  if (!game) return [t(on ? "mtUnknown" : "mtOver"), on];
  if (match.status !== "playing") {
    if (!them) return [t("mtAlone"), false]; // a quick duel nobody was paired into
    const end = t(match.draw ? "mtDraw" : !match.winner_id ? "mtOver" : match.winner_id === me ? "mtWon" : "mtLost");
    return [other || !them ? end : `${end} · ${t("mtLeft", { name: them.name })}`, false];
  }
  if (game.status === "playing") return [t("mtOn"), true];
  if (game.status === "not_started") {
    // The no-show rule's deadline (docs/api.md): past it, the game is lost.
    const until = match.start_deadline ? Date.parse(match.start_deadline) : null;
    if (until && until < Date.now()) return [t("startedTooLate"), false];
    return [until ? t("mtBy", { time: clockTime(until) }) : t("mtNew"), true];
  }
  // My game is over (won, finished, timed out, did not start); the match is not.
  if (!them) return [t("mtLater"), false]; // a quick duel: the opponent comes later
  return [t(them?.status === "not_started" ? "mtDoneWait" : "mtDone", { name: them?.name ?? "" }), false];
}
