//! `tictable puzzle`: a position where the side to move wins and exactly one move keeps
//! the win, served from the solved table of any game (`tictable_games::puzzle`), or for
//! the Connect Four boards too large to solve (`connect4:4x6`, `6x4`, `5x5`, without
//! `--table`) found and judged by the live search (`puzzle::find_live`).

use crate::output::{self, Tally};
use rand_core::SeedableRng;
use serde_json::json;
use std::io::{self, BufRead, IsTerminal};
use std::process::ExitCode;
use tictable_games::catalog::AnyGame;
use tictable_games::puzzle::{self, Puzzle, Verdict};
use tictable_games::search::{self, Searcher, DEFAULT_TABLE_BYTES};
use tictable_games::{Connect4Position, ConnectFour, Game, Notation, Outcome, Solution};

/// The longest answer line read, in bytes (longer ones are refused, memory bounded).
const MAX_ANSWER: usize = 256;

/// Solve a puzzle: the side to move wins, and exactly one move keeps the win.
///
/// Plain text: shows the position, reads your move in the game's notation (people:
/// squares and columns from 1) and judges it by the table; `hint` narrows the choice to
/// half the legal moves, `answer` gives up. In a terminal the puzzle is full-screen
/// (the board drawn as `tictable play --game G` draws it; keys: the move, h hint, a
/// answer, n next puzzle, q quit); `--plain` (or no terminal) keeps the line
/// dialogue. `--json` prints one puzzle with its answer
/// and hint (moves numbered from 0) for programs. Connect Four 4x6, 6x4 and 5x5
/// (too large to solve on demand) are served without `--table` by the live search:
/// random positions, each judged by the search, up to 2,000 tried. Exit status: 0
/// (solved, failed or given up), 2 bad arguments (an unknown game, a remoteness the
/// game has no puzzles of, or none found by the search).
#[derive(clap::Args)]
pub struct Args {
    /// The game (`tictable games` lists them).
    #[arg(long, value_name = "GAME", default_value = "tictactoe")]
    game: String,
    /// Only puzzles won in exactly N plies (the table's remoteness; `tictable puzzle
    /// --game G --remoteness 0` lists those the game has); any when not given.
    #[arg(long, value_name = "N")]
    remoteness: Option<u8>,
    /// Seed of the random choice (PCG-64 MCG); the same seed serves the same puzzle.
    /// Without it, the clock's.
    #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = crate::values::seed)]
    seed: Option<u64>,
    /// Print one puzzle with its answer as a JSON object and exit.
    #[arg(long)]
    json: bool,
    /// A line dialogue on stdin/stdout instead of the full-screen puzzle (no terminal
    /// needed: scripts, pipes, screen readers). Also used when stdin or stdout is not
    /// a terminal.
    #[arg(long)]
    plain: bool,
    /// The game's table file, written by `tictable solve --game G --out DIR` (for
    /// games too large to solve on demand).
    #[arg(long, value_name = "FILE")]
    table: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    let game = match crate::solve::parse_game(&args.game, "puzzle") {
        Ok(game) => game,
        Err(code) => return code,
    };
    if let (AnyGame::ConnectFour(g), None) = (&game, &args.table) {
        if search::searched_live(g) {
            return match Searcher::new(*g, DEFAULT_TABLE_BYTES) {
                Ok(searcher) => serve(Live(searcher), &args),
                Err(e) => {
                    eprintln!("puzzle: {e}");
                    ExitCode::from(2)
                }
            };
        }
    }
    tictable_games::dispatch!(game, g => {
        match crate::solve::load_or_solve(g, args.table.as_deref()) {
            Ok(solution) => serve(&solution, &args),
            Err(e) => {
                eprintln!("puzzle: {e}");
                ExitCode::from(2)
            }
        }
    })
}

