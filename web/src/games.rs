//! Every game of `tictable-games` on the page: a game chosen by its id is solved in
//! the browser (every reachable position's value and remoteness, the crate's one
//! solver) and then answered from that table.
//!
//! The page keeps the moves played as indices into each position's move list (in
//! the order of [`Game::moves`]); [`game_view`] replays them from the start and
//! answers the last position as JSON. Positions are written in the crate's own
//! notation with 0-based numbers (`Notation::Api`: rows of `X`, `O`, `.` joined by
//! `/`, top row first, then the side to move where the game needs it); the page
//! draws the board from that text and finds a move's squares by comparing the
//! position with the child the move leads to, so it needs no per-game move code.
//!
//! The levels that search (`sharp`, `gentle:F`, `adaptive`) are the games crate's
//! [`Player`]s over the same table ([`game_choose`]), offered in the games without
//! repeated positions whose table is small enough to search in the page
//! ([`SEARCH_LIMIT`]); `adaptive` learns from the person's moves ([`game_observe`]).
//!
//! A Connect Four board whose table would take more than [`TABLE_LIMIT`] bytes
//! (`connect4:4x6`, `6x4`, `5x5`: 260 to 992 MB) is not solved: `Live` answers each
//! position the page asks for with the games crate's exact live search
//! ([`tictable_games::search`]: the same values and remoteness, a transposition table of
//! [`DEFAULT_TABLE_BYTES`]); its puzzles are found by that search
//! ([`puzzle::find_live`]). The levels that need the whole table are not offered there.

use crate::answer;
use std::cell::RefCell;
use std::fmt::Write as _;
use tictable::strategy::{Level, MistakeRate, Strategy};
use tictable_games::catalog::AnyGame;
use tictable_games::players::Player;
use tictable_games::puzzle::{self, Puzzle, Verdict};
use tictable_games::search::{Searcher, DEFAULT_TABLE_BYTES};
use tictable_games::{
    catalog, combine, dispatch, solve, Connect4Position, ConnectFour, Game, Notation, Outcome,
    Record, Solution,
};

/// The most positions a game's table may have for the page to offer the levels that
/// search the whole game ([`Player`]'s exact expectimax): tic-tac-toe, misère,
/// hexapawn, `mnk:4,3,3` (111,973) and `connect4:4x4` (161,029) are under it; the
/// 1.7 to 9.7 million positions of the larger boards take too long and too much memory
/// for exact rationals in a page.
pub const SEARCH_LIMIT: u64 = 200_000;

/// The largest table (bytes, one per key) the page solves when a game is chosen: the
/// 43 MB of `mnk:4,4,4` are under it; Connect Four boards over it are searched live
/// (`Live`), by the rule `tictable analyse` follows too
/// ([`tictable_games::search::searched_live`]).
pub const TABLE_LIMIT: u64 = tictable_games::search::LIVE_ABOVE_BYTES;

/// A solved game as the page uses it, whatever its position and move types.
trait Solved {
    /// The JSON view of the position after `moves` (indices into move lists).
    fn view(&self, moves: &[u32]) -> String;
    /// The JSON summary: id, rules, positions, start value, table bytes.
    fn summary(&self) -> String;
    /// The puzzles per remoteness, counted exactly (`puzzle::counts`), as JSON.
    fn puzzle_counts(&self) -> String;
    /// Serves a new puzzle of `remoteness` (any when `None`) and keeps it; JSON.
    fn puzzle_new(&self, remoteness: Option<u8>) -> String;
    /// Judges the move of index `index` (in the puzzle position's move list) as the
    /// table does (`puzzle::judge`); JSON.
    fn puzzle_judge(&self, index: u32) -> String;
    /// The hint of the puzzle served (`puzzle::hint`), as JSON.
    fn puzzle_hint(&self) -> String;
    /// The move (its index in the position's move list) of level `level` (the
    /// selector's number, [`Level::ALL`]'s order) with parameter `rate` / 10 000 (F
    /// for `gentle`) after `moves`; -1 for a finished game, bad moves, or a level this
    /// game does not offer (see [`Solved::searches`]).
    fn choose(&self, moves: &[u32], level: u32, rate: u32) -> i32;
    /// Reports the person's last move of `moves` to the game's `adaptive` player;
    /// returns its estimate (see [`Solved::estimate`]).
    fn observe(&self, moves: &[u32]) -> i32;
    /// The game's `adaptive` player's estimate of the person's ε (its posterior mean)
    /// in units of 1/10 000.
    fn estimate(&self) -> i32;
    /// Whether the page offers `sharp`, `gentle` and `adaptive` in this game: no
    /// repeated positions and at most [`SEARCH_LIMIT`] positions.
    fn searches(&self) -> bool;
}

