//! Persistence: snapshots in two CRC-checked slots, and power cuts at every step of
//! games in the simulator.

use tictable::device::controller::{BestMove, GameSetup, RandomBestMove, ResumeError, State};
use tictable::device::persist::{PersistError, Store, SLOT_SIZE};
use tictable::device::sim::flash::MemStorage;
use tictable::device::sim::host::HostMachine;
use tictable::device::sim::human::{SimHuman, Style};
use tictable::device::sim::run::SimMachine;
use tictable::device::sim::world::SimConfig;
use tictable::device::sim::SplitMix64;
use tictable::Square;

fn machine(seed: u64) -> HostMachine<BestMove> {
    SimMachine::new(SimConfig::standard(0.0, 0.0, seed), BestMove).unwrap()
}

#[test]
fn the_newest_valid_slot_wins_and_torn_writes_are_ignored() {
    let m = machine(1);
    let mut snap = m.controller.snapshot();
    let mut store = Store::new(MemStorage::<{ 4 * SLOT_SIZE }>::new(), SLOT_SIZE as u32).unwrap();
    assert_eq!(store.load().unwrap(), None);
    snap.moves_len = 1;
    snap.moves[0] = 4;
    store.save(&snap).unwrap();
    let first = store.load().unwrap().unwrap();
    assert_eq!((first.moves_len, first.moves[0]), (1, 4));
    // A second save goes to the other slot; a third one is cut by a power loss.
    snap.moves_len = 2;
    snap.moves[1] = 0;
    store.save(&snap).unwrap();
    let mut storage = store.destroy();
    storage.tear_next = Some(40);
    let mut store = Store::new(storage, SLOT_SIZE as u32).unwrap();
    let mut third = snap;
    third.moves_len = 3;
    third.moves[2] = 8;
    store.save(&third).unwrap();
    let mut store = Store::new(store.destroy(), SLOT_SIZE as u32).unwrap();
    let got = store.load().unwrap().unwrap();
    assert_eq!(got.moves_len, 2, "the torn third save is ignored");
    // A flipped bit in the newest slot: the older one is used.
    let mut store = Store::new(MemStorage::<{ 2 * SLOT_SIZE }>::new(), 0).unwrap();
    store.save(&first).unwrap(); // slot 0
    store.save(&got).unwrap(); // slot 1
    let mut storage = store.destroy();
    storage.bytes[SLOT_SIZE + 10] ^= 0x04;
    let mut store = Store::new(storage, 0).unwrap();
    assert_eq!(store.load().unwrap().unwrap().moves_len, 1);
    // Both slots bad: nothing, never a wrong snapshot.
    let mut storage = store.destroy();
    storage.bytes[10] ^= 0x01;
    let mut store = Store::new(storage, 0).unwrap();
    assert_eq!(store.load().unwrap(), None);
    assert!(matches!(
        Store::new(MemStorage::<SLOT_SIZE>::new(), 0),
        Err(PersistError::TooSmall)
    ));
}

#[test]
fn corrupt_snapshots_are_refused() {
    let m = machine(2);
    let good = m.controller.snapshot();
    let mut fresh = machine(2);
    // X plays twice in a row: not a game.
    let mut bad = good;
    bad.moves_len = 2;
    bad.moves = [4, 4, 0, 0, 0, 0, 0, 0, 0];
    assert_eq!(fresh.controller.resume(&bad), Err(ResumeError::Corrupt));
    let mut bad = good;
    bad.first_square = Some(9);
    assert_eq!(fresh.controller.resume(&bad), Err(ResumeError::Corrupt));
    assert_eq!(fresh.controller.resume(&good), Ok(()));
}

/// Plays a game with a power cut `cut_after` ms after the `k`-th state change;
/// checks the game still ends correctly. Returns whether the cut happened.
fn game_with_power_cut(seed: u64, device_first: bool, k: usize, cut_after: u32) -> bool {
    let chooser = |s: u64| RandomBestMove(SplitMix64::new(s));
    let mut m = SimMachine::new(SimConfig::standard(0.0, 0.0, seed), chooser(seed)).unwrap();
    let mut h = SimHuman::new(Style::Erring(0.3), 0.2, seed ^ 77);
    let setup = GameSetup {
        device_first,
        first_square: if device_first {
            Square::new((seed % 9) as u8)
        } else {
            None
        },
    };
    assert!(m.start_game(setup, &mut h, Style::Erring(0.3)));
    let mut changes = 0;
    let mut last = m.controller.state();
    let mut cut = false;
    let mut cut_at = None;
    let end = m.now + 20 * 60 * 1000;
    while m.now < end {
        m.tick(&mut h);
        let st = m.controller.state();
        if st != last {
            last = st;
            changes += 1;
            if changes == k && !cut {
                cut_at = Some(m.now + cut_after);
            }
        }
        if cut_at == Some(m.now) {
            m.power_cycle(chooser(seed + 1)).unwrap();

            cut = true;
            last = m.controller.state();
        }
        if matches!(st, State::Over(_)) && cut_at.is_none_or(|_| cut) {
            break;
        }
        if matches!(st, State::Over(_)) && !cut {
            break;
        }
    }
    let st = m.controller.state();
    assert!(
        matches!(st, State::Over(_)),
        "seed {seed} k {k} +{cut_after}: stuck in {st:?}, record {}",
        m.controller.record().board()
    );
    assert_ne!(st, State::Over(Some(false)), "the device lost");
    let record = m.controller.record().board();
    let w = m.world.borrow();
    // A piece inside its square (22 mm piece, 32 mm square: within 5 mm); a piece
    // the power cut dropped where no sensor sees it is not part of the game.
    let ((x, o), _strays) = w.board_ignoring_strays(5.0).unwrap_or_else(|| {
        panic!(
            "seed {seed} k {k} +{cut_after}: a piece off-square: {:?}",
            w.pieces
        )
    });
    assert_eq!((x, o), (record.x(), record.o()), "board and record differ");
    assert!(w.head.held.is_none());
    cut
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

#[test]
fn a_placement_task_resumes_after_power_cuts() {
    use tictable::device::controller::Task;
    use tictable::device::Colour::{Black, White};
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
