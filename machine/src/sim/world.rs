//! The physical state of the simulated machine: pieces, head, optics, panel.

use super::faults::FaultSet;
use super::stats::WorldStats;
use super::tcs::TcsRegs;
use super::SplitMix64;
use crate::model::{capture_slot, CAPTURE_SLOTS};
use crate::motion::{AxisConfig, HeadTiming, Point, Pose, PoseError, Storage, STORAGE_SLOTS};
use crate::Colour;
use core::cell::RefCell;
use core::ops::Deref;
use tictable::{Board, Square};

/// How the simulated machine is built and how often it misbehaves.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// The real board pose (the controller is configured with the same one).
    pub pose: Pose,
    /// The storage columns.
    pub storage: Storage,
    /// Where the head parks.
    pub park: Point,
    /// Both axes.
    pub axis: AxisConfig,
    /// Lift and magnet timing.
    pub timing: HeadTiming,
    /// Probability that an I2C transaction is not acknowledged.
    pub nack_rate: f64,
    /// Probability that an I2C transaction times out (a slave stretches SCL longer
    /// than the master waits; it gives up and reports `ErrorKind::Other`).
    pub timeout_rate: f64,
    /// Probability that a sensor sample is garbage (a flicker).
    pub flicker_rate: f64,
    /// Probability per sensor read that the sensor browns out first: its registers
    /// go back to their reset values (ENABLE 0x00, ATIME 0xFF, gain 1x, no sample).
    pub brownout_rate: f64,
    /// Probability per sensor read that the sensor's ADC freezes: from then on it
    /// reports the same raw counts, bit for bit, whatever lies on its square, until
    /// a person replugs it ([`World::replug`]).
    pub stuck_rate: f64,
    /// Probability per I2C transaction that a slave starts holding SDA low: that
    /// transaction's master loses arbitration (`ErrorKind::ArbitrationLoss`), and
    /// every later one fails with `ErrorKind::Other` (the firmware's master: SB
    /// never comes, a timeout) until the master frees the bus
    /// ([`BusRecovery`](crate::sensors::BusRecovery)).
    pub bus_hang_rate: f64,
    /// Probability that the magnet fails to pick a piece up.
    pub missed_pickup_rate: f64,
    /// Relative sensor noise (uniform, +-).
    pub noise: f64,
    /// Probability per STEP pulse that the motor slips: that pulse and the next
    /// [`SLIP_STEPS`]` - 1` of the axis do not move the head.
    pub lost_step_rate: f64,
    /// Probability that switching the magnet off does not release the piece
    /// (it stays stuck on the magnet until the next release).
    pub release_fail_rate: f64,
    /// Probability per grip that the piece falls off the magnet in transit (after
    /// 100 to 2500 STEP pulses, if it has not arrived by then).
    pub drop_rate: f64,
    /// Probability per grip that the board is bumped by [`BUMP_MM`] (with the
    /// pieces on it) along X or Y, either way.
    pub bump_rate: f64,
    /// Probability that one reading of a homing switch is closed when it is
    /// open (a noise spike on the wire).
    pub switch_noise_rate: f64,
    /// The seed of everything random in the world.
    pub seed: u64,
    /// The fault kinds asked for ([`SimConfig::set_faults`]); models outside the
    /// world read it with [`SimConfig::fault_rate`].
    pub faults: FaultSet,
    /// The probability of each fault kind in [`SimConfig::faults`].
    pub fault_rate: f64,
}

