//! The typed queries the server's tools call, and the conversion of the servers' varied
//! answer shapes (Location / LocationLink, MarkedString / MarkupContent, flat / nested
//! symbols) to the plain values of [`crate::types`].

use lsp_types::{
    CallHierarchyServerCapability, GotoDefinitionResponse, HoverContents,
    ImplementationProviderCapability, MarkedString, OneOf, SymbolInformation,
    WorkspaceSymbolResponse,
};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

use crate::confine;
use crate::error::{LspError, Result};
use crate::pool::LspPool;
use crate::query::{Deadline, Raw, Request};
use crate::types::{
    Answer, Call, CallItem, DocumentSymbol, Hover, Location, Position, Range, WorkspaceSymbol,
};
use crate::uri;

fn decode<T: DeserializeOwned>(method: &str, v: Value) -> Result<T> {
    serde_json::from_value(v).map_err(|e| LspError::Failed {
        reason: format!("malformed {method} answer: {e}"),
        stderr_tail: Vec::new(),
    })
}

/// Pushes the warning about answers that point at something other than a file.
fn note_skipped(warnings: &mut Vec<String>, skipped: usize) {
    if skipped > 0 {
        warnings.push(format!(
            "{skipped} result(s) with a non-file URI were left out"
        ));
    }
}

/// Pushes the warning about results left out by the confinement rule ([`confine`]).
fn note_escaped(warnings: &mut Vec<String>, escaped: usize) {
    warnings.extend(confine::left_out_warning(escaped));
}

/// The server's locations, deduplicated; those in files that resolve outside `root`
/// are left out and counted in a warning.
fn locations(
    resp: Option<GotoDefinitionResponse>,
    root: &Path,
    warnings: &mut Vec<String>,
) -> Vec<Location> {
    let mut out = Vec::new();
    let mut skipped = 0;
    let mut escaped = 0;
    let mut push = |u: &lsp_types::Uri, range: Range, full: Option<Range>| match uri::to_path(u) {
        Some(path) if confine::escapes(root, &path) => escaped += 1,
        Some(path) => {
            let loc = Location {
                path,
                range,
                full_range: full,
            };
            if !out.contains(&loc) {
                out.push(loc);
            }
        }
        None => skipped += 1,
    };
    match resp {
        None => {}
        Some(GotoDefinitionResponse::Scalar(l)) => push(&l.uri, l.range, None),
        Some(GotoDefinitionResponse::Array(ls)) => {
            for l in ls {
                push(&l.uri, l.range, None);
            }
        }
        Some(GotoDefinitionResponse::Link(links)) => {
            for l in links {
                push(
                    &l.target_uri,
                    l.target_selection_range,
                    Some(l.target_range),
                );
            }
        }
    }
    note_skipped(warnings, skipped);
    note_escaped(warnings, escaped);
    out
}

fn position_params(path: &Path, pos: Position) -> Result<Value> {
    let u = uri::from_path(path).ok_or_else(|| LspError::NoServer {
        what: format!("{} (not an absolute path)", path.display()),
    })?;
    Ok(json!({"textDocument": {"uri": u.as_str()}, "position": pos}))
}

fn hover_text(contents: HoverContents) -> (String, &'static str) {
    fn marked(m: MarkedString) -> String {
        match m {
            MarkedString::String(s) => s,
            MarkedString::LanguageString(ls) => format!("```{}\n{}\n```", ls.language, ls.value),
        }
    }
    match contents {
        HoverContents::Scalar(m) => (marked(m), "markdown"),
        HoverContents::Array(ms) => (
            ms.into_iter()
                .map(marked)
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("\n\n"),
            "markdown",
        ),
        HoverContents::Markup(mc) => (
            mc.value,
            match mc.kind {
                lsp_types::MarkupKind::Markdown => "markdown",
                lsp_types::MarkupKind::PlainText => "plaintext",
            },
        ),
    }
}

fn nested(sym: lsp_types::DocumentSymbol) -> DocumentSymbol {
    DocumentSymbol {
        name: sym.name,
        detail: sym.detail.filter(|d| !d.is_empty()),
        kind: sym.kind,
        range: sym.range,
        selection_range: sym.selection_range,
        children: sym
            .children
            .unwrap_or_default()
            .into_iter()
            .map(nested)
            .collect(),
    }
}