/// A solved game and the puzzle served from it, if any.
struct Held<G: Game> {
    solution: Solution<G>,
    puzzle: RefCell<Option<Puzzle<G>>>,
    /// The last searching player used (`sharp` or one `gentle:F`), kept for its cache
    /// of exact values; one at a time, so the page's memory stays bounded.
    player: RefCell<Option<(Strategy, Player)>>,
    /// `adaptive`'s estimate of the person: it lasts while the game stays chosen,
    /// across its games.
    adaptive: RefCell<Player>,
    /// See [`Solved::searches`] (computed once: the summary walks the table).
    searches: bool,
}

impl<G: Game> Held<G> {
    fn new(solution: Solution<G>) -> Held<G> {
        let searches = !solution.game().repeats() && solution.summary().positions <= SEARCH_LIMIT;
        Held {
            searches,
            solution,
            puzzle: RefCell::new(None),
            player: RefCell::new(None),
            adaptive: RefCell::new(
                Player::new(Strategy::new(Level::Adaptive)).expect("adaptive plays every game"),
            ),
        }
    }

    /// The position after `moves` (see [`replay`]).
    fn replay(&self, moves: &[u32]) -> Result<G::Position, String> {
        replay(self.solution.game(), moves)
    }

    /// The player of the selector's level `level` with parameter `rate` / 10 000.
    /// `adaptive` is a fresh player with the held estimate (its cache of exact values
    /// is per estimate, so it is not kept).
    fn player(&self, level: u32, rate: u32) -> Option<Player> {
        let level = *Level::ALL.get(level as usize)?;
        if !matches!(level, Level::Sharp | Level::Gentle | Level::Adaptive) || !self.searches {
            return None;
        }
        if level == Level::Adaptive {
            let posterior = *self.adaptive.borrow().posterior();
            return Player::new(Strategy::new(level).with_posterior(posterior)).ok();
        }
        let rate = MistakeRate::new(u16::try_from(rate).ok()?)?;
        let strategy = if level == Level::Gentle {
            Strategy::new(level).with_mistake_rate(rate).ok()?
        } else {
            Strategy::new(level)
        };
        let mut held = self.player.borrow_mut();
        match held.as_ref() {
            Some((s, p)) if *s == strategy => Some(p.clone()),
            _ => {
                let p = Player::new(strategy).ok()?;
                *held = Some((strategy, p.clone()));
                Some(p)
            }
        }
    }
}

/// The position of `game` after `moves` (indices into each position's move list), or
/// the error's words.
fn replay<G: Game>(game: &G, moves: &[u32]) -> Result<G::Position, String> {
    let mut p = game.start();
    let mut list = Vec::new();
    for (ply, &m) in moves.iter().enumerate() {
        list.clear();
        if game.primitive(&p).is_none() {
            game.moves(&p, &mut list);
        }
        let Some(&mv) = list.get(m as usize) else {
            return Err(format!("move {m} at ply {ply} is not a legal move's index"));
        };
        p = game.play(&p, mv);
    }
    Ok(p)
}

/// A Connect Four board too large to solve in the page, answered position by position
/// by the live search; its start's record found when it is chosen.
struct Live {
    searcher: RefCell<Searcher>,
    start: Record,
    /// The puzzle served, found by the search ([`puzzle::find_live`]).
    puzzle: RefCell<Option<Puzzle<ConnectFour>>>,
}

/// What the page says where a level would need the whole table.
const NEEDS_TABLE: &str = "they need the whole table, which this page does not hold for this board (it searches each position live)";

/// What the page says of the puzzles of a board searched live.
const LIVE_PUZZLES: &str = "Found live: random positions, each judged by the exact search (a win, exactly one winning move, the remoteness chosen), the answer judged by the search";

impl Live {
    fn new(game: ConnectFour) -> Result<Live, String> {
        let mut searcher = Searcher::new(game, DEFAULT_TABLE_BYTES).map_err(|e| e.to_string())?;
        let start = searcher.record(&game.start());
        Ok(Live {
            searcher: RefCell::new(searcher),
            start,
            puzzle: RefCell::new(None),
        })
    }

    fn position(&self, moves: &[u32]) -> Result<(ConnectFour, Connect4Position), String> {
        let game = *self.searcher.borrow().game();
        Ok((game, replay(&game, moves)?))
    }
}