impl SimConfig {
    /// A 32 mm board centred at (160, 130) with the given rotation, storage columns
    /// left and right of it, and the given fault rate for the world's fault models
    /// (NACK, timeout, flicker, missed pick-up). A rotation beyond 45 degrees (or
    /// NaN) is refused.
    ///
    /// ```
    /// use tictable_machine::motion::PoseError;
    /// use tictable_machine::sim::world::SimConfig;
    /// assert!(SimConfig::standard(45.0, 0.0, 1).is_ok());
    /// assert_eq!(SimConfig::standard(60.0, 0.0, 1).err(), Some(PoseError::Rotation));
    /// assert_eq!(SimConfig::standard(f32::NAN, 0.0, 1).err(), Some(PoseError::Rotation));
    /// ```
    pub fn standard(angle_deg: f32, fault_rate: f64, seed: u64) -> Result<SimConfig, PoseError> {
        if !(-45.0..=45.0).contains(&angle_deg) {
            return Err(PoseError::Rotation);
        }
        Ok(SimConfig {
            pose: Pose::new(Point::mm(160, 130), round(angle_deg * 10.0), 32_000)?,
            storage: Storage {
                first: [Point::mm(20, 70), Point::mm(300, 70)],
                step: Point::mm(0, 30),
            },
            park: Point::mm(160, 10),
            axis: AxisConfig::DEFAULT,
            timing: HeadTiming::DEFAULT,
            nack_rate: fault_rate,
            timeout_rate: fault_rate,
            flicker_rate: fault_rate,
            brownout_rate: 0.0,
            stuck_rate: 0.0,
            bus_hang_rate: 0.0,
            missed_pickup_rate: fault_rate,
            noise: 0.03,
            lost_step_rate: 0.0,
            release_fail_rate: 0.0,
            drop_rate: 0.0,
            bump_rate: 0.0,
            switch_noise_rate: 0.0,
            seed,
            faults: FaultSet::I2C_AND_MAGNET,
            fault_rate,
        })
    }

    /// Sets the probability of every fault kind (NACK, timeout, flicker, missed
    /// pick-up).
    pub fn set_fault_rate(&mut self, rate: f64) {
        self.nack_rate = rate;
        self.timeout_rate = rate;
        self.flicker_rate = rate;
        self.missed_pickup_rate = rate;
    }
}

/// One piece.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Piece {
    /// Its colour.
    pub colour: Colour,
    /// Where it lies (ignored while held by the magnet).
    pub at: Point,
}

/// The head: step counters, lift, magnet.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Head {
    /// Position in steps, X and Y.
    pub steps: [i32; 2],
    /// DIR levels.
    pub dir: [bool; 2],
    /// STEP levels.
    pub step_level: [bool; 2],
    /// Total pulses, X and Y.
    pub pulses: [u64; 2],
    /// Lift lowered.
    pub lowered: bool,
    /// When the lift last changed.
    pub lift_changed_at: u32,
    /// Magnet on.
    pub magnet: bool,
    /// The index of the piece on the magnet.
    pub held: Option<usize>,
    /// Pulses still to be lost by a slipping motor, X and Y.
    pub slipping: [u32; 2],
    /// STEP pulses until the held piece falls off (a drop in transit).
    pub drop_in: Option<u32>,
}

/// The pulses one motor slip loses: 6 mm at the default 10 steps/mm.
pub const SLIP_STEPS: u32 = 60;
/// How far a bump moves the board, mm.
pub const BUMP_MM: f32 = 8.0;