/// Where the puzzles come from and what judges the answers: the solved table
/// (`&Solution`), or the live search ([`Live`]).
pub(crate) trait Source<G: Game> {
    /// The game.
    fn game(&self) -> &G;
    /// A puzzle of `remoteness` plies (any when `None`) drawn with `rng`, or why there
    /// is none (the error's words).
    fn pick<R: rand_core::Rng + ?Sized>(
        &mut self,
        remoteness: Option<u8>,
        rng: &mut R,
    ) -> Result<Puzzle<G>, String>;
    /// The verdict on `mv` in the puzzle `position` (`None`: not legal, or not in the
    /// table).
    fn judge(&mut self, position: &G::Position, mv: G::Move) -> Option<Verdict>;
}

impl<G: Game> Source<G> for &Solution<G> {
    fn game(&self) -> &G {
        Solution::game(self)
    }

    fn pick<R: rand_core::Rng + ?Sized>(
        &mut self,
        remoteness: Option<u8>,
        rng: &mut R,
    ) -> Result<Puzzle<G>, String> {
        puzzle::pick(self, remoteness, rng).ok_or_else(|| {
            let have: Vec<String> = puzzle::counts(self).keys().map(|r| r.to_string()).collect();
            format!(
                "{} has no puzzle{}; remoteness with puzzles: {}",
                Solution::game(self).id(),
                remoteness.map_or(String::new(), |r| format!(" won in {r} plies")),
                if have.is_empty() {
                    "none".to_string()
                } else {
                    have.join(", ")
                }
            )
        })
    }

    fn judge(&mut self, position: &G::Position, mv: G::Move) -> Option<Verdict> {
        puzzle::judge(self, position, mv)
    }
}

/// The puzzles of a Connect Four board searched live: found at random and judged by
/// the search ([`puzzle::find_live`], [`puzzle::judge_live`]).
pub(crate) struct Live(pub(crate) Searcher);

impl Source<ConnectFour> for Live {
    fn game(&self) -> &ConnectFour {
        self.0.game()
    }

    fn pick<R: rand_core::Rng + ?Sized>(
        &mut self,
        remoteness: Option<u8>,
        rng: &mut R,
    ) -> Result<Puzzle<ConnectFour>, String> {
        puzzle::find_live(&mut self.0, remoteness, rng, puzzle::LIVE_TRIES).map_err(|e| {
            format!(
                "{}: {e} (docs/puzzles.md counts them exactly)",
                self.0.game().id()
            )
        })
    }

    fn judge(&mut self, position: &Connect4Position, mv: u8) -> Option<Verdict> {
        puzzle::judge_live(&mut self.0, position, mv)
    }
}

/// "win in 3 (plies)" and the like.
fn remoteness_text(remoteness: u8) -> String {
    format!("win in {remoteness}")
}

/// "1 ply", "3 plies".
fn plies(n: u8) -> String {
    match n {
        1 => "1 ply".to_string(),
        n => format!("{n} plies"),
    }
}

/// The task: `mover` wins and exactly one move keeps the win.
pub(crate) fn task_text(mover: &str, remoteness: u8) -> String {
    format!(
        "{mover} to move: {} ({}, both sides' moves counted). Exactly one move keeps the win.",
        remoteness_text(remoteness),
        plies(remoteness)
    )
}

/// The hint: the moves the answer is one of, as people write them.
pub(crate) fn hint_text<G: Game>(game: &G, p: &Puzzle<G>) -> String {
    let hint: Vec<String> = puzzle::hint_in(game, p)
        .into_iter()
        .map(|m| game.write_move(m, Notation::People))
        .collect();
    format!("Hint: the move is one of {}.", hint.join(", "))
}

/// The answer, given up.
pub(crate) fn answer_text<G: Game>(game: &G, p: &Puzzle<G>) -> String {
    format!(
        "The move was {}.",
        game.write_move(p.answer, Notation::People)
    )
}

