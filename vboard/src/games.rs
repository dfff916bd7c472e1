//! The `games` image (`cd firmware && cargo build --release --features games`) on
//! the virtual board: for misère, three men's morris, tapatan, achi and hexapawn a
//! contest-like scenario (a perfect and an erring person, the device first and
//! second), a cheat scenario (a device piece moved, or an illegal move of the
//! person's own: a slide off the lines, a capture straight ahead, a piece moved
//! twice), a fault scenario (every fault kind the simulator injects, one a game), a
//! Level scenario (Level pressed in the person's turn: a confirmation, then the
//! game goes on or ends as answered) and the differential check against the host
//! simulator; and once a save whose game number no game of the image has (refused,
//! said with the lights, a fresh tic-tac-toe game played).
//!
//! The operator chooses the game as `firmware/README.md` ("### Games") says:
//! Level in Setup shows the game, both turn lights and its number in binary on
//! Lamp (1), Win (2), Draw (4) and Loss (8); each further press the next game
//! ([`choose_game`], which reads the lights back). The person is the host
//! simulator's (`SimHuman` with the game's rules: slides, hexapawn's set-up and
//! captures); no second model of a person.
//!
//! What each game is judged by, on top of [`crate::session`]'s rules: the device
//! never gives away value (every move of its is one of the table's best moves in
//! the position the person remembers, [`gave_away`]), loses only from a side that
//! loses against perfect play, and refuses every illegal move of the person's with
//! the Error light before it moves again.

use crate::differential::{host_machine, host_world, result};
use crate::scenarios::{Burst, Plan, Report};
use crate::session::{
    exactly, lit, Bench, GameResult, GameSpec, RunError, Session, READY_LIMIT_MS,
};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use tictable::{Board, Player, Square};
use tictable_machine::controller::{best_moves_of, Move, MoveChooser, Position, Rules};
use tictable_machine::model::GameRecord;
use tictable_machine::panel::{Button, Light};
use tictable_machine::persist::{crc32, Snapshot, Store, ENCODED_LEN};
use tictable_machine::sim::faults::FaultKind;
use tictable_machine::sim::flash::MemFlash;
use tictable_machine::sim::human::{SimHuman, Style};
use tictable_machine::sim::scenario::{GameReport, Scenario};

/// The games besides tic-tac-toe, in the order of their numbers.
pub const GAMES: [Rules; 5] = [
    Rules::Misere,
    Rules::ThreeMensMorris,
    Rules::Tapatan,
    Rules::Achi,
    Rules::Hexapawn,
];

/// The scenarios of each game (`NAME-KIND`, NAME the game's id): the same five
/// for every game.
pub const KINDS: [&str; 5] = ["game", "cheats", "faults", "level", "differential"];

/// The game number the lights show in Setup after Level (both turn lights, no
/// Error; the number on Lamp, Win, Draw, Loss); `None` for any other lights.
pub fn shown_game(l: &[bool; 7]) -> Option<u8> {
    let on = |x: Light| l[x.index()];
    if !on(Light::DeviceTurn) || !on(Light::HumanTurn) || on(Light::Error) {
        return None;
    }
    let code = [Light::Lamp, Light::Win, Light::Draw, Light::Loss]
        .iter()
        .enumerate()
        .filter(|(_, x)| on(**x))
        .fold(0, |c, (i, _)| c | 1 << i);
    Some(code)
}

/// The operator chooses `rules`' game with the Level button, reading each press's
/// lights: the number shown must be the game's after a few presses (six games:
/// at most seven, the first shows the game chosen).
pub fn choose_game(s: &mut Session, rules: Rules) -> Result<(), RunError> {
    let mut seen = vec![];
    for _ in 0..8 {
        let now = s.ms;
        s.human.press(Button::Level, now);
        s.run_for(400)?;
        let l = s.lights();
        let shown = shown_game(&l);
        seen.push(shown);
        if shown == Some(rules.code()) {
            s.log.push(format!(
                "{:8} ms game {} chosen with Level (lights {:?})",
                s.ms,
                rules.id(),
                crate::session::lit(&l)
            ));
            return Ok(());
        }
    }
    Err(RunError::Stuck(format!(
        "Level never showed game {} ({}); shown after each press: {seen:?}",
        rules.code(),
        rules.id()
    )))
}