/// Diameter (mm) of the spot of the board's top that a square's colour sensor,
/// under the square's centre, sees: 14 mm, so a 22 mm piece ([`PIECE_MM`]) covers
/// it fully while its centre lies within [`FULL_COVER_MM`] of the square's.
pub const SENSOR_VIEW_MM: f32 = 14.0;
/// Distance (mm) from a square centre within which a piece fully covers the
/// sensor's view: the piece's disc holds the whole spot ([`SENSOR_VIEW_MM`]), 4 mm.
pub const FULL_COVER_MM: f32 = (PIECE_MM - SENSOR_VIEW_MM) / 2.0;
/// The part of a sensor's view a piece must cover to be sensed on its square
/// ([`World::piece_on`]): more than half, its reading then nearer the piece's
/// colour than the empty square's (9 mm off the centre at most, with
/// [`World::cover`]'s fall-off). Geometry, not the firmware's classifier, whose
/// margins ask for more (`classify::Margins::DEFAULT`: about 92 %).
pub const SENSED_COVER: f64 = 0.5;
/// Distance (mm) from a square centre within which a piece stands on that square
/// as a person at the table sees it (and as the contest rule has it: a 22 mm piece
/// this far off a 32 mm square's centre still clears the lines); the sensors'
/// classifier accepts a piece about as far (`classify::Margins::DEFAULT`).
pub const ON_SQUARE_MM: f32 = 5.0;
/// Distance (mm) beyond which a piece does not cover the sensor at all.
pub const NO_COVER_MM: f32 = 14.0;
/// Distance (mm) from a capture place ([`capture_slot`]) within which a piece
/// lies there, out of the game: half the storage pitch (a place is a spot beside
/// the column, not a slot the magnet must find again).
pub const CAPTURE_MM: f32 = 15.0;
/// Diameter of a piece, mm.
pub const PIECE_MM: f32 = 22.0;
/// Distance (mm) within which the magnet catches a piece.
pub const CATCH_MM: f32 = 5.0;

/// `x` rounded to the nearest integer, halves away from zero (`f32::round` needs
/// std; the simulator's core is no_std). Saturates like `as`.
fn round(x: f32) -> i32 {
    (if x < 0.0 { x - 0.5 } else { x + 0.5 }) as i32
}

/// Millimetres (not negative) to whole micrometres (the unit of [`Point`]).
pub(super) fn um(mm: f32) -> u32 {
    round(mm * 1000.0).unsigned_abs()
}

/// The number of pieces: a storage column of each colour, full.
pub const PIECES: usize = 2 * STORAGE_SLOTS;

/// A handle on a shared world: `&RefCell<World>` (no_std, no allocation) or
/// `Rc<RefCell<World>>` (std). The bus and every pin hold one.
pub trait WorldHandle: Clone + Deref<Target = RefCell<World>> {}

impl<T: Clone + Deref<Target = RefCell<World>>> WorldHandle for T {}

/// The whole simulated world.
#[derive(Clone, Debug)]
pub struct World {
    /// Virtual time, ms.
    pub now_ms: u32,
    /// The build.
    pub config: SimConfig,
    /// The ten pieces: black in storage order, then white.
    pub pieces: [Piece; PIECES],
    /// The head.
    pub head: Head,
    /// The channel masks of the two multiplexers.
    pub mux: [u8; 2],
    /// The nine sensors.
    pub sensors: [TcsRegs; 9],
    /// Per-sensor gain of the optics.
    pub gain: [f64; 9],
    /// Raw button levels (true = pressed).
    pub buttons: [bool; crate::panel::BUTTONS],
    /// Light levels.
    pub lights: [bool; 7],
    /// Randomness.
    pub rng: SplitMix64,
    /// Counters.
    pub stats: WorldStats,
    /// A slave out of step with the master, mid-byte ([`super::wire::HungSlave`]):
    /// while it drives a 0 every transaction fails until the bus is recovered.
    pub bus_hung: Option<super::wire::HungSlave>,
    /// Where the board belongs: its pose when the world was built (the marks on
    /// the table a person pushes it back to after a bump).
    pub marks: Pose,
    /// When each piece was last put down (by hand or by the magnet), in puts
    /// counted from 1 (0: never since the pieces went to storage): of two pieces
    /// one on the other, the one put down later lies on top ([`World::rests_on_another`]).
    pub put_down: [u32; PIECES],
    /// Pieces put down so far (the clock of [`World::put_down`]).
    pub puts: u32,
    /// Time the I2C bus has been busy, µs, as the firmware's master spends it
    /// ([`super::bus`]: the [`super::wire`]'s bytes and clocks at 100 kHz, 1 ms per
    /// flag that never comes).
    pub bus_us: u64,
}

