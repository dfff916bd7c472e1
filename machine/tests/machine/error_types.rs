//! Every error type of the crate says what went wrong (`Display`) and is a
//! `core::error::Error`, so a caller can report it and wrap it (`?` into `Box<dyn
//! Error>`). Issue 34 item 15: `MemFlashError` had neither. The error types are
//! found in the source, not listed: every public type named `...Error`, and every
//! public type that stands as the error of a `Result` or as a `FromStr::Err`.

use std::collections::BTreeSet;
use std::path::Path;

/// The text of every `.rs` file below `dir`.
fn sources(dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(std::fs::read_to_string(&path).unwrap());
        }
    }
}

/// The identifier at the start of `text`.
fn ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The second type argument of each `Result<A, B>` in `text`: `B`'s name.
fn result_errors(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("Result<") {
        let rest = &text[at + "Result<".len()..];
        let mut depth = 0;
        for (i, c) in rest.char_indices() {
            match c {
                '<' | '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                '>' if depth == 0 => break,
                '>' => depth -= 1,
                ',' if depth == 0 => {
                    found.push(ident(rest[i + 1..].trim_start()));
                    break;
                }
                _ => {}
            }
        }
    }
    found
}

#[test]
fn every_error_type_has_display_and_is_an_error() {
    let mut texts = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut texts,
    );
    let all = texts.join("\n");
    let declared: BTreeSet<&str> = ["pub enum ", "pub struct "]
        .iter()
        .flat_map(|k| {
            all.match_indices(k)
                .map(|(at, _)| ident(&all[at + k.len()..]))
        })
        .collect();
    let used_as_error: BTreeSet<&str> = result_errors(&all)
        .into_iter()
        .chain(
            all.match_indices("type Err = ")
                .map(|(at, _)| ident(&all[at + "type Err = ".len()..])),
        )
        .collect();
    let errors: Vec<&str> = declared
        .iter()
        .copied()
        .filter(|name| name.ends_with("Error") || used_as_error.contains(name))
        .collect();
    // The search finds what it should: the flash's error and a FromStr error.
    assert!(errors.contains(&"MemFlashError"), "{errors:?}");
    assert!(errors.contains(&"UnknownFault"), "{errors:?}");
    assert!(errors.contains(&"Violation"), "{errors:?}");
    let implemented = |trait_path: &str, name: &str| {
        [">", " {"].iter().any(|end| {
            all.contains(&format!("{trait_path} for {name}{end}"))
                || all.contains(&format!("{trait_path} for {name}<"))
        })
    };
    let missing: Vec<String> = errors
        .iter()
        .flat_map(|name| {
            let display = ["fmt::Display", "Display"]
                .iter()
                .any(|t| implemented(t, name));
            let error = ["error::Error"].iter().any(|t| implemented(t, name));
            [
                (!display).then(|| format!("{name}: no Display")),
                (!error).then(|| format!("{name}: not a core::error::Error")),
            ]
        })
        .flatten()
        .collect();
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