impl Solved for Live {
    fn view(&self, moves: &[u32]) -> String {
        let (game, p) = match self.position(moves) {
            Ok(found) => found,
            Err(e) => return format!("{{\"error\":\"{e}\"}}"),
        };
        let mut searcher = self.searcher.borrow_mut();
        let (record, children) = match searcher.moves(&p) {
            Some((record, children)) => (
                record,
                children.into_iter().map(|(mv, r)| (mv, Some(r))).collect(),
            ),
            None => (searcher.record(&p), Vec::new()),
        };
        view_json(&game, &p, record, children)
    }

    fn summary(&self) -> String {
        let searcher = self.searcher.borrow();
        let game = searcher.game();
        // No table, so no count of positions; the chart's longest remoteness is the
        // board's cells, a bound (the solver's exact one needs the whole table).
        format!(
            "{{\"id\":\"{}\",\"rules\":\"{}\",\"positions\":null,\"start\":\"{}\",\"start_remoteness\":{},\"max_remoteness\":{},\"table_bytes\":{},\"key_space\":{},\"repeats\":false,\"searches\":false,\"live\":true,\"needs_table\":\"{NEEDS_TABLE}\"}}",
            game.id(),
            game.rules().replace('"', "'"),
            outcome_word(self.start.outcome),
            self.start.remoteness,
            game.width() * game.height(),
            searcher.table_bytes(),
            game.key_space(),
        )
    }

    fn puzzle_counts(&self) -> String {
        // No table to count them: every odd remoteness a board of this size can hold
        // is offered (a win takes an odd number of plies), each found at random.
        let game = *self.searcher.borrow().game();
        let cells = game.width() * game.height();
        let counts: Vec<String> = (1..cells)
            .step_by(2)
            .map(|r| format!("{{\"remoteness\":{r},\"classes\":null,\"positions\":null}}"))
            .collect();
        format!(
            "{{\"counts\":[{}],\"live\":true,\"tries\":{},\"note\":\"{LIVE_PUZZLES}\"}}",
            counts.join(","),
            puzzle::LIVE_TRIES
        )
    }

    fn puzzle_new(&self, remoteness: Option<u8>) -> String {
        let mut searcher = self.searcher.borrow_mut();
        let found = crate::RNG.with(|r| {
            puzzle::find_live(
                &mut searcher,
                remoteness,
                &mut *r.borrow_mut(),
                puzzle::LIVE_TRIES,
            )
        });
        match found {
            Ok(p) => {
                let s = puzzle_json(searcher.game(), &p);
                *self.puzzle.borrow_mut() = Some(p);
                s
            }
            Err(e) => format!("{{\"error\":\"{e}\"}}"),
        }
    }

    fn puzzle_judge(&self, index: u32) -> String {
        let held = self.puzzle.borrow();
        let Some(p) = held.as_ref() else {
            return "{\"error\":\"no puzzle served\"}".to_string();
        };
        let mut searcher = self.searcher.borrow_mut();
        let game = *searcher.game();
        judge_json(&game, p, index, |mv| {
            puzzle::judge_live(&mut searcher, &p.position, mv)
        })
    }

    fn puzzle_hint(&self) -> String {
        let held = self.puzzle.borrow();
        let Some(p) = held.as_ref() else {
            return "{\"error\":\"no puzzle served\"}".to_string();
        };
        hint_json(self.searcher.borrow().game(), p)
    }

    fn choose(&self, _: &[u32], _: u32, _: u32) -> i32 {
        -1
    }

    fn observe(&self, _: &[u32]) -> i32 {
        -1
    }

    fn estimate(&self) -> i32 {
        -1
    }

    fn searches(&self) -> bool {
        false
    }
}

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static GAME: RefCell<Option<Box<dyn Solved>>> = const { RefCell::new(None) };
}

/// A buffer of `len` bytes the page writes its input into (a game id, or the moves
/// as one byte each) before calling [`game_select`] or [`game_view`].
#[no_mangle]
pub extern "C" fn in_ptr(len: usize) -> *mut u8 {
    INPUT.with(|i| {
        let mut i = i.borrow_mut();
        i.clear();
        i.resize(len, 0);
        i.as_mut_ptr()
    })
}

/// A move's value for the side making it, in the hints' words: the child's value
/// for its side to move, flipped, the remoteness counting this move ("win in 1" for
/// a move that ends the game won).
fn move_value(child: Record) -> String {
    match child.outcome {
        Outcome::Draw => "draw".to_string(),
        Outcome::Loss => format!("win in {}", u32::from(child.remoteness) + 1),
        Outcome::Win => format!("loss in {}", u32::from(child.remoteness) + 1),
    }
}

fn outcome_word(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
        Outcome::Loss => "loss",
    }
}

