//! The documents a newcomer reads, found by walking the repository (not a list that
//! goes stale): every Markdown file, and the crate documentation (`//!` lines) of every
//! Rust file under a `src/` directory. Build output (`target/`), `node_modules/` and
//! hidden directories (`.git/`) are skipped. Shared by the engine's README check
//! (`tests/engine/readme.rs`) and the program's (`cli/tests/cli/readme_commands.rs`,
//! which includes this file by path).

use std::path::{Path, PathBuf};

/// Directories never walked: build output, installed packages, hidden ones.
fn skipped(name: &str) -> bool {
    name == "target" || name == "node_modules" || name.starts_with('.')
}

/// The files under `root` whose name `keep` accepts, as paths relative to `root`,
/// sorted.
fn walk(root: &Path, keep: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let entry = entry.unwrap();
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() && !skipped(&name) {
                dirs.push(path);
            } else if kind.is_file() {
                let relative = path.strip_prefix(root).unwrap();
                if keep(relative) {
                    found.push(relative.to_path_buf());
                }
            }
        }
    }
    found.sort();
    found
}

/// Every Markdown file of the repository, relative to `root`.
pub fn markdown_files(root: &Path) -> Vec<PathBuf> {
    walk(root, &|p| p.extension().is_some_and(|e| e == "md"))
}

/// Every Markdown file as (path relative to `root`, text).
pub fn markdown_documents(root: &Path) -> Vec<(PathBuf, String)> {
    markdown_files(root)
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(root.join(&p))
                .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, text)
        })
        .collect()
}

/// The crate documentation of every Rust file under a `src/` directory: its `//!`
/// lines, the marker and one space stripped, as (path relative to `root`, text); files
/// without any are left out.
pub fn crate_docs(root: &Path) -> Vec<(PathBuf, String)> {
    let in_src = |p: &Path| {
        p.extension().is_some_and(|e| e == "rs") && p.components().any(|c| c.as_os_str() == "src")
    };
    walk(root, &in_src)
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(root.join(&p)).unwrap();
            let docs: String = text
                .lines()
                .filter_map(|l| l.trim_start().strip_prefix("//!"))
                .map(|l| format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
                .collect();
            (!docs.is_empty()).then_some((p, docs))
        })
        .collect()
}