/// Whether the device loses `rules`' game against perfect play when it moves
/// first (`device_first`) or second: a loss there is no violation.
pub fn losing_side(rules: Rules, device_first: bool) -> bool {
    rules.first_player_wins() == Some(!device_first)
}

/// People whose moves depend on the game and the position alone (the
/// differential's: the host's person must play the image's person's moves).
pub mod people {
    use tictable::{Board, Square};
    use tictable_machine::controller::{best_moves, best_moves_of, Move, Position, Rules};

    /// A perfect person in a game whose pieces move: the first best move.
    pub fn perfect(rules: Rules, p: &Position) -> Option<Move> {
        best_moves_of(rules, p).first().copied()
    }

    /// A careless person in a game whose pieces move: the first legal move.
    pub fn careless(rules: Rules, p: &Position) -> Option<Move> {
        rules.children(p).first().map(|c| c.0)
    }

    /// A perfect misère person: the lowest-numbered best move.
    pub fn misere_perfect(b: &Board) -> Option<Square> {
        best_moves(Rules::Misere, b).first().copied()
    }

    /// A careless misère person: the lowest-numbered empty square.
    pub fn misere_careless(b: &Board) -> Option<Square> {
        b.legal_moves().first()
    }
}

/// A game of `rules` with the device first or not, `style`'s person.
fn spec(rules: Rules, device_first: bool, style: Style) -> GameSpec {
    GameSpec {
        game: Some(rules),
        device_first: Some(device_first),
        may_lose: losing_side(rules, device_first),
        ..GameSpec::plain(style)
    }
}

/// A scenario of the games image.
fn plan(name: String, calibrated: bool, games: Vec<GameSpec>) -> Plan {
    // The names live as long as the run (a handful of short strings).
    Plan::new(Box::leak(name.into_boxed_str()), calibrated, games)
}

/// The first scenario of the games image: misère's contest-like games on a blank
/// flash (the guided calibration first); the others start from its flash.
pub fn first() -> Plan {
    game_plan(Rules::Misere, false)
}

/// `rules`' contest-like scenario: a perfect person with the device first, an
/// erring one (30 %) with it second.
fn game_plan(rules: Rules, calibrated: bool) -> Plan {
    plan(
        format!("{}-game", rules.id()),
        calibrated,
        vec![
            spec(rules, true, Style::Perfect),
            spec(rules, false, Style::Erring(0.3)),
        ],
    )
}

/// Every scenario of the games image after [`first`], on its flash.
pub fn rest() -> Vec<Plan> {
    let mut v = vec![];
    for rules in GAMES {
        if rules != Rules::Misere {
            v.push(game_plan(rules, true));
        }
        // A perfect person (long games: the sliding phase reached) who cheats
        // every other turn (a cheat is not made twice in a row): half of them an
        // illegal move of their own in a game whose pieces move.
        let cheater = |device_first| GameSpec {
            cheat_rate: 1.0,
            ..spec(rules, device_first, Style::Perfect)
        };
        v.push(plan(
            format!("{}-cheats", rules.id()),
            true,
            vec![cheater(false), cheater(true)],
        ));
        v.push(faults_plan(rules));
        v.push(level_plan(rules));
        v.push(differential_plan(rules));
    }
    v.push(unknown_save_plan());
    v
}

/// `rules`' scenario of the Level button pressed in the person's first turn,
/// the device first: answered with Side (the game goes on as it was, to its
/// end), then with Level again (the game ends: the board cleared, Setup).
fn level_plan(rules: Rules) -> Plan {
    let asked = |confirm| GameSpec {
        level_mid_game: Some(confirm),
        ..spec(rules, true, Style::Perfect)
    };
    plan(
        format!("{}-level", rules.id()),
        true,
        vec![asked(false), asked(true)],
    )
}

/// The game number of the save of `tictactoe-unknown-save` ([`unknown_save`]):
/// the next after the image's six, as a later build's save might hold.
pub const UNKNOWN_GAME: u8 = 7;

