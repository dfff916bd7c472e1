//! The simulated person watching the machine's move in hexapawn: the head went
//! down on a pawn of theirs for a capture, the power failed before that pawn was
//! carried off, and after the cut the head goes down on the machine's pawn for
//! another move. The person must not take the two for one capture (the pawn of
//! theirs still lies there): told by the error light, they put the board as the
//! game stands, not as a capture the machine never made (seed 1 of
//! `simulate --game hexapawn --faults all --fault-rate 0.3` stayed in
//! Error(Mismatch) from that belief, the person's board and the machine's record
//! never agreeing).

use tictable::Square;
use tictable_machine::controller::{Move, Rules};
use tictable_machine::panel::Light;
use tictable_machine::sim::human::{SimHuman, Style};
use tictable_machine::sim::world::{SimConfig, World};
use tictable_machine::Colour;

fn sq(i: u8) -> Square {
    Square::new(i).unwrap()
}

/// Only `light` on (with the Error light, the mismatch pattern: Error alone).
fn lights(w: &mut World, light: Option<Light>) {
    w.lights = [false; 7];
    if let Some(l) = light {
        w.lights[l.index()] = true;
    }
}

/// The head over `square`'s centre, lowered or not.
fn head_on(w: &mut World, square: Square, lowered: bool) {
    let at = w.config.pose.square_centre(square);
    let steps = |um: i32| um * w.config.axis.steps_per_mm as i32 / 1000;
    w.head.steps = [steps(at.x), steps(at.y)];
    w.set_lift(lowered);
}

/// `ms` milliseconds of the person from `now`; the time after.
fn run(h: &mut SimHuman, w: &mut World, now: u32, ms: u32) -> u32 {
    for t in now..now + ms {
        w.now_ms = t;
        h.step(w, t);
    }
    now + ms
}

/// In the machine's turn the head goes down on `square`, then the power fails
/// (lights out, the lift up) for 3 s; the time after.
fn down_then_cut(h: &mut SimHuman, w: &mut World, now: u32, square: Square) -> u32 {
    lights(w, Some(Light::DeviceTurn));
    head_on(w, square, true);
    let now = run(h, w, now, 300);
    w.set_lift(false);
    lights(w, None);
    run(h, w, now, 3_000)
}

/// The pieces on the board, black and white, as square bits.
fn board(w: &World) -> (u16, u16) {
    w.board().expect("every piece clearly on a square")
}

#[test]
fn a_capture_cut_before_its_carry_is_not_the_move_the_person_believes_made() {
    let mut w = World::new(SimConfig::standard(0.0, 0.0, 3).unwrap());
    let mut h = SimHuman::new(Style::Perfect, 0.0, 3);
    h.rules = Rules::Hexapawn;
    // The person plays White (first), the machine Black; both set up by hand.
    h.new_game(Colour::White, Style::Perfect);
    for (colour, squares) in [(Colour::Black, [0, 1, 2]), (Colour::White, [6, 7, 8])] {
        for s in squares {
            let i = w.stored_piece(colour).unwrap();
            let to = w.config.pose.square_centre(sq(s));
            w.hand_move(i, to, 0.0);
        }
    }
    // The person's first move, on their turn light.
    lights(&mut w, Some(Light::HumanTurn));
    let mut now = run(&mut h, &mut w, 1, 5_000);
    let record = *h.record().expect("hexapawn's record");
    assert_eq!(record.len(), 1, "the person moved once: {record:?}");
    let p = record.position();
    // The machine's capture of that pawn, and the plain move the capturing
    // pawn has instead (every first move of White's can be taken, and the
    // pawn that can take it can go straight on).
    let legal = |from: u8, to: u8| {
        let mv = Move::Pawn {
            from: sq(from),
            to: sq(to),
        };
        Rules::Hexapawn.play(&p, mv).is_some()
    };
    let taken = |s: u8| (p.x | p.o) & sq(s).bit() != 0;
    let (from, to) = (0..6u8)
        .flat_map(|from| (0..9u8).map(move |to| (from, to)))
        .find(|&(from, to)| taken(to) && legal(from, to) && legal(from, from + 3))
        .map(|(from, to)| (sq(from), sq(to)))
        .expect("a capture whose pawn can go straight on");
    let before = board(&w);
    // The machine's turn: the head goes down on the pawn to capture, and the
    // power fails before it is carried off (it still lies there). Back up, the
    // machine moves its pawn straight on instead: the head goes down on it, and
    // another cut comes before it arrives.
    for square in [to, from] {
        now = down_then_cut(&mut h, &mut w, now, square);
    }
    // The error light (a mismatch): the person puts the board as the game
    // stands; the capture was never made, their pawn stays.
    lights(&mut w, Some(Light::Error));
    run(&mut h, &mut w, now, 12_000);
    let (black, white) = board(&w);
    assert!(
        white & to.bit() != 0 && black & from.bit() != 0,
        "the person made the machine's capture {}x{} by hand: {:?} -> {:?}",
        from.index() + 1,
        to.index() + 1,
        before,
        (black, white)
    );
}
