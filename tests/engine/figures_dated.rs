//! A measured time in the pages that give the project's measurements (README, the
//! crate's README, docs/performance.md, docs/tables.md, vboard/README.md, and the
//! guides docs/games.md, docs/players.md, docs/web.md, docs/puzzles.md, docs/cli.md) is either
//! written by the script that measures it (a generated block) or says when it was
//! measured: its paragraph (or, for a table, the paragraph that introduces it) names a
//! date. A figure that is a goal or a limit ("≤ 10 ms", "at most 1,000 instructions")
//! is not a measurement; the few measured figures that a script checks where it
//! measures them are listed with that script (`CHECKED`).
//!
//! Not applied to docs/machine.md, docs/vboard.md and docs/firmware.md: they state
//! hundreds of times that are the datasheets' and the contest's (a 40 ms page erase,
//! 90 µs an I2C byte at 100 kHz, a 15 s placement budget, a button held 2 s), which no
//! rule of form tells from a measurement; their measured figures are generated blocks
//! (machine-figures, firmware-size, firmware-builds, the vboard figures of
//! vboard/README.md) or dated records with their commits.

use std::path::Path;

use crate::markdown;

/// The pages whose measured times must be generated or dated.
const PAGES: [&str; 10] = [
    "docs/games.md",
    "docs/players.md",
    "docs/web.md",
    "docs/puzzles.md",
    "docs/cli.md",
    "README.md",
    "README.crate.md",
    "docs/performance.md",
    "docs/tables.md",
    "vboard/README.md",
];

/// Measured figures checked by the script that measures them: (page, figure as
/// written, the script).
const CHECKED: [(&str, &str, &str); 3] = [
    ("docs/tables.md", "1135 cycles", "scripts/avr-test"),
    ("docs/tables.md", "71 µs", "scripts/avr-test"),
    ("docs/tables.md", "2863 cycles", "scripts/avr-test"),
];

/// The units of a time or a count of work.
const UNITS: [&str; 7] = ["ns", "µs", "ms", "s", "min", "instructions", "cycles"];

/// The words before a figure that make it a goal, a limit or a setting (the page's
/// "a move every 0.9 s"), not a measurement.
const LIMITS: [&str; 7] = [
    "≤ ", "≥ ", "at most ", "within ", "goal ", "under ", "every ",
];

/// Whether `text` names a date (YYYY-MM-DD).
fn dated(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(9)).any(|i| {
        let d = |k: usize| b[i + k].is_ascii_digit();
        d(0) && d(1)
            && d(2)
            && d(3)
            && b[i + 4] == b'-'
            && d(5)
            && d(6)
            && b[i + 7] == b'-'
            && d(8)
            && d(9)
    })
}

/// The measured times of a paragraph: each number (digits, `,` and `.`) followed by
/// a unit, not preceded by a limit's words, as written ("1135 cycles").
fn times(paragraph: &str) -> Vec<String> {
    let chars: Vec<(usize, char)> = paragraph.char_indices().collect();
    let mut found = Vec::new();
    let mut k = 0;
    while k < chars.len() {
        let (start, c) = chars[k];
        let after_word = k > 0 && {
            let p = chars[k - 1].1;
            p.is_alphanumeric() || matches!(p, '.' | ',' | '-' | '^' | '_' | '/' | 'x')
        };
        if !c.is_ascii_digit() || after_word {
            k += 1;
            continue;
        }
        let mut j = k;
        while j < chars.len() && (chars[j].1.is_ascii_digit() || matches!(chars[j].1, ',' | '.')) {
            j += 1;
        }
        let number_end = chars.get(j).map_or(paragraph.len(), |&(i, _)| i);
        let number = paragraph[start..number_end].trim_end_matches(['.', ',']);
        let rest = &paragraph[start + number.len()..];
        let unit = UNITS.iter().find(|u| {
            rest.strip_prefix(' ')
                .and_then(|r| r.strip_prefix(**u))
                .is_some_and(|r| !r.starts_with(char::is_alphanumeric))
        });
        let limit = LIMITS
            .iter()
            .any(|l| paragraph[..start].ends_with(l) || paragraph[..start].ends_with(l.trim_end()));
        if let (Some(unit), false) = (unit, limit) {
            found.push(format!("{number} {unit}"));
        }
        k = j.max(k + 1);
    }
    found
}