fn contains(outer: &Range, inner: &Range) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// Builds an outline from flat `SymbolInformation`s by range containment (each symbol
/// goes under the smallest symbol that contains it).
pub fn nest_flat(mut flat: Vec<SymbolInformation>) -> Vec<DocumentSymbol> {
    // Outer before inner: by start, then the longer first.
    flat.sort_by(|a, b| {
        a.location
            .range
            .start
            .cmp(&b.location.range.start)
            .then(b.location.range.end.cmp(&a.location.range.end))
    });
    fn insert(list: &mut Vec<DocumentSymbol>, sym: DocumentSymbol) {
        if let Some(last) = list.last_mut()
            && contains(&last.range, &sym.range)
            && last.range != sym.range
        {
            return insert(&mut last.children, sym);
        }
        list.push(sym);
    }
    let mut roots = Vec::new();
    for s in flat {
        insert(
            &mut roots,
            DocumentSymbol {
                name: s.name,
                detail: s.container_name.filter(|_| false),
                kind: s.kind,
                range: s.location.range,
                selection_range: s.location.range,
                children: Vec::new(),
            },
        );
    }
    roots
}

fn call_item(item: lsp_types::CallHierarchyItem, language: &str) -> Option<CallItem> {
    let path = uri::to_path(&item.uri)?;
    Some(CallItem {
        name: item.name.clone(),
        kind: item.kind,
        detail: item.detail.clone().filter(|d| !d.is_empty()),
        path,
        range: item.range,
        selection_range: item.selection_range,
        language: language.to_string(),
        raw: item,
    })
}

fn answer<T>(raw: Raw, value: T, mut extra: Vec<String>) -> Answer<T> {
    let mut warnings = raw.warnings;
    warnings.append(&mut extra);
    Answer {
        value,
        complete: raw.complete,
        warnings,
        server_time: raw.server_time,
    }
}

fn has_implementation(c: &lsp_types::ServerCapabilities) -> bool {
    match &c.implementation_provider {
        None => false,
        Some(ImplementationProviderCapability::Simple(b)) => *b,
        Some(ImplementationProviderCapability::Options(_)) => true,
    }
}

fn has_call_hierarchy(c: &lsp_types::ServerCapabilities) -> bool {
    match &c.call_hierarchy_provider {
        None => false,
        Some(CallHierarchyServerCapability::Simple(b)) => *b,
        Some(CallHierarchyServerCapability::Options(_)) => true,
    }
}

fn has_workspace_symbols(c: &lsp_types::ServerCapabilities) -> bool {
    match &c.workspace_symbol_provider {
        None => false,
        Some(OneOf::Left(b)) => *b,
        Some(OneOf::Right(_)) => true,
    }
}

impl LspPool {
    fn abs(&self, file: &Path) -> PathBuf {
        if file.is_absolute() {
            file.to_path_buf()
        } else {
            self.root().join(file)
        }
    }

    async fn position_query(
        &self,
        file: &Path,
        pos: Position,
        method: &'static str,
        extra: Value,
        deadline: Deadline,
        capability: Option<crate::query::Capability>,
    ) -> Result<Raw> {
        let path = self.abs(file);
        let lang = self.language_for(&path)?;
        let slot = self.slot(&lang)?;
        let mut params = position_params(&path, pos)?;
        if let (Value::Object(p), Value::Object(e)) = (&mut params, extra) {
            p.extend(e);
        }
        self.run(
            &slot,
            Request {
                method,
                params,
                file: Some(&path),
                deadline,
                capability,
                needs_project: false,
            },
        )
        .await
    }

    /// Where the symbol at `pos` is defined.
    pub async fn definition(&self, file: &Path, pos: Position) -> Result<Answer<Vec<Location>>> {
        self.locations_query(file, pos, "textDocument/definition", None)
            .await
    }