/// The JSON view of position `p` (see [`game_view`]) whose record is `record`, from
/// its moves and the record of the position each leads to (`None`: not in the table).
/// A move is best when it alone gives the position its record (the nearest win, a
/// draw, the farthest loss), as [`Solution::best_moves`] finds them.
fn view_json<G: Game>(
    game: &G,
    p: &G::Position,
    record: Record,
    children: Vec<(G::Move, Option<Record>)>,
) -> String {
    let to_move = game.to_move(p);
    let mut s = format!(
        "{{\"position\":\"{}\",\"to_move\":\"{}\",\"outcome\":\"{}\",\"remoteness\":{}",
        game.write_position(p, Notation::Api),
        to_move.char(),
        outcome_word(record.outcome),
        record.remoteness
    );
    if let Some(end) = game.primitive(p) {
        let winner = match end {
            Outcome::Win => format!("\"{}\"", to_move.char()),
            Outcome::Loss => format!("\"{}\"", to_move.other().char()),
            Outcome::Draw => "null".to_string(),
        };
        let _ = write!(s, ",\"terminal\":true,\"winner\":{winner}}}");
        return s;
    }
    s.push_str(",\"terminal\":false,\"moves\":[");
    for (i, (mv, child)) in children.into_iter().enumerate() {
        let value = child.map_or("null".to_string(), move_value);
        let best = child.is_some_and(|c| combine([c]) == Some(record));
        let _ = write!(
            s,
            "{}{{\"m\":\"{}\",\"child\":\"{}\",\"value\":\"{value}\",\"best\":{best}}}",
            if i > 0 { "," } else { "" },
            game.write_move(mv, Notation::People),
            game.write_position(&game.play(p, mv), Notation::Api),
        );
    }
    s.push_str("]}");
    s
}

impl<G: Game> Solved for Held<G> {
    fn view(&self, moves: &[u32]) -> String {
        let this = &self.solution;
        let game = this.game();
        let p = match self.replay(moves) {
            Ok(p) => p,
            Err(e) => return format!("{{\"error\":\"{e}\"}}"),
        };
        let Some(record) = this.get(&p) else {
            return "{\"error\":\"a position not in the table\"}".to_string();
        };
        let mut list = Vec::new();
        if game.primitive(&p).is_none() {
            game.moves(&p, &mut list);
        }
        let children = list
            .into_iter()
            .map(|mv| (mv, this.get(&game.play(&p, mv))))
            .collect();
        view_json(game, &p, record, children)
    }

    fn summary(&self) -> String {
        let game = self.solution.game();
        let sum = self.solution.summary();
        format!(
            "{{\"id\":\"{}\",\"rules\":\"{}\",\"positions\":{},\"start\":\"{}\",\"start_remoteness\":{},\"max_remoteness\":{},\"table_bytes\":{},\"repeats\":{},\"searches\":{}}}",
            game.id(),
            game.rules().replace('"', "'"),
            sum.positions,
            outcome_word(sum.start.outcome),
            sum.start.remoteness,
            sum.max_remoteness,
            sum.table_bytes,
            game.repeats(),
            self.searches()
        )
    }

    fn choose(&self, moves: &[u32], level: u32, rate: u32) -> i32 {
        let (Ok(p), Some(player)) = (self.replay(moves), self.player(level, rate)) else {
            return -1;
        };
        let game = self.solution.game();
        let Ok(mv) = crate::RNG.with(|r| player.choose(&self.solution, &p, &mut *r.borrow_mut()))
        else {
            return -1;
        };
        let mut list = Vec::new();
        game.moves(&p, &mut list);
        list.iter()
            .position(|&m| m == mv)
            .map_or(-1, |i| i32::try_from(i).unwrap_or(-1))
    }

    fn observe(&self, moves: &[u32]) -> i32 {
        if let Some((&last, before)) = moves.split_last() {
            if let (true, Ok(p)) = (self.searches, self.replay(before)) {
                let game = self.solution.game();
                let mut list = Vec::new();
                if game.primitive(&p).is_none() {
                    game.moves(&p, &mut list);
                }
                if let Some(&mv) = list.get(last as usize) {
                    self.adaptive.borrow_mut().observe(&self.solution, &p, mv);
                }
            }
        }
        self.estimate()
    }

    fn estimate(&self) -> i32 {
        self.adaptive
            .borrow()
            .estimate()
            .map_or(-1, |e| e.parts_per_10000().into())
    }

    fn searches(&self) -> bool {
        self.searches
    }

    fn puzzle_counts(&self) -> String {
        let counts: Vec<String> = puzzle::counts(&self.solution)
            .iter()
            .map(|(r, c)| {
                format!(
                    "{{\"remoteness\":{r},\"classes\":{},\"positions\":{}}}",
                    c.classes, c.positions
                )
            })
            .collect();
        format!("{{\"counts\":[{}]}}", counts.join(","))
    }

