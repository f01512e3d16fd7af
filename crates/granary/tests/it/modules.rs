//! The workspace's module graph has no cycles. Every `.rs` file is a module (`a.rs` and
//! `a/mod.rs`: `a`; `a/b.rs`: `a::b`; `lib.rs` and `main.rs`: the crate's root), and a folder is
//! also one module with everything under it. A file that names a path through `crate::`,
//! `super::` or `self::` (in a `use`, a path, or a group such as `use super::{a, b::c}`;
//! comments and test modules aside) depends on the deepest module the path reaches. Within each
//! folder, its modules (its files, and its subfolders each as a whole) depend on one another by
//! those paths: `a/x.rs` naming `crate::b::y` is an edge `a -> b` among the root's modules,
//! `a/x.rs` naming `super::y` an edge `a::x -> a::y` among `a`'s. A module naming its own
//! parent or its own parts is no edge (a parent is the face of its parts). No module reaches
//! itself through the edges: a cycle means two modules that cannot be read, tested or moved
//! apart; move what both need into a third, or what one needs from the other into it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module's path within its crate: `["blocks", "plan"]`; the root's is empty.
type ModulePath = Vec<String>;

/// The identifier at the start of `s` (empty if none).
fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// The top-level items of a group whose `{` is just before `group`, up to its `}`.
fn group_items(group: &str) -> Vec<&str> {
    let (mut depth, mut start, mut items) = (0, 0, Vec::new());
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..i]);
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    items
}

/// The paths a path or use tree at the start of `text` names, as segments:
/// `a::{b, c::{d, e}}` names `a::b`, `a::c::d` and `a::c::e`.
fn use_tree(text: &str) -> Vec<ModulePath> {
    let text = text.trim_start();
    if let Some(group) = text.strip_prefix('{') {
        return group_items(group).into_iter().flat_map(use_tree).collect();
    }
    let name = ident(text);
    if name.is_empty() {
        return vec![Vec::new()];
    }
    match text[name.len()..].trim_start().strip_prefix("::") {
        Some(rest) => use_tree(rest)
            .into_iter()
            .map(|path| std::iter::once(name.clone()).chain(path).collect())
            .collect(),
        None => vec![vec![name]],
    }
}

/// The paths the source of module `module` names through `crate::`, `super::` and `self::`,
/// from the crate's root, before its `#[cfg(test)]` part.
fn named_paths(source: &str, module: &[String]) -> Vec<ModulePath> {
    let code: String = source
        .split("#[cfg(test)]")
        .next()
        .unwrap_or_default()
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut paths = Vec::new();
    for keyword in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(keyword) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                continue; // `a::super::`, `myself::`: not a path's first segment
            }
            let mut rest = &code[at + keyword.len()..];
            let mut base: ModulePath = match keyword {
                "crate::" => Vec::new(),
                "self::" => module.to_vec(),
                _ => module[..module.len().saturating_sub(1)].to_vec(),
            };
            if keyword == "super::" {
                while let Some(more) = rest.strip_prefix("super::") {
                    base.pop();
                    rest = more;
                }
            }
            paths.extend(use_tree(rest).into_iter().map(|path| {
                let mut full = base.clone();
                full.extend(path);
                full
            }));
        }
    }
    paths
}

/// The module path of the file at `file`, relative to its crate's `src`.
fn module_path(file: &Path) -> ModulePath {
    let mut path: ModulePath = file
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    let last = path.pop().expect("a file name");
    match last.as_str() {
        "mod.rs" => {}
        "lib.rs" | "main.rs" if path.is_empty() => {}
        name => path.push(name.trim_end_matches(".rs").to_string()),
    }
    path
}

/// Every `.rs` file under `dir` (the crate's `src` at first), by module path.
fn read_modules(src: &Path, dir: &Path, out: &mut BTreeMap<ModulePath, String>) {
    for entry in std::fs::read_dir(dir).expect("a module directory") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            read_modules(src, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let source = std::fs::read_to_string(&path).expect("a source file");
            out.insert(module_path(path.strip_prefix(src).unwrap()), source);
        }
    }
}

