//! The workspace's module graph has no cycles: within each crate, module `a` naming
//! `crate::b` (in a `use`, a path or a `use crate::{b, ...}` group; comments and test modules
//! aside) is an edge `a -> b`, and no module reaches itself through those edges. A cycle means
//! two modules that cannot be read, tested or moved apart; move what both need into a third.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The modules a source file names through `crate::`, before its `#[cfg(test)]` part.
fn named_modules(source: &str) -> BTreeSet<String> {
    let code: String = source
        .split("#[cfg(test)]")
        .next()
        .unwrap_or_default()
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut names = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // `crate::{a, b::c, d::{e, f}}`: the first segment of each top-level item.
            let mut depth = 0;
            let mut item_start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && (c.is_ascii_alphanumeric() || c == '_') => {
                        names.insert(ident(&group[i..]));
                        item_start = false;
                    }
                    _ => {}
                }
            }
        } else {
            names.insert(ident(rest));
        }
    }
    names
}

/// A cycle of `graph`, if it has one, as the modules along it.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // 0: not seen, 1: on the current path, 2: done.
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        path.push(node.to_string());
        for next in &graph[node] {
            match state.get(next).copied().unwrap_or(0) {
                1 => {
                    let from = path.iter().position(|m| m == next).unwrap_or(0);
                    let mut cycle = path[from..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(cycle) = visit(next, graph, state, path) {
                        return Some(cycle);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if state.get(node).copied().unwrap_or(0) == 0
            && let Some(cycle) = visit(node, graph, &mut state, &mut Vec::new())
        {
            return Some(cycle);
        }
    }
    None
}

/// Every `.rs` file under `dir`, read (a module directory is one module of its crate's graph).
fn read_tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("a module directory")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            out.extend(read_tree(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(std::fs::read_to_string(&path).expect("a source file"));
        }
    }
    out
}

/// The module graph of the crate whose sources are in `src`: its top-level modules, a file
/// (`a.rs`) or a directory (`a/`, all its files together), and what each names.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut sources = BTreeMap::new();
    for entry in std::fs::read_dir(src).expect("a crate's src directory") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            sources.insert(
                name,
                vec![std::fs::read_to_string(&path).expect("a source file")],
            );
        } else if path.is_dir() {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            sources.insert(name, read_tree(&path));
        }
    }
    sources
        .iter()
        .map(|(name, files)| {
            let edges = files
                .iter()
                .flat_map(|source| named_modules(source))
                .filter(|m| m != name && sources.contains_key(m))
                .collect();
            (name.clone(), edges)
        })
        .collect()
}

#[test]
fn no_crate_has_a_module_cycle() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    let mut cycles = Vec::new();
    for entry in std::fs::read_dir(&crates).unwrap() {
        let src = entry.unwrap().path().join("src");
        if !src.is_dir() {
            continue;
        }
        let graph = module_graph(&src);
        checked += graph.len();
        if let Some(cycle) = find_cycle(&graph) {
            cycles.push(format!("{}: {}", src.display(), cycle.join(" -> ")));
        }
    }
    assert!(
        checked > 50,
        "only {checked} modules found under {crates:?}"
    );
    assert!(cycles.is_empty(), "module cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_checker_sees_paths_groups_and_cycles() {
    let source = "use crate::a::X;\nuse crate::{b, c::{D, E}, d};\n// crate::commented\n\
                  fn f() { crate::e::g() }\n#[cfg(test)]\nmod tests { use crate::tested; }";
    let names: Vec<_> = named_modules(source).into_iter().collect();
    assert_eq!(names, ["a", "b", "c", "d", "e"]);
    let edges = |list: &[(&str, &[&str])]| -> BTreeMap<String, BTreeSet<String>> {
        list.iter()
            .map(|(m, to)| (m.to_string(), to.iter().map(|s| s.to_string()).collect()))
            .collect()
    };
    let acyclic = edges(&[("a", &["b", "c"]), ("b", &["c"]), ("c", &[])]);
    assert_eq!(find_cycle(&acyclic), None);
    let cyclic = edges(&[("a", &["b"]), ("b", &["c"]), ("c", &["a"])]);
    assert_eq!(
        find_cycle(&cyclic).map(|c| c.join(" -> ")),
        Some("a -> b -> c -> a".to_string())
    );
}
