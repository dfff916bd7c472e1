//! docs/games.md shows the smallest complete game as `games/examples/race.rs` has it
//! (the example is compiled and run by `cargo test`, so the page's code compiles).

#[test]
fn the_page_shows_the_race_example_as_it_is() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("../docs/games.md")).unwrap();
    let example = std::fs::read_to_string(root.join("examples/race.rs")).unwrap();
    let shown = page
        .split("```rust\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a rust block in docs/games.md");
    let start = example.find("/// The game:").unwrap();
    let end = example.find("\nfn main()").unwrap();
    assert_eq!(shown.trim_end(), example[start..end].trim_end());
}