/// A save whose game number no game of the image has, on the calibrated flash:
/// refused with Error + Lamp + Win, a fresh tic-tac-toe game after Start
/// ([`refused_save`]), which a perfect person then plays, the device first.
fn unknown_save_plan() -> Plan {
    let mut p = plan(
        format!("{}-unknown-save", Rules::TicTacToe.id()),
        true,
        vec![GameSpec {
            device_first: Some(true),
            ..GameSpec::plain(Style::Perfect)
        }],
    );
    p.saved_game = Some(UNKNOWN_GAME);
    p
}

/// The snapshot pages of the firmware's store (`firmware/src/storage.rs`): 24
/// pages of 1 KiB from [`crate::STORE_OFFSET`], written a half-word at a time.
type Pages = MemFlash<{ 24 * 1024 }, 1024, 2>;

/// `flash` (the games image's, calibrated) with its snapshot pages holding one
/// save, written by the machine crate's store: the newest snapshot's
/// calibration, pose and stock, an achi game two plies in, the device first, its
/// game byte then `code` and the record sealed again with its CRC-32 (as a later
/// build's save, or a corrupted one, might hold). Checked to decode as the
/// machine's decoder must take it: refused, the rest kept.
pub fn unknown_save(flash: &[u8], code: u8) -> Result<Vec<u8>, String> {
    let mut pages = Pages::new();
    let region = flash
        .get(crate::STORE_OFFSET..)
        .filter(|r| r.len() == pages.bytes.len())
        .ok_or("the flash is not the blue pill's 64 KiB")?;
    pages.bytes.copy_from_slice(region);
    let mut snap = Store::new(pages, 0)
        .and_then(|mut st| st.load())
        .map_err(|e| format!("the calibrated flash's store: {e}"))?
        .ok_or("no save on the calibrated flash")?;
    let mut record = GameRecord::of_game(Rules::Achi);
    for s in [4, 0] {
        let s = Square::new(s).ok_or("no such square")?;
        record
            .push_move(Move::Place(s))
            .map_err(|e| format!("{e:?}"))?;
    }
    snap.record = record;
    snap.active = true;
    snap.setup.device_first = true;
    let mut store = Store::new(Pages::new(), 0).map_err(|e| e.to_string())?;
    store.save(&snap).map_err(|e| e.to_string())?;
    let mut bytes = store.destroy().bytes;
    // The game byte is the encoding's last but one, before `keep` (`games`
    // format 8): the whole snapshot at the first page's start, its CRC-32 after it.
    let game_at = ENCODED_LEN - 2;
    if bytes[game_at] != Rules::Achi.code() {
        return Err(format!("the save's byte {game_at} is not the game's"));
    }
    bytes[game_at] = code;
    let crc = crc32(&bytes[..ENCODED_LEN]);
    bytes[ENCODED_LEN..ENCODED_LEN + 4].copy_from_slice(&crc.to_le_bytes());
    match Snapshot::decode(&bytes[..ENCODED_LEN]) {
        Some(d) if d.record.refused_game() == Some(code) && !d.active => {}
        other => {
            return Err(format!(
                "the save of game {code} does not decode as refused: {:?}",
                other.map(|d| d.record.refused_game())
            ))
        }
    }
    let mut out = flash.to_vec();
    out[crate::STORE_OFFSET..].copy_from_slice(&bytes);
    Ok(out)
}

