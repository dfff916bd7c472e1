//! Per-square calibration and classification of colour readings.
//!
//! Each sensor sits under a different square, with its own light leak and gain, so
//! each square keeps three reference readings: empty, black piece, white piece. A
//! reading is classified as the nearest reference (L1 distance over the four
//! channels) only when it is clearly nearer to it than to the others; anything in
//! between (a piece half on the square, a hand over it, a flicker) is
//! [`Sensed::Unknown`].

use super::Colour;
use tictable::Squares;

/// Moved to [`super::hw::Rgbc`]; this path stays for one release.
pub use super::hw::Rgbc;

/// What a sensor reports about its square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sensed {
    /// No piece.
    Empty,
    /// A piece of this colour, centred on the square.
    Piece(Colour),
    /// An ambiguous reading: nothing is trusted.
    Unknown,
    /// The sensor does not answer (persistent bus errors).
    Fault,
}

/// The three kinds of reference reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Reference {
    /// The square without a piece.
    Empty,
    /// A black piece centred on the square.
    Black,
    /// A white piece centred on the square.
    White,
}

impl Reference {
    /// All three, in index order.
    pub const ALL: [Reference; 3] = [Reference::Empty, Reference::Black, Reference::White];

    const fn index(self) -> usize {
        match self {
            Reference::Empty => 0,
            Reference::Black => 1,
            Reference::White => 2,
        }
    }

    /// What a reading that matches this reference is classified as.
    ///
    /// ```
    /// use tictable_machine::{classify::{Reference, Sensed}, Colour};
    /// assert_eq!(Reference::Black.sensed(), Sensed::Piece(Colour::Black));
    /// ```
    pub const fn sensed(self) -> Sensed {
        match self {
            Reference::Empty => Sensed::Empty,
            Reference::Black => Sensed::Piece(Colour::Black),
            Reference::White => Sensed::Piece(Colour::White),
        }
    }
}

/// How sure a classification must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Margins {
    /// The distance to the nearest reference must be at most this percentage of the
    /// distance to the second nearest.
    pub ratio_percent: u32,
    /// The distance to the nearest reference must be at most this percentage of that
    /// reference's distance to the closest other reference.
    pub spread_percent: u32,
}

impl Margins {
    /// Defaults: nearest at most 8 % of the second, within 8 % of the gap. A
    /// reading counts as a piece only when it is about 92 % of the way from the
    /// empty square's reference to the piece's: with a sensor that sees a 22 mm
    /// piece fully within 4 mm of the square centre and not at all beyond 14 mm (the
    /// simulator's geometry), a piece is accepted up to about 4.8 mm off-centre,
    /// short of 5 mm, where a 22 mm piece on a 32 mm square touches the lines
    /// (contest rule: inside its square), with room for 3 % sensor noise; further
    /// off it is unknown, which the controller treats as "put the piece right". (At
    /// 11 % and 10 % the boundary sat at 5 mm itself, and a piece 5.1 mm off was
    /// read as on its square in about one reading in nine.)
    pub const DEFAULT: Margins = Margins {
        ratio_percent: 8,
        spread_percent: 8,
    };
}

impl Default for Margins {
    fn default() -> Margins {
        Margins::DEFAULT
    }
}

/// The three reference readings of one square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SquareCalibration {
    references: [Rgbc; 3],
}

impl SquareCalibration {
    /// A calibration from its references, if they are far enough apart to tell
    /// apart (at least `min_separation` in L1 distance pairwise).
    pub fn new(
        empty: Rgbc,
        black: Rgbc,
        white: Rgbc,
        min_separation: u32,
    ) -> Result<SquareCalibration, CalibrationError> {
        let c = SquareCalibration {
            references: [empty, black, white],
        };
        match c.too_close(min_separation) {
            Some((a, b)) => Err(CalibrationError::TooClose(a, b)),
            None => Ok(c),
        }
    }

    /// The first pair of references nearer than `min_separation`, if any.
    fn too_close(&self, min_separation: u32) -> Option<(Reference, Reference)> {
        use Reference::{Black, Empty, White};
        [(Empty, Black), (Empty, White), (Black, White)]
            .into_iter()
            .find(|&(a, b)| self.reference(a).l1(&self.reference(b)) < min_separation)
    }

    /// The references, to be restored unchecked (a snapshot's calibration was
    /// checked when it was made).
    pub(crate) fn references_mut(&mut self) -> &mut [Rgbc; 3] {
        &mut self.references
    }

    /// The three reference readings, in [`Reference::ALL`] order.
    pub const fn references(&self) -> &[Rgbc; 3] {
        &self.references
    }

