//! The state of a game of any kind (`play --game G`) that both front ends drive (the
//! line dialogue `game_plain` and the full-screen `game_tui`): what each position is
//! worth (the solved table or the live search, [`Oracle`]), who sits on each side, the
//! moves played and undone, hints, the save file, and the two-key input of the
//! full-screen game. Tic-tac-toe keeps its own state (`app`).

use super::look::Look;
use super::refute::{mistake_text, verb};
use crate::analyse::value_text;
use crate::oracle::{move_record, Oracle};
use serde_json::{json, Value};
use std::path::PathBuf;
use tictable_games::players::Player as Engine;
use tictable_games::{Game, Notation, Outcome, Player};

/// The at most this many moves a save file holds (every game here ends far sooner,
/// except the morris games, whose positions repeat): a longer game is refused when
/// saved ([`Session::save_file_text`]), never written to a file that does not load.
pub const MAX_SAVED_MOVES: usize = 4000;

/// The longest move a save file holds, in characters of the API notation (the
/// longest move of any game here, a slide such as `10-11`, has 5).
pub const MAX_SAVED_MOVE_CHARS: usize = 12;

/// The largest save file read, in bytes, derived from what a save holds: its game's
/// id and fields (under 256 bytes) and [`MAX_SAVED_MOVES`] moves of at most
/// [`MAX_SAVED_MOVE_CHARS`] characters, each quoted and followed by a comma. Every
/// file [`Session::save_file_text`] writes is at most this long, so it loads back;
/// a larger file is refused unread (`/dev/zero` does not fill memory).
pub const MAX_SAVE_BYTES: u64 = 256 + (MAX_SAVED_MOVES * (MAX_SAVED_MOVE_CHARS + 3)) as u64;

/// A game in progress.
pub struct Session<G: Game> {
    /// What each position is worth: the solved table, or the live search.
    pub oracle: Box<dyn Oracle<G>>,
    /// How its board is drawn.
    pub look: Look,
    /// The engine of X and of O (`None`: a person), as it started the game: what an
    /// engine has learnt (`adaptive`) is replayed from the moves played
    /// ([`Session::engine`]), so undo, load and a new game take it back too.
    pub seats: [Option<Engine>; 2],
    /// The moves played, then those undone (which redo plays again).
    moves: Vec<G::Move>,
    /// How many of `moves` are played.
    played: usize,
    /// Show every legal move's value.
    pub hints: bool,
    /// What the last action said.
    pub message: String,
    /// The file `s` and `l` use.
    pub file: PathBuf,
    /// What the person has typed of a move (the full-screen game).
    pub typed: String,
    /// Two engines play on by themselves (the full-screen game; else a move per key).
    pub auto: bool,
    /// The refutation of the person's last mistake being shown on the board (full
    /// screen): the positions along it and the one shown.
    pub showing: Option<(Vec<String>, usize)>,
    /// The save text last written or loaded: the game is saved while it is unchanged.
    pub saved: Option<String>,
}

/// The person's last move that gave away value, and how the opponent punishes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistake {
    /// What the mistake was, in the one wording of every front end
    /// (`refute::mistake_text`): "7-4 loses in 4 is a mistake where 8-5 loses in 6."
    pub said: String,
    /// The principal line from the position after the mistake, as people write it:
    /// each side's best move in turn, to the end (at most [`REFUTATION_PLIES`]).
    pub line: Vec<String>,
    /// The positions along the line (written as the game writes them), the one after
    /// the mistake first.
    pub positions: Vec<String>,
}

/// The longest refutation shown, in plies.
pub const REFUTATION_PLIES: usize = 16;

/// The seat index of `player`.
fn seat(player: Player) -> usize {
    match player {
        Player::X => 0,
        Player::O => 1,
    }
}

