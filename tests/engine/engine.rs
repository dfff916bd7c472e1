//! Exhaustive tests of the engine core: positions, symmetry, search and table.

use crate::common;
use common::{reachable, sq};

use std::collections::HashSet;
use tictable::solve::{board_of_index, solve};
use tictable::{
    analyse, best_move, canonical, move_values, search, Analysis, Board, MoveError, Outcome,
    Player, PositionError, Square, Squares, Symmetry,
};

fn board(s: &str) -> Board {
    s.parse().unwrap()
}

#[test]
fn counts_match_the_known_facts() {
    let all = reachable();
    assert_eq!(all.len(), 5478);
    assert_eq!(all.iter().filter(|b| b.is_over()).count(), 958);
    let canon: HashSet<Board> = all.iter().map(|b| canonical(*b).0).collect();
    assert_eq!(canon.len(), 765);
    assert_eq!(canon.iter().filter(|b| b.is_over()).count(), 138);
    let decisions: Vec<_> = all.iter().filter(|b| !b.is_over()).collect();
    assert_eq!(decisions.len(), 4520);
    let x_to_move = decisions
        .iter()
        .filter(|b| b.to_move() == Player::X)
        .count();
    assert_eq!((x_to_move, decisions.len() - x_to_move), (2423, 2097));
    assert_eq!(canon.iter().filter(|b| !b.is_over()).count(), 627);

    let solution = solve();
    assert_eq!(solution.reachable, 5478);
    assert_eq!(solution.reachable_terminal, 958);
    assert_eq!(solution.canonical.len(), 765);
    assert_eq!(solution.decisions.len(), 627);
    assert_eq!(
        tictable::table::map().len(),
        627 + 2,
        "627 entries and 2 stored safe sets"
    );
}

#[test]
fn games_count_and_results() {
    fn walk(board: Board, counts: &mut [u64; 3]) {
        match board.winner() {
            Some(Player::X) => return counts[0] += 1,
            Some(Player::O) => return counts[1] += 1,
            None if board.is_full() => return counts[2] += 1,
            None => {}
        }
        for square in board.legal_moves() {
            walk(board.play(square).unwrap(), counts);
        }
    }
    let mut counts = [0; 3];
    walk(Board::EMPTY, &mut counts);
    assert_eq!(counts, [131184, 77904, 46080]);
    assert_eq!(counts.iter().sum::<u64>(), 255168);
}

#[test]
fn games_up_to_symmetry() {
    // Games up to symmetry: paths from the empty board to a finished game in the graph
    // of canonical positions (moves to symmetric positions count once).
    fn paths(board: Board) -> u64 {
        if board.is_over() {
            return 1;
        }
        let children: HashSet<Board> = board
            .legal_moves()
            .iter()
            .map(|m| canonical(board.play(m).unwrap()).0)
            .collect();
        children.into_iter().map(paths).sum()
    }
    assert_eq!(paths(Board::EMPTY), 26830);
}

#[test]
fn validity_is_exactly_reachability() {
    let reachable: HashSet<Board> = reachable().iter().copied().collect();
    let mut valid = 0;
    for index in 0..19683 {
        let board = board_of_index(index);
        assert_eq!(board.base3_index(), index);
        assert_eq!(
            board.validate().is_ok(),
            reachable.contains(&board),
            "{board}"
        );
        valid += board.validate().is_ok() as usize;
        // Invalid boards are refused by both analysers with the same error.
        if let Err(e) = board.validate() {
            assert_eq!(analyse(&board), Err(e.into()));
            assert_eq!(search::analyse(&board), Err(e));
            assert_eq!(board.to_string().parse::<Board>(), Err(e));
            assert_eq!(best_move(&board), None);
        }
    }
    assert_eq!(valid, 5478);
}

#[test]
fn table_equals_live_search_on_every_reachable_position() {
    for &board in reachable() {
        // The table alone: a missing or malformed entry is an error, not the search.
        let table = analyse(&board).unwrap_or_else(|e| panic!("{board}: {e}"));
        assert_eq!(Ok(table), search::analyse(&board), "{board}");
    }
}

#[test]
fn best_moves_table_equals_live_search_on_every_reachable_position() {
    for &board in reachable() {
        let live = search::analyse(&board).unwrap();
        let expected = (!live.is_terminal()).then(|| live.best());
        assert_eq!(tictable::best_moves(&board), expected, "{board}");
    }
}