impl World {
    /// A world with every piece in storage and the head somewhere on the frame.
    pub fn new(config: SimConfig) -> World {
        let marks = config.pose;
        let mut rng = SplitMix64::new(config.seed);
        let gain = core::array::from_fn(|_| rng.range(0.8, 1.25));
        let spm = config.axis.steps_per_mm;
        let max = (config.axis.travel_mm * spm) as usize;
        let head = Head {
            steps: [rng.below(max) as i32, rng.below(max) as i32],
            ..Head::default()
        };
        let pieces = core::array::from_fn(|i| {
            let (colour, k) = if i < STORAGE_SLOTS {
                (Colour::Black, i)
            } else {
                (Colour::White, i - STORAGE_SLOTS)
            };
            let at = config.storage.slot(colour, k).unwrap_or_default();
            Piece { colour, at }
        });
        World {
            now_ms: 0,
            config,
            pieces,
            head,
            mux: [0; 2],
            sensors: [TcsRegs::default(); 9],
            gain,
            buttons: [false; crate::panel::BUTTONS],
            lights: [false; 7],
            rng,
            stats: WorldStats::default(),
            bus_hung: None,
            marks,
            bus_us: 0,
            put_down: [0; PIECES],
            puts: 0,
        }
    }

    /// The head position, in µm (as every `Point`).
    pub fn head_um(&self) -> Point {
        let um = |steps: i32| steps * 1000 / self.config.axis.steps_per_mm as i32;
        Point::new(um(self.head.steps[0]), um(self.head.steps[1]))
    }

    /// Where piece `i` is now (on the magnet: at the head).
    pub fn piece_at(&self, i: usize) -> Point {
        if self.head.held == Some(i) {
            self.head_um()
        } else {
            self.pieces[i].at
        }
    }

    /// The piece lying (not held) nearest to `p` within `radius` mm.
    pub fn piece_near(&self, p: Point, radius: f32) -> Option<usize> {
        (0..self.pieces.len())
            .filter(|&i| self.head.held != Some(i))
            .map(|i| (i, self.pieces[i].at.distance(p)))
            .filter(|&(_, d)| d <= um(radius))
            .min_by_key(|&(_, d)| d)
            .map(|(i, _)| i)
    }

    /// The piece the colour sensor under `square` senses there, if any: the one
    /// it sees ([`World::seen_by`]) covering more than half of its view
    /// ([`SENSED_COVER`]). A piece placed 4-5 mm off the centre is on its square;
    /// of two pieces one on the other, the bottom one is.
    pub fn piece_on(&self, square: Square) -> Option<usize> {
        self.seen_by(square)
            .filter(|&(_, cover)| cover > SENSED_COVER)
            .map(|(i, _)| i)
    }

    /// The part (0 to 1) of the view of the sensor under `square` that piece `i`
    /// covers (none while held): all of it within [`FULL_COVER_MM`] of the
    /// square's centre, nothing beyond [`NO_COVER_MM`], falling off linearly
    /// between (the light reaching the sensor from the rim of its view counts
    /// less than the area).
    pub fn cover(&self, i: usize, square: Square) -> f64 {
        if self.head.held == Some(i) {
            return 0.0;
        }
        let centre = self.config.pose.square_centre(square);
        let d = self.pieces[i].at.distance(centre) as f32 / 1000.0;
        ((NO_COVER_MM - d) / (NO_COVER_MM - FULL_COVER_MM)).clamp(0.0, 1.0) as f64
    }

    /// The piece the colour sensor under `square` sees, and the part of its view
    /// it covers: of the pieces resting on the board (not on another piece: the
    /// sensor looks up at the bottom of a stack), the one covering the most
    /// (the lowest-numbered of equals); `None` when none covers any of it.
    pub fn seen_by(&self, square: Square) -> Option<(usize, f64)> {
        let mut seen = None;
        for i in 0..self.pieces.len() {
            let c = self.cover(i, square);
            if c > seen.map_or(0.0, |(_, best)| best) && !self.rests_on_another(i) {
                seen = Some((i, c));
            }
        }
        seen
    }