    /// One reference reading.
    pub const fn reference(&self, r: Reference) -> Rgbc {
        self.references[r.index()]
    }

    /// Classifies one reading.
    ///
    /// ```
    /// use tictable_machine::classify::{Margins, Rgbc, Sensed, SquareCalibration};
    /// use tictable_machine::Colour;
    /// let c = SquareCalibration::new(
    ///     Rgbc::new(1000, 400, 300, 300),
    ///     Rgbc::new(200, 70, 60, 60),
    ///     Rgbc::new(3000, 1000, 1000, 1000),
    ///     200,
    /// ).unwrap();
    /// let m = Margins::DEFAULT;
    /// assert_eq!(c.classify(Rgbc::new(210, 72, 58, 61), m), Sensed::Piece(Colour::Black));
    /// assert_eq!(c.classify(Rgbc::new(980, 410, 300, 290), m), Sensed::Empty);
    /// // Half-way between empty and black: not trusted.
    /// assert_eq!(c.classify(Rgbc::new(600, 235, 180, 180), m), Sensed::Unknown);
    /// ```
    #[inline(never)]
    pub fn classify(&self, reading: Rgbc, margins: Margins) -> Sensed {
        // The distances, and the first nearest reference; then the distance to the
        // second nearest, and from the nearest to the closest other reference.
        let mut d = [0; 3];
        let mut best = 0;
        for (i, v) in self.references.iter().enumerate() {
            d[i] = v.l1(&reading);
            if d[i] < d[best] {
                best = i;
            }
        }
        let nearest = &self.references[best];
        let (mut second, mut spread) = (u32::MAX, u32::MAX);
        for (i, (v, &dv)) in self.references.iter().zip(&d).enumerate() {
            if i != best {
                second = second.min(dv);
                spread = spread.min(v.l1(nearest));
            }
        }
        // At most 4 × 65 535 × 100: a product past `u32::MAX` is larger anyway.
        let near = d[best] * 100;
        if near <= second.saturating_mul(margins.ratio_percent)
            && near <= spread.saturating_mul(margins.spread_percent)
        {
            // What each reference is classified as, in index order (one table).
            const SENSED: [Sensed; 3] = [
                Reference::ALL[0].sensed(),
                Reference::ALL[1].sensed(),
                Reference::ALL[2].sensed(),
            ];
            SENSED[best]
        } else {
            Sensed::Unknown
        }
    }
}

/// A calibration that cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum CalibrationError {
    /// Two references of a square are too close to tell apart.
    TooClose(Reference, Reference),
    /// No reading of this kind was recorded for the squares in the set.
    Missing(Reference, Squares),
    /// The square's references are too close (from [`Calibrator::finish`]).
    Square(tictable::Square, Reference, Reference),
}

impl core::fmt::Display for CalibrationError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CalibrationError::TooClose(a, b) => {
                write!(f, "references {a:?} and {b:?} are too close to tell apart")
            }
            CalibrationError::Missing(r, s) => {
                write!(f, "no {r:?} reading for square ")?;
                super::write_squares(f, *s)
            }
            CalibrationError::Square(s, a, b) => write!(
                f,
                "square {}: references {a:?} and {b:?} are too close",
                s.index() + 1
            ),
        }
    }
}

impl core::error::Error for CalibrationError {}

/// The calibration of all nine squares. The default (no references, zero margins)
/// trusts no reading: every square is [`Sensed::Unknown`] until calibrated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Calibration {
    squares: [SquareCalibration; 9],
    margins_ratio: u32,
    margins_spread: u32,
}

impl Calibration {
    /// A calibration from nine square calibrations and the margins to classify with.
    pub const fn new(squares: [SquareCalibration; 9], margins: Margins) -> Calibration {
        Calibration {
            squares,
            margins_ratio: margins.ratio_percent,
            margins_spread: margins.spread_percent,
        }
    }

    /// The margins in use.
    pub const fn margins(&self) -> Margins {
        Margins {
            ratio_percent: self.margins_ratio,
            spread_percent: self.margins_spread,
        }
    }

    /// The nine squares' calibrations, in square order.
    pub const fn squares(&self) -> &[SquareCalibration; 9] {
        &self.squares
    }

    /// One square's calibration.
    pub const fn square(&self, square: tictable::Square) -> &SquareCalibration {
        &self.squares[square.index() as usize]
    }

    /// Classifies a reading of `square`.
    pub fn classify(&self, square: tictable::Square, reading: Rgbc) -> Sensed {
        self.square(square).classify(reading, self.margins())
    }
}

