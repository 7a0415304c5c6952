//! A crate's sources read into a graph of its modules, for the structure test: each module
//! file parsed with `syn`, every path it names resolved to the module that defines the item
//! (through `pub use` re-exports to where the name is defined), test modules left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::{self, Visit};
use syn::{Attribute, Item, ItemImpl, ItemMacro, Meta, UseTree};

use super::{shown, Graph, Module, Tree, MAIN};

/// The sources under `src`, by module: `a.rs` and `a/mod.rs` are `[a]`, `lib.rs` is `[]`.
/// `main.rs` beside a `lib.rs` is a crate of its own that names the library by its name: it is
/// read as the unit `main`.
pub(super) fn read_tree(src: &Path) -> Tree {
    let mut tree = Tree::new();
    let mut folders = vec![src.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("source folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(src).expect("under src");
                let text = std::fs::read_to_string(&path).expect("source file");
                tree.insert(module_path(&relative.to_string_lossy()), text);
            }
        }
    }
    // A binary alone (no lib.rs) is its own root.
    if !tree.contains_key(&Vec::new()) {
        if let Some(main) = tree.remove(&vec![MAIN.to_string()]) {
            tree.insert(Vec::new(), main);
        }
    }
    tree
}

pub(super) fn module_path(relative: &str) -> Module {
    let path = relative.trim_end_matches(".rs").split(['/', '\\']);
    let mut path: Module = path.map(String::from).collect();
    if path.last().is_some_and(|last| last == "mod") || path == ["lib"] {
        path.pop();
    }
    path
}

/// What one module file's product code says (its test modules left out).
#[derive(Default)]
pub(super) struct File {
    /// Every path of two segments or more, and every `use` path, with the module it is written
    /// in (the file's, or an inline `mod x { .. }` in it).
    pub(super) paths: Vec<(Module, Vec<String>)>,
    /// `#[cfg(test)] mod x;`: child files that are test-only.
    pub(super) test_files: Vec<Module>,
    /// The types it defines, and the types of its inherent `impl`s.
    pub(super) types: BTreeSet<String>,
    pub(super) impls: Vec<String>,
    pub(super) statics: usize,
    /// The house rules it breaks on its own.
    pub(super) broken: BTreeSet<&'static str>,
}

pub(super) const TEST_ONLY: &str =
    "#[cfg(test)] on something other than a module: test-only code lives in a test module";
pub(super) const PATH_ATTRIBUTE: &str = "#[path]: a module lives where its file is";

/// Module → a name it re-exports (`pub use`, and the root's `#[macro_export]` macros) → the path
/// that name stands for, from that module.
type Reexports = BTreeMap<Module, BTreeMap<String, Vec<String>>>;

/// A syn visitor filling a `File`; `here` is the module it is in.
struct Reader<'f> {
    file: &'f mut File,
    reexports: &'f mut Reexports,
    here: Module,
}

fn is_test_only(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| match &attr.meta {
        Meta::List(list) if list.path.is_ident("cfg") => {
            let tokens = list.tokens.to_string();
            tokens == "test" || tokens.starts_with("all (test")
        }
        _ => false,
    })
}

fn segments(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

fn joined(module: &[String], more: &[String]) -> Module {
    [module, more].concat()
}

impl Reader<'_> {
    fn path(&mut self, segments: Vec<String>) {
        self.file.paths.push((self.here.clone(), segments));
    }

    fn reexport(&mut self, at: Module, name: String, path: Vec<String>) {
        self.reexports.entry(at).or_default().insert(name, path);
    }

    /// The paths in tokens syn leaves unparsed (a macro's, an attribute's): `a::b` runs, and
    /// in an attribute a string that is a whole path (serde calls the function it names).
    fn tokens(&mut self, tokens: TokenStream, strings: bool) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let colon = |at| matches!(tokens.get(at), Some(TokenTree::Punct(p)) if p.as_char() == ':');
        let mut at = 0;
        while at < tokens.len() {
            match &tokens[at] {
                TokenTree::Group(group) => self.tokens(group.stream(), strings),
                TokenTree::Literal(literal) if strings => {
                    let string = syn::parse_str::<syn::LitStr>(&literal.to_string());
                    let path = string.and_then(|s| syn::parse_str::<syn::Path>(&s.value()));
                    if let Some(path) = path.ok().filter(|p| p.segments.len() > 1) {
                        self.path(segments(&path));
                    }
                }
                TokenTree::Ident(_) => {
                    let mut run = Vec::new();
                    while let Some(TokenTree::Ident(ident)) = tokens.get(at) {
                        run.push(ident.to_string());
                        if !(colon(at + 1) && colon(at + 2)) {
                            break;
                        }
                        at += 3;
                    }
                    if run.len() > 1 {
                        self.path(run);
                    }
                    // Past a `::` that no name follows, the token there is read next.
                    if !matches!(tokens.get(at), Some(TokenTree::Ident(_))) {
                        continue;
                    }
                }
                _ => {}
            }
            at += 1;
        }
    }
}