    /// Where the type of the symbol at `pos` is defined.
    pub async fn type_definition(
        &self,
        file: &Path,
        pos: Position,
    ) -> Result<Answer<Vec<Location>>> {
        self.locations_query(file, pos, "textDocument/typeDefinition", None)
            .await
    }

    /// Implementations of the interface/trait/abstract member at `pos`.
    /// `NoCapability` when the server does not offer `implementationProvider`.
    pub async fn implementation(
        &self,
        file: &Path,
        pos: Position,
    ) -> Result<Answer<Vec<Location>>> {
        self.locations_query(
            file,
            pos,
            "textDocument/implementation",
            Some(("implementation", has_implementation)),
        )
        .await
    }

    async fn locations_query(
        &self,
        file: &Path,
        pos: Position,
        method: &'static str,
        capability: Option<crate::query::Capability>,
    ) -> Result<Answer<Vec<Location>>> {
        let raw = self
            .position_query(file, pos, method, json!({}), Deadline::Normal, capability)
            .await?;
        let resp: Option<GotoDefinitionResponse> = decode(method, raw.value.clone())?;
        let mut warnings = Vec::new();
        let locs = locations(resp, self.root(), &mut warnings);
        Ok(answer(raw, locs, warnings))
    }

    /// References to the symbol at `pos`, in the server's order.
    pub async fn references(
        &self,
        file: &Path,
        pos: Position,
        include_declaration: bool,
    ) -> Result<Answer<Vec<Location>>> {
        // Some servers answer `[]` without the declaration (the manifest says so): ask
        // with it, and leave it out here.
        let with_declaration = self
            .language_for(&self.abs(file))?
            .manifest
            .lsp
            .as_ref()
            .is_some_and(|l| l.references_with_declaration);
        let ask = include_declaration || with_declaration;
        let raw = self
            .position_query(
                file,
                pos,
                "textDocument/references",
                json!({"context": {"includeDeclaration": ask}}),
                Deadline::Long,
                None,
            )
            .await?;
        let resp: Option<Vec<lsp_types::Location>> =
            decode("textDocument/references", raw.value.clone())?;
        let mut warnings = Vec::new();
        let mut locs = locations(
            resp.map(GotoDefinitionResponse::Array),
            self.root(),
            &mut warnings,
        );
        if ask && !include_declaration {
            match self.definition(file, pos).await {
                Ok(defs) => locs.retain(|l| {
                    !defs
                        .value
                        .iter()
                        .any(|d| d.path == l.path && d.range.start == l.range.start)
                }),
                Err(e) => warnings.push(format!(
                    "the declaration could not be told from the references ({e}): it may be listed"
                )),
            }
        }
        Ok(answer(raw, locs, warnings))
    }

    /// Hover at `pos`: `None` when the server has nothing to say there.
    pub async fn hover(&self, file: &Path, pos: Position) -> Result<Answer<Option<Hover>>> {
        let raw = self
            .position_query(
                file,
                pos,
                "textDocument/hover",
                json!({}),
                Deadline::Normal,
                None,
            )
            .await?;
        let resp: Option<lsp_types::Hover> = decode("textDocument/hover", raw.value.clone())?;
        let hover = resp.and_then(|h| {
            let (contents, format) = hover_text(h.contents);
            (!contents.trim().is_empty()).then_some(Hover {
                contents,
                format,
                range: h.range,
            })
        });
        let mut warnings = Vec::new();
        if hover.is_some()
            && let Some(why) = self.defined_outside(file, pos).await
        {
            warnings.push(why);
            return Ok(answer(raw, None, warnings));
        }
        Ok(answer(raw, hover, warnings))
    }

