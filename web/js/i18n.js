// French, German and English. The language comes from the browser unless the player
// picked one; `t` formats a message with {named} parameters.
const EN = {
  app: "Spider Duel", language: "Language", skip: "Skip to content",
  reconnecting: "Connection lost — reconnecting…",
  chooseName: "Choose your name", nameHint: "3 to 20 letters, digits, - or _; a letter first",
  play: "Play", lobby: "Lobby", openTables: "Open tables", noTables: "No open table matches.",
  filters: "Filters", suits: "Suits", any: "Any", level: "Opponent level",
  timeLimit: "Time limit", minutes: "{n} min", unlimited: "No limit", refresh: "Refresh",
  newGame: "New game", create: "Create", cancel: "Cancel", close: "Close",
  public: "Public", private: "Private", visibility: "Visibility", rated: "Rated",
  oneSuit: "1 suit", twoSuits: "2 suits", fourSuits: "4 suits",
  join: "Join", myInvites: "My invites", noInvites: "No invitation.",
  accept: "Accept", decline: "Decline", invitedBy: "{name} invites you",
  friends: "Friends", noFriends: "No friend yet.", online: "online", offline: "offline",
  inviteFriend: "Invite a friend", copyLink: "Copy link", copy: "Copy", copied: "Copied.",
  inviteLink: "Invitation link", send: "Invite", waiting: "Waiting for an opponent…", first: "First", prev: "Previous", next: "Next", last: "Last", friendName: "Friend's name", inviteSent: "Invitation sent.", levels: { any: "Any", beginner: "Beginner", intermediate: "Intermediate", advanced: "Advanced", expert: "Expert" },
  start: "Start my game", readyText: "{name} is at the table. Your clock starts when you open your game.",
  table: "Table", you: "You", opponent: "Opponent", score: "Score", clock: "Time left",
  time: "Time", runs: "Runs", actions: "Actions", finished: "finished", playing: "playing",
  deal: "Deal", undo: "Undo", finish: "Finish", help: "Help",
  confirmFinish: "End your game now? Your score stands.",
  stock: "Stock, {n} deals left", stockEmpty: "Stock empty", removedRuns: "Completed runs",
  column: "column {n}", emptyColumn: "empty column {n}",
  faceDownTop: "face-down card, column {n}, press F or Enter to flip",
  cardIn: "{card}, column {n}", picked: "Picked {card} and {count} card(s). Choose a column.",
  pickedOne: "Picked {card}. Choose a column.", dropCancelled: "Cancelled.",
  moved: "{card} to column {n}.", dealt: "Dealt a row.", flipped: "Turned up {card} in column {n}.",
  undone: "Undone.", runDone: "A run of {suit} is complete.", board: "Your board",
  opponentBoard: "{name}'s board", spectating: "Watching {name}", readOnly: "read-only",
  youFinished: "Your game is over. Waiting for {name}…", watch: "Watch",
  result: "Result", winner: "Winner: {name}", draw: "Draw", howEnded: "How it ended",
  won: "won", stuck: "stuck", finished_early: "finished early", timed_out: "timed out",
  rating: "Rating", ratingChange: "Rating change", leave: "Leave", replay: "Watch replay",
  share: "Share", shareText: "I played a Spider Duel ({suits}) on Spider Duel: {outcome}. Can you beat it?",
  shareWon: "I won", shareLost: "I lost", shareDraw: "a draw",
  player: "Player", since: "Since", games: "Games", wins: "Won", losses: "Lost",
  streak: "Streak", addFriend: "Add friend", ignore: "Ignore",
  friendAdded: "Friend added.", ignored: "Ignored.", back: "Back",
  helpTitle: "How to play",
  helpText: "Build runs from king down to ace in one suit; a completed run leaves the table. Click or tap a card to send it to the best place, again for the next place, or drag it.",
  keys: "Keys", keySpace: "Space: deal", keyUndo: "Ctrl+Z: undo", keyArrows: "Arrows: move between columns and cards",
  keyEnter: "Enter: pick up the cards, then drop them on a column", keyEsc: "Escape: cancel",
  keyFlip: "F: turn up a face-down card", keyHelp: "H: this help",
  hint: "Hint", keyHint: "I: a hint", hintMove: "move the {card} to column {n}", hintFlip: "turn up the card in column {n}", hintDeal: "deal a row", hintUndo: "undo", hintNone: "none",
  rejected: "Not allowed: {reason}", error: "Something went wrong: {detail}",
  lang_en: "English", lang_fr: "Français", lang_de: "Deutsch",
  same_column: "that is the same column", bad_column: "no such column",
  bad_count: "not that many cards", not_movable: "these cards are not a run of one suit",
  bad_target: "a card goes only onto a card one rank higher", pointless: "that changes nothing",
  stock_empty: "the stock is empty", empty_column: "fill the empty columns before dealing",
  nothing_to_flip: "there is no face-down card to turn up", nothing_to_undo: "there is nothing to undo",
  undo_barrier: "a deal, a flip or an uncovered card cannot be undone", game_over: "the game is over",
  rank: ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"],
  suit: { s: "spades", h: "hearts", d: "diamonds", c: "clubs" },
  card: "{rank} of {suit}",
};

