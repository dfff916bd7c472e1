//! README.md as a newcomer reads it: every link to a file in the repository leads to
//! one (none leaves it), and what it says of `tables/tictactoe.json` is what the
//! file is (one JSON document, not one object per line).

use std::path::Path;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

#[test]
fn links_lead_to_files_in_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = readme();
    let mut checked = 0;
    for (start, _) in text.match_indices("](") {
        let rest = &text[start + 2..];
        let target = &rest[..rest.find(')').expect("a closed link")];
        if target.starts_with("http") || target.starts_with('#') {
            continue;
        }
        let path = target.split('#').next().unwrap_or(target);
        assert!(!path.contains(".."), "{target} leaves the repository");
        assert!(root.join(path).exists(), "{target} does not exist");
        checked += 1;
    }
    assert!(checked > 0 || !text.contains("]("));
}

#[test]
fn the_json_table_is_one_document_as_described() {
    let text = readme();
    assert!(text
        .contains("`tictactoe.json`: the 627 canonical decision positions, in one JSON document"));
    assert!(!text.contains("one object per line"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let json = std::fs::read_to_string(root.join("tables/tictactoe.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).expect("one JSON document");
    assert_eq!(v["format"], "tictable");
    assert_eq!(v["positions"].as_array().map(Vec::len), Some(627));
}