    /// The confinement rule for hover text, which quotes the definition (a constant's
    /// value, a docstring): `Some(warning)` when the symbol at `pos` is defined in a file
    /// of the root that resolves outside it. When the server cannot say where (an error,
    /// a timeout), the hover is kept: a server that answers hover but not definition is
    /// a fault of its own, not a way out of the root (docs/security.md, known limits).
    async fn defined_outside(&self, file: &Path, pos: Position) -> Option<String> {
        let raw = self
            .position_query(
                file,
                pos,
                "textDocument/definition",
                json!({}),
                Deadline::Normal,
                None,
            )
            .await;
        let resp: Option<GotoDefinitionResponse> = match raw {
            Ok(raw) => decode("textDocument/definition", raw.value).ok()?,
            Err(e) => {
                tracing::debug!("hover: where the symbol is defined is unknown ({e})");
                return None;
            }
        };
        let mut warnings = Vec::new();
        locations(resp, self.root(), &mut warnings);
        warnings.iter().any(|w| w.contains(confine::LEFT_OUT)).then(|| {
            format!(
                "{}: the symbol is defined in a file that resolves (through a symlink) outside the root, and navmap shows nothing from outside the root",
                confine::HOVER_LEFT_OUT
            )
        })
    }

    /// The file's outline, hierarchical (flat answers are nested by range).
    pub async fn document_symbols(&self, file: &Path) -> Result<Answer<Vec<DocumentSymbol>>> {
        let path = self.abs(file);
        let lang = self.language_for(&path)?;
        let slot = self.slot(&lang)?;
        let u = uri::from_path(&path).ok_or_else(|| LspError::NoServer {
            what: path.display().to_string(),
        })?;
        let raw = self
            .run(
                &slot,
                Request {
                    method: "textDocument/documentSymbol",
                    params: json!({"textDocument": {"uri": u.as_str()}}),
                    file: Some(&path),
                    deadline: Deadline::Normal,
                    capability: None,
                    needs_project: false,
                },
            )
            .await?;
        let resp: Option<lsp_types::DocumentSymbolResponse> =
            decode("textDocument/documentSymbol", raw.value.clone())?;
        let symbols = match resp {
            None => Vec::new(),
            Some(lsp_types::DocumentSymbolResponse::Nested(v)) => {
                v.into_iter().map(nested).collect()
            }
            Some(lsp_types::DocumentSymbolResponse::Flat(v)) => nest_flat(v),
        };
        Ok(answer(raw, symbols, Vec::new()))
    }

    /// Workspace symbols matching `query`, from the server of language `language`.
    /// `NoCapability` when it does not offer `workspaceSymbolProvider`.
    pub async fn workspace_symbols(
        &self,
        language: &str,
        query: &str,
    ) -> Result<Answer<Vec<WorkspaceSymbol>>> {
        let lang = self
            .inner
            .registry
            .by_id(language)
            .cloned()
            .ok_or_else(|| LspError::NoServer {
                what: format!("language `{language}`"),
            })?;
        let slot = self.slot(&lang)?;
        let raw = self
            .run(
                &slot,
                Request {
                    method: "workspace/symbol",
                    params: json!({"query": query}),
                    file: None,
                    deadline: Deadline::Long,
                    capability: Some(("workspaceSymbol", has_workspace_symbols)),
                    needs_project: true,
                },
            )
            .await?;
        let resp: Option<WorkspaceSymbolResponse> = decode("workspace/symbol", raw.value.clone())?;
        let mut skipped = 0;
        let mut escaped = 0;
        let mut out = Vec::new();
        let root = self.root();
        match resp {
            None => {}
            Some(WorkspaceSymbolResponse::Flat(v)) => {
                for s in v {
                    match uri::to_path(&s.location.uri) {
                        Some(path) if confine::escapes(root, &path) => escaped += 1,
                        Some(path) => out.push(WorkspaceSymbol {
                            name: s.name,
                            kind: s.kind,
                            container: s.container_name.filter(|c| !c.is_empty()),
                            path,
                            range: Some(s.location.range),
                        }),
                        None => skipped += 1,
                    }
                }
            }
            Some(WorkspaceSymbolResponse::Nested(v)) => {
                for s in v {
                    let (u, range) = match &s.location {
                        OneOf::Left(l) => (&l.uri, Some(l.range)),
                        OneOf::Right(w) => (&w.uri, None),
                    };
                    match uri::to_path(u) {
                        Some(path) if confine::escapes(root, &path) => escaped += 1,
                        Some(path) => out.push(WorkspaceSymbol {
                            name: s.name,
                            kind: s.kind,
                            container: s.container_name.filter(|c| !c.is_empty()),
                            path,
                            range,
                        }),
                        None => skipped += 1,
                    }
                }
            }
        }
        let mut warnings = Vec::new();
        note_skipped(&mut warnings, skipped);
        note_escaped(&mut warnings, escaped);
        Ok(answer(raw, out, warnings))
    }