const FR = {
  app: "Spider Duel", language: "Langue", skip: "Aller au contenu",
  reconnecting: "Connexion perdue — reconnexion…",
  chooseName: "Choisissez votre nom", nameHint: "3 à 20 lettres, chiffres, - ou _ ; une lettre d'abord",
  play: "Jouer", lobby: "Salon", openTables: "Tables ouvertes", noTables: "Aucune table ouverte ne correspond.",
  filters: "Filtres", suits: "Couleurs", any: "Tous", level: "Niveau de l'adversaire",
  timeLimit: "Temps limite", minutes: "{n} min", unlimited: "Sans limite", refresh: "Actualiser",
  newGame: "Nouvelle partie", create: "Créer", cancel: "Annuler", close: "Fermer",
  public: "Publique", private: "Privée", visibility: "Visibilité", rated: "Classée",
  oneSuit: "1 couleur", twoSuits: "2 couleurs", fourSuits: "4 couleurs",
  join: "Rejoindre", myInvites: "Mes invitations", noInvites: "Aucune invitation.",
  accept: "Accepter", decline: "Refuser", invitedBy: "{name} vous invite",
  friends: "Amis", noFriends: "Pas encore d'ami.", online: "en ligne", offline: "hors ligne",
  inviteFriend: "Inviter un ami", copyLink: "Copier le lien", copy: "Copier", copied: "Copié.",
  inviteLink: "Lien d'invitation", send: "Inviter", waiting: "En attente d'un adversaire…", first: "Début", prev: "Précédent", next: "Suivant", last: "Fin", friendName: "Nom de l'ami", inviteSent: "Invitation envoyée.", levels: { any: "Tous", beginner: "Débutant", intermediate: "Intermédiaire", advanced: "Avancé", expert: "Expert" },
  start: "Commencer ma partie", readyText: "{name} est à la table. Votre temps démarre à l'ouverture de votre partie.",
  table: "Table", you: "Vous", opponent: "Adversaire", score: "Score", clock: "Temps restant",
  time: "Temps", runs: "Suites", actions: "Actions", finished: "terminé", playing: "en jeu",
  deal: "Distribuer", undo: "Annuler le coup", finish: "Terminer", help: "Aide",
  confirmFinish: "Terminer votre partie maintenant ? Votre score est conservé.",
  stock: "Talon, {n} distributions restantes", stockEmpty: "Talon vide", removedRuns: "Suites complètes",
  column: "colonne {n}", emptyColumn: "colonne {n} vide",
  faceDownTop: "carte face cachée, colonne {n}, F ou Entrée pour la retourner",
  cardIn: "{card}, colonne {n}", picked: "{card} et {count} carte(s) prises. Choisissez une colonne.",
  pickedOne: "{card} prise. Choisissez une colonne.", dropCancelled: "Annulé.",
  moved: "{card} en colonne {n}.", dealt: "Une rangée distribuée.", flipped: "{card} retournée en colonne {n}.",
  undone: "Coup annulé.", runDone: "Une suite de {suit} est complète.", board: "Votre jeu",
  opponentBoard: "Jeu de {name}", spectating: "Vous regardez {name}", readOnly: "lecture seule",
  youFinished: "Votre partie est finie. En attente de {name}…", watch: "Regarder",
  result: "Résultat", winner: "Vainqueur : {name}", draw: "Égalité", howEnded: "Fin de partie",
  won: "gagnée", stuck: "bloquée", finished_early: "terminée avant la fin", timed_out: "temps écoulé",
  rating: "Classement", ratingChange: "Variation du classement", leave: "Quitter", replay: "Revoir la partie",
  share: "Partager", shareText: "J'ai joué un duel de Spider ({suits}) sur Spider Duel : {outcome}. Saurez-vous faire mieux ?",
  shareWon: "j'ai gagné", shareLost: "j'ai perdu", shareDraw: "égalité",
  player: "Joueur", since: "Depuis", games: "Parties", wins: "Gagnées", losses: "Perdues",
  streak: "Série", addFriend: "Ajouter en ami", ignore: "Ignorer",
  friendAdded: "Ami ajouté.", ignored: "Ignoré.", back: "Retour",
  helpTitle: "Comment jouer",
  helpText: "Formez des suites du roi à l'as dans une même couleur ; une suite complète quitte la table. Cliquez ou touchez une carte pour l'envoyer à la meilleure place, encore pour la place suivante, ou faites-la glisser.",
  keys: "Touches", keySpace: "Espace : distribuer", keyUndo: "Ctrl+Z : annuler", keyArrows: "Flèches : se déplacer entre colonnes et cartes",
  keyEnter: "Entrée : prendre les cartes, puis les poser sur une colonne", keyEsc: "Échap : annuler",
  keyFlip: "F : retourner une carte face cachée", keyHelp: "H : cette aide",
  hint: "Indice", keyHint: "I : un indice", hintMove: "déplacez {card} en colonne {n}", hintFlip: "retournez la carte de la colonne {n}", hintDeal: "distribuez une rangée", hintUndo: "annulez le coup", hintNone: "aucun",
  tips: { "completes a {s} run": "complète une suite {s}", "uncovers a card": "découvre une carte", "empties a column": "vide une colonne", "joins {s} run": "rejoint la suite {s}", "uses the empty column": "utilise la colonne vide", "makes room": "fait de la place", "turns a card face up": "retourne une carte", "fills the empty column so you can deal": "remplit la colonne vide pour distribuer", "no useful move: undo": "aucun coup utile : annulez", "no useful move left": "plus aucun coup utile", "the game is won": "la partie est gagnée" },
  rejected: "Refusé : {reason}", error: "Un problème est survenu : {detail}",
  lang_en: "English", lang_fr: "Français", lang_de: "Deutsch",
  same_column: "c'est la même colonne", bad_column: "colonne inexistante",
  bad_count: "pas autant de cartes", not_movable: "ces cartes ne forment pas une suite d'une couleur",
  bad_target: "une carte se pose seulement sur une carte d'un rang au-dessus", pointless: "cela ne change rien",
  stock_empty: "le talon est vide", empty_column: "remplissez les colonnes vides avant de distribuer",
  nothing_to_flip: "aucune carte face cachée à retourner", nothing_to_undo: "rien à annuler",
  undo_barrier: "une distribution, un retournement ou une carte découverte ne s'annulent pas", game_over: "la partie est finie",
  rank: ["as", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "valet", "dame", "roi"],
  suit: { s: "pique", h: "cœur", d: "carreau", c: "trèfle" },
  card: "{rank} de {suit}",
};