impl<G: Game> Session<G> {
    /// A new game of `oracle`'s game.
    pub fn new(oracle: Box<dyn Oracle<G>>, seats: [Option<Engine>; 2], file: PathBuf) -> Self {
        let look = Look::of(&oracle.game().id());
        Session {
            oracle,
            look,
            seats,
            moves: Vec::new(),
            played: 0,
            hints: false,
            message: String::new(),
            file,
            typed: String::new(),
            auto: false,
            showing: None,
            saved: None,
        }
    }

    /// The game.
    pub fn game(&self) -> &G {
        self.oracle.game()
    }

    /// The position after the moves played.
    pub fn position(&self) -> G::Position {
        let game = self.game();
        self.moves[..self.played]
            .iter()
            .fold(game.start(), |p, &mv| game.play(&p, mv))
    }

    /// The moves played, as people write them.
    pub fn played(&self) -> Vec<String> {
        self.moves[..self.played]
            .iter()
            .map(|&mv| self.game().write_move(mv, Notation::People))
            .collect()
    }

    /// How many times the position now on the board has stood there in this game
    /// (1 the first time): the morris games' positions repeat, and two engines
    /// drawing one would play on forever.
    pub fn occurrences(&self) -> usize {
        let game = self.game();
        let now = self.position();
        let mut p = game.start();
        let mut count = usize::from(p == now);
        for &mv in &self.moves[..self.played] {
            p = game.play(&p, mv);
            count += usize::from(p == now);
        }
        count
    }

    /// Whether two engines are to stop: the position on the board has stood there
    /// three times (they would repeat it forever); what is said then.
    pub fn engines_stop(&self) -> Option<String> {
        let engines = self.seats.iter().all(Option::is_some);
        (engines && self.result().is_none() && self.occurrences() >= 3).then(|| {
            format!(
                "The engines stop: this position has stood here three times and play would \
                 repeat forever (its value: {}).",
                self.value().unwrap_or_default()
            )
        })
    }

    /// The side to move.
    pub fn to_move(&self) -> Player {
        self.game().to_move(&self.position())
    }

    /// The engine playing `player` now, if one does: its level, having observed
    /// every move the other side played in this game (`adaptive` learns from them; it
    /// plays only from a solved table).
    pub fn engine(&self, player: Player) -> Option<Engine> {
        let mut engine = self.seats[seat(player)].clone()?;
        if let (true, Some(table)) = (engine.has_memory(), self.oracle.table()) {
            let game = self.game();
            let mut p = game.start();
            for &mv in &self.moves[..self.played] {
                if game.to_move(&p) != player {
                    engine.observe(table, &p, mv);
                }
                p = game.play(&p, mv);
            }
        }
        Some(engine)
    }

    /// `adaptive`'s estimate of its opponent, as said after its name: `, you play like
    /// ε ≈ 0.2` (`the opponent plays like` when an engine plays the other side);
    /// empty for the other levels.
    pub fn estimate_text(&self, player: Player) -> String {
        let Some(estimate) = self.engine(player).and_then(|e| e.estimate()) else {
            return String::new();
        };
        match self.seats[seat(player.other())] {
            None => format!(", you play like ε ≈ {estimate}"),
            Some(_) => format!(", the opponent plays like ε ≈ {estimate}"),
        }
    }

    /// The side's name with who plays it: `X (you)`, `O (perfect)`, `O (adaptive, you
    /// play like ε ≈ 0.2)`.
    pub fn player_name(&self, player: Player) -> String {
        let who = match &self.seats[seat(player)] {
            None if self.seats.iter().all(Option::is_none) => "person".to_string(),
            None => "you".to_string(),
            Some(engine) => format!("{engine}{}", self.estimate_text(player)),
        };
        format!("{} ({who})", self.look.side(player))
    }

    /// The end of the game, if it is over: `X (you) wins`, `a draw`.
    pub fn result(&self) -> Option<String> {
        let p = self.position();
        let outcome = self.game().primitive(&p)?;
        let mover = self.game().to_move(&p);
        Some(match outcome {
            Outcome::Draw => "a draw".to_string(),
            Outcome::Win => format!("{} wins", self.player_name(mover)),
            Outcome::Loss => format!("{} wins", self.player_name(mover.other())),
        })
    }