/// The edges among sibling modules of a crate whose sources are `modules`, by module path
/// (`a::b`); every module but the root is a node.
fn module_graph(modules: &BTreeMap<ModulePath, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = modules
        .keys()
        .filter(|m| !m.is_empty())
        .map(|m| (m.join("::"), BTreeSet::new()))
        .collect();
    for (module, source) in modules {
        for path in named_paths(source, module) {
            // The deepest module the path reaches.
            let Some(target) = (0..=path.len())
                .rev()
                .map(|n| &path[..n])
                .find(|prefix| modules.contains_key(*prefix))
            else {
                continue;
            };
            let common = module
                .iter()
                .zip(target)
                .take_while(|(a, b)| a == b)
                .count();
            if common == module.len() || common == target.len() {
                continue; // the module itself, an ancestor or one of its parts
            }
            graph
                .entry(module[..=common].join("::"))
                .or_default()
                .insert(target[..=common].join("::"));
        }
    }
    graph
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
        for next in graph.get(node).into_iter().flatten() {
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
        let mut modules = BTreeMap::new();
        read_modules(&src, &src, &mut modules);
        let graph = module_graph(&modules);
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

/// Module paths from `a::b` strings (`""`: the root).
fn modules(list: &[(&str, &str)]) -> BTreeMap<ModulePath, String> {
    list.iter()
        .map(|(path, source)| {
            let path = path
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            (path, source.to_string())
        })
        .collect()
}

#[test]
fn the_checker_reads_paths_groups_and_files() {
    let source = "use crate::a::X;\nuse crate::{b, c::{D, e::F}};\nuse super::{g, h::I};\n\
                  use super::super::j;\nuse self::k::L;\n// crate::commented\n\
                  fn f() -> Self { crate::e::g(); Self::new() }\npub(super) fn p() {}\n\
                  #[cfg(test)]\nmod tests { use crate::tested; }";
    let named: BTreeSet<String> = named_paths(source, &["m".to_string(), "n".to_string()])
        .into_iter()
        .map(|p| p.join("::"))
        .collect();
    let expected = [
        "a::X",
        "b",
        "c::D",
        "c::e::F",
        "e::g",
        "j",
        "m::g",
        "m::h::I",
        "m::n::k::L",
    ];
    let expected: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
    assert_eq!(named, expected);
    assert_eq!(module_path(Path::new("blocks/plan.rs")), ["blocks", "plan"]);
    assert_eq!(module_path(Path::new("blocks/mod.rs")), ["blocks"]);
    assert!(module_path(Path::new("lib.rs")).is_empty());
}

#[test]
fn the_checker_sees_cycles_between_files_and_folders() {
    // Two files of one folder naming each other: a cycle.
    let files = modules(&[
        ("", "mod a;"),
        ("a", "mod x; mod y; pub use x::T;"),
        ("a::x", "use super::y::U; pub struct T;"),
        ("a::y", "pub struct U(super::x::T);"),
    ]);
    assert_eq!(
        find_cycle(&module_graph(&files)).map(|c| c.join(" -> ")),
        Some("a::x -> a::y -> a::x".to_string())
    );
    // Parts naming their parent, a parent naming its parts: no cycle.
    let faces = modules(&[
        ("", "mod a; pub use a::T;"),
        ("a", "mod x; mod y; pub use self::x::T; pub struct V;"),
        ("a::x", "use super::V; use crate::T; pub struct T;"),
        ("a::y", "use super::x::T;"),
    ]);
    assert_eq!(find_cycle(&module_graph(&faces)), None);
    // A folder and a file naming each other, through any of the folder's files: a cycle.
    let folders = modules(&[
        ("", "mod a; mod b;"),
        ("a", "mod x;"),
        ("a::x", "use crate::b::W;"),
        ("b", "pub struct W(crate::a::V);"),
    ]);
    assert_eq!(
        find_cycle(&module_graph(&folders)).map(|c| c.join(" -> ")),
        Some("a -> b -> a".to_string())
    );
    // Three files in a ring.
    let ring = modules(&[
        ("a", "use crate::b::B;"),
        ("b", "use crate::c::C;"),
        ("c", "use crate::{a::A, d};"),
        ("d", ""),
    ]);
    assert_eq!(
        find_cycle(&module_graph(&ring)).map(|c| c.join(" -> ")),
        Some("a -> b -> c -> a".to_string())
    );
}