/// The paragraphs of a Markdown text outside generated blocks and fenced code, each
/// with whether it is dated (a table takes the paragraph before it).
fn paragraphs(text: &str) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = Vec::new();
    let mut current = String::new();
    let (mut generated, mut fenced) = (false, false);
    let flush = |current: &mut String, out: &mut Vec<(String, bool)>| {
        if !current.trim().is_empty() {
            let is_table = current.trim_start().starts_with('|');
            let inherited = is_table && out.last().is_some_and(|(_, d)| *d);
            let d = dated(current) || inherited;
            out.push((std::mem::take(current), d));
        }
        current.clear();
    };
    for line in text.lines() {
        let marker = line
            .trim()
            .strip_prefix("<!--")
            .and_then(|l| l.strip_suffix("-->"))
            .map(str::trim);
        match marker {
            Some(m) if m.ends_with(":begin") => {
                flush(&mut current, &mut out);
                generated = true;
                continue;
            }
            Some(m) if m.ends_with(":end") => {
                generated = false;
                continue;
            }
            _ => {}
        }
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if generated || fenced {
            continue;
        }
        if line.trim().is_empty() {
            flush(&mut current, &mut out);
        } else {
            current.push_str(line);
            current.push(' ');
        }
    }
    flush(&mut current, &mut out);
    out
}

/// The undated measured times of a page's text: "page: figure in \"...\"".
fn undated(page: &str, text: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    for (paragraph, is_dated) in paragraphs(text) {
        if is_dated {
            continue;
        }
        for figure in times(&paragraph) {
            if CHECKED.iter().any(|(p, f, _)| *p == page && *f == figure) {
                continue;
            }
            let at = paragraph.find(&figure).unwrap_or(0);
            let mut from = at.saturating_sub(40);
            while !paragraph.is_char_boundary(from) {
                from -= 1;
            }
            let mut to = (at + figure.len() + 30).min(paragraph.len());
            while !paragraph.is_char_boundary(to) {
                to += 1;
            }
            wrong.push(format!(
                "{page}: {figure} in \"…{}…\"",
                &paragraph[from..to]
            ));
        }
    }
    wrong
}

#[test]
fn a_measured_time_is_generated_or_dated() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let all: Vec<_> = markdown::markdown_documents(root)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    let mut wrong = Vec::new();
    for page in PAGES {
        assert!(all.iter().any(|p| p == Path::new(page)), "{page} not found");
        let text = std::fs::read_to_string(root.join(page)).unwrap();
        wrong.extend(undated(page, &text));
    }
    for (page, figure, script) in CHECKED {
        let text = std::fs::read_to_string(root.join(page)).unwrap();
        assert!(
            text.contains(figure),
            "{page} no longer says {figure}: take it out of CHECKED ({script} checks it)"
        );
    }
    assert!(
        wrong.is_empty(),
        "measured times with no date and outside a generated block (give the date \
         and commit of the run, or let the script that measures them write them):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_rule_finds_an_undated_time_and_passes_a_dated_or_generated_one() {
    let page = "docs/performance.md";
    assert_eq!(
        undated(page, "The lookup takes 1.2 ns here.\n").len(),
        1,
        "an undated time"
    );
    assert!(undated(page, "On 2026-12-06 the lookup took 1.2 ns.\n").is_empty());
    assert!(undated(page, "<!-- x:begin -->\nIt took 1.2 ns.\n<!-- x:end -->\n").is_empty());
    assert!(undated(
        page,
        "The goal: solve ≤ 10 ms, at most 1,000 instructions.\n"
    )
    .is_empty());
    assert!(undated(page, "Measured 2026-12-01:\n\n| a | 3 µs |\n").is_empty());
    assert_eq!(undated(page, "Measured.\n\n| a | 3 µs |\n").len(), 1);
    assert_eq!(
        times("took 27.3 M and 506 instructions, 15.19 s, 3^9 s"),
        ["506 instructions", "15.19 s"]
    );
}