    /// Whether an engine is to move and the game goes on.
    pub fn engine_to_move(&self) -> bool {
        self.result().is_none() && self.seats[seat(self.to_move())].is_some()
    }

    /// The status line: the result, or who is to move and how moves are typed.
    pub fn status(&self) -> String {
        match self.result() {
            Some(result) => format!("Game over: {result}."),
            None => format!(
                "{} to move: {}.",
                self.player_name(self.to_move()),
                self.game().move_syntax(Notation::People)
            ),
        }
    }

    /// Plays the move written `text` (people's notation), or says why it is not one.
    pub fn play_text(&mut self, text: &str) -> Result<(), String> {
        let p = self.position();
        let mv = self
            .game()
            .parse_move(&p, text, Notation::People)
            .map_err(|e| e.to_string())?;
        self.play(mv);
        Ok(())
    }

    /// Plays `mv`, a legal move; the undone moves are forgotten.
    pub fn play(&mut self, mv: G::Move) {
        self.moves.truncate(self.played);
        self.moves.push(mv);
        self.played += 1;
        self.typed.clear();
    }

    /// The engine to move plays (a move its level chooses,
    /// [`Engine::choose`]); what it played, as `O (perfect) plays 4`.
    pub fn engine_step<R: rand_core::Rng + ?Sized>(&mut self, rng: &mut R) -> Option<String> {
        if !self.engine_to_move() {
            return None;
        }
        let engine = self.engine(self.to_move())?;
        let p = self.position();
        let mv = crate::oracle::choose(&*self.oracle, &engine, &p, rng).ok()?;
        let value = self
            .oracle
            .record(&self.game().play(&p, mv))
            .map(|child| value_text(move_record(child)))
            .unwrap_or_default();
        let said = format!(
            "{} plays {}: {value}",
            self.player_name(self.to_move()),
            self.game().write_move(mv, Notation::People)
        );
        self.play(mv);
        Some(said)
    }

    /// Takes back moves to the last turn of a person (one move when two engines
    /// play); `false` at the start.
    pub fn undo(&mut self) -> bool {
        if self.played == 0 {
            return false;
        }
        self.played -= 1;
        while self.played > 0 && self.seats.iter().any(Option::is_none) && self.engine_to_move() {
            self.played -= 1;
        }
        self.typed.clear();
        true
    }

    /// Plays again the moves undone, up to a person's turn; `false` when none is.
    pub fn redo(&mut self) -> bool {
        if self.played == self.moves.len() {
            return false;
        }
        self.played += 1;
        while self.played < self.moves.len()
            && self.seats.iter().any(Option::is_none)
            && self.engine_to_move()
        {
            self.played += 1;
        }
        self.typed.clear();
        true
    }

    /// A new game, same players.
    pub fn new_game(&mut self) {
        self.moves.clear();
        self.played = 0;
        self.typed.clear();
    }

    /// The value of the position for the side to move (`draw`, `win in 3`).
    pub fn value(&self) -> Option<String> {
        let p = self.position();
        self.oracle.record(&p).map(value_text)
    }

    /// Every legal move with its value and remoteness for the side making it, best
    /// first: `4 win in 3`, `1 draw`, `2 loss in 4`.
    pub fn hints(&self) -> Vec<String> {
        self.rated_hints()
            .into_iter()
            .map(|(_, text)| text)
            .collect()
    }

    /// [`hints`](Session::hints), each with its value's outcome for the side making
    /// the move (the full-screen game colours it).
    pub fn rated_hints(&self) -> Vec<(Outcome, String)> {
        let game = self.game();
        let p = self.position();
        let children = self
            .oracle
            .answer(&p)
            .map(|(_, children)| children)
            .unwrap_or_default();
        let mut rated: Vec<(i32, Outcome, String)> = children
            .into_iter()
            .map(|(mv, child)| {
                let record = move_record(child);
                let text = format!(
                    "{} {}",
                    game.write_move(mv, Notation::People),
                    value_text(record)
                );
                (rank(record), record.outcome, text)
            })
            .collect();
        rated.sort_by_key(|(rank, _, _)| *rank);
        rated
            .into_iter()
            .map(|(_, outcome, text)| (outcome, text))
            .collect()
    }