impl<'ast> Visit<'ast> for Reader<'_> {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if item.attrs.iter().any(|attr| attr.path().is_ident("path")) {
            self.file.broken.insert(PATH_ATTRIBUTE);
        }
        let name = vec![item.ident.to_string()];
        if !is_test_only(&item.attrs) {
            self.here.extend(name);
            visit::visit_item_mod(self, item);
            self.here.pop();
        } else if item.content.is_none() {
            self.file.test_files.push(joined(&self.here, &name));
        }
    }

    fn visit_attribute(&mut self, attr: &'ast Attribute) {
        if is_test_only(std::slice::from_ref(attr)) {
            self.file.broken.insert(TEST_ONLY);
        }
        if let Meta::List(list) = &attr.meta {
            self.tokens(list.tokens.clone(), true);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.segments.len() > 1 {
            self.path(segments(path));
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.file.statics += usize::from(mac.path.is_ident("thread_local"));
        self.tokens(mac.tokens.clone(), false);
        visit::visit_macro(self, mac);
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let mut flat = Vec::new();
        flatten(&item.tree, Vec::new(), &mut flat);
        let public = !matches!(item.vis, syn::Visibility::Inherited);
        for (path, alias) in flat {
            let named = alias.or_else(|| match path.as_slice() {
                [.., last] if last == "*" => None,
                [.., named, last] if last == "self" => Some(named.clone()),
                [.., last] => Some(last.clone()),
                [] => None,
            });
            if let Some(name) = named.filter(|_| public) {
                self.reexport(self.here.clone(), name, path.clone());
            }
            self.path(path);
        }
        item.attrs
            .iter()
            .for_each(|attr| self.visit_attribute(attr));
    }

    fn visit_item_extern_crate(&mut self, item: &'ast syn::ItemExternCrate) {
        self.path(vec![item.ident.to_string()]);
    }

    fn visit_item(&mut self, item: &'ast Item) {
        let type_name = match item {
            Item::Struct(i) => Some(&i.ident),
            Item::Enum(i) => Some(&i.ident),
            Item::Union(i) => Some(&i.ident),
            Item::Type(i) => Some(&i.ident),
            Item::Trait(i) => Some(&i.ident),
            _ => None,
        };
        self.file.types.extend(type_name.map(ToString::to_string));
        match item {
            Item::Impl(ItemImpl {
                trait_: None,
                self_ty,
                ..
            }) => {
                if let syn::Type::Path(ty) = &**self_ty {
                    let name = ty.path.segments.last().map(|s| s.ident.to_string());
                    self.file.impls.extend(name);
                }
            }
            // Named from the root (`crate::vlog!`), defined here.
            Item::Macro(ItemMacro {
                attrs,
                ident: Some(name),
                ..
            }) if attrs.iter().any(|a| a.path().is_ident("macro_export")) => {
                let path = joined(&joined(&["crate".into()], &self.here), &[name.to_string()]);
                self.reexport(Vec::new(), name.to_string(), path);
            }
            Item::Static(_) => self.file.statics += 1,
            _ => {}
        }
        visit::visit_item(self, item);
    }
}

/// A `use` tree as paths, each with its alias: `a::{b, c::{self as d}}` is `a::b` and
/// `a::c::self` (as `d`); a glob ends in `*`.
fn flatten(tree: &UseTree, prefix: Module, out: &mut Vec<(Module, Option<String>)>) {
    let path = |ident: &syn::Ident| joined(&prefix, &[ident.to_string()]);
    match tree {
        UseTree::Path(step) => flatten(&step.tree, path(&step.ident), out),
        UseTree::Name(name) => out.push((path(&name.ident), None)),
        UseTree::Rename(r) => out.push((path(&r.ident), Some(r.rename.to_string()))),
        UseTree::Glob(_) => out.push((joined(&prefix, &["*".into()]), None)),
        UseTree::Group(group) => {
            for tree in &group.items {
                flatten(tree, prefix.clone(), out);
            }
        }
    }
}

/// A crate read: each product module file, and the names modules re-export.
pub(super) struct Crate {
    pub(super) files: BTreeMap<Module, File>,
    pub(super) reexports: Reexports,
    /// How `main.rs` names the library.
    pub(super) library: String,
}

impl Crate {
    pub(super) fn read(tree: &Tree, library: &str) -> Crate {
        let (mut files, mut reexports) = (BTreeMap::new(), Reexports::new());
        let mut test_only = BTreeSet::new();
        for (module, text) in tree {
            let syntax = syn::parse_file(text)
                .unwrap_or_else(|e| panic!("{} does not parse: {e}", shown(module)));
            if is_test_only(&syntax.attrs) {
                test_only.insert(module.clone());
                continue;
            }
            let mut file = File::default();
            let here = module.clone();
            let mut reader = Reader {
                file: &mut file,
                reexports: &mut reexports,
                here,
            };
            syntax.items.iter().for_each(|item| reader.visit_item(item));
            test_only.extend(file.test_files.iter().cloned());
            files.insert(module.clone(), file);
        }
        files.retain(|module, _| !test_only.iter().any(|t| module.starts_with(t)));
        let library = library.to_string();
        Crate {
            files,
            reexports,
            library,
        }
    }

    /// Module → the module files it names items of, itself left out.
    pub(super) fn graph(&self) -> Graph {
        let mut graph = Graph::new();
        for (module, file) in &self.files {
            let targets = file
                .paths
                .iter()
                .filter_map(|(here, path)| self.resolve(here, path, 0));
            let targets = targets.map(|mut target| {
                // The file an inline module is in.
                while !target.is_empty() && !self.files.contains_key(&target) {
                    target.pop();
                }
                target
            });
            graph.insert(module.clone(), targets.filter(|t| t != module).collect());
        }
        graph
    }

    /// The module a path written in `here` names an item of; `None` outside the crate.
    fn resolve(&self, here: &Module, segments: &[String], hops: usize) -> Option<Module> {
        let in_main = here.first().is_some_and(|m| m == MAIN);
        let (mut module, rest) = match segments.first().map(String::as_str) {
            // `main.rs` is a crate of its own: `crate::` is itself, the library is `kw::`.
            Some("crate") if in_main => (vec![MAIN.to_string()], &segments[1..]),
            Some(name) if in_main && name == self.library => (Vec::new(), &segments[1..]),
            Some("crate") => (Vec::new(), &segments[1..]),
            Some("self") => (here.clone(), &segments[1..]),
            Some("super") => {
                let supers = segments.iter().take_while(|s| *s == "super").count();
                let depth = here.len().checked_sub(supers)?;
                (here[..depth].to_vec(), &segments[supers..])
            }
            Some(_) if self.files.contains_key(&joined(here, &segments[..1])) => {
                (here.clone(), segments)
            }
            _ => return None,
        };
        for (i, segment) in rest.iter().enumerate() {
            if segment == "self" || segment == "*" {
                break;
            }
            let child = joined(&module, std::slice::from_ref(segment));
            if self.files.contains_key(&child) {
                module = child;
                continue;
            }
            // An item of `module`, unless `module` only re-exports it.
            let reexport = self.reexports.get(&module).and_then(|r| r.get(segment));
            let Some(target) = reexport.filter(|_| hops < 16) else {
                break;
            };
            return self.resolve(&module, &joined(target, &rest[i + 1..]), hops + 1);
        }
        Some(module)
    }
}
