//! Every Markdown file of the repository (found by walking it: README.md, `docs/`,
//! the crates' and the firmware's READMEs, ...) and the crate documentation (`//!`) of
//! every Rust source, as a newcomer reads them: every link to a file in the
//! repository leads to one (none leaves it) and every `#anchor` to a heading there,
//! every path written in backticks exists, the table sizes they state are the ones the
//! crate computes, a byte figure is written in one file only, and what they say of
//! `tables/tictactoe.json` is what the file is. (That the commands they show still run
//! is checked by the program's tests: `cli/tests/cli/readme_commands.rs`.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::markdown;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every Markdown file of the repository and the crate documentation (`//!`) of every
/// Rust source, found by walking the tree, as (path relative to the root, text).
fn documents() -> Vec<(PathBuf, String)> {
    let mut all = markdown::markdown_documents(root());
    all.extend(markdown::crate_docs(root()));
    all
}

fn document(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The prose of a Markdown text: fenced code blocks blanked out (they hold commands and
/// program output, not links).
fn prose(text: &str) -> String {
    let mut fenced = false;
    let mut out = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The inline code spans of a prose text (between single backticks).
fn code_spans(prose: &str) -> Vec<&str> {
    prose.split('`').skip(1).step_by(2).collect()
}

/// The anchor GitHub gives a heading: lower case, spaces as hyphens, punctuation other
/// than `-` and `_` dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings.
fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| slug(l.trim_start_matches('#')))
        .collect()
}

#[test]
fn links_lead_to_files_and_headings_in_the_repository() {
    let root = root().canonicalize().unwrap();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (path, text) in documents() {
        let dir = root.join(&path).parent().unwrap().to_path_buf();
        let prose = prose(&text);
        for (start, _) in prose.match_indices("](") {
            let rest = &prose[start + 2..];
            let target = &rest[..rest.find(')').expect("a closed link")];
            // Web addresses, and rustdoc's links to items (`super::sensors::SensorBank`).
            let item = !target.contains(['.', '/', '#']);
            if target.starts_with("http") || target.contains("::") || item {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
            let file = if file.is_empty() {
                root.join(&path)
            } else {
                dir.join(file)
            };
            checked += 1;
            let Ok(resolved) = file.canonicalize() else {
                wrong.push(format!("{}: {target} does not exist", path.display()));
                continue;
            };
            if !resolved.starts_with(&root) {
                wrong.push(format!(
                    "{}: {target} leaves the repository",
                    path.display()
                ));
            } else if !anchor.is_empty() {
                let heads = anchors(&std::fs::read_to_string(&resolved).unwrap_or_default());
                if !heads.contains(anchor) {
                    wrong.push(format!(
                        "{}: {target}: no heading #{anchor} there (headings: {heads:?})",
                        path.display()
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked > 20, "only {checked} links found");
}

/// Paths written in backticks that are made by a build, not kept in the repository
/// (also any `DIR/target/...`).
const BUILT: [&str; 2] = ["web/dist/", "target/"];

/// Where a repository path in backticks can start: the repository's top-level
/// directories (read from the tree, so a new one counts at once).
fn top_directories() -> Vec<String> {
    std::fs::read_dir(root())
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir())
        .map(|e| format!("{}/", e.file_name().to_string_lossy()))
        .filter(|d| !d.starts_with('.') && d != "target/")
        .collect()
}

/// The directories a path written in `document` may be relative to: the document's
/// own, those above it up to the root (a crate's README names `src/lib.rs` of its
/// crate; rustdoc in `machine/src/persist/` names `machine/src/...` or `src/...`).
fn bases(document: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = document
        .ancestors()
        .skip(1)
        .map(|d| root().join(d))
        .collect();
    dirs.dedup();
    dirs
}

#[test]
fn paths_in_backticks_exist() {
    let top = top_directories();
    assert!(
        top.contains(&"vboard/".to_string()),
        "top-level directories: {top:?}"
    );
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (path, text) in documents() {
        for span in code_spans(&prose(&text)) {
            let candidate = span.trim_end_matches(['/', ':']);
            let looks_like_a_path = top.iter().any(|t| span.starts_with(t.as_str()))
                && !span.contains([' ', '<', '*', '|', '{']);
            let built = BUILT.iter().any(|b| span.starts_with(b)) || span.contains("/target/");
            if !looks_like_a_path || built {
                continue;
            }
            checked += 1;
            if !bases(&path).iter().any(|b| b.join(candidate).exists()) {
                wrong.push(format!("{}: `{span}` does not exist", path.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked > 20, "only {checked} paths found");
}

/// The README's row of its embedding table that starts with `way`.
fn embed_row(readme: &str, way: &str) -> String {
    readme
        .lines()
        .find(|l| l.starts_with(&format!("| {way} |")))
        .unwrap_or_else(|| panic!("README's embedding table has no row \"{way}\""))
        .to_string()
}

/// `n` as README writes byte figures: thousands grouped by commas from 10,000 up.
fn grouped(n: usize) -> String {
    if n < 10_000 {
        return n.to_string();
    }
    crate::grouped::grouped(n as u64)
}

#[test]
fn table_sizes_are_the_ones_the_crate_computes() {
    let size = tictable::table::size();
    let readme = document("README.md");
    let row = embed_row(&readme, "Rust, compiled in");
    let mut figures = vec![
        ("analysis table", size.total()),
        ("compact layout", size.compact_bytes),
        ("best-moves table", size.best_bytes),
    ];
    // The per-board layouts exist on 64-bit hosts only (0 bytes elsewhere).
    if cfg!(target_pointer_width = "64") {
        figures.push(("per-board layout", size.wide_bytes));
        figures.push(("per-board best moves", size.wide_best_bytes));
    }
    for (what, bytes) in figures {
        assert!(
            row.contains(&format!(" {} B", grouped(bytes))),
            "README says another size for the {what} than `tictable stats` ({bytes} B): {row}"
        );
    }
    // The crate's own pages say the best-moves table's size too: its README on
    // crates.io and its rustdoc.
    for page in ["README.crate.md", "src/lib.rs"] {
        let said = format!("{} B table", size.best_bytes);
        assert!(
            document(page).contains(&said),
            "{page} does not call the best-moves table \"{said}\" (`tictable stats`)"
        );
    }
    // What the best-moves table's size counts, term by term, as docs/tables.md
    // writes it: the packed sets (a byte per slot, a bit per slot), the pilots, the seed.
    let slots = size.best_entries + 1;
    let (low, high, pilots) = (slots, slots.div_ceil(8), size.best_entries.div_ceil(3));
    assert_eq!(low + high + pilots + 4, size.best_bytes);
    let sum = format!("{low} B + {high} B + {pilots} B + 4 B in all");
    assert!(
        document("docs/tables.md").contains(&sum),
        "docs/tables.md does not count the best-moves table as {sum}"
    );
    // The figure of the table before its sets were packed in 9 bits is gone, except
    // where docs/tables.md says it is the older one.
    for (path, text) in documents() {
        for stale in ["230 B", "230-byte", "230 bytes"] {
            let count = text.matches(stale).count();
            let explained = usize::from(path == Path::new("docs/tables.md"));
            assert!(
                count <= explained,
                "{}: says {stale} of the best-moves table",
                path.display()
            );
        }
    }
}

/// The byte figures of a text (`2765 B`, `20,680 B`, `16 384 B`), those of three
/// digits or more.
fn byte_figures(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let chars: Vec<char> = text.chars().collect();
    let digit = |k: usize| chars.get(k).is_some_and(char::is_ascii_digit);
    // A group of exactly three digits starts at `k` (the tail of `16 384`).
    let group = |k: usize| (k..k + 3).all(digit) && !digit(k + 3);
    for i in 0..chars.len() {
        if !chars[i].is_ascii_digit() || (i > 0 && (chars[i - 1].is_alphanumeric())) {
            continue;
        }
        if i > 0 && matches!(chars[i - 1], ',' | '.' | '-' | '+' | '^') {
            continue;
        }
        if i > 1 && chars[i - 1] == ' ' && digit(i - 2) && group(i) {
            continue; // inside a number grouped by spaces, found from its start
        }
        let mut j = i;
        while j < chars.len()
            && (chars[j].is_ascii_digit() || chars[j] == ',' || (chars[j] == ' ' && group(j + 1)))
        {
            j += 1;
        }
        let number: String = chars[i..j].iter().collect();
        let number = number.trim_end_matches(',');
        let digits = number.chars().filter(char::is_ascii_digit).count();
        let unit: String = chars[j..chars.len().min(j + 3)].iter().collect();
        let is_bytes = unit.starts_with(" B") && !unit[2..].starts_with(char::is_alphanumeric);
        if is_bytes && digits >= 3 && chars[j - 1] != ',' {
            found.insert(number.replace([',', ' '], ""));
        }
    }
    found
}

/// A text without its generated blocks: the lines from `<!-- NAME:begin -->` to
/// `<!-- NAME:end -->`, which the script that measures them writes (and checks).
fn without_generated_blocks(text: &str) -> String {
    let mut inside = false;
    let mut out = String::new();
    for line in text.lines() {
        let marker = line
            .trim()
            .strip_prefix("<!--")
            .and_then(|l| l.strip_suffix("-->"));
        match marker.map(str::trim) {
            Some(m) if m.ends_with(":begin") => inside = true,
            Some(m) if m.ends_with(":end") => inside = false,
            _ if !inside => {
                out.push_str(line);
                out.push('\n');
            }
            _ => {}
        }
    }
    out
}

/// The table sizes the crate computes: figures that any document may repeat, since
/// `table_sizes_are_the_ones_the_crate_computes` checks them wherever they are written.
fn computed_figures() -> BTreeSet<String> {
    let size = tictable::table::size();
    [
        size.total(),
        size.compact_bytes,
        size.best_bytes,
        size.wide_bytes,
        size.wide_best_bytes,
    ]
    .iter()
    .filter(|&&b| b > 0)
    .map(usize::to_string)
    .collect()
}

#[test]
fn a_byte_figure_is_written_in_one_file_only() {
    let computed = computed_figures();
    let mut files: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for (path, text) in markdown::markdown_documents(root()) {
        for figure in byte_figures(&without_generated_blocks(&text)) {
            if !computed.contains(&figure) {
                files.entry(figure).or_default().push(path.clone());
            }
        }
    }
    assert!(files.len() > 30, "only {} byte figures found", files.len());
    let repeated: Vec<_> = files.iter().filter(|(_, f)| f.len() > 1).collect();
    assert!(
        repeated.is_empty(),
        "byte figures written in more than one file (keep each where its script \
         measures it, link to it elsewhere): {repeated:?}"
    );
}

#[test]
fn byte_figures_are_grouped_as_written() {
    assert_eq!(grouped(146), "146");
    assert_eq!(grouped(2765), "2765");
    assert_eq!(grouped(78_732), "78,732");
    assert_eq!(grouped(1_234_567), "1,234,567");
}

#[test]
fn byte_figures_are_found_as_written() {
    let found = byte_figures(
        "a 2765 B table, 20,680 B as .py, 146 B, 12 B, 2 B, 1,000 KB, 16 384 B, 926 + 416 B",
    );
    let expected: BTreeSet<String> = ["2765", "20680", "146", "16384", "416"]
        .map(String::from)
        .into();
    assert_eq!(found, expected);
}

#[test]
fn generated_blocks_are_left_out_of_the_once_only_rule() {
    let text = "a 2765 B\n<!-- x:begin -->\n4640 B\n<!-- x:end -->\n";
    assert_eq!(without_generated_blocks(text), "a 2765 B\n");
}

#[test]
fn the_json_table_is_one_document_as_described() {
    let text = document("docs/tables.md");
    assert!(text
        .contains("`tictactoe.json`: the 627 canonical decision positions, in one JSON document"));
    for (path, text) in documents() {
        assert!(
            !text.contains("one object per line"),
            "{}: calls tictactoe.json one object per line",
            path.display()
        );
    }
    let json = std::fs::read_to_string(root().join("tables/tictactoe.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).expect("one JSON document");
    assert_eq!(v["format"], "tictable");
    assert_eq!(v["positions"].as_array().map(Vec::len), Some(627));
}

/// Every `cargo install` a document shows takes `--locked`: the versions of
/// `Cargo.lock`, which CI tested, not the newest that semver allows (which may need a
/// newer Rust, or break).
#[test]
fn installs_are_locked() {
    let mut unlocked = Vec::new();
    let mut seen = 0;
    for (path, text) in documents() {
        for (number, line) in text.lines().enumerate() {
            for (at, _) in line.match_indices("cargo install") {
                seen += 1;
                let rest = &line[at..];
                let command = rest.split(['`', '#', ';', '&', '|']).next().unwrap_or(rest);
                let words: Vec<&str> = command.split_whitespace().collect();
                if words.len() <= 2 {
                    continue; // a mention (`cargo install` alone), not a command
                }
                if !words.contains(&"--locked") {
                    unlocked.push(format!("{}:{}: {command}", path.display(), number + 1));
                }
            }
        }
    }
    assert!(seen >= 3, "only {seen} cargo install commands found");
    assert!(
        unlocked.is_empty(),
        "without --locked:\n{}",
        unlocked.join("\n")
    );
}

/// Whether `text` names `ident` as a whole word.
fn names(text: &str, ident: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(ident).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + ident.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// A Rust path written in backticks (`tictable_machine::sim::wire::Wire`,
/// `tictable::table::size()`) checked against the source: each module is a file or a
/// directory of its crate, and the first item after the modules is named in its
/// module's file (defined or re-exported there). `Err` says what is missing.
fn resolve(path: &str) -> Result<(), String> {
    let mut segments = path.split("::");
    let mut dir = match segments.next() {
        Some("tictable") => root().join("src"),
        Some("tictable_machine") => root().join("machine/src"),
        _ => return Err("not a path of this workspace's crates".into()),
    };
    let mut file = dir.join("lib.rs");
    for segment in segments {
        let ident: String = segment
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if ident.is_empty() {
            break;
        }
        let (flat, nested) = (
            dir.join(format!("{ident}.rs")),
            dir.join(&ident).join("mod.rs"),
        );
        if flat.exists() || nested.exists() {
            file = if flat.exists() { flat } else { nested };
            dir = dir.join(&ident);
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        if !names(&text, &ident) {
            return Err(format!("no module or item `{ident}` in {}", file.display()));
        }
        break;
    }
    Ok(())
}

/// The crate paths the documents write still lead somewhere (the machine's modules
/// left `tictable::device` for `tictable_machine`); a bare `device::...` is the old
/// path. CHANGELOG.md is history: it names the old paths on purpose.
#[test]
fn rust_paths_in_backticks_exist() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (path, text) in documents() {
        if path == Path::new("CHANGELOG.md") {
            continue;
        }
        for span in code_spans(&prose(&text)) {
            let span = span.trim();
            if span.starts_with("device::") || span.starts_with("tictable::device") {
                wrong.push(format!("{}: `{span}`: the old module path", path.display()));
            } else if span.starts_with("tictable::") || span.starts_with("tictable_machine::") {
                checked += 1;
                if let Err(e) = resolve(span) {
                    wrong.push(format!("{}: `{span}`: {e}", path.display()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked > 10, "only {checked} Rust paths found");
}

#[test]
fn rust_paths_are_resolved_against_the_source() {
    assert_eq!(resolve("tictable_machine::sim::wire::Wire"), Ok(()));
    assert_eq!(resolve("tictable::table::size()"), Ok(()));
    assert_eq!(resolve("tictable::analyse"), Ok(()));
    assert!(resolve("tictable::device::sim").is_err());
    assert!(resolve("tictable_machine::sim::no_such_thing").is_err());
}

/// The firmware's and the virtual blue pill's READMEs stay short enough to read in
/// about five minutes (what it is, how to run it, the tables a person needs); the rest
/// lives in `docs/firmware.md` and `docs/vboard.md`. The limit counts words as `wc -w`
/// does, tables included: 1,100 words, five minutes at a reading pace of about 220
/// words a minute (tables are scanned faster).
#[test]
fn the_firmware_and_vboard_readmes_stay_short() {
    const WORDS: usize = 1100;
    for page in ["firmware/README.md", "vboard/README.md"] {
        let words = document(page).split_whitespace().count();
        assert!(
            words <= WORDS,
            "{page} has {words} words, over {WORDS}: move details to docs/"
        );
    }
}

/// The position counts the documents give: canonical positions with a move to make,
/// those whose best moves the threats on the board decide (`tictable::tactics`), and
/// those the best-moves table stores.
const SAID_COUNTS: (usize, usize, usize) = (627, 531, 96);

/// The number written just before byte `end` of `text` (`"of 627"`, end after 627).
fn number_before(text: &str, end: usize) -> Option<usize> {
    let head = &text[..end];
    let digits = head.len() - head.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    head[end - digits..].parse().ok()
}

/// The number written from byte `start` of `text`.
fn number_after(text: &str, start: usize) -> Option<usize> {
    let tail = &text[start..];
    let digits = tail.len() - tail.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    tail[..digits].parse().ok()
}

/// The counts wherever a document says them: "N canonical decision positions",
/// "N positions with a move", "N of them with a move", "decides N of the M", "(N of
/// the M)" for the stored ones, "the other N", "N of the M canonical positions": each
/// is the count the crate computes (`SAID_COUNTS`, checked against the solve).
fn count_mismatches(documents: &[(PathBuf, String)]) -> Vec<String> {
    let (decisions, decided, stored) = SAID_COUNTS;
    let mut wrong = Vec::new();
    for (path, text) in documents {
        let text = text.replace("\n//! ", " ").replace(['\n'], " ");
        let mut expect = |at: usize, found: Option<usize>, want: usize, what: &str| {
            if let Some(n) = found.filter(|&n| n != want) {
                let start = text[..at]
                    .char_indices()
                    .rev()
                    .nth(30)
                    .map_or(0, |(i, _)| i);
                let end = (at + 30).min(text.len());
                let end = (end..=text.len())
                    .find(|&e| text.is_char_boundary(e))
                    .unwrap();
                wrong.push(format!(
                    "{}: {n} {what}, the crate computes {want}: \"{}\"",
                    path.display(),
                    &text[start..end]
                ));
            }
        };
        // (Not "the 4520 positions with a move to make": before symmetry.)
        for suffix in [
            " canonical decision positions",
            " canonical positions with a move",
            " of them with a move",
        ] {
            for (at, _) in text.match_indices(suffix) {
                expect(
                    at,
                    number_before(&text, at),
                    decisions,
                    "positions with a move",
                );
            }
        }
        for (at, m) in text.match_indices("symmetries of the square to ") {
            let right = at + m.len();
            expect(
                right,
                number_after(&text, right),
                decisions,
                "positions with a move",
            );
        }
        for (at, m) in text.match_indices(" of the ") {
            let right = at + m.len();
            let Some(of) = number_after(&text, right) else {
                continue;
            };
            let digits = of.to_string().len();
            let after = &text[right + digits..];
            let before = &text[..at];
            let stem = before.trim_end_matches(|c: char| c.is_ascii_digit());
            let stored_form = stem.ends_with("decide (") && after.starts_with(')');
            if !(after.starts_with(" canonical") || after.starts_with(" positions") || stored_form)
            {
                continue;
            }
            expect(right, Some(of), decisions, "positions with a move");
            let n = number_before(&text, at);
            if stem.ends_with("decide ")
                || stem.ends_with("decides ")
                || stem.ends_with("moves of ")
            {
                expect(at, n, decided, "decided by the threats");
            }
            if stored_form {
                expect(at, n, stored, "in the best-moves table");
            }
        }
        for (at, m) in text.match_indices("the other ") {
            let right = at + m.len();
            let Some(n) = number_after(&text, right) else {
                continue;
            };
            let after = &text[right + n.to_string().len()..];
            if after.starts_with('.') || after.starts_with(" canonical") {
                expect(right, Some(n), stored, "in the best-moves table");
            }
        }
    }
    wrong
}

/// The documents' position counts (627 with a move, 531 decided by the threats, 96
/// stored) are the ones the solve and the tables give, wherever they are written.
#[cfg(feature = "std")]
#[test]
fn position_counts_are_the_ones_the_crate_computes() {
    let solution = tictable::solve::solve();
    let stored = tictable::table::size().best_entries;
    let computed = (
        solution.decisions.len(),
        solution.decisions.len() - stored,
        stored,
    );
    assert_eq!(
        computed, SAID_COUNTS,
        "the counts changed: update SAID_COUNTS and every document that says the old ones"
    );
    let wrong = count_mismatches(&documents());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The check itself: an edited count is found.
    let edited = [(
        PathBuf::from("x.md"),
        "decide 530 of the 627 canonical positions; the other 97.".to_string(),
    )];
    assert_eq!(
        count_mismatches(&edited).len(),
        2,
        "{:?}",
        count_mismatches(&edited)
    );
}

/// README's embedding table gives the committed files' sizes: the postcard table's and
/// the Python module's (`wc -c`), as the files are now.
#[test]
fn the_embedded_files_sizes_are_the_files() {
    let readme = document("README.md");
    for (way, file, said) in [
        ("Rust, from a file", "tables/tictactoe.postcard", " B file"),
        ("Python, MicroPython", "tables/tictactoe.py", " B as `.py`"),
    ] {
        let bytes = std::fs::metadata(root().join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}"))
            .len();
        let row = embed_row(&readme, way);
        let figure = format!(" {}{said}", grouped(usize::try_from(bytes).unwrap()));
        assert!(
            row.contains(&figure),
            "README's row \"{way}\" does not say{figure} ({file} has {bytes} bytes): {row}"
        );
    }
}

/// The programs the tests start by name (`Command::new("python3")`, a C compiler read
/// from `$CC`), beyond the base system's `sh`, `true` and `setsid`.
fn programs_the_tests_run() -> BTreeSet<String> {
    const BASE: [&str; 3] = ["sh", "true", "setsid"];
    let mut programs = BTreeSet::new();
    for dir in ["tests", "cli/tests", "games/tests", "machine/tests"] {
        let mut stack = vec![root().join(dir)];
        while let Some(path) = stack.pop() {
            if path.is_dir() {
                for entry in std::fs::read_dir(&path).unwrap().flatten() {
                    stack.push(entry.path());
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (at, _) in text.match_indices("Command::new(\"") {
                let rest = &text[at + "Command::new(\"".len()..];
                let name = &rest[..rest.find('"').unwrap_or(0)];
                if !name.is_empty() && !BASE.contains(&name) {
                    programs.insert(name.to_string());
                }
            }
            if text.contains("env::var(\"CC\")") {
                programs.insert("$CC".to_string());
            }
        }
    }
    programs
}

/// README's set-up ("Two commands": what `cargo test` needs, and the list of ignored
/// tests with what each needs) names every program the tests start, so a newcomer
/// installs them before the first run instead of learning from a failure.
#[test]
fn the_set_up_names_every_program_the_tests_run() {
    let readme = document("README.md");
    let start = readme
        .find("## Two commands")
        .expect("README has ## Two commands");
    let end = readme[start + 3..]
        .find("\n## ")
        .map_or(readme.len(), |e| start + 3 + e);
    let section = &readme[start..end];
    let programs = programs_the_tests_run();
    for expected in ["python3", "nm", "$CC"] {
        assert!(programs.contains(expected), "no test runs {expected}?");
    }
    let missing: Vec<&String> = programs
        .iter()
        .filter(|p| !section.contains(&format!("`{p}`")) && !names(section, p))
        .collect();
    assert!(
        missing.is_empty(),
        "README's \"Two commands\" does not name {missing:?}, which the tests run"
    );
}