/// The image boots on [`unknown_save`]'s flash: the lights must say the saved
/// game was refused (Error + Lamp + Win, `firmware/README.md`'s table) and stay
/// so; after Start, Setup, where Level must show game 1 (tic-tac-toe, fresh);
/// Side then shows the setup's lights again. What differs goes into
/// `violations`; a machine that never says it is stuck.
pub fn refused_save(
    s: &mut Session,
    code: u8,
    violations: &mut Vec<String>,
) -> Result<(), RunError> {
    let said = [Light::Lamp, Light::Win, Light::Error];
    if !s.run_until(READY_LIMIT_MS, |s| exactly(&s.lights(), &said))? {
        return Err(RunError::Stuck(format!(
            "a save of game {code} (no game of the image's): the lights never said so ({said:?}); lights {:?}",
            lit(&s.lights())
        )));
    }
    s.run_for(2_000)?;
    let l = s.lights();
    if !exactly(&l, &said) {
        violations.push(format!(
            "the refused save's lights gave way to {:?} before Start",
            lit(&l)
        ));
    }
    let now = s.ms;
    s.log.push(format!(
        "{now:8} ms the save of game {code} refused (lights {:?}): Start pressed",
        lit(&l)
    ));
    s.human.press(Button::Start, now);
    s.wait_ready(READY_LIMIT_MS)?;
    let now = s.ms;
    s.human.press(Button::Level, now);
    s.run_for(400)?;
    let shown = shown_game(&s.lights());
    if shown != Some(Rules::TicTacToe.code()) {
        violations.push(format!(
            "after the refused save Level shows game {shown:?}, not a fresh tic-tac-toe game ({})",
            Rules::TicTacToe.code()
        ));
    }
    let now = s.ms;
    s.log.push(format!(
        "{now:8} ms Level shows game {shown:?}: Side pressed"
    ));
    s.human.press(Button::Side, now);
    s.run_for(400)
}

/// `rules`' fault scenario: a game for each fault kind the simulator injects, in
/// the order of `FaultKind::ALL` at [`crate::scenarios::FAULT_RATES`]' rates, a
/// perfect person, the device first and second in turn (`drop` with the device
/// first: a drop comes 0.1 to 2.5 s after the grip, so it needs long carries, which
/// a short game of the device second in achi lacked with world seed 9); each kind
/// must be injected in its game and the game end as the rules say (no value given
/// away, no piece lost, a result).
fn faults_plan(rules: Rules) -> Plan {
    let kinds: Vec<Burst> = FaultKind::ALL
        .into_iter()
        .filter_map(|k| crate::scenarios::bursts().find(|b| b.kind == k))
        .collect();
    let mut f = plan(
        format!("{}-faults", rules.id()),
        true,
        (0..kinds.len())
            .map(|i| spec(rules, i % 2 == 0, Style::Perfect))
            .collect(),
    );
    f.bursts = kinds.into_iter().map(Some).collect();
    f
}

/// The name of `rules`' differential scenario.
fn differential_name(rules: Rules) -> String {
    format!("{}-differential", rules.id())
}

/// The game of a differential scenario (`None`: the plan is none).
pub fn differential_game(plan: &Plan) -> Option<Rules> {
    GAMES
        .into_iter()
        .find(|r| plan.name == differential_name(*r))
}

/// `rules`' differential games: a perfect person with the device first, a
/// careless one with it second, both by the position alone.
fn differential_plan(rules: Rules) -> Plan {
    let games = [true, false]
        .into_iter()
        .map(|device_first| {
            let mut g = spec(rules, device_first, Style::Perfect);
            if rules.places_only() {
                g.script = Some(if device_first {
                    people::misere_perfect
                } else {
                    people::misere_careless
                });
            } else {
                g.move_script = Some(if device_first {
                    people::perfect
                } else {
                    people::careless
                });
            }
            g
        })
        .collect();
    plan(differential_name(rules), true, games)
}

/// The plies of a game as played (a placing game's from its squares).
pub fn plies(g: &GameResult) -> Vec<Move> {
    if g.game.places_only() {
        g.moves.iter().map(|&s| Move::Place(s)).collect()
    } else {
        g.plies.clone()
    }
}