    /// Why the best moves are best, in words, for the side to move: the legal moves
    /// grouped by what they lead to, best first (`5 keeps the draw; 1, 3, 7, 9 lose in
    /// 7`); `None` when the game is over.
    pub fn why(&self) -> Option<String> {
        let game = self.game();
        let p = self.position();
        if game.primitive(&p).is_some() {
            return None;
        }
        let (_, children) = self.oracle.answer(&p)?;
        let mut groups: Vec<(i32, Outcome, u8, Vec<String>)> = Vec::new();
        for (mv, child) in children {
            let record = move_record(child);
            let r = record.remoteness;
            let rank = rank(record);
            let written = game.write_move(mv, Notation::People);
            match groups.iter_mut().find(|g| g.0 == rank) {
                Some(group) => group.3.push(written),
                None => groups.push((rank, record.outcome, r, vec![written])),
            }
        }
        groups.sort_by_key(|g| g.0);
        // Only the best moves keep a draw; a draw beside a win is said "draw".
        let parts: Vec<String> = groups
            .iter()
            .enumerate()
            .map(|(i, (_, outcome, r, moves))| {
                format!(
                    "{} {}",
                    moves.join(", "),
                    verb(*outcome, *r, moves.len() == 1, i == 0)
                )
            })
            .collect();
        Some(parts.join("; "))
    }

    /// The person's last move, if it gave away value (a win to a draw or a loss, a
    /// draw to a loss, a win or loss further off than the best), with the best moves'
    /// value and the principal line that punishes it.
    pub fn last_mistake(&self) -> Option<Mistake> {
        let game = self.game();
        let mut positions = vec![game.start()];
        for &mv in &self.moves[..self.played] {
            let last = *positions.last()?;
            positions.push(game.play(&last, mv));
        }
        for ply in (0..self.played).rev() {
            let before = positions[ply];
            if self.seats[seat(game.to_move(&before))].is_some() {
                continue;
            }
            let after = positions[ply + 1];
            let got = move_record(self.oracle.record(&after)?);
            let best_moves = self.oracle.best_moves(&before);
            let best_move = *best_moves.first()?;
            let best = move_record(self.oracle.record(&game.play(&before, best_move))?);
            if rank(got) <= rank(best) {
                return None;
            }
            let write = |mv| game.write_move(mv, Notation::People);
            let mut line = Vec::new();
            let mut shown = vec![game.write_position(&after, Notation::People)];
            let mut p = after;
            while line.len() < REFUTATION_PLIES {
                let Some(&mv) = self.oracle.best_moves(&p).first() else {
                    break;
                };
                line.push(write(mv));
                p = game.play(&p, mv);
                shown.push(game.write_position(&p, Notation::People));
            }
            let names: Vec<String> = best_moves.iter().map(|&mv| write(mv)).collect();
            return Some(Mistake {
                said: mistake_text(
                    &write(self.moves[ply]),
                    (got.outcome, got.remoteness),
                    &names,
                    (best.outcome, best.remoteness),
                ),
                line,
                positions: shown,
            });
        }
        None
    }

    /// Whether quitting would lose something: a game in progress (moves played, not
    /// over) other than the one last saved or loaded.
    pub fn unsaved(&self) -> bool {
        self.played > 0
            && self.result().is_none()
            && self.saved.as_deref() != Some(self.save_text().as_str())
    }