    /// Whether piece `i` lies on top of another (lying) piece: its centre over
    /// that piece's disc, more than halfway in ([`PIECE_MM`] / 2), and put down
    /// after it ([`World::put_down`]).
    pub fn rests_on_another(&self, i: usize) -> bool {
        let at = self.piece_at(i);
        (0..self.pieces.len()).any(|j| {
            j != i
                && self.head.held != Some(j)
                && self.put_down[j] < self.put_down[i]
                && self.pieces[j].at.distance(at) < um(PIECE_MM / 2.0)
        })
    }

    /// Notes that piece `i` was just put down (on top of whatever lies there).
    fn put(&mut self, i: usize) {
        self.puts = self.puts.wrapping_add(1);
        self.put_down[i] = self.puts;
    }

    /// The piece a person sees standing on `square` (within [`ON_SQUARE_MM`] of
    /// its centre), if any.
    pub fn piece_seen_on(&self, square: Square) -> Option<usize> {
        self.piece_near(self.config.pose.square_centre(square), ON_SQUARE_MM)
    }

    /// Whether `p` lies in a storage slot of its colour, or in a place for the
    /// machine's captures of its colour ([`capture_slot`]): out of the game.
    pub fn in_storage(&self, p: &Piece) -> bool {
        let storage = &self.config.storage;
        (0..STORAGE_SLOTS)
            .filter_map(|k| storage.slot(p.colour, k))
            .any(|s| s.distance(p.at) <= um(CATCH_MM))
            || self.at_capture_place(p)
    }

    /// Whether `p` lies at a place for the machine's captures of its colour
    /// ([`capture_slot`], within [`CAPTURE_MM`]).
    pub fn at_capture_place(&self, p: &Piece) -> bool {
        (0..CAPTURE_SLOTS)
            .filter_map(|k| capture_slot(&self.config.storage, p.colour, k))
            .any(|s| s.distance(p.at) <= um(CAPTURE_MM))
    }

    /// The pieces lost at a game's end against the record's squares of each
    /// colour (`black`, `white`): the squares where the pieces lying on the board
    /// (within [`ON_SQUARE_MM`] of a centre) differ from them, plus the pieces
    /// lying elsewhere out of storage (1 for a piece held, or two on one square).
    /// Not counted: those strays when a power cut dropped them (`cut`: no sensor
    /// sees them and the machine cannot know), and the pieces the machine captured
    /// (`captured`, by colour) that are not at their capture place but lie off
    /// the board (outside its nine squares' outline): a capture that fell off the
    /// magnet on its way off the board is out of the game all the same.
    pub fn pieces_lost(&self, (black, white): (u16, u16), captured: [usize; 2], cut: bool) -> u32 {
        let Some(((x, o), strays)) = self.board_ignoring_strays(ON_SQUARE_MM) else {
            return 1;
        };
        let mismatched = ((x ^ black) | (o ^ white)).count_ones();
        if cut {
            return mismatched;
        }
        let excused: usize = [Colour::Black, Colour::White]
            .into_iter()
            .map(|c| {
                let of = |keep: &dyn Fn(&Piece) -> bool| {
                    self.pieces
                        .iter()
                        .filter(|p| p.colour == c && keep(p))
                        .count()
                };
                let placed = of(&|p| self.at_capture_place(p));
                let outline = self.config.pose.pitch_um() / 2;
                let off_board = |p: &Piece| self.config.pose.square_at(p.at, outline).is_none();
                let beside = of(&|p| !self.in_storage(p) && off_board(p));
                beside.min(captured[c.index()].saturating_sub(placed))
            })
            .sum();
        mismatched + strays.saturating_sub(excused) as u32
    }

    /// The position as the pieces lie, or `None` if a piece is off-square on the
    /// board area, two pieces share a square, or a piece is held.
    pub fn board(&self) -> Option<(u16, u16)> {
        self.position(FULL_COVER_MM, false).map(|(bits, _)| bits)
    }