/// The device's moves of `g` that are not one of the table's best moves in their
/// position, in words (people number squares 1-9). Games restarted after a power
/// cut (their moves are two games') are not judged.
pub fn gave_away(g: &GameResult) -> Vec<String> {
    let rules = g.game;
    if g.cuts.1 > 0 {
        return vec![];
    }
    let device = if g.device_first { Player::X } else { Player::O };
    let mut p = rules.start();
    let mut out = vec![];
    for (i, mv) in plies(g).into_iter().enumerate() {
        if p.to_move == device {
            let best = best_moves_of(rules, &p);
            if !best.contains(&mv) {
                out.push(format!(
                    "ply {}: the device played {} where the best are {}",
                    i + 1,
                    move_words(mv),
                    best.iter()
                        .map(|m| move_words(*m))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        match rules.play(&p, mv) {
            Some(next) => p = next,
            None => {
                out.push(format!(
                    "ply {}: {} is no legal move",
                    i + 1,
                    move_words(mv)
                ));
                break;
            }
        }
    }
    out
}

/// A move as people say it: `5`, `1-2` (a slide or a pawn's move).
pub fn move_words(mv: Move) -> String {
    match mv.from() {
        Some(f) => format!("{}-{}", f.index() + 1, mv.to().index() + 1),
        None => format!("{}", mv.to().index() + 1),
    }
}

/// The rules of the games image's scenarios on top of the session's: called for
/// each report of [`first`] and [`rest`].
pub fn judge(plan: &Plan, r: &mut Report) {
    for (i, g) in r.games.iter().enumerate() {
        for v in gave_away(g) {
            r.violations.push(format!(
                "game {} ({}): gave away value: {v}",
                i + 1,
                g.game.id()
            ));
        }
        if g.game != plan.games.get(i).and_then(|s| s.game).unwrap_or(g.game) {
            r.violations
                .push(format!("game {}: not the game chosen", i + 1));
        }
    }
    if plan.name.ends_with("-cheats") {
        let made: u32 = r.games.iter().map(|g| g.cheats + g.illegal.0).sum();
        if made == 0 {
            r.violations.push("the person never cheated".into());
        }
    }
    if plan.name.ends_with("-faults") {
        // Every kind switched on in a game of its own, each injected (the
        // session counts it: `Report::faults`) and recovered.
        let missing: Vec<String> = FaultKind::ALL
            .into_iter()
            .filter(|k| !plan.bursts.iter().flatten().any(|b| b.kind == *k))
            .map(|k| k.to_string())
            .collect();
        if !missing.is_empty() {
            r.violations.push(format!(
                "fault kinds never switched on: {}",
                missing.join(", ")
            ));
        }
        if r.faults != (FaultKind::ALL.len() as u32, FaultKind::ALL.len() as u32) {
            r.violations.push(format!(
                "{} of {} fault kinds injected and recovered ({} switched on)",
                r.faults.1,
                FaultKind::ALL.len(),
                r.faults.0
            ));
        }
    }
    if let Some(rules) = differential_game(plan) {
        compare(rules, plan, r);
    }
}

/// The image's device moves of one game, position by position, as the host's
/// chooser: each position's move if it is one of the table's best there.
#[derive(Debug)]
pub struct Replay {
    rules: Rules,
    moves: HashMap<Position, Move>,
    /// What the host asked that the image's game does not answer, in words.
    pub mismatches: RefCell<Vec<String>>,
    asked: Cell<u32>,
}

impl Replay {
    /// The device's moves of `plies` (a game of `rules` the device played first or
    /// not).
    pub fn new(rules: Rules, device_first: bool, plies: &[Move]) -> Replay {
        let device = if device_first { Player::X } else { Player::O };
        let mut moves = HashMap::new();
        let mut p = rules.start();
        for &mv in plies {
            if p.to_move == device {
                moves.entry(p).or_insert(mv);
            }
            match rules.play(&p, mv) {
                Some(next) => p = next,
                None => break,
            }
        }
        Replay {
            rules,
            moves,
            mismatches: RefCell::default(),
            asked: Cell::new(0),
        }
    }
}

impl MoveChooser for &Replay {
    fn choose(&mut self, board: &Board) -> Option<Square> {
        self.choose_move(&Position::of_board(*board)).map(Move::to)
    }

    fn rules(&self) -> Rules {
        self.rules
    }

    fn set_rules(&mut self, rules: Rules) -> bool {
        rules == self.rules
    }

    fn choose_move(&mut self, p: &Position) -> Option<Move> {
        self.asked.set(self.asked.get() + 1);
        let best = best_moves_of(self.rules, p);
        let image = self.moves.get(p).copied();
        match image {
            Some(m) if best.contains(&m) => Some(m),
            _ => {
                let said = format!(
                    "position x {:#05x} o {:#05x}: the image played {}, the host's candidates are {}",
                    p.x,
                    p.o,
                    image.map_or("nothing here".into(), move_words),
                    best.iter().map(|m| move_words(*m)).collect::<Vec<_>>().join(", ")
                );
                let mut m = self.mismatches.borrow_mut();
                if m.last() != Some(&said) {
                    m.push(said);
                }
                None
            }
        }
    }
}

/// A game's moves as people say them.
fn plies_string(plies: &[Move]) -> String {
    plies
        .iter()
        .map(|m| move_words(*m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Plays the image's games of `r` (`rules`' differential scenario) on the host and
/// compares them: the same moves of both sides, the same result light.
fn compare(rules: Rules, plan: &Plan, r: &mut Report) {
    let games: Vec<GameResult> = r.games.clone();
    r.differential = (0, games.len() as u32);
    for (i, (g, spec)) in games.iter().zip(&plan.games).enumerate() {
        let image = plies(g);
        let replay = Replay::new(rules, g.device_first, &image);
        let scenario = Scenario::game(g.device_first, None, spec.style);
        let Some(world) = host_world(plan, &mut r.violations) else {
            return;
        };
        let Some(mut host) = host_machine(&world, &replay, &mut r.violations) else {
            return;
        };
        let mut human = SimHuman::new(spec.style, 0.0, Bench::default().seed ^ 0x5EED);
        human.rules = rules;
        human.script = spec.script;
        human.move_script = spec.move_script;
        let h = host.play_scenario(&scenario, &mut human, &mut || &replay, None);
        let host_plies: Vec<Move> = host.controller.record().plies().collect();
        let mut diffs: Vec<String> = replay.mismatches.borrow().clone();
        if host_plies != image {
            diffs.push(format!(
                "moves: image {}, host {}",
                plies_string(&image),
                plies_string(&host_plies)
            ));
        }
        let (a, b) = (
            result(g.finished, g.device_won),
            result(h.finished, h.device_won),
        );
        if a != b {
            diffs.push(format!("result light: image {a}, host {b}"));
        }
        // The host's rules but a loss from a side that loses against perfect
        // play (the image's game is judged so too).
        let judged = GameReport {
            device_won: h.device_won.filter(|&won| won || !spec.may_lose),
            ..h
        };
        if let Err(v) = scenario.check(&judged) {
            diffs.push(format!("host: {v}"));
        }
        r.log.push(format!(
            "{} game {} (device {}): image {} {a}, host {} {b}",
            plan.name,
            i + 1,
            if g.device_first { "first" } else { "second" },
            plies_string(&image),
            plies_string(&host_plies),
        ));
        if diffs.is_empty() {
            r.differential.0 += 1;
        } else {
            r.violations
                .push(format!("differential game {}: {}", i + 1, diffs.join("; ")));
        }
    }
}

/// The scenarios of the games image, by game: `(game id, passed, run)`.
pub fn counts(reports: &[Report]) -> Vec<(&'static str, usize, usize)> {
    std::iter::once(Rules::TicTacToe)
        .chain(GAMES)
        .map(|rules| {
            let mine = reports
                .iter()
                .filter(|r| r.name.starts_with(&format!("{}-", rules.id())));
            let (ok, all) = mine.fold((0, 0), |(ok, all), r| {
                (ok + usize::from(r.violations.is_empty()), all + 1)
            });
            (rules.id(), ok, all)
        })
        // Tic-tac-toe's scenario (the refused save) only when it played.
        .filter(|&(_, _, all)| all > 0)
        .collect()
}

/// The device's move times of each game (Device-turn light to Human-turn light or
/// a result: a placement, a slide's two travels, a capture and its pawn's move),
/// over the nominal scenarios of the games image but its fault scenarios (whose
/// recoveries are no move time): `(game id, sorted ms)`.
pub fn move_times(reports: &[Report]) -> Vec<(&'static str, Vec<u32>)> {
    GAMES
        .iter()
        .map(|rules| {
            let mut v: Vec<u32> = reports
                .iter()
                .filter(|r| r.nominal && !r.name.ends_with("-faults"))
                .flat_map(|r| r.games.iter())
                .filter(|g| g.game == *rules)
                .flat_map(|g| g.placements_ms.iter().copied())
                .collect();
            v.sort_unstable();
            (rules.id(), v)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_number_lights_read_back_as_the_game() {
        let mut l = [false; 7];
        l[Light::DeviceTurn.index()] = true;
        assert_eq!(shown_game(&l), None, "the setup, device first");
        l[Light::HumanTurn.index()] = true;
        l[Light::Lamp.index()] = true;
        l[Light::Win.index()] = true;
        assert_eq!(shown_game(&l), Some(Rules::ThreeMensMorris.code()));
        l[Light::Error.index()] = true;
        assert_eq!(shown_game(&l), None, "an error pattern");
    }

    #[test]
    fn a_move_that_is_not_best_is_given_away_value() {
        // Misère: the centre is the only first move that keeps the draw.
        let corner = Square::new(0).unwrap();
        let g = GameResult {
            game: Rules::Misere,
            device_first: true,
            moves: vec![corner],
            ..GameResult::default()
        };
        assert_eq!(gave_away(&g).len(), 1, "{:?}", gave_away(&g));
        let g = GameResult {
            moves: vec![Square::CENTRE],
            ..g
        };
        assert!(gave_away(&g).is_empty());
    }

    #[test]
    fn the_replay_answers_only_best_moves_it_played() {
        let rules = Rules::Hexapawn;
        let p = rules.start();
        let best = best_moves_of(rules, &p);
        let worse = rules
            .children(&p)
            .into_iter()
            .map(|c| c.0)
            .find(|m| !best.contains(m));
        let good = Replay::new(rules, true, &[best[0]]);
        assert_eq!((&good).choose_move(&p), Some(best[0]));
        if let Some(w) = worse {
            let bad = Replay::new(rules, true, &[w]);
            assert_eq!((&bad).choose_move(&p), None);
            assert!(bad.mismatches.borrow()[0].contains("the image played"));
        }
    }

    #[test]
    fn the_unknown_save_is_refused_by_the_machines_decoder_and_keeps_the_rest() {
        // The host machine's snapshot (calibrated, a fresh game).
        let mut why = vec![];
        let world = host_world(&unknown_save_plan(), &mut why).expect("a host world");
        let replay = Replay::new(Rules::TicTacToe, true, &[]);
        let snap = host_machine(&world, &replay, &mut why)
            .expect("a host machine")
            .controller
            .snapshot();
        let mut store = Store::new(Pages::new(), 0).unwrap();
        store.save(&snap).unwrap();
        let mut flash = vec![0xFF; crate::STORE_OFFSET];
        flash.extend_from_slice(&store.destroy().bytes);
        let saved = unknown_save(&flash, UNKNOWN_GAME).unwrap();
        let mut pages = Pages::new();
        pages.bytes.copy_from_slice(&saved[crate::STORE_OFFSET..]);
        let got = Store::new(pages, 0).unwrap().load().unwrap().unwrap();
        assert_eq!(got.record.refused_game(), Some(UNKNOWN_GAME));
        assert_eq!(got.record.game(), Rules::TicTacToe);
        assert!(!got.active && got.record.is_empty());
        assert_eq!((got.pose, got.calibration), (snap.pose, snap.calibration));
        // The image before its store pages is kept.
        assert_eq!(saved[..crate::STORE_OFFSET], flash[..crate::STORE_OFFSET]);
        // A known game's number is no unknown save; a flash without a save none.
        assert!(unknown_save(&flash, Rules::Achi.code()).is_err());
        assert!(unknown_save(&vec![0xFF; flash.len()], UNKNOWN_GAME).is_err());
    }

    #[test]
    fn the_people_play_legal_moves() {
        for rules in GAMES.into_iter().filter(|r| !r.places_only()) {
            let p = rules.start();
            for f in [people::perfect, people::careless] {
                let mv = f(rules, &p).expect("a move at the start");
                assert!(rules.play(&p, mv).is_some());
            }
        }
        assert_eq!(people::misere_perfect(&Board::EMPTY), Some(Square::CENTRE));
    }
}
