//! Persistence: the snapshot codec, and power cuts at every step of games in the
//! simulator (the store itself: `tests/device_store.rs`).

use tictable::Square;
use tictable_machine::controller::RECORD_CAPACITY;
use tictable_machine::controller::{
    BestMove, GameRecord, Mode, RandomBestMove, ResumeError, State, Task,
};
use tictable_machine::model::ResetCause;
use tictable_machine::persist::{Snapshot, ENCODED_LEN};
use tictable_machine::sim::host::HostMachine;
use tictable_machine::sim::human::{SimHuman, Style};
use tictable_machine::sim::run::SimMachine;
use tictable_machine::sim::scenario::{PowerCut, Scenario};
use tictable_machine::sim::world::SimConfig;
use tictable_machine::sim::SplitMix64;
use tictable_machine::Colour;

fn machine(seed: u64) -> HostMachine<BestMove> {
    SimMachine::new(SimConfig::standard(0.0, 0.0, seed).unwrap(), BestMove).unwrap()
}

/// A game record of `moves` (squares 0..=8).
fn record(moves: &[u8]) -> GameRecord {
    let mut r = GameRecord::new();
    for &m in moves {
        r.push(Square::new(m).unwrap()).unwrap();
    }
    r
}

/// Offsets in the encoded layout (see `Snapshot::encode`).
const POSE: usize = 1 + 4 + 216 + 8;
const RESET_CAUSE: usize = POSE + 20;
/// The side, first square and number of plies, past the plies beyond the ninth
/// (none in the default layout).
const SETUP: usize = RESET_CAUSE + 1 + (RECORD_CAPACITY - 9);
/// The window: the first nine plies in the default layout.
const MOVES: usize = SETUP + 3;
const TASK: usize = MOVES + 9;
/// Where a whole snapshot's first ply is: the window in the default layout, the
/// base plies in the `games` layout (a whole snapshot keeps all it can there).
const FIRST_PLY: usize = if RECORD_CAPACITY > 9 {
    RESET_CAUSE + 1
} else {
    MOVES
};
const STOCK: usize = TASK + 20 + 1;
const PENDING: usize = STOCK + 4;

#[test]
fn the_reset_cause_is_kept_in_the_snapshot() {
    let mut snap = machine(2).controller.snapshot();
    // The controller does not know why the board reset; the board sets it.
    assert_eq!(snap.reset_cause, ResetCause::Unknown);
    snap.record = record(&[4, 0, 8]);
    for (code, cause) in (1..).zip(ResetCause::ALL) {
        snap.reset_cause = cause;
        let bytes = snap.encode();
        assert_eq!(bytes[RESET_CAUSE], code, "{cause:?}");
        assert_eq!(Snapshot::decode(&bytes), Some(snap), "{cause:?}");
        assert_eq!(ResetCause::from_code(code), Some(cause));
    }
    assert_eq!(ResetCause::from_code(8), None);
}