    /// Like [`World::board`], with a piece counting as on a square when its
    /// centre is within `tolerance_mm` of the square's along both board axes.
    pub fn board_within(&self, tolerance_mm: f32) -> Option<(u16, u16)> {
        self.position(tolerance_mm, false).map(|(bits, _)| bits)
    }

    /// Like [`World::board`], but pieces no sensor can see (dropped between squares
    /// or beside the board by a power cut, say) are ignored and counted, and a piece
    /// counts as on a square when its centre is within `tolerance_mm` of the square's.
    pub fn board_ignoring_strays(&self, tolerance_mm: f32) -> Option<((u16, u16), usize)> {
        self.position(tolerance_mm, true)
    }

    /// The pieces on the squares (within `tolerance_mm` of a centre) and, when
    /// `skip_strays`, how many pieces lie where no sensor sees them.
    fn position(&self, tolerance_mm: f32, skip_strays: bool) -> Option<((u16, u16), usize)> {
        let (mut black, mut white, mut strays) = (0u16, 0u16, 0usize);
        for (i, p) in self.pieces.iter().enumerate() {
            if self.head.held == Some(i) {
                return None;
            }
            if self.in_storage(p) {
                continue;
            }
            // Off every square: beside the board, or between squares where a
            // sensor sees at most part of it (a game that ended with every
            // square read clearly had it hidden by the piece on a square).
            if skip_strays && self.config.pose.square_at(p.at, um(ON_SQUARE_MM)).is_none() {
                strays += 1;
                continue;
            }
            let square = self.config.pose.square_at(p.at, um(tolerance_mm))?;
            if (black | white) & square.bit() != 0 {
                return None;
            }
            match p.colour {
                Colour::Black => black |= square.bit(),
                Colour::White => white |= square.bit(),
            }
        }
        Some(((black, white), strays))
    }

    /// Whether `p` lies within reach of a sensor (within [`NO_COVER_MM`] of a
    /// square's centre): on the board as far as the game is concerned.
    pub fn on_board_area(&self, p: Point) -> bool {
        Square::ALL
            .iter()
            .any(|s| self.config.pose.square_centre(*s).distance(p) < um(NO_COVER_MM))
    }

    /// The physical position as a game board (black = X), when it is one.
    pub fn game_board(&self) -> Option<Board> {
        let (x, o) = self.board()?;
        Board::from_bits(x, o).ok()
    }

    /// A free storage slot of `colour` (the lowest).
    pub fn free_slot(&self, colour: Colour) -> Option<Point> {
        (0..STORAGE_SLOTS)
            .filter_map(|k| self.config.storage.slot(colour, k))
            .find(|s| self.piece_near(*s, CATCH_MM).is_none())
    }

    /// A piece of `colour` in storage (the highest slot first, as a person would).
    pub fn stored_piece(&self, colour: Colour) -> Option<usize> {
        (0..STORAGE_SLOTS)
            .rev()
            .filter_map(|k| self.config.storage.slot(colour, k))
            .filter_map(|s| self.piece_near(s, CATCH_MM))
            .find(|&i| self.pieces[i].colour == colour)
    }

    /// How many pieces of `colour` are in storage.
    pub fn stored_pieces(&self, colour: Colour) -> usize {
        (0..STORAGE_SLOTS)
            .filter_map(|k| self.config.storage.slot(colour, k))
            .filter_map(|s| self.piece_near(s, CATCH_MM))
            .filter(|&i| self.pieces[i].colour == colour)
            .count()
    }

    /// Puts every piece back in storage and the magnet off (between games).
    pub fn reset_pieces(&mut self) {
        self.head.held = None;
        let mut k = [0usize; 2];
        for p in &mut self.pieces {
            let c = p.colour.index();
            p.at = self.config.storage.slot(p.colour, k[c]).unwrap_or_default();
            k[c] += 1;
        }
        (self.put_down, self.puts) = ([0; PIECES], 0);
    }

