//! Board readings trusted only when stable over several frames.
//!
//! A frame holds one new sample of each of the nine sensors. It is read over as
//! many polls as it takes: a square whose sample is not due yet, or whose read
//! failed (each read retried by the bank), is read again at the next poll, so a
//! transient error costs a millisecond, not a frame. A square still without a good
//! read [`ScanSettings::fault_frames`] frame periods after its frame began is
//! reported as [`Sensed::Fault`]. So a view is never a guess, and a dead or stuck
//! sensor ends as a named fault rather than a wrong board or a machine that waits
//! forever.
//!
//! A reading far darker than anything the square's calibration saw is a fault too:
//! on the clear channel under half the square's black reference (the darkest of the
//! three). A live sensor over its square never reads that dark in the light it was
//! calibrated in (a black piece is the least light it gets back, give or take its
//! noise of a few percent), while a sensor frozen dark (its data registers at 0
//! after a brown-out) does: the bank cannot call it stuck, since a live sensor in
//! the dark (the LEDs off) repeats its dark count for ever
//! ([`DARK_FLOOR`](super::sensors::DARK_FLOOR)). Nor can an LED that went out
//! since the calibration be trusted.

use super::classify::{Calibration, Reference, Sensed};
use super::sensors::SensorBank;
use super::{elapsed_ms, Colour};
use embedded_hal::i2c::I2c;
use tictable::{Square, Squares};

/// What the sensors see on the nine squares: three square sets packed in one word
/// (bits 0..9 black pieces, 9..18 white pieces, 18..27 untrusted squares; an
/// untrusted square also in the black set is a sensor fault, one in no other set an
/// unknown reading; a square in no set is empty), so views compare and combine as
/// cheaply as the engine's bitboards.
///
/// ```
/// use tictable_machine::classify::Sensed;
/// use tictable_machine::scanner::BoardView;
/// use tictable_machine::Colour;
/// use tictable::{Board, Square};
/// let board: Board = "X...O....".parse().unwrap();
/// let mut view = BoardView::of_board(board);
/// assert_eq!(view.get(Square::ALL[0]), Sensed::Piece(Colour::Black));
/// assert_eq!(view.pieces(Colour::White).bits(), 1 << 4);
/// view.set(Square::ALL[8], Sensed::Fault);
/// assert_eq!(view.untrusted().bits(), 1 << 8);
/// assert_ne!(view, BoardView::of_board(board));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BoardView {
    /// The packed sets (see above).
    bits: u32,
}

/// The untrusted set's first bit in [`BoardView`] (black's is 0, white's 9).
const UNTRUSTED: u32 = 18;

impl BoardView {
    /// An empty board.
    pub const EMPTY: BoardView = BoardView { bits: 0 };

    /// The bits that record `sensed` on square 0 (shifted by the square's index for
    /// the others).
    const fn pattern(sensed: Sensed) -> u32 {
        match sensed {
            Sensed::Empty => 0,
            Sensed::Piece(Colour::Black) => 1,
            Sensed::Piece(Colour::White) => 1 << 9,
            Sensed::Unknown => 1 << UNTRUSTED,
            Sensed::Fault => 1 << UNTRUSTED | 1,
        }
    }

    /// What `square` shows.
    pub const fn get(&self, square: Square) -> Sensed {
        let v = self.bits >> square.index();
        if v & 1 << UNTRUSTED != 0 {
            if v & 1 != 0 {
                Sensed::Fault
            } else {
                Sensed::Unknown
            }
        } else if v & 1 != 0 {
            Sensed::Piece(Colour::Black)
        } else if v & 1 << 9 != 0 {
            Sensed::Piece(Colour::White)
        } else {
            Sensed::Empty
        }
    }

    /// Records what `square` shows (replacing what it showed).
    pub fn set(&mut self, square: Square, sensed: Sensed) {
        let at = square.index();
        let all = 1 | 1 << 9 | 1 << UNTRUSTED;
        self.bits = self.bits & !(all << at) | Self::pattern(sensed) << at;
    }

    /// The squares holding a piece of `colour`.
    pub const fn pieces(&self, colour: Colour) -> Squares {
        let trusted = self.bits & !(self.bits >> UNTRUSTED);
        Squares::from_bits((trusted >> (9 * colour.index())) as u16)
    }

    /// The squares that are not trusted: unknown readings and sensor faults.
    pub const fn untrusted(&self) -> Squares {
        Squares::from_bits((self.bits >> UNTRUSTED) as u16)
    }

    /// The squares whose sensor is faulty.
    pub const fn faults(&self) -> Squares {
        Squares::from_bits((self.bits >> UNTRUSTED & self.bits) as u16)
    }

    /// Whether a square shows an unknown reading.
    const fn any_unknown(&self) -> bool {
        self.bits >> UNTRUSTED & !self.bits & tictable::board::FULL as u32 != 0
    }

    /// The view of a game position (black = X, white = O).
    pub const fn of_board(board: tictable::Board) -> BoardView {
        BoardView {
            bits: board.x() as u32 | (board.o() as u32) << 9,
        }
    }
}