#[test]
fn corrupt_snapshots_are_refused() {
    let m = machine(2);
    let mut good = m.controller.snapshot();
    good.record = record(&[4, 0]);
    let bytes = good.encode();
    assert_eq!(Snapshot::decode(&bytes), Some(good));
    let refused = |what: &str, edit: &dyn Fn(&mut [u8; ENCODED_LEN])| {
        let mut bad = bytes;
        edit(&mut bad);
        assert_eq!(Snapshot::decode(&bad), None, "{what}");
    };
    refused("another format version", &|b| b[0] = 2);
    refused("the format before the reset cause", &|b| b[0] = 5);
    refused("reset cause code 0", &|b| b[RESET_CAUSE] = 0);
    refused("reset cause code 8", &|b| b[RESET_CAUSE] = 8);
    refused("a flag that is neither 0 nor 1", &|b| b[SETUP] = 7);
    refused("a board turned past 45 degrees (cos 0)", &|b| {
        b[POSE + 8..POSE + 12].copy_from_slice(&0i32.to_le_bytes())
    });
    refused("a square pitch of 0", &|b| {
        b[POSE + 16..POSE + 20].copy_from_slice(&0i32.to_le_bytes())
    });
    refused("a first square past 8", &|b| b[SETUP + 1] = 9);
    refused("more than 9 moves", &|b| b[SETUP + 2] = 10);
    refused("X twice on one square", &|b| b[FIRST_PLY + 1] = 4);
    refused("a move past square 8", &|b| b[FIRST_PLY] = 9);
    refused("a storage slot that does not exist", &|b| b[STOCK] = 0x20);
    refused("a pending placement from slot 5", &|b| {
        b[PENDING..PENDING + 3].copy_from_slice(&[0, 5, 4])
    });
    refused("a pending piece of colour 2", &|b| {
        b[PENDING..PENDING + 3].copy_from_slice(&[2, 0, 4])
    });
    // A task: two black pieces; a square given twice or more done than given fails.
    let task = Task::new(&[
        (Colour::Black, Square::CENTRE),
        (Colour::Black, Square::ALL[0]),
    ])
    .unwrap();
    let with_task = Snapshot {
        mode: Mode::Task { task, done: 1 },
        ..good
    };
    let bytes = with_task.encode();
    assert_eq!(Snapshot::decode(&bytes), Some(with_task));
    let mut bad = bytes;
    bad[TASK + 4 + 1] = 4; // the second placement on the centre again
    assert_eq!(Snapshot::decode(&bad), None, "a square given twice");
    let mut bad = bytes;
    bad[TASK + 1] = 3; // three done of two
    assert_eq!(
        Snapshot::decode(&bad),
        None,
        "more placements done than given"
    );
    // The controller refuses what a snapshot built in code can still hold.
    let mut fresh = machine(2);
    let overdone = Snapshot {
        mode: Mode::Task { task, done: 3 },
        ..good
    };
    assert_eq!(
        fresh.controller.resume(&overdone),
        Err(ResumeError::Corrupt)
    );
    let bad_slot = Snapshot {
        pending: Some((Colour::Black, 5, Square::CENTRE)),
        ..good
    };
    assert_eq!(
        fresh.controller.resume(&bad_slot),
        Err(ResumeError::Corrupt)
    );
    assert_eq!(fresh.controller.resume(&good), Ok(()));
    assert_eq!(fresh.controller.record(), &good.record);
}

/// Plays a game with a power cut `cut_after` ms after the `k`-th state change;
/// checks the game still ends correctly. Returns whether the cut happened.
fn game_with_power_cut(seed: u64, device_first: bool, k: u32, cut_after: u32) -> bool {
    let chooser = |s: u64| RandomBestMove(SplitMix64::new(s));
    let config = SimConfig::standard(0.0, 0.0, seed).unwrap();
    let mut m = SimMachine::new(config, chooser(seed)).unwrap();
    let mut h = SimHuman::new(Style::Erring(0.3), 0.2, seed ^ 77);
    let first_square = device_first.then_some((seed % 9) as u8);
    let game = Scenario {
        cheat_rate: 0.2,
        power_cut: Some(PowerCut::AfterChange {
            change: k,
            after_ms: cut_after,
        }),
        ..Scenario::game(device_first, first_square, Style::Erring(0.3))
    };
    let r = m.play_scenario(&game, &mut h, &mut || chooser(seed + 1), None);
    let what = format!("seed {seed} k {k} +{cut_after}");
    let w = m.world.borrow();
    assert!(
        r.finished,
        "{what}: stuck in {:?}, record {}, pieces {:?}",
        m.controller.state(),
        m.controller.record().board(),
        w.pieces
    );
    assert_ne!(r.device_won, Some(false), "{what}: the device lost");
    // A piece inside its square (22 mm piece, 32 mm square: within 5 mm); a piece
    // the power cut dropped where no sensor sees it is not part of the game.
    assert_eq!(r.pieces_lost, 0, "{what}: pieces {:?}", w.pieces);
    assert!(w.head.held.is_none());
    r.power_cuts > 0
}