    /// Moves piece `i` to `to` (by hand), plus up to `jitter` mm in each direction.
    pub fn hand_move(&mut self, i: usize, to: Point, jitter: f32) {
        let dx = um(self.rng.range(-1.0, 1.0) as f32 * jitter) as i32;
        let dy = um(self.rng.range(-1.0, 1.0) as f32 * jitter) as i32;
        if self.head.held == Some(i) {
            self.head.held = None;
        }
        self.pieces[i].at = Point::new(to.x + dx, to.y + dy);
        self.put(i);
    }

    /// A power cut: the magnet lets go (a held piece drops where the head is), the
    /// lift falls back up, lights go out, multiplexers and sensors reset.
    pub fn power_cut(&mut self) {
        self.set_magnet(false);
        self.set_lift(false);
        self.lights = [false; 7];
        self.mux = [0; 2];
        self.sensors = [TcsRegs::default(); 9];
        self.head.step_level = [false; 2];
        // The slaves lose power too: none is left mid-byte.
        self.bus_hung = None;
    }

    /// The microcontroller resets (its watchdog) while the rest stays powered:
    /// its pins go back to their reset state (the magnet lets go of a held
    /// piece, the lift springs up, the lights go out); the multiplexers and the
    /// sensors keep their registers.
    pub fn mcu_reset(&mut self) {
        self.set_magnet(false);
        self.set_lift(false);
        self.lights = [false; 7];
        self.head.step_level = [false; 2];
    }

    /// The lift moved.
    pub fn set_lift(&mut self, lowered: bool) {
        if self.head.lowered != lowered {
            self.head.lowered = lowered;
            self.head.lift_changed_at = self.now_ms;
        }
    }

    /// The magnet switched.
    pub fn set_magnet(&mut self, on: bool) {
        if on == self.head.magnet {
            return;
        }
        self.head.magnet = on;
        if on {
            let down = self.head.lowered
                && self.now_ms.wrapping_sub(self.head.lift_changed_at)
                    >= self.config.timing.lift_ms;
            if down && self.head.held.is_none() {
                if let Some(i) = self.piece_near(self.head_um(), CATCH_MM) {
                    if self.rng.chance(self.config.missed_pickup_rate) {
                        self.stats.missed_pickups += 1;
                    } else {
                        self.head.held = Some(i);
                        if self.rng.chance(self.config.drop_rate) {
                            self.head.drop_in = Some(100 + self.rng.below(2400) as u32);
                        }
                        if self.rng.chance(self.config.bump_rate) {
                            self.stats.bumps += 1;
                            let (dx, dy) = match self.rng.below(4) {
                                0 => (BUMP_MM, 0.0),
                                1 => (-BUMP_MM, 0.0),
                                2 => (0.0, BUMP_MM),
                                _ => (0.0, -BUMP_MM),
                            };
                            self.bump(dx, dy);
                        }
                    }
                }
            }
        } else if self.head.held.is_some() && self.rng.chance(self.config.release_fail_rate) {
            // Residual magnetism: the piece stays on.
            self.stats.release_fails += 1;
        } else {
            self.let_go();
        }
    }

    /// The held piece (if any) drops where the head is.
    fn let_go(&mut self) {
        self.head.drop_in = None;
        if let Some(i) = self.head.held.take() {
            let mut at = self.head_um();
            // Dropped onto another piece, it slides off beside it.
            let other = (0..self.pieces.len())
                .filter(|&j| j != i && self.pieces[j].at.distance(at) < um(PIECE_MM))
                .min_by_key(|&j| self.pieces[j].at.distance(at));
            if let Some(j) = other {
                self.stats.stacked += 1;
                let o = self.pieces[j].at;
                let d = o.distance(at).max(1) as f32;
                let (ux, uy) = if at != o {
                    ((at.x - o.x) as f32 / d, (at.y - o.y) as f32 / d)
                } else {
                    (1.0, 0.0)
                };
                let slide = |u: f32| (u * um(PIECE_MM) as f32) as i32;
                at = Point::new(o.x + slide(ux), o.y + slide(uy));
            }
            self.pieces[i].at = at;
            self.put(i);
        }
    }