    fn puzzle_new(&self, remoteness: Option<u8>) -> String {
        let Some(p) =
            crate::RNG.with(|r| puzzle::pick(&self.solution, remoteness, &mut *r.borrow_mut()))
        else {
            return "{\"error\":\"no puzzle of that remoteness in this game\"}".to_string();
        };
        let s = puzzle_json(self.solution.game(), &p);
        *self.puzzle.borrow_mut() = Some(p);
        s
    }

    fn puzzle_judge(&self, index: u32) -> String {
        let game = self.solution.game();
        let held = self.puzzle.borrow();
        let Some(p) = held.as_ref() else {
            return "{\"error\":\"no puzzle served\"}".to_string();
        };
        judge_json(game, p, index, |mv| {
            puzzle::judge(&self.solution, &p.position, mv)
        })
    }

    fn puzzle_hint(&self) -> String {
        let held = self.puzzle.borrow();
        let Some(p) = held.as_ref() else {
            return "{\"error\":\"no puzzle served\"}".to_string();
        };
        hint_json(self.solution.game(), p)
    }
}

/// A puzzle served, as JSON: `position`, `to_move`, `remoteness` and `moves` (each `m`
/// as people write it and its `child`).
fn puzzle_json<G: Game>(game: &G, p: &Puzzle<G>) -> String {
    let mut list = Vec::new();
    game.moves(&p.position, &mut list);
    let moves: Vec<String> = list
        .iter()
        .map(|&mv| {
            format!(
                "{{\"m\":\"{}\",\"child\":\"{}\"}}",
                game.write_move(mv, Notation::People),
                game.write_position(&game.play(&p.position, mv), Notation::Api)
            )
        })
        .collect();
    format!(
        "{{\"position\":\"{}\",\"to_move\":\"{}\",\"remoteness\":{},\"moves\":[{}]}}",
        game.write_position(&p.position, Notation::Api),
        game.to_move(&p.position).char(),
        p.remoteness,
        moves.join(",")
    )
}

/// The verdict on the move of index `index` in the puzzle `p`'s move list, judged by
/// `judge` (the table's [`puzzle::judge`] or the search's [`puzzle::judge_live`]), as
/// JSON (see [`puzzle_judge`]).
fn judge_json<G: Game>(
    game: &G,
    p: &Puzzle<G>,
    index: u32,
    judge: impl FnOnce(G::Move) -> Option<Verdict>,
) -> String {
    let mut list = Vec::new();
    game.moves(&p.position, &mut list);
    let Some(&mv) = list.get(index as usize) else {
        return format!("{{\"error\":\"move {index} is not a legal move's index\"}}");
    };
    let people = |m| game.write_move(m, Notation::People);
    let verdict = match judge(mv) {
        Some(Verdict::Solved) => "\"verdict\":\"solved\"".to_string(),
        // The record is the mover's after the move: its value in the hints' words.
        Some(Verdict::Failed(record)) => format!(
            "\"verdict\":\"failed\",\"value\":\"{}\"",
            match record.outcome {
                Outcome::Draw => "draw".to_string(),
                o => format!("{} in {}", outcome_word(o), record.remoteness),
            }
        ),
        None => return "{\"error\":\"a position not in the table\"}".to_string(),
    };
    format!(
        "{{{verdict},\"move\":\"{}\",\"answer\":\"{}\",\"remoteness\":{}}}",
        people(mv),
        people(p.answer),
        p.remoteness
    )
}

/// The hint of the puzzle `p` ([`puzzle::hint_in`]) as JSON (see [`puzzle_hint`]).
fn hint_json<G: Game>(game: &G, p: &Puzzle<G>) -> String {
    let hint: Vec<String> = puzzle::hint_in(game, p)
        .into_iter()
        .map(|m| format!("\"{}\"", game.write_move(m, Notation::People)))
        .collect();
    format!("{{\"hint\":[{}]}}", hint.join(","))
}

