//! Issue 37's cheat count: a cheat the person makes right after their own fix
//! slipped a piece of theirs onto a wrong point is no cheat the device can read
//! (two pieces off the record, one on top of the other): the error light, and
//! the person's fix by hand, are its right answer, and the run counts that cheat
//! as put back by hand after the error light.

use tictable::strategy::Level;
use tictable_machine::controller::Rules;
use tictable_machine::sim::batch::{run_batch, Batch};
use tictable_machine::sim::faults::FaultSet;

/// `simulate --game three-mens-morris --faults all --fault-rate 0.3 --cheat-rate
/// 0.2 --seed 2`: its 27th game (game 26 from 0) has the case. The device first,
/// black on squares 2 and 5, white on 9; a power cut and the fixes after it left
/// the board off what the person remembers, their fix slipped their white piece
/// from 9 onto 6, and they cheated, moving black from 5 onto 6 (the point they
/// believed empty). The device saw black missing on 5 and white missing on 9:
/// no one-piece cheat, so it lit the error light without trying to restore, and
/// the person put the board right. Before the fix the count missed that cheat
/// ("7 cheats, only 1 restored": 1 + 5 after a cut + 0 after the error light).
#[test]
fn a_cheat_on_top_of_the_persons_slipped_piece_is_put_back_by_hand_after_the_error_light() {
    let batch = Batch {
        games: 27,
        seed: 2,
        cheat_rate: 0.2,
        faults: FaultSet::ALL,
        fault_rate: 0.3,
        angle_deg: 0.0,
        level: Level::Perfect,
        rules: Rules::ThreeMensMorris,
    };
    let s = run_batch(batch, None).unwrap();
    // (The morris games lose some games by their value: `simulate` judges
    // those, not `Summary::check`.)
    assert_eq!((s.pieces_lost, s.stuck_games, s.unresumed_games), (0, 0, 0));
    let by_hand = s.cheats_fixed_after_cut + s.cheats_fixed_after_error;
    assert_eq!(s.cheats_restored + by_hand, s.cheats_injected, "{s:?}");
    assert_eq!(
        (
            s.cheats_injected,
            s.cheats_restored,
            s.cheats_fixed_after_cut,
            s.cheats_fixed_after_error
        ),
        (7, 1, 5, 1),
        "the seeded run no longer has the case: {s:?}"
    );
}