    /// One STEP pin level for axis `a` (0 = X, 1 = Y): a rising edge moves one step
    /// (unless the motor slips, see [`SimConfig::lost_step_rate`]).
    pub fn set_step(&mut self, a: usize, level: bool) {
        if level && !self.head.step_level[a] {
            self.head.pulses[a] += 1;
            if self.head.slipping[a] == 0 && self.rng.chance(self.config.lost_step_rate) {
                self.stats.slips += 1;
                self.head.slipping[a] = SLIP_STEPS;
            }
            if self.head.slipping[a] > 0 {
                self.head.slipping[a] -= 1;
            } else {
                self.head.steps[a] += if self.head.dir[a] { 1 } else { -1 };
            }
            if let Some(n) = self.head.drop_in {
                if n == 0 {
                    self.stats.drops += 1;
                    self.let_go();
                } else {
                    self.head.drop_in = Some(n - 1);
                }
            }
        }
        self.head.step_level[a] = level;
    }

    /// Whether the homing switch of axis `a` is closed.
    pub fn limit_closed(&self, a: usize) -> bool {
        self.head.steps[a] <= 0
    }

    /// One reading of the homing switch of axis `a`: closed, or a spike of
    /// noise (see [`SimConfig::switch_noise_rate`]).
    pub fn read_limit(&mut self, a: usize) -> bool {
        if self.limit_closed(a) {
            return true;
        }
        let spike = self.rng.chance(self.config.switch_noise_rate);
        self.stats.switch_noise += u64::from(spike);
        spike
    }

    /// A person pushes the board back against its marks ([`World::marks`]), the
    /// pieces on it with it.
    pub fn push_board_back(&mut self) {
        let (now, home) = (self.config.pose.centre(), self.marks.centre());
        let mm = |a: i32, b: i32| (a - b) as f32 / 1000.0;
        self.bump(mm(home.x, now.x), mm(home.y, now.y));
    }

    /// The board is bumped by (`dx_mm`, `dy_mm`): its pose moves, and every piece
    /// lying on it (not in storage, not held) with it.
    pub fn bump(&mut self, dx_mm: f32, dy_mm: f32) {
        let d = Point::new(round(dx_mm * 1000.0), round(dy_mm * 1000.0));
        let pose = self.config.pose;
        let (cos, sin) = pose.rotation();
        let c = pose.centre();
        if let Ok(moved) =
            Pose::from_parts(Point::new(c.x + d.x, c.y + d.y), cos, sin, pose.pitch_um())
        {
            for i in 0..self.pieces.len() {
                let p = self.pieces[i];
                if self.head.held != Some(i) && !self.in_storage(&p) && self.on_board_area(p.at) {
                    self.pieces[i].at = Point::new(p.at.x + d.x, p.at.y + d.y);
                }
            }
            self.config.pose = moved;
        }
    }

    /// A person unplugs the sensor of `square` and plugs it back in: it restarts
    /// with its registers at their reset values and a working ADC.
    pub fn replug(&mut self, square: Square) {
        self.sensors[square.index() as usize] = TcsRegs::default();
        self.stats.replugs += 1;
    }

    /// A person centres the piece lying nearest to `square`'s centre (if one
    /// covers its sensor at all) on it, to within `jitter` mm on each axis.
    pub fn centre_piece(&mut self, square: Square, jitter: f32) {
        let centre = self.config.pose.square_centre(square);
        if let Some(i) = self.piece_near(centre, NO_COVER_MM) {
            if !self.in_storage(&self.pieces[i]) {
                self.hand_move(i, centre, jitter);
            }
        }
    }
}