/// Solves the game whose id (`tapatan`, `connect4:4x4`, ...) the page wrote into
/// the input buffer and keeps it as the page's game (a Connect Four board whose table
/// is over [`TABLE_LIMIT`]: searched live instead, its start searched now, `"live":true`
/// and `"positions":null` in the summary); answers its summary (JSON) or
/// `{"error":..}` with the catalogue's, the solver's or the search's words.
#[no_mangle]
pub extern "C" fn game_select() -> usize {
    let id = INPUT.with(|i| String::from_utf8_lossy(&i.borrow()).into_owned());
    let solved: Result<Box<dyn Solved>, String> = match catalog::parse(&id) {
        Err(e) => Err(e.to_string()),
        Ok(AnyGame::ConnectFour(g)) if tictable_games::search::searched_live(&g) => {
            Live::new(g).map(|live| Box::new(live) as Box<dyn Solved>)
        }
        Ok(any) => {
            dispatch!(any, g => solve(g).map(|solution| Box::new(Held::new(solution)) as Box<dyn Solved>).map_err(|e| e.to_string()))
        }
    };
    match solved {
        Ok(s) => {
            let summary = s.summary();
            GAME.with(|g| *g.borrow_mut() = Some(s));
            answer(summary)
        }
        Err(e) => answer(format!("{{\"error\":\"{}\"}}", e.replace('"', "'"))),
    }
}

/// The position after the moves in the input buffer (one byte each: the index of
/// the move played in its position's move list), as JSON: `position`, `to_move`,
/// `outcome` and `remoteness` for the side to move, `terminal`, and either `winner`
/// or `moves` (each with its notation `m` as people write it, the `child` position,
/// its `value` for the mover and whether it is `best`).
#[no_mangle]
pub extern "C" fn game_view() -> usize {
    let moves = input_moves();
    let json = GAME.with(|g| {
        g.borrow()
            .as_ref()
            .map_or("{\"error\":\"no game chosen\"}".to_string(), |s| {
                s.view(&moves)
            })
    });
    answer(json)
}

/// Runs `f` on the page's game, or answers that none is chosen.
fn with_game(f: impl FnOnce(&dyn Solved) -> String) -> usize {
    let json = GAME.with(|g| {
        g.borrow()
            .as_deref()
            .map_or("{\"error\":\"no game chosen\"}".to_string(), f)
    });
    answer(json)
}

/// The page's game's puzzles per remoteness (`tictable_games::puzzle::counts`, as
/// `tictable puzzle` counts them): `{"counts":[{"remoteness","classes","positions"}]}`.
#[no_mangle]
pub extern "C" fn puzzle_counts() -> usize {
    with_game(|s| s.puzzle_counts())
}

/// Serves a puzzle of the page's game at random (`puzzle::pick`) of `remoteness`
/// plies (any when negative) and keeps it for [`puzzle_judge`] and [`puzzle_hint`]:
/// `position`, `to_move`, `remoteness` and `moves` (each `m` as people write it and
/// its `child`), or `{"error":..}`.
#[no_mangle]
pub extern "C" fn puzzle_new(remoteness: i32) -> usize {
    let remoteness = u8::try_from(remoteness).ok();
    with_game(|s| s.puzzle_new(remoteness))
}

/// Judges the answer of index `index` in the served puzzle's move list as the table
/// does: `{"verdict":"solved"}` or `{"verdict":"failed","value":..}` (what the move
/// leaves the mover: "draw", "loss in N"), with the `move`, the `answer` and the
/// puzzle's `remoteness`; `{"error":..}` for a bad index or no puzzle.
#[no_mangle]
pub extern "C" fn puzzle_judge(index: u32) -> usize {
    with_game(|s| s.puzzle_judge(index))
}

/// The served puzzle's hint: `{"hint":[moves as people write them]}`, the answer
/// among them.
#[no_mangle]
pub extern "C" fn puzzle_hint() -> usize {
    with_game(|s| s.puzzle_hint())
}

/// The move of the selector's level `level` (`sharp` 5, `gentle` 6 with F = `rate`
/// / 10 000, `adaptive` 7: [`Level::ALL`]'s order) in the position after the moves in
/// the input buffer (as for [`game_view`]): the index of the move in that position's
/// move list, or -1 (a finished game, bad moves, or a level the game does not offer:
/// `"searches":false` in its summary).
#[no_mangle]
pub extern "C" fn game_choose(level: u32, rate: u32) -> i32 {
    let moves = input_moves();
    GAME.with(|g| {
        g.borrow()
            .as_ref()
            .map_or(-1, |s| s.choose(&moves, level, rate))
    })
}

/// Reports the person's move, the last of the moves in the input buffer, to the
/// game's `adaptive` player (by Bayes' rule over the person's ε); returns the
/// estimate afterwards (see [`game_estimate`]).
#[no_mangle]
pub extern "C" fn game_observe() -> i32 {
    let moves = input_moves();
    GAME.with(|g| g.borrow().as_ref().map_or(-1, |s| s.observe(&moves)))
}