/// Scanner timing and thresholds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScanSettings {
    /// Milliseconds between frames (at least one sensor integration time).
    pub frame_period_ms: u32,
    /// Identical complete frames in a row before a view is trusted.
    pub stable_frames: u8,
    /// Frame periods from the start of a frame without a good read of a square
    /// before that square is reported as a fault.
    pub fault_frames: u8,
    /// Identical frames in a row before a view with an unknown square is reported
    /// (a flicker must not turn into an error; a piece off-square still does).
    pub unknown_frames: u8,
}

impl ScanSettings {
    /// 30 ms frames, 4 identical frames (10 with an unknown square), a fault after
    /// 5 frame periods (150 ms) without a good read.
    pub const DEFAULT: ScanSettings = ScanSettings {
        frame_period_ms: 30,
        stable_frames: 4,
        fault_frames: 5,
        unknown_frames: 10,
    };
}

impl Default for ScanSettings {
    fn default() -> ScanSettings {
        ScanSettings::DEFAULT
    }
}

/// Reads frames and reports a view once it has been stable.
#[derive(Clone, Debug)]
pub struct Scanner {
    calibration: Calibration,
    settings: ScanSettings,
    last_frame_at: Option<u32>,
    /// The view of the current streak (meaningless while `streak` is 0).
    candidate: BoardView,
    streak: u8,
    /// The frame being read: what it shows so far, the squares still to read.
    frame: BoardView,
    pending: u16,
    #[cfg(feature = "sim-core")]
    frames: u32,
}

impl Scanner {
    /// A scanner classifying with `calibration`.
    pub fn new(calibration: Calibration, settings: ScanSettings) -> Scanner {
        Scanner {
            calibration,
            settings,
            last_frame_at: None,
            candidate: BoardView::EMPTY,
            streak: 0,
            frame: BoardView::EMPTY,
            pending: 0,
            #[cfg(feature = "sim-core")]
            frames: 0,
        }
    }

    /// The calibration in use.
    pub fn calibration(&self) -> &Calibration {
        &self.calibration
    }

    /// Replaces the calibration (after a new calibration or when resuming); the
    /// current streak is dropped.
    pub fn set_calibration(&mut self, calibration: Calibration) {
        self.calibration = calibration;
        self.restart();
    }

    /// Forgets the current streak and the frame being read: the next view reported
    /// comes from frames begun after this call (use it after the board was touched).
    pub fn restart(&mut self) {
        self.streak = 0;
        self.pending = 0;
    }

    /// Frames begun so far.
    /// (Feature `sim-core`: the firmware does without.)
    #[cfg(feature = "sim-core")]
    pub fn frames(&self) -> u32 {
        self.frames
    }

    /// Reads what is due of the current frame at `now_ms` (beginning one when the
    /// frame period has passed); the frame once every square has a reading or is a
    /// fault, `None` while squares remain.
    pub fn read_frame<I2C: I2c>(
        &mut self,
        now_ms: u32,
        bank: &mut SensorBank<I2C>,
    ) -> Option<BoardView> {
        let fault_ms = u32::from(self.settings.fault_frames) * self.settings.frame_period_ms;
        if self.pending == 0 {
            if let Some(at) = self.last_frame_at {
                if elapsed_ms(now_ms, at) < self.settings.frame_period_ms {
                    return None;
                }
            }
            self.last_frame_at = Some(now_ms);
            #[cfg(feature = "sim-core")]
            {
                self.frames = self.frames.wrapping_add(1);
            }
            self.frame = BoardView::EMPTY;
            self.pending = tictable::board::FULL;
        }
        let late = elapsed_ms(now_ms, self.last_frame_at.unwrap_or(now_ms)) >= fault_ms;
        for s in Squares::from_bits(self.pending) {
            let black = self.calibration.square(s).reference(Reference::Black);
            let sensed = match bank.read(s, now_ms) {
                // Darker than the calibration allows (see the module documentation).
                Ok(reading) if u32::from(reading.clear) * 2 < u32::from(black.clear) => {
                    Sensed::Fault
                }
                Ok(reading) => self.calibration.classify(s, reading),
                // Failing, or no new sample, all along.
                Err(_) if late => Sensed::Fault,
                Err(_) => continue,
            };
            self.frame.set(s, sensed);
            self.pending &= !s.bit();
        }
        (self.pending == 0).then_some(self.frame)
    }

    /// Polls: reads what is due of a frame and returns the view once the same one
    /// was seen in `stable_frames` frames in a row; `WouldBlock` until then.
    pub fn poll<I2C: I2c>(
        &mut self,
        now_ms: u32,
        bank: &mut SensorBank<I2C>,
    ) -> nb::Result<BoardView, core::convert::Infallible> {
        let view = self.read_frame(now_ms, bank).ok_or(nb::Error::WouldBlock)?;
        // A streak of 0 continues into 1 whatever the candidate was.
        if self.candidate == view {
            self.streak = self.streak.saturating_add(1);
        } else {
            self.candidate = view;
            self.streak = 1;
        }
        let unknown = view.any_unknown();
        let needed = if unknown {
            self.settings.unknown_frames
        } else {
            self.settings.stable_frames
        };
        // The streak is at least 1 here: 0 frames needed count as 1.
        if self.streak >= needed {
            Ok(view)
        } else {
            Err(nb::Error::WouldBlock)
        }
    }
}