#[test]
fn analysis_is_internally_consistent() {
    for &board in reachable() {
        let a = analyse(&board).unwrap();
        assert_eq!(a.to_move(), board.to_move());
        if board.is_over() {
            assert!(a.is_terminal() && a.best().is_empty() && a.safe().is_empty());
            assert_eq!(a.winner(), board.winner(), "{board}");
            continue;
        }
        assert!(!a.best().is_empty());
        assert!(a.best().is_subset(a.safe()), "{board}");
        assert!(a.safe().is_subset(board.legal_moves()), "{board}");
        assert!(a.plies() >= 1 && a.plies() as u32 <= board.empty_squares().len());
        if a.outcome() == Outcome::Draw {
            assert_eq!(
                a.plies() as u32,
                board.empty_squares().len(),
                "a draw fills the board"
            );
        }
        if a.outcome() == Outcome::Loss {
            assert_eq!(a.safe(), board.legal_moves(), "every move keeps a loss");
        }
    }
}

#[test]
fn safe_differs_from_best_only_in_736_wins() {
    let (mut wins, mut differ) = (0, 0);
    for board in reachable().iter().copied().filter(|b| !b.is_over()) {
        let a = analyse(&board).unwrap();
        if a.outcome() == Outcome::Win {
            wins += 1;
            differ += (a.safe() != a.best()) as usize;
        } else if a.outcome() == Outcome::Draw {
            assert_eq!(a.safe(), a.best(), "{board}");
        }
    }
    assert_eq!((wins, differ), (2836, 736));
}

#[test]
fn best_and_safe_moves_keep_the_outcome() {
    for board in reachable().iter().copied().filter(|b| !b.is_over()) {
        let a = analyse(&board).unwrap();
        let values = move_values(&board).unwrap();
        for square in board.legal_moves() {
            let child = analyse(&board.play(square).unwrap()).unwrap();
            let keeps = child.outcome().flip() == a.outcome();
            assert_eq!(keeps, a.safe().contains(square), "{board} {square}");
            let value = values[square.index() as usize].unwrap();
            assert_eq!(value.outcome, child.outcome().flip());
            assert_eq!(value.plies, child.plies() + 1);
            if a.best().contains(square) {
                assert!(keeps);
                assert_eq!(child.plies() + 1, a.plies(), "{board} {square}");
            } else if keeps {
                // A safe move that is not best wins more slowly (or loses faster).
                assert!(a.outcome() != Outcome::Draw);
            }
        }
        for square in board
            .empty_squares()
            .iter()
            .filter(|s| !board.legal_moves().contains(*s))
        {
            assert_eq!(values[square.index() as usize], None);
        }
    }
}

/// Plays the engine (every best move, all branches) against every opponent reply.
/// Returns false if the engine ever loses, or fails to win after an opponent error.
fn engine_never_loses(board: Board, engine: Player, opponent_erred: bool) -> bool {
    if board.is_over() {
        return match board.winner() {
            Some(w) if w == engine => true,
            Some(_) => false,
            None => !opponent_erred,
        };
    }
    let a = analyse(&board).unwrap();
    if board.to_move() == engine {
        a.best()
            .iter()
            .all(|m| engine_never_loses(board.play(m).unwrap(), engine, opponent_erred))
    } else {
        board.legal_moves().iter().all(|m| {
            let erred = opponent_erred || !a.safe().contains(m);
            engine_never_loses(board.play(m).unwrap(), engine, erred)
        })
    }
}

#[test]
fn engine_never_loses_and_punishes_every_error() {
    assert!(engine_never_loses(Board::EMPTY, Player::X, false));
    assert!(engine_never_loses(Board::EMPTY, Player::O, false));
}