/// Collects averaged reference readings square by square; see [`Calibrator::finish`].
///
/// The procedure: with the board empty, record [`Reference::Empty`] on every square;
/// then put black pieces on some squares and record [`Reference::Black`] for them,
/// and so on until every square has all three (five pieces per colour are enough
/// in two rounds).
///
/// ```
/// use tictable_machine::classify::{Calibrator, Margins, Reference, Rgbc, Sensed};
/// use tictable::Square;
/// let mut cal = Calibrator::new();
/// for s in Square::ALL {
///     cal.record(Reference::Empty, s, Rgbc::new(1000, 300, 300, 300));
///     cal.record(Reference::Black, s, Rgbc::new(200, 60, 60, 60));
///     cal.record(Reference::White, s, Rgbc::new(3000, 900, 900, 900));
/// }
/// let c = cal.finish(300, Margins::DEFAULT).unwrap();
/// assert_eq!(c.classify(Square::CENTRE, Rgbc::new(1010, 300, 290, 300)), Sensed::Empty);
/// ```
#[derive(Clone, Debug)]
pub struct Calibrator {
    /// Channel sums (clear, red, green, blue) per square and reference, flat:
    /// `4 * (3 * square + reference) + channel`.
    sums: [u32; 9 * 3 * 4],
    /// Readings per square and reference: `3 * square + reference`.
    counts: [u16; 9 * 3],
    /// When the readings under way began (see [`Calibrator::recording`]).
    recording: Option<u32>,
}

impl Default for Calibrator {
    fn default() -> Calibrator {
        Calibrator::new()
    }
}

impl Calibrator {
    /// An empty calibrator.
    pub const fn new() -> Calibrator {
        Calibrator {
            sums: [0; 9 * 3 * 4],
            counts: [0; 9 * 3],
            recording: None,
        }
    }

    /// When the readings under way began, ms, if readings are under way: a guided
    /// step collects its samples over many polls (a sensor has a new sample only
    /// once per integration time), see [`record_step`](super::controller::sensor_calibration::record_step).
    pub const fn recording(&self) -> Option<u32> {
        self.recording
    }

    /// Marks readings as under way since `since`, or (`None`) as finished.
    pub fn set_recording(&mut self, since: Option<u32>) {
        self.recording = since;
    }

    /// The readings of `square` showing `reference` recorded so far.
    pub fn count(&self, reference: Reference, square: tictable::Square) -> u16 {
        self.counts[3 * square.index() as usize + reference.index()]
    }

    /// Adds one reading of `square` showing `reference`.
    pub fn record(&mut self, reference: Reference, square: tictable::Square, reading: Rgbc) {
        let i = 3 * square.index() as usize + reference.index();
        let channels = [reading.clear, reading.red, reading.green, reading.blue];
        for (sum, v) in self.sums[4 * i..4 * i + 4].iter_mut().zip(channels) {
            *sum = sum.saturating_add(v.into());
        }
        self.counts[i] = self.counts[i].saturating_add(1);
    }

    /// The squares that have at least one reading of `reference`.
    pub fn recorded(&self, reference: Reference) -> Squares {
        let mut bits = 0;
        for (s, counts) in self.counts.chunks_exact(3).enumerate() {
            if counts[reference.index()] > 0 {
                bits |= 1 << s;
            }
        }
        Squares::from_bits(bits)
    }

    /// The averaged calibration, or what is missing or unusable.
    pub fn finish(
        &self,
        min_separation: u32,
        margins: Margins,
    ) -> Result<Calibration, CalibrationError> {
        for &r in Reference::ALL.iter() {
            let missing = Squares::from_bits(!self.recorded(r).bits() & tictable::board::FULL);
            if !missing.is_empty() {
                return Err(CalibrationError::Missing(r, missing));
            }
        }
        let mut squares = [SquareCalibration::default(); 9];
        let mut recorded = self.sums.chunks_exact(4).zip(&self.counts);
        for (&square, c) in tictable::Square::ALL.iter().zip(squares.iter_mut()) {
            for v in c.references.iter_mut() {
                if let Some((&[clear, red, green, blue], &n)) = recorded.next() {
                    // Every count is at least 1 (checked above).
                    let n = u32::from(n).max(1);
                    let avg = |sum: u32| (sum / n) as u16;
                    *v = Rgbc::new(avg(clear), avg(red), avg(green), avg(blue));
                }
            }
            if let Some((a, b)) = c.too_close(min_separation) {
                return Err(CalibrationError::Square(square, a, b));
            }
        }
        Ok(Calibration::new(squares, margins))
    }
}