const DE = {
  app: "Spider Duel", language: "Sprache", skip: "Zum Inhalt",
  reconnecting: "Verbindung verloren — neu verbinden…",
  chooseName: "Wähle deinen Namen", nameHint: "3 bis 20 Buchstaben, Ziffern, - oder _; zuerst ein Buchstabe",
  play: "Spielen", lobby: "Lobby", openTables: "Offene Tische", noTables: "Kein offener Tisch passt.",
  filters: "Filter", suits: "Farben", any: "Alle", level: "Stärke des Gegners",
  timeLimit: "Zeitlimit", minutes: "{n} Min.", unlimited: "Ohne Limit", refresh: "Aktualisieren",
  newGame: "Neues Spiel", create: "Erstellen", cancel: "Abbrechen", close: "Schließen",
  public: "Öffentlich", private: "Privat", visibility: "Sichtbarkeit", rated: "Gewertet",
  oneSuit: "1 Farbe", twoSuits: "2 Farben", fourSuits: "4 Farben",
  join: "Beitreten", myInvites: "Meine Einladungen", noInvites: "Keine Einladung.",
  accept: "Annehmen", decline: "Ablehnen", invitedBy: "{name} lädt dich ein",
  friends: "Freunde", noFriends: "Noch keine Freunde.", online: "online", offline: "offline",
  inviteFriend: "Freund einladen", copyLink: "Link kopieren", copy: "Kopieren", copied: "Kopiert.",
  inviteLink: "Einladungslink", send: "Einladen", waiting: "Warte auf einen Gegner…", first: "Anfang", prev: "Zurück", next: "Weiter", last: "Ende", friendName: "Name des Freundes", inviteSent: "Einladung gesendet.", levels: { any: "Alle", beginner: "Anfänger", intermediate: "Mittel", advanced: "Fortgeschritten", expert: "Experte" },
  start: "Mein Spiel starten", readyText: "{name} sitzt am Tisch. Deine Uhr läuft ab dem Öffnen deines Spiels.",
  table: "Tisch", you: "Du", opponent: "Gegner", score: "Punkte", clock: "Restzeit",
  time: "Zeit", runs: "Reihen", actions: "Züge", finished: "fertig", playing: "spielt",
  deal: "Geben", undo: "Zurück", finish: "Beenden", help: "Hilfe",
  confirmFinish: "Dein Spiel jetzt beenden? Deine Punkte bleiben.",
  stock: "Talon, noch {n} Runden", stockEmpty: "Talon leer", removedRuns: "Fertige Reihen",
  column: "Spalte {n}", emptyColumn: "leere Spalte {n}",
  faceDownTop: "verdeckte Karte, Spalte {n}, F oder Enter zum Aufdecken",
  cardIn: "{card}, Spalte {n}", picked: "{card} und {count} Karte(n) genommen. Wähle eine Spalte.",
  pickedOne: "{card} genommen. Wähle eine Spalte.", dropCancelled: "Abgebrochen.",
  moved: "{card} auf Spalte {n}.", dealt: "Eine Reihe gegeben.", flipped: "{card} in Spalte {n} aufgedeckt.",
  undone: "Zurückgenommen.", runDone: "Eine Reihe {suit} ist fertig.", board: "Dein Spiel",
  opponentBoard: "Spiel von {name}", spectating: "Du schaust {name} zu", readOnly: "nur ansehen",
  youFinished: "Dein Spiel ist vorbei. Warte auf {name}…", watch: "Zuschauen",
  result: "Ergebnis", winner: "Sieger: {name}", draw: "Unentschieden", howEnded: "Spielende",
  won: "gewonnen", stuck: "festgefahren", finished_early: "vorzeitig beendet", timed_out: "Zeit abgelaufen",
  rating: "Wertung", ratingChange: "Wertungsänderung", leave: "Verlassen", replay: "Wiederholung ansehen",
  share: "Teilen", shareText: "Ich habe ein Spider-Duell ({suits}) auf Spider Duel gespielt: {outcome}. Schaffst du es besser?",
  shareWon: "gewonnen", shareLost: "verloren", shareDraw: "unentschieden",
  player: "Spieler", since: "Seit", games: "Spiele", wins: "Gewonnen", losses: "Verloren",
  streak: "Serie", addFriend: "Als Freund hinzufügen", ignore: "Ignorieren",
  friendAdded: "Freund hinzugefügt.", ignored: "Ignoriert.", back: "Zurück",
  helpTitle: "So wird gespielt",
  helpText: "Baue Reihen vom König bis zum Ass in einer Farbe; eine fertige Reihe verlässt den Tisch. Klicke oder tippe eine Karte, um sie an den besten Platz zu legen, nochmals für den nächsten Platz, oder ziehe sie.",
  keys: "Tasten", keySpace: "Leertaste: geben", keyUndo: "Strg+Z: zurück", keyArrows: "Pfeile: zwischen Spalten und Karten wechseln",
  keyEnter: "Enter: Karten aufnehmen, dann auf eine Spalte legen", keyEsc: "Esc: abbrechen",
  keyFlip: "F: verdeckte Karte aufdecken", keyHelp: "H: diese Hilfe",
  hint: "Tipp", keyHint: "I: ein Tipp", hintMove: "{card} auf Spalte {n} legen", hintFlip: "Karte in Spalte {n} aufdecken", hintDeal: "eine Reihe geben", hintUndo: "zurücknehmen", hintNone: "keiner",
  tips: { "completes a {s} run": "vervollständigt eine {s}-Reihe", "uncovers a card": "legt eine Karte frei", "empties a column": "leert eine Spalte", "joins {s} run": "schließt an die {s}-Reihe an", "uses the empty column": "nutzt die leere Spalte", "makes room": "schafft Platz", "turns a card face up": "deckt eine Karte auf", "fills the empty column so you can deal": "füllt die leere Spalte, damit du geben kannst", "no useful move: undo": "kein sinnvoller Zug: zurücknehmen", "no useful move left": "kein sinnvoller Zug mehr", "the game is won": "das Spiel ist gewonnen" },
  rejected: "Nicht erlaubt: {reason}", error: "Etwas ist schiefgegangen: {detail}",
  lang_en: "English", lang_fr: "Français", lang_de: "Deutsch",
  same_column: "das ist dieselbe Spalte", bad_column: "diese Spalte gibt es nicht",
  bad_count: "nicht so viele Karten", not_movable: "diese Karten sind keine Reihe einer Farbe",
  bad_target: "eine Karte passt nur auf eine Karte, die einen Rang höher ist", pointless: "das ändert nichts",
  stock_empty: "der Talon ist leer", empty_column: "fülle zuerst die leeren Spalten",
  nothing_to_flip: "keine verdeckte Karte zum Aufdecken", nothing_to_undo: "nichts zurückzunehmen",
  undo_barrier: "Geben, Aufdecken und aufgedeckte Karten lassen sich nicht zurücknehmen", game_over: "das Spiel ist vorbei",
  rank: ["Ass", "Zwei", "Drei", "Vier", "Fünf", "Sechs", "Sieben", "Acht", "Neun", "Zehn", "Bube", "Dame", "König"],
  suit: { s: "Pik", h: "Herz", d: "Karo", c: "Kreuz" },
  card: "{suit} {rank}",
};

