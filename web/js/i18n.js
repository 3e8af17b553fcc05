// French, German and English. The language comes from the browser unless the player
// picked one; `t` formats a message with {named} parameters.
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
  inviteLink: "Invitation link", send: "Invite", waiting: "Waiting for an opponent…", friendName: "Friend's name", inviteSentTo: "Invitation sent to {name}.", duelWith: "A duel with {name}", levels: { any: "Any", beginner: "Beginner", intermediate: "Intermediate", advanced: "Advanced", expert: "Expert" },
  start: "Start my game", readyText: "{name} is at the table. Your clock starts when you open your game.", startBefore: "Open it before {time}, or it is lost as “did not start”.", startedTooLate: "You did not start in time: your game is lost.", watchName: "Watch {name}",
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
  hint: "Hint", hintSays: "Hint: {what}", hintMove: "move the {card} to column {n}", hintFlip: "turn up the card in column {n}", hintDeal: "deal a row", hintUndo: "undo", hintNone: "none",
  rejected: "Not allowed: {reason}", error: "Something went wrong: {detail}",
  lang_en: "English", lang_fr: "Français", lang_de: "Deutsch",
  errors: {
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
    internal: "the server failed; try again", not_authenticated: "you are not signed in; choose your name",
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

const FR = {
  rematchAsked: "{name} propose une revanche.", rematchWaiting: "Revanche proposée à {name} ; en attente de sa réponse…", rematchDeclined: "{name} a refusé la revanche et quitté la table.", opponentLeft: "{name} a quitté la table.", backToLobby: "Retour au salon", myTables: "Mes tables", backToGame: "Retour à ma partie", myGame: "Ma partie", rematchShort: "Revanche ?", allRunsDone: "Les 8 suites sont faites : partie gagnée !", satDown: "{name} s'est assis à votre table.", goToTable: "Aller à la table", findPlayer: "Trouver un joueur", isFriend: "Amis ✓", remove: "Retirer", noPlayerFound: "Personne de ce nom.", inviteTo: "{name} vous invite à un duel : {suits}, {time}.", notStartedUntil: "{name} n'a pas encore commencé ; a jusqu'à {time}.", did_not_start: "pas venu", levelHelp: "Les niveaux sont des tranches de cote pour le nombre de couleurs de la table : débutant sous 1350, intermédiaire 1350–1649, avancé 1650–1949, expert 1950 et plus. Un nouveau joueur part de 1500 (intermédiaire). « Tous » ouvre la table à tous les niveaux.",
  navSolo: "Solo", navDaily: "Donne du jour", navBoards: "Classements", navMain: "Menu principal", navAlone: "Jouer seul",
  tagline: "Le Spider Solitaire en duel, sur la même donne",
  tapToTurn: "Touchez pour la retourner", keepPlaying: "Continuer", keySpaceName: "Espace", keyUndoName: "Ctrl Z", undoShort: "Annuler", notStarted: "pas encore commencé",
  app: "Spider Duel", language: "Langue", skip: "Aller au contenu",
  reconnecting: "Connexion perdue — reconnexion…",
  chooseName: "Choisissez votre nom", nameHint: "3 à 20 lettres, chiffres, - ou _ ; une lettre d'abord",
  play: "Jouer", lobby: "Salon", openTables: "Tables ouvertes", noTables: "Aucune table ouverte ne correspond.",
  filters: "Filtres", suits: "Couleurs", any: "Tous", level: "Niveau de l'adversaire",
  timeLimit: "Temps limite", minutes: "{n} min", unlimited: "Sans limite", refresh: "Actualiser",
  newGame: "Nouvelle partie", create: "Créer", cancel: "Annuler", close: "Fermer",
  public: "Publique", private: "Privée", visibility: "Visibilité", rated: "Cotée",
  difficulty: "Difficulté", difficulties: { any: "Toute donne", easy: "Facile", medium: "Moyenne", hard: "Difficile" }, difficultyHelp: "Selon l'effort du solveur ; toute donne facile, moyenne ou difficile est soluble.", oneSuit: "1 couleur", twoSuits: "2 couleurs", fourSuits: "4 couleurs",
  join: "Rejoindre", myInvites: "Mes invitations", noInvites: "Aucune invitation.",
  accept: "Accepter", decline: "Refuser", invitedBy: "{name} vous invite",
  friends: "Amis", noFriends: "Pas encore d'ami.", online: "en ligne", offline: "hors ligne",
  inviteFriend: "Inviter un ami", copyLink: "Copier le lien", copy: "Copier", copied: "Copié.",
  inviteLink: "Lien d'invitation", send: "Inviter", waiting: "En attente d'un adversaire…", friendName: "Nom de l'ami", inviteSentTo: "Invitation envoyée à {name}.", duelWith: "Un duel avec {name}", levels: { any: "Tous", beginner: "Débutant", intermediate: "Intermédiaire", advanced: "Avancé", expert: "Expert" },
  start: "Commencer ma partie", readyText: "{name} est à la table. Votre temps démarre à l'ouverture de votre partie.", startBefore: "Ouvrez-la avant {time}, sinon elle est perdue (« pas venu »).", startedTooLate: "Vous n'avez pas commencé à temps : votre partie est perdue.", watchName: "Regarder {name}",
  table: "Table", you: "Vous", opponent: "Adversaire", score: "Score", clock: "Temps restant",
  time: "Temps", runs: "Suites", actions: "Coups", finished: "terminé", playing: "en jeu",
  deal: "Distribuer", undo: "Annuler le coup", finish: "Terminer", help: "Aide",
  confirmFinish: "Terminer votre partie maintenant ? Votre score est conservé.",
  stock: "Talon, {n} distributions restantes", stock_one: "Talon, {n} distribution restante", stockEmpty: "Talon vide", removedRuns: "Suites complètes",
  column: "colonne {n}", emptyColumn: "colonne {n} vide",
  faceDownTop: "carte face cachée, colonne {n}, F ou Entrée pour la retourner",
  cardIn: "{card}, colonne {n}", picked: "{card} et {count} carte(s) prises. Choisissez une colonne.",
  pickedOne: "{card} prise. Choisissez une colonne.", dropCancelled: "Annulé.",
  moved: "{card} en colonne {n}.", dealt: "Une rangée distribuée.", flipped: "{card} retournée en colonne {n}.",
  undone: "Coup annulé.", runDone: "Une suite de {suit} est complète.", board: "Votre jeu",
  opponentBoard: "Jeu de {name}", spectating: "Vous regardez {name}", readOnly: "lecture seule",
  youFinished: "Votre partie est finie. En attente de {name}…", watch: "Regarder",
  winner: "Vainqueur : {name}", draw: "Égalité",
  won: "gagnée", finished_early: "terminée avant la fin", timed_out: "temps écoulé",
  leave: "Quitter", replay: "Revoir la partie",
  addFriend: "Ajouter en ami",
  friendAdded: "Demande d'ami envoyée.",
  keySpace: "Espace : distribuer",
  hint: "Indice", hintMove: "déplacez {card} en colonne {n}", hintSays: "Indice : {what}", hintFlip: "retournez la carte de la colonne {n}", hintDeal: "distribuez une rangée", hintUndo: "annulez le coup", hintNone: "aucun",
  tips: { "completes a {s} run": "complète une suite {s}", "uncovers a card": "découvre une carte", "empties a column": "vide une colonne", "joins {s} run": "rejoint la suite {s}", "uses the empty column": "utilise la colonne vide", "makes room": "fait de la place", "turns a card face up": "retourne une carte", "fills the empty column so you can deal": "remplit la colonne vide pour distribuer", "no useful move: undo": "aucun coup utile : annulez", "no useful move left": "plus aucun coup utile", "the game is won": "la partie est gagnée" },
  rejected: "Refusé : {reason}", error: "Un problème est survenu : {detail}",
  lang_en: "English", lang_fr: "Français", lang_de: "Deutsch",
  errors: {
    no_such_player: "ce joueur n'existe pas", not_your_game: "cette partie est celle d'un autre joueur",
    no_such_game: "cette partie n'existe pas", game_in_progress: "cette partie est encore en cours",
    daily_already_played: "vous avez déjà joué la donne du jour ; revenez demain",
    daily_deal_today: "c'est la donne du jour : jouez-la dans l'écran du jour (en solo à partir de demain)",
    daily_duel_played: "vous avez déjà joué le duel du jour ; revenez demain", daily_duel_once: "un duel du jour ne se joue qu'une fois",
    daily_not_finished: "terminez la donne du jour pour voir les temps des autres",
    no_such_day: "ce jour n'est pas encore arrivé", auto_complete_unavailable: "la partie ne peut pas encore se terminer automatiquement",
    record_too_large: "cet enregistrement est trop volumineux", bad_record: "ce n'est pas un enregistrement de partie valable",
    same_column: "c'est la même colonne", bad_column: "colonne inexistante", bad_count: "pas autant de cartes",
    not_movable: "ces cartes ne forment pas une suite d'une couleur",
    bad_target: "une carte se pose seulement sur une carte d'un rang au-dessus",
    pointless: "cela ne change rien", stock_empty: "le talon est vide",
    empty_column: "remplissez les colonnes vides avant de distribuer",
    nothing_to_flip: "aucune carte face cachée à retourner", nothing_to_undo: "rien à annuler",
    undo_barrier: "une distribution, un retournement ou une carte découverte ne s'annulent pas",
    game_over: "la partie est finie", illegal: "ce coup n'est pas permis", bad_action: "ce n'est pas un coup",
    stale_seq: "ce coup est arrivé trop tard ; le jeu est à jour",
    bad_seq: "ce coup est arrivé dans le désordre ; le jeu est à jour",
    seq_taken: "votre autre onglet ou appareil a joué avant ; le jeu est à jour",
    not_stored: "le coup n'a pas pu être enregistré ; rejouez-le", not_opened: "ouvrez d'abord votre partie",
    no_such_match: "cette partie n'existe pas", not_seated: "vous ne jouez pas à cette table",
    spectate_refused: "vous pourrez regarder une fois votre partie finie",
    replay_not_ready: "on peut revoir la partie une fois les deux parties finies",
    room_error: "la table n'a pas pu le faire ; réessayez",
    binary_frame: "la connexion a envoyé un message incompris ; rechargez la page",
    frame_too_large: "ce message était trop long pour le serveur",
    frame_too_deep: "ce message était trop complexe pour le serveur",
    bad_json: "la connexion a envoyé un message incompris ; rechargez la page",
    bad_message: "la connexion a envoyé un message incompris ; rechargez la page",
    hello_first: "la connexion a mal commencé ; rechargez la page",
    already_hello: "la connexion a commencé deux fois ; rechargez la page",
    unsupported_version: "cette page n'est plus à jour ; rechargez-la",
    limit_exceeded: "trop de demandes à la fois ; ralentissez un peu",
    too_many_connections: "trop de fenêtres ouvertes à votre nom ; fermez-en quelques-unes",
    internal: "le serveur a échoué ; réessayez",
    not_authenticated: "vous n'êtes pas connecté ; choisissez votre nom",
    no_token: "vous n'êtes pas connecté ; choisissez votre nom",
    bad_token: "votre session n'est plus valable ; choisissez à nouveau votre nom",
    unknown_player: "ce joueur n'existe plus ; choisissez à nouveau votre nom",
    bad_request: "le serveur n'a pas pu lire cette demande", invalid_input: "cette valeur n'est pas valable",
    validation_error: "une partie de la saisie n'est pas valable",
    forbidden: "vous n'avez pas le droit de faire cela", not_found: "cela n'existe pas (ou plus)",
    conflict: "impossible pour le moment", rate_limited: "trop d'essais ; attendez un instant et réessayez",
    method_not_allowed: "le serveur ne permet pas cela",
    not_acceptable: "le serveur ne peut pas répondre à cette demande",
    too_large: "cette demande est trop volumineuse",
    unsupported_media_type: "le serveur ne peut pas lire cette demande",
    internal_error: "le serveur a échoué ; réessayez",
    name_taken: "ce nom est déjà pris ; choisissez-en un autre",
    bad_name: "3 à 20 lettres, chiffres, - ou _, en commençant par une lettre",
    player_not_found: "aucun joueur ne porte ce nom", already_friend: "déjà dans votre liste d'amis", request_pending: "votre demande attend encore une réponse", no_friend_request: "pas de telle demande d'ami",
    not_friend: "ce joueur n'est pas dans votre liste d'amis ; ajoutez-le d'abord", self: "c'est vous",
    ignored: "ce joueur n'accepte pas cela de votre part", ignoring: "vous ignorez ce joueur", already_ignored: "vous ignorez déjà ce joueur",
    not_ignored: "vous n'ignorez pas ce joueur", table_full: "les deux places de cette table sont prises",
    table_not_full: "la table attend un second joueur", table_expired: "cette table a expiré",
    table_closed: "cette table est fermée", table_not_found: "cette table n'existe pas (ou plus)",
    private_table: "cette table est privée : il faut une invitation",
    level_mismatch: "cette table est pour des joueurs d'un autre niveau",
    already_seated: "vous êtes déjà assis à une table",
    match_in_progress: "une partie est en cours à cette table", match_not_found: "ce match n'existe pas",
    match_not_over: "le match n'est pas encore fini", match_started: "la partie a déjà commencé",
    game_not_found: "cette partie n'existe pas", bad_time_limit: "ce temps limite n'est pas proposé",
    bad_suits: "on joue avec 1, 2 ou 4 couleurs", bad_preset: "ces règles ne sont pas proposées",
    bad_level: "ce niveau n'existe pas", bad_layout: "cette disposition ne respecte pas les règles",
    bad_dates: "ces dates ne sont pas valables", bad_page: "cette page n'existe pas",
    invite_not_found: "cette invitation n'existe pas (ou plus)", invite_expired: "cette invitation a expiré",
    invite_closed: "cette invitation a déjà reçu une réponse",
    not_inviter: "seul le joueur qui invite peut annuler",
    not_invitee: "cette invitation est pour quelqu'un d'autre",
  },
  rank: ["as", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "valet", "dame", "roi"],
  // "déplacez l'as de pique", "la dame", "le huit" (h aspiré): where a sentence wants one.
  article: ["l'", "le ", "le ", "le ", "le ", "le ", "le ", "le ", "le ", "le ", "le ", "la ", "le "],
  suit: { s: "pique", h: "cœur", d: "carreau", c: "trèfle" },
  card: "{rank} de {suit}",
};

const DE = {
  rematchAsked: "{name} möchte eine Revanche.", rematchWaiting: "Revanche an {name} gesendet; warte auf Antwort…", rematchDeclined: "{name} hat die Revanche abgelehnt und den Tisch verlassen.", opponentLeft: "{name} hat den Tisch verlassen.", backToLobby: "Zurück zur Lobby", myTables: "Meine Tische", backToGame: "Zurück zu meinem Spiel", myGame: "Mein Spiel", rematchShort: "Revanche?", allRunsDone: "Alle 8 Folgen fertig: Spiel gewonnen!", satDown: "{name} hat sich an deinen Tisch gesetzt.", goToTable: "Zum Tisch", findPlayer: "Spieler finden", isFriend: "Befreundet ✓", remove: "Entfernen", noPlayerFound: "Niemand mit diesem Namen.", inviteTo: "{name} lädt dich zu einem Duell ein: {suits}, {time}.", notStartedUntil: "{name} hat noch nicht begonnen; hat Zeit bis {time}.", did_not_start: "nicht angetreten", levelHelp: "Stufen sind Wertungsbereiche für die Farbenzahl des Tisches: Anfänger unter 1350, Mittel 1350–1649, Fortgeschritten 1650–1949, Experte ab 1950. Neue Spieler beginnen bei 1500 (Mittel). „Alle“ öffnet den Tisch für jede Stufe.",
  navSolo: "Solo", navDaily: "Tagesspiel", navBoards: "Bestenlisten", navMain: "Hauptmenü", navAlone: "Allein spielen",
  tagline: "Spider Solitär im Duell, auf demselben Blatt",
  tapToTurn: "Tippen zum Aufdecken", keepPlaying: "Weiterspielen", keySpaceName: "Leertaste", keyUndoName: "Strg Z", undoShort: "Zurück", notStarted: "noch nicht begonnen",
  app: "Spider Duel", language: "Sprache", skip: "Zum Inhalt",
  reconnecting: "Verbindung verloren — neu verbinden…",
  chooseName: "Wähle deinen Namen", nameHint: "3 bis 20 Buchstaben, Ziffern, - oder _; zuerst ein Buchstabe",
  play: "Spielen", lobby: "Lobby", openTables: "Offene Tische", noTables: "Kein offener Tisch passt.",
  filters: "Filter", suits: "Farben", any: "Alle", level: "Stärke des Gegners",
  timeLimit: "Zeitlimit", minutes: "{n} Min.", unlimited: "Ohne Limit", refresh: "Aktualisieren",
  newGame: "Neues Spiel", create: "Erstellen", cancel: "Abbrechen", close: "Schließen",
  public: "Öffentlich", private: "Privat", visibility: "Sichtbarkeit", rated: "Gewertet",
  difficulty: "Schwierigkeit", difficulties: { any: "Jedes Spiel", easy: "Leicht", medium: "Mittel", hard: "Schwer" }, difficultyHelp: "Nach dem Aufwand des Lösers; jedes leichte, mittlere oder schwere Spiel ist lösbar.", oneSuit: "1 Farbe", twoSuits: "2 Farben", fourSuits: "4 Farben",
  join: "Beitreten", myInvites: "Meine Einladungen", noInvites: "Keine Einladung.",
  accept: "Annehmen", decline: "Ablehnen", invitedBy: "{name} lädt dich ein",
  friends: "Freunde", noFriends: "Noch keine Freunde.", online: "online", offline: "offline",
  inviteFriend: "Freund einladen", copyLink: "Link kopieren", copy: "Kopieren", copied: "Kopiert.",
  inviteLink: "Einladungslink", send: "Einladen", waiting: "Warte auf einen Gegner…", friendName: "Name des Freundes", inviteSentTo: "Einladung an {name} gesendet.", duelWith: "Ein Duell mit {name}", levels: { any: "Alle", beginner: "Anfänger", intermediate: "Mittel", advanced: "Fortgeschritten", expert: "Experte" },
  start: "Mein Spiel starten", readyText: "{name} sitzt am Tisch. Deine Uhr läuft ab dem Öffnen deines Spiels.", startBefore: "Öffne es vor {time}, sonst ist es verloren („nicht angetreten“).", startedTooLate: "Du hast nicht rechtzeitig begonnen: dein Spiel ist verloren.", watchName: "{name} zuschauen",
  table: "Tisch", you: "Du", opponent: "Gegner", score: "Punkte", clock: "Restzeit",
  time: "Zeit", runs: "Reihen", actions: "Züge", finished: "fertig", playing: "spielt",
  deal: "Geben", undo: "Rückgängig", finish: "Beenden", help: "Hilfe",
  confirmFinish: "Dein Spiel jetzt beenden? Deine Punkte bleiben.",
  stock: "Talon, noch {n} Runden", stock_one: "Talon, noch {n} Runde", stockEmpty: "Talon leer", removedRuns: "Fertige Reihen",
  column: "Spalte {n}", emptyColumn: "leere Spalte {n}",
  faceDownTop: "verdeckte Karte, Spalte {n}, F oder Enter zum Aufdecken",
  cardIn: "{card}, Spalte {n}", picked: "{card} und {count} Karte(n) genommen. Wähle eine Spalte.",
  pickedOne: "{card} genommen. Wähle eine Spalte.", dropCancelled: "Abgebrochen.",
  moved: "{card} auf Spalte {n}.", dealt: "Eine Reihe gegeben.", flipped: "{card} in Spalte {n} aufgedeckt.",
  undone: "Zurückgenommen.", runDone: "Eine Reihe {suit} ist fertig.", board: "Dein Spiel",
  opponentBoard: "Spiel von {name}", spectating: "Du schaust {name} zu", readOnly: "nur ansehen",
  youFinished: "Dein Spiel ist vorbei. Warte auf {name}…", watch: "Zuschauen",
  winner: "Sieger: {name}", draw: "Unentschieden",
  won: "gewonnen", finished_early: "vorzeitig beendet", timed_out: "Zeit abgelaufen",
  leave: "Verlassen", replay: "Wiederholung ansehen",
  addFriend: "Als Freund hinzufügen",
  friendAdded: "Freundschaftsanfrage gesendet.",
  keySpace: "Leertaste: geben",
  hint: "Tipp", hintSays: "Tipp: {what}", hintMove: "{card} auf Spalte {n} legen", hintFlip: "Karte in Spalte {n} aufdecken", hintDeal: "eine Reihe geben", hintUndo: "zurücknehmen", hintNone: "keiner",
  tips: { "completes a {s} run": "vervollständigt eine {s}-Reihe", "uncovers a card": "legt eine Karte frei", "empties a column": "leert eine Spalte", "joins {s} run": "schließt an die {s}-Reihe an", "uses the empty column": "nutzt die leere Spalte", "makes room": "schafft Platz", "turns a card face up": "deckt eine Karte auf", "fills the empty column so you can deal": "füllt die leere Spalte, damit du geben kannst", "no useful move: undo": "kein sinnvoller Zug: zurücknehmen", "no useful move left": "kein sinnvoller Zug mehr", "the game is won": "das Spiel ist gewonnen" },
  rejected: "Nicht erlaubt: {reason}", error: "Etwas ist schiefgegangen: {detail}",
  lang_en: "English", lang_fr: "Français", lang_de: "Deutsch",
  errors: {
    no_such_player: "diesen Spieler gibt es nicht", not_your_game: "dieses Spiel gehört einem anderen Spieler",
    no_such_game: "dieses Spiel gibt es nicht", game_in_progress: "dieses Spiel läuft noch",
    daily_already_played: "du hast das heutige Spiel schon gespielt; komm morgen wieder",
    daily_deal_today: "das ist das heutige Tagesspiel: spiel es im Tagesspiel-Bildschirm (solo ab morgen)",
    daily_duel_played: "du hast das heutige Tagesduell schon gespielt; komm morgen wieder", daily_duel_once: "ein Tagesduell ist nur ein Match",
    daily_not_finished: "beende das heutige Spiel, um die Zeiten der anderen zu sehen",
    no_such_day: "dieser Tag ist noch nicht gekommen", auto_complete_unavailable: "das Spiel kann noch nicht automatisch beendet werden",
    record_too_large: "diese Aufzeichnung ist zu groß", bad_record: "das ist keine gültige Spielaufzeichnung",
    same_column: "das ist dieselbe Spalte", bad_column: "diese Spalte gibt es nicht",
    bad_count: "nicht so viele Karten", not_movable: "diese Karten sind keine Reihe einer Farbe",
    bad_target: "eine Karte passt nur auf eine Karte, die einen Rang höher ist",
    pointless: "das ändert nichts", stock_empty: "der Talon ist leer",
    empty_column: "fülle zuerst die leeren Spalten", nothing_to_flip: "keine verdeckte Karte zum Aufdecken",
    nothing_to_undo: "nichts zurückzunehmen",
    undo_barrier: "Geben, Aufdecken und aufgedeckte Karten lassen sich nicht zurücknehmen",
    game_over: "das Spiel ist vorbei", illegal: "dieser Zug ist nicht erlaubt", bad_action: "das ist kein Zug",
    stale_seq: "dieser Zug kam zu spät; das Spiel ist wieder aktuell",
    bad_seq: "dieser Zug kam außer der Reihe; das Spiel ist wieder aktuell",
    seq_taken: "dein anderer Tab oder dein anderes Gerät war schneller; das Spiel ist wieder aktuell",
    not_stored: "der Zug konnte nicht gespeichert werden; spiele ihn noch einmal",
    not_opened: "öffne zuerst dein Spiel", no_such_match: "dieses Spiel gibt es nicht",
    not_seated: "du spielst nicht an diesem Tisch",
    spectate_refused: "zuschauen kannst du, sobald dein eigenes Spiel vorbei ist",
    replay_not_ready: "die Wiederholung gibt es, sobald beide Spiele vorbei sind",
    room_error: "der Tisch konnte das gerade nicht; versuche es noch einmal",
    binary_frame: "die Verbindung hat etwas Unverständliches gesendet; lade die Seite neu",
    frame_too_large: "diese Nachricht war zu groß für den Server",
    frame_too_deep: "diese Nachricht war zu verschachtelt für den Server",
    bad_json: "die Verbindung hat etwas Unverständliches gesendet; lade die Seite neu",
    bad_message: "die Verbindung hat etwas Unverständliches gesendet; lade die Seite neu",
    hello_first: "die Verbindung hat falsch begonnen; lade die Seite neu",
    already_hello: "die Verbindung hat zweimal begonnen; lade die Seite neu",
    unsupported_version: "diese Seite ist veraltet; lade sie neu",
    limit_exceeded: "zu viele Anfragen auf einmal; etwas langsamer bitte",
    too_many_connections: "zu viele Fenster sind für dich offen; schließe einige",
    internal: "der Server hat versagt; versuche es noch einmal",
    not_authenticated: "du bist nicht angemeldet; wähle deinen Namen",
    no_token: "du bist nicht angemeldet; wähle deinen Namen",
    bad_token: "deine Sitzung ist nicht mehr gültig; wähle deinen Namen neu",
    unknown_player: "diesen Spieler gibt es nicht mehr; wähle deinen Namen neu",
    bad_request: "der Server konnte diese Anfrage nicht lesen", invalid_input: "dieser Wert ist ungültig",
    validation_error: "ein Teil der Eingabe ist ungültig", forbidden: "das darfst du nicht",
    not_found: "das gibt es nicht (mehr)", conflict: "das geht gerade nicht",
    rate_limited: "zu viele Versuche; warte einen Moment und versuche es erneut",
    method_not_allowed: "der Server erlaubt das nicht",
    not_acceptable: "der Server kann diese Anfrage nicht beantworten", too_large: "diese Anfrage ist zu groß",
    unsupported_media_type: "der Server kann diese Anfrage nicht lesen",
    internal_error: "der Server hat versagt; versuche es noch einmal",
    name_taken: "dieser Name ist vergeben; wähle einen anderen",
    bad_name: "3 bis 20 Buchstaben, Ziffern, - oder _, zuerst ein Buchstabe",
    player_not_found: "es gibt keinen Spieler mit diesem Namen",
    already_friend: "schon in deiner Freundesliste", request_pending: "deine Anfrage wartet noch auf Antwort", no_friend_request: "keine solche Freundschaftsanfrage",
    not_friend: "dieser Spieler ist nicht in deiner Freundesliste; füge ihn zuerst hinzu", self: "das bist du",
    ignored: "dieser Spieler nimmt das von dir nicht an", ignoring: "du ignorierst diesen Spieler",
    already_ignored: "du ignorierst diesen Spieler schon", not_ignored: "du ignorierst diesen Spieler nicht",
    table_full: "beide Plätze an diesem Tisch sind besetzt",
    table_not_full: "der Tisch wartet auf einen zweiten Spieler", table_expired: "dieser Tisch ist abgelaufen",
    table_closed: "dieser Tisch ist geschlossen", table_not_found: "diesen Tisch gibt es nicht (mehr)",
    private_table: "dieser Tisch ist privat: du brauchst eine Einladung",
    level_mismatch: "dieser Tisch ist für Spieler einer anderen Stärke",
    already_seated: "du sitzt schon an einem Tisch", match_in_progress: "an diesem Tisch wird gerade gespielt",
    match_not_found: "dieses Match gibt es nicht", match_not_over: "das Match ist noch nicht vorbei",
    match_started: "das Spiel hat schon begonnen", game_not_found: "dieses Spiel gibt es nicht",
    bad_time_limit: "dieses Zeitlimit wird nicht angeboten", bad_suits: "gespielt wird mit 1, 2 oder 4 Farben",
    bad_preset: "diese Regeln werden nicht angeboten", bad_level: "diese Stärke gibt es nicht",
    bad_layout: "diese Auslage passt nicht zu den Regeln", bad_dates: "diese Daten sind ungültig",
    bad_page: "diese Seite gibt es nicht", invite_not_found: "diese Einladung gibt es nicht (mehr)",
    invite_expired: "diese Einladung ist abgelaufen", invite_closed: "diese Einladung wurde schon beantwortet",
    not_inviter: "nur der einladende Spieler kann absagen",
    not_invitee: "diese Einladung ist für jemand anderen",
  },
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
