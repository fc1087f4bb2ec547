//! A server's document outline: symbol-kind names, flattening, the symbol enclosing a
//! position (for snapping) and the nearby symbols a `SYMBOL_NOT_FOUND` offers.

use navmap_envelope::ToolError;
use navmap_lsp::{DocumentSymbol, Position, SymbolKind};
use serde_json::{Value, json};

use super::target::Target;
use crate::ServerContext;

/// The contract's LSP symbol-kind names (lowercase, LSP spelling).
pub fn kind_name(kind: SymbolKind) -> &'static str {
    match kind {
        SymbolKind::FILE => "file",
        SymbolKind::MODULE => "module",
        SymbolKind::NAMESPACE => "namespace",
        SymbolKind::PACKAGE => "package",
        SymbolKind::CLASS => "class",
        SymbolKind::METHOD => "method",
        SymbolKind::PROPERTY => "property",
        SymbolKind::FIELD => "field",
        SymbolKind::CONSTRUCTOR => "constructor",
        SymbolKind::ENUM => "enum",
        SymbolKind::INTERFACE => "interface",
        SymbolKind::FUNCTION => "function",
        SymbolKind::VARIABLE => "variable",
        SymbolKind::CONSTANT => "constant",
        SymbolKind::STRING => "string",
        SymbolKind::NUMBER => "number",
        SymbolKind::BOOLEAN => "boolean",
        SymbolKind::ARRAY => "array",
        SymbolKind::OBJECT => "object",
        SymbolKind::KEY => "key",
        SymbolKind::NULL => "null",
        SymbolKind::ENUM_MEMBER => "enum_member",
        SymbolKind::STRUCT => "struct",
        SymbolKind::EVENT => "event",
        SymbolKind::OPERATOR => "operator",
        SymbolKind::TYPE_PARAMETER => "type_parameter",
        _ => "unknown",
    }
}

/// A flattened outline entry (pre-order).
pub struct FlatSymbol<'a> {
    pub sym: &'a DocumentSymbol,
}

pub fn flatten(symbols: &[DocumentSymbol]) -> Vec<FlatSymbol<'_>> {
    fn walk<'a>(list: &'a [DocumentSymbol], out: &mut Vec<FlatSymbol<'a>>) {
        for s in list {
            out.push(FlatSymbol { sym: s });
            walk(&s.children, out);
        }
    }
    let mut out = Vec::new();
    walk(symbols, &mut out);
    out
}

/// The innermost symbol whose range contains `pos` (for snapping).
pub fn enclosing(symbols: &[DocumentSymbol], pos: Position) -> Option<&DocumentSymbol> {
    let mut best: Option<&DocumentSymbol> = None;
    for f in flatten(symbols) {
        let r = f.sym.range;
        if r.start <= pos && pos <= r.end {
            let smaller = best.is_none_or(|b| {
                (r.end.line - r.start.line) <= (b.range.end.line - b.range.start.line)
            });
            if smaller {
                best = Some(f.sym);
            }
        }
    }
    best
}

/// Up to five outline entries nearest to `line0`, for `SYMBOL_NOT_FOUND` extras.
pub fn nearby(symbols: &[DocumentSymbol], line0: u32) -> Vec<Value> {
    let mut flat = flatten(symbols);
    flat.sort_by_key(|f| f.sym.selection_range.start.line.abs_diff(line0));
    flat.into_iter()
        .take(5)
        .map(|f| {
            json!({
                "name": f.sym.name,
                "kind": kind_name(f.sym.kind),
                "line": f.sym.selection_range.start.line + 1,
                "col": f.sym.selection_range.start.character + 1,
            })
        })
        .collect()
}

/// `SYMBOL_NOT_FOUND` with the file's nearby symbols (asked of the server; left out when
/// it cannot say).
pub async fn symbol_not_found(ctx: &ServerContext, t: &Target, err: ToolError) -> ToolError {
    match ctx.lsp.document_symbols(&t.abs).await {
        Ok(outline) if !outline.value.is_empty() => {
            err.with_extra("nearbySymbols", nearby(&outline.value, t.pos.line))
        }
        _ => err,
    }
}
