//! The workspace's module graph has no cycles. Every `.rs` file is a module (`a.rs` and
//! `a/mod.rs`: `a`; `a/b.rs`: `a::b`; `lib.rs` and `main.rs`: the crate's root), and a folder is
//! also one module with everything under it. A file that names a path through `crate::`,
//! `super::` or `self::` (in a `use`, a path, a group such as `use super::{a, b::c}`, or a
//! macro's tokens; comments, strings, visibilities and `#[cfg(test)]` items aside: the source
//! is parsed with `syn`) depends on the deepest module the path reaches. Within each
//! folder, its modules (its files, and its subfolders each as a whole) depend on one another by
//! those paths: `a/x.rs` naming `crate::b::y` is an edge `a -> b` among the root's modules,
//! `a/x.rs` naming `super::y` an edge `a::x -> a::y` among `a`'s. A module naming its own
//! parent or its own parts is no edge (a parent is the face of its parts). No module reaches
//! itself through the edges: a cycle means two modules that cannot be read, tested or moved
//! apart; move what both need into a third, or what one needs from the other into it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use proc_macro2::{Spacing, TokenTree};
use syn::visit::Visit;

/// A module's path within its crate: `["blocks", "plan"]`; the root's is empty.
type ModulePath = Vec<String>;

/// The paths of a module's source through `crate::`, `super::` and `self::`, from the crate's
/// root, collected by walking its syntax tree.
struct Named<'a> {
    /// The module whose source is walked.
    module: &'a [String],
    paths: Vec<ModulePath>,
}

impl Named<'_> {
    /// The path `segments` names from the crate's root, if it starts at `crate`, `super` or
    /// `self` (`super::super::a`: two levels up, then `a`).
    fn add(&mut self, segments: &[String]) {
        let Some((first, mut rest)) = segments.split_first() else {
            return;
        };
        let mut base: ModulePath = match first.as_str() {
            "crate" => Vec::new(),
            "self" => self.module.to_vec(),
            "super" => self.module[..self.module.len().saturating_sub(1)].to_vec(),
            _ => return,
        };
        if first == "super" {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        base.extend(rest.iter().cloned());
        self.paths.push(base);
    }

    /// The paths in a macro's tokens (not parsed by `syn`): each run of identifiers joined by
    /// `::` that starts at `crate`, `super` or `self` (`$crate` too).
    fn add_tokens(&mut self, tokens: proc_macro2::TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let mut at = 0;
        while at < tokens.len() {
            if let TokenTree::Group(group) = &tokens[at] {
                self.add_tokens(group.stream());
                at += 1;
                continue;
            }
            let first = match &tokens[at] {
                TokenTree::Ident(ident) => ["crate", "super", "self"].iter().any(|k| ident == k),
                _ => false,
            };
            // `a::super::b` is no path from `super`.
            if !first || (at >= 2 && is_colons(&tokens[at - 2..at])) {
                at += 1;
                continue;
            }
            let mut segments = Vec::new();
            while let Some(TokenTree::Ident(ident)) = tokens.get(at) {
                segments.push(ident.to_string());
                at += 1;
                if tokens.get(at..at + 2).is_some_and(is_colons) {
                    at += 2;
                } else {
                    break;
                }
            }
            if segments.len() > 1 {
                self.add(&segments);
            }
        }
    }
}

/// Whether two tokens are `::`.
fn is_colons(tokens: &[TokenTree]) -> bool {
    matches!(tokens, [TokenTree::Punct(a), TokenTree::Punct(b)]
        if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':')
}

/// Every path a use tree names: `a::{b, c::{d, e}}` names `a::b`, `a::c::d` and `a::c::e`; a
/// glob `a::*` names `a`.
fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            use_paths(&path.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(syn::UseName { ident })
        | syn::UseTree::Rename(syn::UseRename { ident, .. }) => {
            let mut path = prefix.clone();
            path.push(ident.to_string());
            out.push(path);
        }
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(group) => {
            for tree in &group.items {
                use_paths(tree, prefix, out);
            }
        }
    }
}

/// Whether `attrs` hold `#[cfg(test)]`.
fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Ident>()
                .is_ok_and(|ident| ident == "test")
    })
}

impl<'ast> Visit<'ast> for Named<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Const(i) => &i.attrs,
            syn::Item::Enum(i) => &i.attrs,
            syn::Item::ExternCrate(i) => &i.attrs,
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::ForeignMod(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Macro(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Static(i) => &i.attrs,
            syn::Item::Struct(i) => &i.attrs,
            syn::Item::Trait(i) => &i.attrs,
            syn::Item::TraitAlias(i) => &i.attrs,
            syn::Item::Type(i) => &i.attrs,
            syn::Item::Union(i) => &i.attrs,
            syn::Item::Use(i) => &i.attrs,
            _ => &[],
        };
        if !is_test(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if item.leading_colon.is_none() {
            let mut paths = Vec::new();
            use_paths(&item.tree, &mut Vec::new(), &mut paths);
            for path in paths {
                self.add(&path);
            }
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() {
            let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
            self.add(&segments);
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.add_tokens(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }

    /// `pub(super)`, `pub(in crate::a)`: whom an item is visible to, not what it depends on.
    fn visit_vis_restricted(&mut self, _: &'ast syn::VisRestricted) {}
}

/// The paths the source of module `module` names through `crate::`, `super::` and `self::`
/// (in a `use`, a path, or a macro's tokens), from the crate's root, its `#[cfg(test)]` items
/// aside; or why the source does not parse.
fn named_paths(source: &str, module: &[String]) -> syn::Result<Vec<ModulePath>> {
    let file = syn::parse_file(source)?;
    let mut named = Named {
        module,
        paths: Vec::new(),
    };
    named.visit_file(&file);
    Ok(named.paths)
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
        let paths = named_paths(source, module)
            .unwrap_or_else(|e| panic!("module {}: {e}", module.join("::")));
        for path in paths {
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
                  #[cfg(test)]\nmod tests { use crate::tested; }\n\
                  /* crate::block_comment */ const S: &str = \"crate::in_a_string\";\n\
                  fn q() { println!(\"{}\", super::o::Y); assert!(a::super::no); }";
    let named: BTreeSet<String> = named_paths(source, &["m".to_string(), "n".to_string()])
        .unwrap()
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
        "m::o::Y",
    ];
    let expected: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
    assert_eq!(named, expected);
    assert_eq!(module_path(Path::new("blocks/plan.rs")), ["blocks", "plan"]);
    assert_eq!(module_path(Path::new("blocks/mod.rs")), ["blocks"]);
    assert!(module_path(Path::new("lib.rs")).is_empty());
    assert!(named_paths("fn broken(", &[]).is_err());
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