#[test]
fn symmetries_are_bijections_with_inverses() {
    let positions = reachable();
    for sym in Symmetry::ALL {
        let images: HashSet<u16> = (0..512).map(|bits| sym.apply_bits(bits)).collect();
        assert_eq!(images.len(), 512, "{sym} is a bijection on masks");
        let squares: HashSet<Square> = Square::ALL.iter().map(|s| sym.apply_square(*s)).collect();
        assert_eq!(squares.len(), 9);
        assert_eq!(sym.apply_square(Square::CENTRE), Square::CENTRE);
        for bits in 0..512 {
            assert_eq!(sym.inverse().apply_bits(sym.apply_bits(bits)), bits);
            assert_eq!(sym.apply_bits(sym.inverse().apply_bits(bits)), bits);
            let set = Squares::from_bits(bits);
            let mapped: Squares = set.iter().map(|s| sym.apply_square(s)).collect();
            assert_eq!(sym.apply_squares(set), mapped);
        }
        for other in Symmetry::ALL {
            // The group is closed: the composition is one of the eight.
            let composed = |bits| other.apply_bits(sym.apply_bits(bits));
            assert!(Symmetry::ALL
                .iter()
                .any(|s| (0..512).all(|b| s.apply_bits(b) == composed(b))));
        }
        for &board in positions {
            assert_eq!(sym.inverse().apply(sym.apply(board)), board);
            assert_eq!(canonical(sym.apply(board)).0, canonical(board).0);
        }
    }
    // The eight symmetries are distinct.
    let tables: HashSet<Vec<u16>> = Symmetry::ALL
        .iter()
        .map(|s| (0..512).map(|b| s.apply_bits(b)).collect())
        .collect();
    assert_eq!(tables.len(), 8);
}

#[test]
fn symmetry_names_match_their_geometry() {
    let cases = [
        (Symmetry::IDENTITY, [0, 1, 2, 3, 4, 5, 6, 7, 8]),
        (Symmetry::MIRROR_LEFT_RIGHT, [2, 1, 0, 5, 4, 3, 8, 7, 6]),
        (Symmetry::MIRROR_TOP_BOTTOM, [6, 7, 8, 3, 4, 5, 0, 1, 2]),
        (Symmetry::ROTATE_180, [8, 7, 6, 5, 4, 3, 2, 1, 0]),
        (Symmetry::TRANSPOSE, [0, 3, 6, 1, 4, 7, 2, 5, 8]),
        (Symmetry::ROTATE_CW, [2, 5, 8, 1, 4, 7, 0, 3, 6]),
        (Symmetry::ROTATE_CCW, [6, 3, 0, 7, 4, 1, 8, 5, 2]),
        (Symmetry::ANTI_TRANSPOSE, [8, 5, 2, 7, 4, 1, 6, 3, 0]),
    ];
    for (sym, images) in cases {
        for (from, to) in images.iter().enumerate() {
            assert_eq!(sym.apply_square(sq(from as u8)), sq(*to), "{sym} of {from}");
        }
    }
}

#[test]
fn analysis_commutes_with_every_symmetry() {
    for &board in reachable() {
        let a = analyse(&board).unwrap();
        for sym in Symmetry::ALL {
            let b = analyse(&sym.apply(board)).unwrap();
            assert_eq!(
                (b.outcome(), b.plies(), b.to_move()),
                (a.outcome(), a.plies(), a.to_move())
            );
            assert_eq!(b.best(), sym.apply_squares(a.best()), "{board} under {sym}");
            assert_eq!(b.safe(), sym.apply_squares(a.safe()), "{board} under {sym}");
        }
    }
}

fn expect(position: &str, outcome: Outcome, plies: u8, best: &[u8]) -> Analysis {
    let a = analyse(&board(position)).unwrap();
    assert_eq!(a.outcome(), outcome, "{position}");
    assert_eq!(a.plies(), plies, "{position}");
    let best: Squares = best.iter().map(|&i| sq(i)).collect();
    assert_eq!(a.best(), best, "{position}");
    a
}

