//! Each crate's `rust-version` is true: no lower than the highest `rust-version` that
//! a package it builds with declares, as `cargo metadata` resolves them (the workspace's
//! `Cargo.lock`, its features unified as `cargo build` unifies them). Older toolchains
//! cannot be installed here to try, so the declared versions are the evidence: a
//! dependency that declares 1.88 does not build on 1.87. README.md's "Rust X or later"
//! (the two commands, so every crate and their dev-dependencies) and each crate's
//! README say the same versions. The separate builds (`firmware/`, `vboard/`, `web/`,
//! `qemu/`, `fuzz/`, `firmware/host-check/`: each its own workspace and lock file) are
//! checked the same way by an ignored test that `.ci/run` runs (it may fetch their
//! dependencies once).

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// `"1.85"` or `"1.85.0"` as (major, minor, patch).
fn version(text: &str) -> (u32, u32, u32) {
    let mut parts = text.split('.').map(|p| {
        p.parse::<u32>()
            .unwrap_or_else(|_| panic!("not a Rust version: {text}"))
    });
    let major = parts.next().unwrap_or(0);
    (major, parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

/// A version as README writes it: `1.88` (the patch only when there is one).
fn written((major, minor, patch): (u32, u32, u32)) -> String {
    if patch == 0 {
        format!("{major}.{minor}")
    } else {
        format!("{major}.{minor}.{patch}")
    }
}

/// `cargo metadata` of the workspace, with the lock file as it is.
fn metadata() -> Value {
    metadata_of(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// `cargo metadata --locked` of the workspace in `dir` (its `Cargo.lock` is committed
/// and must not change).
fn metadata_of(dir: &Path) -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command.args(["metadata", "--format-version", "1", "--locked"]);
    let out = command
        .current_dir(dir)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata in {} failed: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

/// What a workspace crate declares and what its dependencies need.
#[derive(Debug)]
struct Crate {
    name: String,
    declared: Option<(u32, u32, u32)>,
    /// The highest `rust-version` of the packages it builds with (normal and build
    /// dependencies, transitively), and the package that declares it.
    needed: Option<((u32, u32, u32), String)>,
    /// The same, its own dev-dependencies (and theirs) included: what `cargo test` of
    /// the crate builds.
    needed_to_test: Option<((u32, u32, u32), String)>,
}

/// Every workspace crate, from the resolved graph.
fn crates(meta: &Value) -> Vec<Crate> {
    let packages: BTreeMap<&str, &Value> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p))
        .collect();
    let nodes: BTreeMap<&str, &Value> = meta["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["id"].as_str().unwrap(), n))
        .collect();
    // The packages `root` builds with; its own dev-dependencies too when `dev`.
    let closure = |root: &str, dev: bool| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![root.to_string()];
        while let Some(id) = stack.pop() {
            for dep in nodes[id.as_str()]["deps"].as_array().unwrap() {
                let kinds: Vec<&str> = dep["dep_kinds"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|k| k["kind"].as_str().unwrap_or("normal"))
                    .collect();
                let builds = kinds.iter().any(|k| *k != "dev") || (dev && id == root);
                let pkg = dep["pkg"].as_str().unwrap().to_string();
                if builds && seen.insert(pkg.clone()) {
                    stack.push(pkg);
                }
            }
        }
        seen.into_iter()
            .filter_map(|id| {
                let p = packages[id.as_str()];
                let v = p["rust_version"].as_str()?;
                Some((version(v), p["name"].as_str().unwrap().to_string()))
            })
            .max()
    };
    meta["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|id| {
            let id = id.as_str().unwrap();
            let p = packages[id];
            Crate {
                name: p["name"].as_str().unwrap().to_string(),
                declared: p["rust_version"].as_str().map(version),
                needed: closure(id, false),
                needed_to_test: closure(id, true),
            }
        })
        .collect()
}

/// The crates whose `rust-version` is lower than a dependency's, as messages.
fn too_low(crates: &[Crate]) -> Vec<String> {
    crates
        .iter()
        .filter_map(|c| {
            let (needed, by) = c.needed.as_ref()?;
            let declared = c.declared.unwrap_or((0, 0, 0));
            (declared < *needed).then(|| {
                format!(
                    "{}: rust-version {} but {by} declares {}",
                    c.name,
                    c.declared.map(written).unwrap_or_else(|| "unset".into()),
                    written(*needed)
                )
            })
        })
        .collect()
}

#[test]
fn each_crate_declares_the_rust_version_its_dependencies_need() {
    let crates = crates(&metadata());
    assert!(crates.len() >= 3, "workspace crates: {crates:?}");
    let wrong = too_low(&crates);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Not higher than needed either: the version said is the oldest that builds (by
    // the declarations), so a crate that could build on an older Rust says so.
    for c in &crates {
        let needed = c.needed.as_ref().map(|n| n.0);
        assert_eq!(
            c.declared, needed,
            "{}: rust-version is not the highest its dependencies declare ({:?})",
            c.name, c.needed
        );
    }
}

#[test]
fn the_readmes_say_the_versions_cargo_declares() {
    let crates = crates(&metadata());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
    // The README's two commands build every default member and their dev-dependencies.
    let workspace = crates
        .iter()
        .filter(|c| c.name != "tictable-bench")
        .flat_map(|c| [c.declared, c.needed_to_test.as_ref().map(|n| n.0)])
        .flatten()
        .max()
        .unwrap();
    let said = format!("Rust {} or later", written(workspace));
    assert!(
        read("README.md").contains(&said),
        "README.md does not say \"{said}\""
    );
    assert!(
        read("docs/development.md").contains(&said),
        "docs/development.md does not say \"{said}\""
    );
    for (name, readme) in [
        ("tictable", "README.crate.md"),
        ("tictable-machine", "machine/README.md"),
        ("tictable-cli", "cli/README.md"),
    ] {
        let c = crates.iter().find(|c| c.name == name).unwrap();
        let said = format!(
            "## Minimum Rust version\n\n{}.",
            written(c.declared.unwrap())
        );
        assert!(
            read(readme).contains(&said),
            "{readme} does not say its crate's rust-version: {said:?}"
        );
    }
}

/// The separate builds (own workspace and lock file), relative to the root.
const SEPARATE_BUILDS: [&str; 6] = [
    "firmware",
    "firmware/host-check",
    "vboard",
    "web",
    "qemu",
    "fuzz",
];

/// The separate builds, each its own workspace: their `rust-version` is the highest
/// their resolved dependencies declare, as for the main workspace's crates. Their
/// dependencies may not be in Cargo's cache (the firmware's, QEMU's and the fuzzer's
/// are fetched only by their scripts), so `cargo metadata` may fetch them: ignored in
/// `cargo test`, run by `.ci/run`. A missing manifest fails the test (it names the
/// directory): no build is passed over silently.
#[test]
#[ignore = "fetches the separate builds' dependencies (network once): .ci/run runs it"]
fn each_separate_build_declares_the_rust_version_its_dependencies_need() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut wrong = Vec::new();
    for dir in SEPARATE_BUILDS {
        let dir = root.join(dir);
        if !dir.join("Cargo.toml").is_file() {
            wrong.push(format!(
                "{}: no Cargo.toml (moved? update SEPARATE_BUILDS)",
                dir.display()
            ));
            continue;
        }
        // Each commits its lock file: the versions checked are the ones it builds with.
        if !dir.join("Cargo.lock").is_file() {
            wrong.push(format!("{}: no Cargo.lock committed", dir.display()));
            continue;
        }
        let crates = crates(&metadata_of(&dir));
        assert!(!crates.is_empty(), "{}: no crate", dir.display());
        wrong.extend(too_low(&crates));
        for c in &crates {
            let needed = c.needed.as_ref().map(|n| n.0);
            if c.declared != needed {
                wrong.push(format!(
                    "{}: rust-version {:?} is not the highest its dependencies declare ({:?})",
                    c.name, c.declared, c.needed
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The check itself: a crate that declares less than its dependencies is named.
#[test]
fn a_rust_version_below_a_dependency_s_is_reported() {
    let low = Crate {
        name: "c".into(),
        declared: Some((1, 85, 0)),
        needed: Some(((1, 88, 0), "time-core".into())),
        needed_to_test: None,
    };
    assert_eq!(
        too_low(&[low]),
        ["c: rust-version 1.85 but time-core declares 1.88"]
    );
    assert_eq!(version("1.88"), (1, 88, 0));
    assert_eq!(written((1, 88, 1)), "1.88.1");
}