    /// The call-hierarchy items at `pos` (usually one). `NoCapability` when the server
    /// does not offer `callHierarchyProvider`: the caller falls back.
    pub async fn prepare_call_hierarchy(
        &self,
        file: &Path,
        pos: Position,
    ) -> Result<Answer<Vec<CallItem>>> {
        let path = self.abs(file);
        let lang = self.language_for(&path)?;
        let raw = self
            .position_query(
                &path,
                pos,
                "textDocument/prepareCallHierarchy",
                json!({}),
                Deadline::Normal,
                Some(("callHierarchy", has_call_hierarchy)),
            )
            .await?;
        let resp: Option<Vec<lsp_types::CallHierarchyItem>> =
            decode("textDocument/prepareCallHierarchy", raw.value.clone())?;
        let all: Vec<CallItem> = resp
            .unwrap_or_default()
            .into_iter()
            .filter_map(|i| call_item(i, lang.id()))
            .collect();
        let before = all.len();
        let items: Vec<CallItem> = all
            .into_iter()
            .filter(|i| !confine::escapes(self.root(), &i.path))
            .collect();
        let mut warnings = Vec::new();
        note_escaped(&mut warnings, before - items.len());
        Ok(answer(raw, items, warnings))
    }

    /// Who calls `item` (one level).
    pub async fn incoming_calls(&self, item: &CallItem) -> Result<Answer<Vec<Call>>> {
        self.calls(item, "callHierarchy/incomingCalls", "from")
            .await
    }

    /// What `item` calls (one level). The ranges are in `item`'s file.
    pub async fn outgoing_calls(&self, item: &CallItem) -> Result<Answer<Vec<Call>>> {
        self.calls(item, "callHierarchy/outgoingCalls", "to").await
    }

    async fn calls(
        &self,
        item: &CallItem,
        method: &'static str,
        field: &str,
    ) -> Result<Answer<Vec<Call>>> {
        let lang = self
            .inner
            .registry
            .by_id(&item.language)
            .cloned()
            .ok_or_else(|| LspError::NoServer {
                what: format!("language `{}`", item.language),
            })?;
        let slot = self.slot(&lang)?;
        let raw = self
            .run(
                &slot,
                Request {
                    method,
                    params: json!({"item": item.raw}),
                    file: None,
                    deadline: Deadline::Long,
                    capability: Some(("callHierarchy", has_call_hierarchy)),
                    needs_project: false,
                },
            )
            .await?;
        let calls: Option<Vec<Value>> = decode(method, raw.value.clone())?;
        let mut out = Vec::new();
        let mut skipped = 0;
        let mut escaped = 0;
        for call in calls.unwrap_or_default() {
            let Some(it) = call.get(field).cloned() else {
                continue;
            };
            let it: lsp_types::CallHierarchyItem = decode(method, it)?;
            let ranges: Vec<Range> =
                decode(method, call.get("fromRanges").cloned().unwrap_or(json!([])))?;
            match call_item(it, &item.language) {
                Some(ci) if confine::escapes(self.root(), &ci.path) => escaped += 1,
                Some(ci) => out.push(Call { item: ci, ranges }),
                None => skipped += 1,
            }
        }
        let mut warnings = Vec::new();
        note_skipped(&mut warnings, skipped);
        note_escaped(&mut warnings, escaped);
        Ok(answer(raw, out, warnings))
    }

