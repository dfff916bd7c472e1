//! tables/FORMAT.md's Python reader, run as written (python3) on the committed file:
//! it reads every record the Rust loader reads, and a key the table lacks is an error,
//! not a neighbour's value.
#![cfg(feature = "postcard")]

use std::path::Path;
use std::process::Command;
use tictable::portable::Table;

#[test]
fn format_md_python_reader_reads_the_committed_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("tables/FORMAT.md")).unwrap();
    let start = doc.find("```python\n").expect("a python block") + "```python\n".len();
    let code = &doc[start..start + doc[start..].find("```").unwrap()];
    let table = Table::from_postcard(include_bytes!("../../tables/tictactoe.postcard")).unwrap();
    let (key, value) = table.entries().nth(7).unwrap();
    assert!(table.entries().all(|(k, _)| k != 45));
    let check = format!(
        "{code}\nassert value_of({key}) == {value}\n\
         assert len(keys) == {len}\n\
         try:\n    value_of(45)\n    raise SystemExit('value_of(45) answered for a missing key')\n\
         except KeyError:\n    pass\nprint('ok')\n",
        len = table.len()
    );
    let out = match Command::new("python3")
        .arg("-c")
        .arg(&check)
        .current_dir(root)
        .output()
    {
        Ok(out) => out,
        Err(e) => panic!("python3 is needed for this test: {e}"),
    };
    assert!(
        out.status.success() && out.stdout == b"ok\n",
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