/// The game's `adaptive` player's estimate of the person's mistake rate ε (the
/// posterior mean) in units of 1/10 000; -1 when no game is chosen.
#[no_mangle]
pub extern "C" fn game_estimate() -> i32 {
    GAME.with(|g| g.borrow().as_ref().map_or(-1, |s| s.estimate()))
}

/// The moves in the input buffer, one byte each.
fn input_moves() -> Vec<u32> {
    INPUT.with(|i| i.borrow().iter().map(|&b| u32::from(b)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OUT;

    fn call(input: &[u8], export: impl FnOnce() -> usize) -> String {
        let len = input.len();
        INPUT.with(|i| {
            let mut i = i.borrow_mut();
            i.clear();
            i.extend_from_slice(input);
        });
        let n = export();
        let text = OUT.with(|o| o.borrow().clone());
        assert_eq!(n, text.len(), "{len}");
        text
    }

    /// Serves a puzzle of `remoteness` plies and judges each of its moves: exactly one
    /// is solved. The verdicts, in move order.
    fn served_and_judged(remoteness: i32) -> Vec<String> {
        let served = call(&[], || puzzle_new(remoteness));
        assert!(
            served.contains(&format!("\"remoteness\":{remoteness}")),
            "{served}"
        );
        let n = served.matches("\"m\":").count() as u32;
        let verdicts: Vec<String> = (0..n).map(|i| call(&[], || puzzle_judge(i))).collect();
        assert_eq!(
            verdicts.iter().filter(|v| v.contains("solved")).count(),
            1,
            "{verdicts:?}"
        );
        verdicts
    }

    #[test]
    fn hexapawn_is_gardners_loss_for_white() {
        // Gardner (Scientific American, March 1962): the second player wins hexapawn.
        let summary = call(b"hexapawn", || game_select());
        assert!(
            summary.contains("\"positions\":135,\"start\":\"loss\",\"start_remoteness\":6"),
            "{summary}"
        );
        let start = call(&[], || game_view());
        assert!(
            start.starts_with("{\"position\":\"OOO/.../XXX X\",\"to_move\":\"X\",\"outcome\":\"loss\",\"remoteness\":6,\"terminal\":false,\"moves\":["),
            "{start}"
        );
        // Every first move loses; the slowest (8-5, the centre pawn) in 6.
        assert!(
            start.contains(
                "{\"m\":\"8-5\",\"child\":\"OOO/.X./X.X O\",\"value\":\"loss in 6\",\"best\":true}"
            ),
            "{start}"
        );
        assert!(
            start.contains("\"value\":\"loss in 4\",\"best\":false"),
            "{start}"
        );
    }

    #[test]
    fn the_large_connect_four_boards_are_searched_live() {
        // Connect Four 6x4: a second-player win with the 24th piece (Tromp's table of
        // board sizes: "-"; ChristopheSteininger/c4: "2nd (24)").
        let summary = call(b"connect4:6x4", || game_select());
        assert!(
            summary.contains("\"positions\":null,\"start\":\"loss\",\"start_remoteness\":24")
                && summary.contains("\"live\":true"),
            "{summary}"
        );
        let start = call(&[], || game_view());
        assert_eq!(
            start
                .matches("\"value\":\"loss in 24\",\"best\":true")
                .count(),
            6,
            "{start}"
        );
        // X 4, O 4, X 4: O to move, at least one best move, the solver's view shape.
        let mid = call(&[3, 3, 3], || game_view());
        assert!(
            mid.starts_with("{\"position\":\"....../...X../...O../...X..\",\"to_move\":\"O\"")
                && mid.matches("\"best\":true").count() >= 1,
            "{mid}"
        );
        // Puzzles found live: every odd remoteness offered, an even one never found.
        let counts = call(&[], || puzzle_counts());
        assert!(
            counts.contains("{\"remoteness\":23,\"classes\":null,\"positions\":null}]")
                && counts.contains("\"live\":true"),
            "{counts}"
        );
        let none = call(&[], || puzzle_new(4));
        assert!(none.contains("within 2000 tries"), "{none}");
        INPUT.with(|i| i.borrow_mut().clear());
        assert_eq!(game_choose(5, 0), -1);
        // 4x6 and 5x5: draws (Tromp's table of board sizes: "=").
        for id in [&b"connect4:5x5"[..], b"connect4:4x6"] {
            let summary = call(id, || game_select());
            assert!(summary.contains("\"start\":\"draw\""), "{summary}");
        }
        // A 4x6 puzzle of 7 plies: exactly one move solves it, judged by the search.
        let verdicts = served_and_judged(7);
        let hint = call(&[], || puzzle_hint());
        let answer = verdicts[0].split("\"answer\":\"").nth(1).unwrap();
        let answer = &answer[..answer.find('"').unwrap()];
        assert!(hint.contains(&format!("\"{answer}\"")), "{hint} {answer}");
        // 5x4 stays solved whole (its table is under the limit).
        assert!(call(b"connect4:5x4", || game_select()).contains("\"positions\":3945711"));
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let unknown = call(b"chess", || game_select());
        assert!(unknown.starts_with("{\"error\":"), "{unknown}");
        call(b"tictactoe", || game_select());
        let bad = call(&[9], || game_view());
        assert!(bad.contains("not a legal move's index"), "{bad}");
        // Moves past the end of a game are refused too.
        let mut past = vec![0u8; 9];
        past.push(0);
        assert!(call(&past, || game_view()).contains("error"));
    }

    #[test]
    fn a_finished_game_names_its_winner() {
        call(b"tictactoe", || game_select());
        // X 1, O 4, X 2, O 5, X 3: X's row. Moves are indices into each list of empty squares.
        let end = call(&[0, 2, 0, 1, 0], || game_view());
        assert!(
            end.contains("\"position\":\"XXX/OO./...\"")
                && end.contains("\"terminal\":true,\"winner\":\"X\""),
            "{end}"
        );
    }

    #[test]
    fn puzzles_are_judged_as_the_table_judges() {
        call(b"tictactoe", || game_select());
        // Tic-tac-toe's exact counts (docs/puzzles.md): 1,330 / 288 / 68 positions.
        let counts = call(&[], || puzzle_counts());
        assert!(
            counts.contains("{\"remoteness\":1,\"classes\":"),
            "{counts}"
        );
        assert!(counts.contains("\"positions\":1330}"), "{counts}");
        assert!(
            counts.contains("\"positions\":288}") && counts.contains("\"positions\":68}"),
            "{counts}"
        );
        assert!(call(&[], || puzzle_hint()).contains("error"));
        // Exactly one move keeps the win; every other is what the table says it is.
        let verdicts = served_and_judged(3);
        assert!(
            verdicts.iter().all(|v| v.contains("solved")
                || v.contains("\"value\":\"draw\"")
                || v.contains("\"value\":\"loss in ")),
            "{verdicts:?}"
        );
        assert!(call(&[], || puzzle_judge(verdicts.len() as u32)).contains("error"));
        assert!(call(&[], || puzzle_hint()).starts_with("{\"hint\":[\""));
        assert!(call(&[], || puzzle_new(2)).contains("error"));
    }

    #[test]
    fn the_searching_levels_keep_the_value_and_adaptive_learns() {
        // Tic-tac-toe, X 1, O 2, X 5, O 3: X to move wins (9 at once, or 4 or 7
        // later); the searching levels play only winning moves there.
        let summary = call(b"tictactoe", || game_select());
        assert!(summary.contains("\"searches\":true"), "{summary}");
        // Indices into each move list (the empty squares in order).
        let won = [0u8, 0, 2, 0];
        // The moves chosen are winning ones.
        for (level, rate) in [(5, 0), (6, 0), (6, 10000), (7, 0)] {
            for _ in 0..8 {
                INPUT.with(|i| *i.borrow_mut() = won.to_vec());
                let k = game_choose(level, rate);
                assert!(k >= 0, "level {level}");
                let mut next = won.to_vec();
                next.push(k as u8);
                let child = call(&next, || game_view());
                assert!(
                    child.contains("\"winner\":\"X\"") || child.contains("\"outcome\":\"loss\""),
                    "level {level}: {child}"
                );
            }
        }
        // Levels the game does not offer, and bad moves.
        INPUT.with(|i| *i.borrow_mut() = won.to_vec());
        assert_eq!(
            game_choose(4, 0),
            -1,
            "trap is tic-tac-toe's engine's, not the games'"
        );
        INPUT.with(|i| *i.borrow_mut() = vec![9]);
        assert_eq!(game_choose(5, 0), -1);
        // adaptive's estimate: 0.5 at first; a move that throws away the draw raises it.
        INPUT.with(|i| i.borrow_mut().clear());
        assert_eq!(game_estimate(), 5000);
        // X 5 (index 4), then O plays an edge, 2 (index 1 of 1,2,3,4,6,7,8,9): a loss.
        INPUT.with(|i| *i.borrow_mut() = vec![4, 1]);
        let after = game_observe();
        assert!(after > 5000, "{after}");
        // Three men's morris repeats positions: only random and perfect there.
        let morris = call(b"three-mens-morris", || game_select());
        assert!(morris.contains("\"searches\":false"), "{morris}");
        INPUT.with(|i| i.borrow_mut().clear());
        assert_eq!(game_choose(5, 0), -1);
    }
}