    /// The save file's text: the game's id, the moves (played and undone) in the API
    /// notation (numbered from 0), and how many are played.
    pub fn save_text(&self) -> String {
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|&mv| self.game().write_move(mv, Notation::Api))
            .collect();
        json!({"game": self.game().id(), "moves": moves, "cursor": self.played}).to_string()
    }

    /// The save file's text with its final newline, or why this game cannot be saved
    /// so that it loads back (more than [`MAX_SAVED_MOVES`] moves, or longer than
    /// [`MAX_SAVE_BYTES`]): refused before anything is written.
    pub fn save_file_text(&self) -> Result<String, String> {
        if self.moves.len() > MAX_SAVED_MOVES {
            return Err(format!(
                "{} moves (played and undone): a save holds at most {MAX_SAVED_MOVES}",
                self.moves.len()
            ));
        }
        let text = self.save_text() + "\n";
        if text.len() as u64 > MAX_SAVE_BYTES {
            return Err(format!(
                "{} bytes: a save holds at most {MAX_SAVE_BYTES}",
                text.len()
            ));
        }
        Ok(text)
    }

    /// Reads a save file's text into this game, or says why it cannot (another game's
    /// save, a move that is not legal); the game is unchanged on an error.
    pub fn load_text(&mut self, text: &str) -> Result<(), String> {
        let (moves, cursor) = self.check_save(text)?;
        self.moves = moves;
        self.played = cursor;
        self.typed.clear();
        Ok(())
    }

    /// A save file's text checked as a game of this game: its moves (played and
    /// undone) and how many are played, or why it cannot be loaded; the game is not
    /// touched (`l` checks first and asks only when the load can succeed).
    pub fn check_save(&self, text: &str) -> Result<(Vec<G::Move>, usize), String> {
        let id = self.game().id();
        let value: Value =
            serde_json::from_str(text).map_err(|e| format!("not a saved game: {e}"))?;
        match value.get("game").and_then(Value::as_str) {
            Some(saved) if saved == id => {}
            Some(saved) => {
                return Err(format!(
                    "a saved game of {saved}, not of {id}: play it with --game {saved}"
                ))
            }
            None => return Err(format!("not a saved game of {id} (no \"game\" field)")),
        }
        let written = value
            .get("moves")
            .and_then(Value::as_array)
            .ok_or("not a saved game: no \"moves\" list")?;
        if written.len() > MAX_SAVED_MOVES {
            return Err(format!(
                "more than {MAX_SAVED_MOVES} moves: not a saved game"
            ));
        }
        let game = self.game();
        let mut p = game.start();
        let mut moves = Vec::with_capacity(written.len());
        for (i, w) in written.iter().enumerate() {
            let w = w
                .as_str()
                .ok_or("not a saved game: a move that is not a string")?;
            let mv = game
                .parse_move(&p, w, Notation::Api)
                .map_err(|e| format!("move {} of the save: {e}", i + 1))?;
            p = game.play(&p, mv);
            moves.push(mv);
        }
        let cursor = value
            .get("cursor")
            .and_then(Value::as_u64)
            .and_then(|c| usize::try_from(c).ok())
            .filter(|&c| c <= moves.len())
            .ok_or("not a saved game: no \"cursor\" within the moves")?;
        Ok((moves, cursor))
    }

    /// A key typed in the full-screen game (a digit or `-`): added to the move being
    /// typed ([`type_key_at`]), played as soon as it names one legal move and no longer
    /// one starts with it. `Err` when no legal move starts so.
    pub fn type_key(&mut self, key: char) -> Result<bool, String> {
        let p = self.position();
        match type_key_at(self.oracle.game(), &p, &mut self.typed, key)? {
            Some(mv) => {
                self.play(mv);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Enter in the full-screen game: plays the move typed so far if it is one.
    pub fn enter(&mut self) -> Result<bool, String> {
        if self.typed.is_empty() {
            return Ok(false);
        }
        let typed = std::mem::take(&mut self.typed);
        self.play_text(&typed).map(|()| true)
    }
}

/// Where a move's record (for the side making it) ranks, best first: the fastest win,
/// a draw, the slowest loss.
fn rank(record: tictable_games::Record) -> i32 {
    let r = i32::from(record.remoteness);
    match record.outcome {
        Outcome::Win => -1000 + r,
        Outcome::Draw => 0,
        Outcome::Loss => 1000 - r,
    }
}

/// A key typed (a digit or `-`) in position `p`, added to `typed`, the move typed so
/// far: the move when `typed` then names one legal move and no longer one starts with
/// it (`typed` cleared); after a point that is not a move but a slide starts there, the
/// `-` is added (two keys, from and to). `Err` when no legal move starts so (`typed`
/// cleared). The full-screen game and the full-screen puzzle type moves with it.
pub fn type_key_at<G: Game>(
    game: &G,
    p: &G::Position,
    typed: &mut String,
    key: char,
) -> Result<Option<G::Move>, String> {
    let mut moves = Vec::new();
    if game.primitive(p).is_none() {
        game.moves(p, &mut moves);
    }
    let written: Vec<(G::Move, String)> = moves
        .into_iter()
        .map(|mv| (mv, game.write_move(mv, Notation::People)))
        .collect();
    if key == '-' && (typed.is_empty() || typed.ends_with('-')) {
        // The `-` of a slide comes by itself: typing it too changes nothing.
        return Ok(None);
    }
    let mut next = format!("{typed}{key}");
    let starts = |t: &str| written.iter().filter(|(_, w)| w.starts_with(t)).count();
    if starts(&next) == 0 {
        let syntax = game.move_syntax(Notation::People);
        typed.clear();
        return Err(format!(
            "no legal move starts with {next} (moves are {syntax})"
        ));
    }
    let exact = written.iter().find(|(_, w)| *w == next).map(|(mv, _)| *mv);
    match exact {
        Some(mv) if starts(&next) == 1 => {
            typed.clear();
            return Ok(Some(mv));
        }
        None if starts(&format!("{next}-")) == starts(&next) => next.push('-'),
        _ => {}
    }
    *typed = next;
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictable_games::{catalog, solve, Hexapawn, Morris};

    fn session<G: Game + 'static>(game: G, seats: [&str; 2]) -> Session<G> {
        let seats = seats.map(|s| (s != "human").then(|| s.parse().unwrap()));
        Session::new(Box::new(solve(game).unwrap()), seats, "g.json".into())
    }

    #[test]
    fn slides_and_pawn_moves_take_two_keys() {
        let mut s = session(Hexapawn, ["human"; 2]);
        assert_eq!(s.type_key('7'), Ok(false));
        assert_eq!(s.typed, "7-");
        assert_eq!(s.type_key('-'), Ok(false));
        assert_eq!(s.type_key('4'), Ok(true));
        assert_eq!(s.played(), ["7-4"]);
        assert!(s.type_key('5').unwrap_err().contains("from-to"));
        let mut m = session(Morris::three_mens_morris(), ["human"; 2]);
        assert_eq!(m.type_key('5'), Ok(true));
        assert_eq!(m.played(), ["5"]);
    }

    #[test]
    fn cells_above_9_wait_for_a_second_digit_or_enter() {
        let catalog::AnyGame::Mnk(g) = catalog::parse("mnk:4,3,3").unwrap() else {
            unreachable!()
        };
        let mut s = session(g, ["human"; 2]);
        assert_eq!(s.type_key('1'), Ok(false));
        assert_eq!(s.enter(), Ok(true));
        assert_eq!(s.type_key('1'), Ok(false));
        assert_eq!(s.type_key('2'), Ok(true));
        assert_eq!(s.played(), ["1", "12"]);
        assert_eq!(s.type_key('7'), Ok(true));
    }

    #[test]
    fn undo_returns_to_the_persons_turn_and_saves_name_the_game() {
        let mut s = session(Hexapawn, ["human", "perfect"]);
        s.play_text("8-5").unwrap();
        let said = s.engine_step(&mut rand_pcg::Pcg64Mcg::new(1)).unwrap();
        assert!(said.starts_with("Black (perfect) plays "), "{said}");
        assert!(s.undo());
        assert!(s.played().is_empty());
        assert!(s.redo());
        assert_eq!(s.played().len(), 2);
        let saved = s.save_text();
        let mut t = session(Hexapawn, ["human"; 2]);
        t.load_text(&saved).unwrap();
        assert_eq!(t.played(), s.played());
        let mut m = session(Morris::tapatan(), ["human"; 2]);
        let e = m.load_text(&saved).unwrap_err();
        assert!(e.contains("of hexapawn, not of tapatan"), "{e}");
        assert!(m.load_text(r#"{"moves":[4],"cursor":1}"#).is_err());
        assert!(s.play_text("9").unwrap_err().contains("from-to"));
    }

    #[test]
    fn a_long_morris_game_saves_and_loads_back_and_a_longer_one_is_refused() {
        // Placed, then X and O slide a piece away and back: 6 + 4 * 200 = 806 moves,
        // more than the old 4,096-byte file held.
        let mut s = session(Morris::three_mens_morris(), ["human"; 2]);
        for mv in "1 2 6 4 8 9".split(' ') {
            s.play_text(mv).unwrap();
        }
        let cycle = ["8-7", "2-3", "7-8", "3-2"];
        for mv in cycle.iter().cycle().take(800) {
            s.play_text(mv).unwrap();
        }
        assert_eq!(s.played().len(), 806);
        let text = s.save_file_text().unwrap();
        assert!(text.len() > 4096, "{}", text.len());
        let path = std::env::temp_dir().join(format!("tictable-long-{}.json", std::process::id()));
        std::fs::write(&path, &text).unwrap();
        let read = super::super::read_save(&path);
        std::fs::remove_file(&path).unwrap();
        let mut t = session(Morris::three_mens_morris(), ["human"; 2]);
        t.load_text(&read.unwrap()).unwrap();
        assert_eq!(t.played(), s.played());
        assert_eq!(t.position(), s.position());
        // The longest game a save holds saves and loads back.
        for mv in cycle.iter().cycle().take(MAX_SAVED_MOVES - 806) {
            s.play_text(mv).unwrap();
        }
        let text = s.save_file_text().unwrap();
        assert!(text.len() as u64 <= MAX_SAVE_BYTES);
        t.load_text(&text).unwrap();
        assert_eq!(t.played().len(), MAX_SAVED_MOVES);
        // One move more: refused before writing, the game kept.
        s.play_text(cycle[(MAX_SAVED_MOVES - 6) % 4]).unwrap();
        let Err(e) = s.save_file_text() else {
            panic!("a game of 4001 moves saved");
        };
        assert!(
            e.contains("4001 moves") && e.contains("at most 4000"),
            "{e}"
        );
        assert_eq!(s.played().len(), MAX_SAVED_MOVES + 1);
    }

    #[test]
    fn a_huge_save_file_is_refused_unread() {
        let path = std::env::temp_dir().join(format!("tictable-huge-{}.json", std::process::id()));
        std::fs::write(&path, vec![b' '; 10 * MAX_SAVE_BYTES as usize]).unwrap();
        let e = super::super::read_save(&path).unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert!(
            e.contains(&format!("larger than {MAX_SAVE_BYTES} bytes")),
            "{e}"
        );
        let e = super::super::read_save(std::path::Path::new("/dev/zero")).unwrap_err();
        assert!(e.contains("not a saved game"), "{e}");
        // docs/cli.md states both limits.
        let doc = include_str!("../../../docs/cli.md");
        assert!(doc.contains(&format!("larger than {MAX_SAVE_BYTES} bytes")));
        assert!(doc.contains(&format!("a save holds at most {MAX_SAVED_MOVES}\"")));
    }

    #[test]
    fn two_engines_stop_when_a_position_stands_a_third_time() {
        let mut s = session(Morris::tapatan(), ["random"; 2]);
        // Placed, then X and O slide a piece away and back, twice.
        for mv in "1 2 6 4 8 9 8-7 2-3 7-8 3-2 8-7 2-3 7-8".split(' ') {
            s.play_text(mv).unwrap();
            assert!(s.engines_stop().is_none(), "{:?}", s.played());
        }
        s.play_text("3-2").unwrap();
        assert_eq!(s.occurrences(), 3);
        let said = s.engines_stop().unwrap();
        assert!(said.contains("three times"), "{said}");
    }

    #[test]
    fn a_mistake_is_shown_with_the_line_that_punishes_it() {
        let mut s = session(Hexapawn, ["human", "perfect"]);
        s.play_text("8-5").unwrap();
        assert_eq!(s.last_mistake(), None, "8-5 is White's best");
        s.new_game();
        s.play_text("7-4").unwrap();
        let m = s.last_mistake().unwrap();
        assert_eq!(m.said, "7-4 loses in 4 is a mistake where 8-5 loses in 6.");
        // Four plies to the end: Black, White, Black, White's last, then no move.
        assert_eq!(m.line.len(), 3, "{:?}", m.line);
        assert_eq!(m.positions.len(), 4);
        assert_eq!(m.positions[0], "OOO/X../.XX O");
    }

    #[test]
    fn adaptive_learns_from_the_persons_moves_and_undo_takes_it_back() {
        let mut s = session(Hexapawn, ["human", "adaptive"]);
        let said = |s: &Session<Hexapawn>| s.player_name(Player::O);
        assert_eq!(said(&s), "Black (adaptive, you play like ε ≈ 0.5)");
        // Every White move loses (Gardner), so 7-4 keeps the value: the estimate
        // moves all the same (a safe move among few legal ones says little of ε).
        s.play_text("7-4").unwrap();
        let after = said(&s);
        assert!(
            after.starts_with("Black (adaptive, you play like ε ≈ "),
            "{after}"
        );
        s.undo();
        assert_eq!(said(&s), "Black (adaptive, you play like ε ≈ 0.5)");
        let mut m = session(tictable_games::TicTacToe::normal(), ["human", "adaptive"]);
        // X keeps the draw with 1 and 9, then plays 3 instead of blocking O's 2-5-8:
        // a move that gives the draw away raises the estimate of ε.
        for mv in ["1", "5", "9", "2"] {
            m.play_text(mv).unwrap();
        }
        let before = m.engine(Player::O).unwrap().estimate().unwrap();
        m.play_text("3").unwrap();
        let careless = m.engine(Player::O).unwrap().estimate().unwrap();
        assert!(careless > before, "{careless} vs {before}");
        let watched = session(Hexapawn, ["random", "adaptive"]);
        assert_eq!(
            watched.player_name(Player::O),
            "Black (adaptive, the opponent plays like ε ≈ 0.5)"
        );
    }

    #[test]
    fn why_groups_the_moves_by_what_they_lead_to_best_first() {
        let s = session(tictable_games::TicTacToe::normal(), ["human"; 2]);
        // Every first move of tic-tac-toe draws (Berlekamp, Conway and Guy, Winning
        // Ways, ch. 22).
        assert_eq!(s.why().unwrap(), "1, 2, 3, 4, 5, 6, 7, 8, 9 keep the draw");
        let mut s = session(Hexapawn, ["human"; 2]);
        // Gardner: White loses; 8-5 holds out longest.
        assert_eq!(s.why().unwrap(), "8-5 loses in 6; 7-4, 9-6 lose in 4");
        s.play_text("8-5").unwrap();
        assert_eq!(s.why().unwrap(), "1-5, 3-5 win in 5; 1-4, 3-6 lose in 2");
        // Only the best keep the draw: beside a win, a draw is said "draw".
        let mut s = session(tictable_games::TicTacToe::normal(), ["human"; 2]);
        for mv in ["1", "2", "5", "9"] {
            s.play_text(mv).unwrap();
        }
        assert_eq!(s.why().unwrap(), "4, 7 win in 3; 3, 6, 8 draw");
    }
}