const TABLES = { en: EN, fr: FR, de: DE };
export const LANGUAGES = Object.keys(TABLES);
const KEY = "spider.lang";
let current = pick();
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

export const lang = () => current;

export function setLang(code) {
  if (!(code in TABLES) || code === current) return;
  current = code;
  localStorage.setItem(KEY, code);
  document.documentElement.lang = code;
  listeners.forEach((listener) => listener(code));
}

export const onLangChange = (listener) => listeners.add(listener);

export function t(key, params = {}) {
  const text = TABLES[current][key] ?? EN[key] ?? key;
  return String(text).replace(/\{(\w+)\}/g, (_, name) => params[name] ?? "");
}

// "seven of hearts", "sept de cœur", "Herz Sieben".
export function cardName(name) {
  const table = TABLES[current];
  const rankIndex = "A23456789TJQK".indexOf(name[0]);
  return t("card", { rank: table.rank[rankIndex], suit: table.suit[name[1]] });
}

export const suitName = (code) => TABLES[current].suit[code];
export const levelName = (code) => TABLES[current].levels[code] ?? code;
export const reason = (code) => (code && TABLES[current][code] ? t(code) : code || "");
// The server's (English) reason for a hint, in the current language: "joins ♥ run".
export function tip(text) {
  const s = text.match(/[♠♥♦♣]/u)?.[0] ?? "";
  return (TABLES[current].tips?.[s ? text.replace(s, "{s}") : text] ?? text).replace("{s}", s);
}