/// What the table says of `mv`, `mover`'s answer to `p` (`None`: `puzzle::judge`
/// found it not legal or not in the table).
pub(crate) fn verdict_text<G: Game>(
    game: &G,
    p: &Puzzle<G>,
    mover: &str,
    mv: G::Move,
    verdict: Option<Verdict>,
) -> String {
    let people = |m: G::Move| game.write_move(m, Notation::People);
    match verdict {
        Some(Verdict::Solved) => format!(
            "Solved: {} keeps the win; {mover} wins in {} with best play.",
            people(mv),
            plies(p.remoteness)
        ),
        Some(Verdict::Failed(record)) => format!(
            "Not it: {}",
            crate::play::mistake_text(
                &people(mv),
                (record.outcome, record.remoteness),
                &[people(p.answer)],
                (Outcome::Win, p.remoteness),
            )
        ),
        None => "That move is not in the table.".to_string(),
    }
}

fn serve<G: Game, S: Source<G>>(mut source: S, args: &Args) -> ExitCode {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let p = match source.pick(args.remoteness, &mut rng) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("puzzle: {e}");
            return ExitCode::from(2);
        }
    };
    if args.json {
        return output::finish(output::print(
            format!("{}\n", json_line(source.game(), &p, seed)).as_bytes(),
        ));
    }
    if !args.plain && io::stdin().is_terminal() && io::stdout().is_terminal() {
        let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        return output::finish(crate::play::puzzle_tui::run(
            source,
            p,
            args.remoteness,
            &mut rng,
            color,
        ));
    }
    let stdin = io::stdin();
    output::finish(dialogue(
        &mut source,
        &p,
        &mut stdin.lock(),
        Tally::new(io::stdout()),
    ))
}

/// The puzzle for programs: moves numbered from 0 (`answer`, `hint`), the answer as
/// people write it too.
fn json_line<G: Game>(game: &G, p: &Puzzle<G>, seed: u64) -> serde_json::Value {
    let api = |m: G::Move| game.write_move(m, Notation::Api);
    json!({
        "game": game.id(),
        "seed": seed,
        "position": game.write_position(&p.position, Notation::Api),
        "to_move": game.to_move(&p.position).char().to_string(),
        "remoteness": p.remoteness,
        "answer": api(p.answer),
        "answer_people": game.write_move(p.answer, Notation::People),
        "hint": puzzle::hint_in(game, p).into_iter().map(api).collect::<Vec<_>>(),
    })
}

/// Shows the puzzle, reads answers until one is judged (or `answer`, or the end of the
/// input), and says what the table says.
fn dialogue<G: Game, W: io::Write>(
    source: &mut impl Source<G>,
    p: &Puzzle<G>,
    input: &mut impl BufRead,
    mut out: Tally<W>,
) -> io::Result<()> {
    let game = source.game();
    let mover = game.to_move(&p.position).char().to_string();
    out.put(&format!(
        "{}: {}\n\n{}\n\nYour move ({}), `hint` or `answer`:\n",
        game.id(),
        task_text(&mover, p.remoteness),
        game.write_position(&p.position, Notation::People)
            .replace('/', "\n"),
        game.move_syntax(Notation::People),
    ));
    let mut line = Vec::new();
    loop {
        let Some(length) = crate::analyse::read_line(input, &mut line, MAX_ANSWER)? else {
            out.put(&format!("No answer. {}\n", answer_text(game, p)));
            return out.result();
        };
        if length > MAX_ANSWER {
            out.put(&format!(
                "That line is {length} bytes long; a move is short. Try again:\n"
            ));
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        match text {
            "" => continue,
            "hint" => {
                out.put(&format!("{}\n", hint_text(game, p)));
                continue;
            }
            "answer" => {
                out.put(&format!("{}\n", answer_text(game, p)));
                return out.result();
            }
            _ => {}
        }
        let mv = match game.parse_move(&p.position, text, Notation::People) {
            Ok(mv) => mv,
            Err(e) => {
                out.put(&format!("{e}. Try again:\n"));
                continue;
            }
        };
        let verdict = source.judge(&p.position, mv);
        let game = source.game();
        out.put(&format!("{}\n", verdict_text(game, p, &mover, mv, verdict)));
        return out.result();
    }
}