#[test]
fn a_power_cut_at_every_step_of_a_game_resumes_it() {
    for (seed, device_first) in [(3, true), (4, false), (5, true), (6, false)] {
        // Cut right after the k-th state change, for every k until the game ends
        // first; and 0.7 s and 1.9 s later (in the middle of moves).
        let mut k = 1;
        while game_with_power_cut(seed, device_first, k, 1) {
            game_with_power_cut(seed, device_first, k, 700);
            game_with_power_cut(seed, device_first, k, 1900);
            k += 1;
        }
        assert!(k > 10, "seed {seed}: only {k} steps");
    }
}

/// A cheat the power cut came in the middle of (the moved piece still off its
/// square) is the only one a cut excuses: a cut before the cheat or after the
/// device put the piece back leaves the count at 0.
#[test]
fn a_power_cut_excuses_only_the_cheat_it_interrupted() {
    let (mut excused, mut not_excused) = (0, 0);
    for k in 1..40 {
        let mut m = machine(9);
        let mut h = SimHuman::new(Style::Perfect, 0.0, 21);
        let game = Scenario {
            cheat_turn: Some(1),
            power_cut: Some(PowerCut::AfterChange {
                change: k,
                after_ms: 300,
            }),
            ..Scenario::game(true, Some(4), Style::Perfect)
        };
        let r = m.play_scenario(&game, &mut h, &mut || BestMove, None);
        if r.power_cuts == 0 {
            break;
        }
        assert!(r.finished && r.pieces_lost == 0, "k {k}: {r:?}");
        if r.cheats == 0 {
            // The cut came in the person's first turn, before the cheat; the
            // turn that resumes is counted as their second.
            continue;
        }
        assert_eq!(
            r.restores + r.cheats_fixed_after_cut + r.cheats_fixed_after_error,
            1,
            "k {k}: {r:?}"
        );
        if r.cheats_fixed_after_cut == 1 {
            excused += 1;
        } else {
            assert_eq!(r.restores, 1, "k {k}: {r:?}");
            not_excused += 1;
        }
    }
    assert!(excused > 0 && not_excused > 5, "{excused} {not_excused}");
}

#[test]
fn a_placement_task_resumes_after_power_cuts() {
    use tictable_machine::controller::Task;
    use tictable_machine::Colour::{Black, White};
    let s = |i| Square::new(i).unwrap();
    let items = [(Black, s(0)), (White, s(4)), (Black, s(8)), (White, s(2))];
    let mut cuts = 0;
    for cut_at in (500..14_000).step_by(650) {
        let mut m = machine(7);
        let mut h = SimHuman::new(Style::Perfect, 0.0, 3);
        assert!(m.run_until(&mut h, 60_000, |m| m.controller.state() == State::Setup));
        m.controller.start_task(Task::new(&items).unwrap()).unwrap();
        let cut = m.now + cut_at;
        m.run_until(&mut h, cut_at, |m| m.controller.state() == State::TaskDone);
        if m.now == cut {
            m.power_cycle(BestMove).unwrap();
            cuts += 1;
        }
        let done = m.run_until(&mut h, 120_000, |m| m.controller.state() == State::TaskDone);
        assert!(done, "cut at {cut_at}: stuck in {:?}", m.controller.state());
        let w = m.world.borrow();
        for (colour, square) in items {
            let i = w
                .piece_on(square)
                .unwrap_or_else(|| panic!("cut at {cut_at}: {square} empty"));
            assert_eq!(w.pieces[i].colour, colour, "cut at {cut_at}");
        }
    }
    assert!(cuts >= 15, "only {cuts} cuts fell inside the task");
}