    /// Asks every distinct server of `languages` (JavaScript and TypeScript share one)
    /// for workspace symbols. One entry per server, under the first language that named
    /// it; a missing or failing server is an `Err` entry, for the caller to warn about.
    pub async fn workspace_symbols_all(
        &self,
        languages: &[&str],
        query: &str,
    ) -> Vec<(String, Result<Answer<Vec<WorkspaceSymbol>>>)> {
        let mut seen: Vec<Vec<String>> = Vec::new();
        let mut asks = Vec::new();
        for &id in languages {
            let Some(lang) = self.inner.registry.by_id(id) else {
                continue;
            };
            let Some(cmd) = self.command_for(lang) else {
                continue;
            };
            if seen.contains(&cmd) {
                continue;
            }
            seen.push(cmd);
            let pool = self.clone();
            let id = id.to_string();
            let query = query.to_string();
            asks.push(tokio::spawn(LspPool::keep_call_deadline(async move {
                let r = pool.workspace_symbols(&id, &query).await;
                (id, r)
            })));
        }
        let mut out = Vec::new();
        for ask in asks {
            if let Ok(r) = ask.await {
                out.push(r);
            }
        }
        out
    }

    /// Whether the file's server offers call hierarchy (starts it if needed).
    pub async fn supports_call_hierarchy(&self, file: &Path) -> Result<bool> {
        self.capability(file, has_call_hierarchy).await
    }

    /// Whether the file's server offers implementation lookup (starts it if needed).
    pub async fn supports_implementation(&self, file: &Path) -> Result<bool> {
        self.capability(file, has_implementation).await
    }

    async fn capability(
        &self,
        file: &Path,
        has: fn(&lsp_types::ServerCapabilities) -> bool,
    ) -> Result<bool> {
        let path = self.abs(file);
        let lang = self.language_for(&path)?;
        let slot = self.slot(&lang)?;
        let (deadline, _) = self.request_deadline(Deadline::Normal);
        let client = self
            .ensure(&slot, deadline, std::time::Instant::now())
            .await?;
        Ok(has(&client.capabilities().unwrap_or_default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Location as L, SymbolKind};
    use std::str::FromStr;

    fn r(l0: u32, c0: u32, l1: u32, c1: u32) -> Range {
        Range::new(Position::new(l0, c0), Position::new(l1, c1))
    }

    #[test]
    fn flat_symbols_nest_by_range() {
        let u = lsp_types::Uri::from_str("file:///a.py").unwrap();
        #[allow(deprecated)]
        let sym = |name: &str, range| SymbolInformation {
            name: name.into(),
            kind: SymbolKind::FUNCTION,
            tags: None,
            deprecated: None,
            location: L::new(u.clone(), range),
            container_name: None,
        };
        let out = nest_flat(vec![
            sym("m", r(2, 4, 3, 0)),
            sym("C", r(1, 0, 5, 0)),
            sym("f", r(7, 0, 8, 0)),
            sym("n", r(4, 4, 4, 9)),
        ]);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].name, "C");
        let kids: Vec<_> = out[0].children.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(kids, vec!["m", "n"]);
        assert_eq!(out[1].name, "f");
    }

    #[test]
    fn hover_shapes_flatten_to_markdown() {
        let (t, f) = hover_text(HoverContents::Array(vec![
            MarkedString::LanguageString(lsp_types::LanguageString {
                language: "python".into(),
                value: "def f() -> int".into(),
            }),
            MarkedString::String("Docs.".into()),
        ]));
        assert_eq!(t, "```python\ndef f() -> int\n```\n\nDocs.");
        assert_eq!(f, "markdown");
    }

    #[test]
    fn links_keep_name_and_whole_range() {
        let v = json!([{
            "targetUri": "file:///x/a.ts", "targetRange": {"start": {"line": 1, "character": 0}, "end": {"line": 9, "character": 1}},
            "targetSelectionRange": {"start": {"line": 1, "character": 6}, "end": {"line": 1, "character": 9}}
        }, {
            "targetUri": "untitled:1", "targetRange": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "targetSelectionRange": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
        }]);
        let mut w = Vec::new();
        let locs = locations(
            serde_json::from_value(v).unwrap(),
            Path::new("/nonexistent-root"),
            &mut w,
        );
        assert_eq!(locs.len(), 1);
        assert_eq!(locs[0].path, PathBuf::from("/x/a.ts"));
        assert_eq!(locs[0].range, r(1, 6, 1, 9));
        assert_eq!(locs[0].full_range, Some(r(1, 0, 9, 1)));
        assert_eq!(w.len(), 1);
    }
}