#[test]
fn fixed_positions() {
    // Empty board: a draw in 9 plies, every first move keeps it.
    let a = expect(".........", Outcome::Draw, 9, &[0, 1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(a.safe().len(), 9);
    // X at 0,1 and O at 3,4, X to move: X completes the top row at 2, a win in 1 ply.
    expect("XX.OO....", Outcome::Win, 1, &[2]);
    // Block: O must take 2 or lose.
    let a = expect("XX..O....", Outcome::Draw, 6, &[2]);
    assert_eq!(a.to_move(), Player::O);
    // Fork creation: X corner, O edge next to it... X at 0, O at 1: X wins by forking.
    let a = expect("XO.......", Outcome::Win, 5, &[3, 4, 6]);
    assert_eq!(a.safe(), a.best());
    // Fork defence: X 0, O 4, X 8 — O must play an edge, never a corner.
    let a = expect("X../.O./..X", Outcome::Draw, 6, &[1, 3, 5, 7]);
    assert!(!a.safe().contains(sq(2)) && !a.safe().contains(sq(6)));
    // A single empty square.
    expect("XOXXOOOX.", Outcome::Draw, 1, &[8]);
    expect("xoxxoo.xo", Outcome::Win, 1, &[6]);
    // O to move wins at once rather than blocking.
    let a = expect("XX.OO.X..", Outcome::Win, 1, &[5]);
    assert_eq!(a.to_move(), Player::O);
}

#[test]
fn finished_games() {
    let a = analyse(&board("XXXOO....")).unwrap();
    assert!(a.is_terminal());
    assert_eq!(
        (a.winner(), a.to_move(), a.outcome()),
        (Some(Player::X), Player::O, Outcome::Loss)
    );
    let a = analyse(&board("XOXXOOOXX")).unwrap();
    assert!(a.is_terminal());
    assert_eq!(a.winner(), None);
    assert_eq!(best_move(&board("XOXXOOOXX")), None);
    let b = board("OOOXX.X..");
    assert_eq!(b.winner(), Some(Player::O));
    assert_eq!(b.winning_lines().bits(), 0b111);
    assert_eq!(b.play(sq(5)), Err(MoveError::GameOver));
    assert_eq!(b.legal_moves(), Squares::EMPTY);
    // Two lines completed by one move (X at 0 closes row 0 and column 0).
    let b = board("XXXXOOXOO");
    assert_eq!(b.winning_lines().bits(), 0b001_001_111);
    assert!(analyse(&b).unwrap().is_terminal());
}

#[test]
fn best_move_is_the_lowest_best_square() {
    for &board in reachable() {
        let a = analyse(&board).unwrap();
        assert_eq!(best_move(&board), a.best().first());
    }
}

#[test]
fn parser_accepts_the_documented_forms() {
    for text in [
        "XX.OO....",
        "xx.oo....",
        "XX-OO----",
        "XX_OO____",
        "XX./OO./...",
        "xX_/oO-/...",
    ] {
        assert_eq!(board(text), board("XX.OO...."), "{text}");
        assert_eq!(board(text).to_string(), "XX.OO....");
    }
    for &board in reachable() {
        assert_eq!(board.to_string().parse::<Board>(), Ok(board));
    }
}

#[test]
fn parser_errors_say_what_is_wrong() {
    use PositionError::*;
    let err = |s: &str| s.parse::<Board>().unwrap_err();
    assert_eq!(err(""), WrongLength { cells: 0 });
    assert_eq!(err("XO"), WrongLength { cells: 2 });
    assert_eq!(err(".........."), WrongLength { cells: 10 });
    assert_eq!(
        err("XX.OO..?."),
        BadCharacter {
            index: 7,
            found: '?'
        }
    );
    assert_eq!(
        err("XX.OO...é"),
        BadCharacter {
            index: 8,
            found: 'é'
        }
    );
    assert_eq!(
        err("XX.OO...\0"),
        BadCharacter {
            index: 8,
            found: '\0'
        }
    );
    assert_eq!(
        err("XX.OO.... "),
        BadCharacter {
            index: 9,
            found: ' '
        }
    );
    assert_eq!(err("XX/.OO./..."), BadSeparator { index: 2 });
    assert_eq!(err("XX./OO...."), BadSeparator { index: 10 });
    assert_eq!(err("/XX.OO...."), BadSeparator { index: 0 });
    assert_eq!(err("XX./OO.//..."), BadSeparator { index: 8 });
    assert_eq!(err("XX./OO./.../"), BadSeparator { index: 11 });
    assert_eq!(err("XXX......"), ImpossibleCounts { x: 3, o: 0 });
    assert_eq!(err("OO......."), ImpossibleCounts { x: 0, o: 2 });
    assert_eq!(err("XXXOOO..."), BothWon);
    assert_eq!(err("XXXOO.O.."), MoveAfterWin { winner: Player::X });
    assert_eq!(err("OOOXX.XX."), MoveAfterWin { winner: Player::O });
    assert_eq!(err(&"X".repeat(100_000)), WrongLength { cells: 10 });
    // Every error has a message.
    for e in [
        err(""),
        err("?"),
        err("/"),
        err("XXX......"),
        err("XXXOOO..."),
    ] {
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn from_bits_checks_structure() {
    assert_eq!(
        Board::from_bits(1 << 9, 0),
        Err(PositionError::BitsOutOfRange)
    );
    assert_eq!(
        Board::from_bits(0, 1 << 15),
        Err(PositionError::BitsOutOfRange)
    );
    assert_eq!(
        Board::from_bits(0b110, 0b100),
        Err(PositionError::Overlap { square: sq(2) })
    );
    let b = Board::from_bits(0b11, 0b11000).unwrap();
    assert_eq!(b, board("XX.OO...."));
    assert_eq!((b.x(), b.o()), (0b11, 0b11000));
}

#[test]
fn play_and_moves() {
    let b = Board::EMPTY.play(Square::CENTRE).unwrap();
    assert_eq!(b.get(Square::CENTRE), Some(Player::X));
    assert_eq!(b.to_move(), Player::O);
    assert_eq!(
        b.play(Square::CENTRE),
        Err(MoveError::Occupied {
            square: Square::CENTRE
        })
    );
    assert_eq!(b.legal_moves().len(), 8);
    assert_eq!(b.pretty().to_string().lines().count(), 5);
}

#[test]
fn line_bit_tricks_match_the_eight_lines() {
    use tictable::board::{has_line, LINES};
    for bits in 0..512u16 {
        let mut expected = false;
        for line in LINES {
            expected |= bits & line == line;
        }
        assert_eq!(has_line(bits), expected, "{bits:09b}");
    }
    for board in reachable().iter().copied().filter(|b| !b.is_over()) {
        for player in [Player::X, Player::O] {
            let expected: Squares = board
                .empty_squares()
                .iter()
                .filter(|s| has_line(board.pieces(player).bits() | s.bit()))
                .collect();
            assert_eq!(board.winning_moves(player), expected, "{board} {player}");
        }
    }
}

#[test]
fn status_agrees_with_winner_and_fullness() {
    use tictable::board::Status;
    for &board in reachable() {
        let expected = match board.winner() {
            Some(p) => Status::Won(p),
            None if board.is_full() => Status::Drawn,
            None => Status::Ongoing,
        };
        assert_eq!(board.status(), Ok(expected), "{board}");
    }
}

#[test]
fn squares_have_rows_and_columns_read_left_to_right_top_to_bottom() {
    let places: Vec<(u8, u8)> = (0..9).map(|i| (sq(i).row(), sq(i).column())).collect();
    assert_eq!(
        places,
        [
            (0, 0),
            (0, 1),
            (0, 2),
            (1, 0),
            (1, 1),
            (1, 2),
            (2, 0),
            (2, 1),
            (2, 2)
        ]
    );
}

#[test]
fn a_square_collected_twice_is_in_the_set_once() {
    let set: Squares = [sq(4), sq(0), sq(4)].into_iter().collect();
    assert_eq!(set.bits(), 0b1_0001);
    assert_eq!(set.len(), 2);
}

#[test]
fn a_set_of_squares_iterates_with_its_exact_length() {
    let set = Squares::from_bits(0b1_0100_0101);
    let iter = set.iter();
    assert_eq!(iter.size_hint(), (4, Some(4)));
    assert_eq!(iter.len(), 4);
    assert_eq!(Squares::EMPTY.iter().size_hint(), (0, Some(0)));
}

#[test]
fn a_short_or_long_position_says_how_many_cells_it_found() {
    let short = "XO.XO...".parse::<Board>().unwrap_err();
    assert_eq!(short.to_string(), "expected 9 cells, found 8");
    let long = "XO.XO.....".parse::<Board>().unwrap_err();
    assert_eq!(long.to_string(), "expected 9 cells, found 10 or more");
}

#[test]
fn a_set_of_squares_iterates_in_increasing_order() {
    let set = Squares::from_bits(0b1_0100_0101);
    let got: Vec<u8> = set.iter().map(|s| s.index()).collect();
    assert_eq!(got, [0, 2, 6, 8]);
    assert_eq!(Squares::from_bits(0x1FF).iter().count(), 9);
}

#[test]
fn every_base3_index_is_a_board_and_back() {
    for index in 0..19_683u16 {
        let b = Board::from_base3_index(index).expect("in range");
        assert_eq!(b.base3_index(), index, "{b}");
    }
    assert_eq!(Board::from_base3_index(19_683), None);
}

/// A transposition table that counts the positions the search stored (each
/// position it searched, once per visit), optionally remembering them.
struct Counting {
    memory: Option<std::collections::HashMap<Board, (search::Score, search::Bound)>>,
    stores: u32,
}

impl search::TranspositionTable for Counting {
    fn probe(&self, board: Board) -> Option<(search::Score, search::Bound)> {
        self.memory.as_ref()?.get(&board).copied()
    }
    fn store(&mut self, board: Board, score: search::Score, bound: search::Bound) {
        self.stores += 1;
        if let Some(m) = self.memory.as_mut() {
            m.insert(board, (score, bound));
        }
    }
}

/// Positions plain minimax visits below `board` that are not finished games.
fn minimax_interior(board: Board) -> u32 {
    if board.is_over() {
        return 0;
    }
    1 + board
        .empty_squares()
        .iter()
        .map(|s| minimax_interior(board.play(s).unwrap()))
        .sum::<u32>()
}

/// Alpha-beta prunes, and a transposition table prunes more: the numbers of
/// positions searched from the empty board are part of the search's
/// specification (a search that stops pruning, or ignores a stored bound, still
/// scores right but searches more; these counts catch it).
#[test]
fn alpha_beta_and_the_transposition_table_prune_by_known_counts() {
    let mut plain = Counting {
        memory: None,
        stores: 0,
    };
    assert_eq!(search::score(Board::EMPTY, &mut plain), 0);
    let mut remembered = Counting {
        memory: Some(Default::default()),
        stores: 0,
    };
    assert_eq!(search::score(Board::EMPTY, &mut remembered), 0);
    let minimax = minimax_interior(Board::EMPTY);
    // 549,946 positions in the whole game tree, 255,168 of them finished games.
    assert_eq!(minimax, 294_778);
    // This move order (centre, corners, edges), negamax with fail-soft bounds.
    assert_eq!((plain.stores, remembered.stores), (4_704, 997));
}

/// A lookup error says which key failed and, for a malformed entry, what it held;
/// a position error keeps the position's own words.
#[test]
fn lookup_errors_name_the_key_and_the_value() {
    use tictable::LookupError;
    assert_eq!(
        LookupError::MissingEntry { key: 0x8012 }.to_string(),
        "the table has no entry for key 0x8012"
    );
    assert_eq!(
        LookupError::MalformedEntry {
            key: 0x12,
            value: 0xBEEF
        }
        .to_string(),
        "the table's entry for key 0x0012 is malformed (value 0xbeef)"
    );
    let e = PositionError::BitsOutOfRange;
    assert_eq!(LookupError::Position(e).to_string(), e.to_string());
    // The position error is the source; a table error has none.
    use std::error::Error;
    let source = LookupError::Position(e).source().map(|s| s.to_string());
    assert_eq!(source, Some(e.to_string()));
    assert!(LookupError::MissingEntry { key: 1 }.source().is_none());
}

/// The compiled table's size by part, as `tictable stats` reports it: 2-byte keys
/// and values for the 627 canonical decision positions and the extra entries,
/// the hash parameters on top; the compact and best-moves layouts as the
/// firmware links them.
#[test]
fn the_table_size_adds_up_by_part() {
    let s = tictable::table::size();
    assert_eq!(s.entries, tictable::table::map().len());
    assert_eq!((s.key_bytes, s.value_bytes), (2 * s.entries, 2 * s.entries));
    assert!(s.entries >= 627);
    // The hash parameters: an 8-byte seed, a pilot byte per bucket, 4 bytes per
    // remap slot (phf's layout).
    let map = tictable::table::map();
    assert_eq!(s.hash_bytes, 8 + map.pilots.len() + 4 * map.remap.len());
    assert_eq!(s.total(), 4 * s.entries + s.hash_bytes);
    assert_eq!((s.best_entries, s.best_bytes), (96, 146));
    // Values by slot (a spare one), a pilot byte per 3 entries, a 4-byte seed.
    let compact = 2 * (s.entries + 1) + s.entries.div_ceil(3) + 4;
    assert_eq!(s.compact_bytes, compact);
}

/// A symmetry's index is `h | v << 1 | t << 2`: every one of the eight has its
/// own, and the index gives it back; 8 and above are no symmetry.
#[test]
fn symmetry_indices_round_trip() {
    for (i, s) in Symmetry::ALL.into_iter().enumerate() {
        assert_eq!(usize::from(s.index()), i);
        assert_eq!(Symmetry::from_index(s.index()), Some(s));
    }
    assert_eq!(Symmetry::from_index(8), None);
    assert_eq!(Symmetry::from_index(255), None);
}
