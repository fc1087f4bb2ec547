//! The MCP binding: rmcp's `ServerHandler` over navmap's own tool registry.
//!
//! `tools/list` and `tools/call` are implemented by hand (no `#[tool]` macros) so the
//! arguments reach navmap as a raw JSON object and navmap validates them itself: a bad
//! argument is a `BAD_ARGS` envelope, never serde's message or a JSON-RPC error.
//!
//! Every `tools/call` answer is exactly one text content part holding the compact JSON
//! envelope, with `isError = !ok`. **An unknown tool name is a `BAD_ARGS` envelope**
//! (listing the available tools), not a JSON-RPC "method not found": agents read envelopes,
//! while protocol errors are often shown to them as an opaque failure.
//! `get_tool` stays unimplemented on purpose: it would make rmcp validate arguments
//! against the schema before we see them.
//!
//! **A `tools/call` whose params do not fit MCP's shape** (`arguments` that is not an
//! object, a missing or non-string `name`) cannot become rmcp's `CallToolRequest`: rmcp
//! then hands it over as a *custom* request with the raw params, which by default is
//! answered with JSON-RPC -32601 "method not found". [`NavmapServer::on_custom_request`]
//! answers such a `tools/call` with a normal tool result holding a `BAD_ARGS` envelope.

use std::sync::Arc;

use navmap_envelope::{Budget, ToolError, render_error};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, ErrorCode, Implementation, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;

use crate::Engine;

/// Sent in `initialize`: how to use navmap cheaply.
pub const INSTRUCTIONS: &str = "navmap navigates this repository. Orient with map_* (map_status, \
map_overview, map_search, map_neighbors: the structural map, cheap), drill with nav_* (live language \
servers: definitions, references, types), cross between a map node ID and a live position with resolve. \
It reads only inside the root; only map_rebuild writes (its map folder). \
Positions: file relative to the root, line 1-based, col 1-based in UTF-16 code units (default 1); \
nav_* take a nodeId instead. A node ID (nodeId) is <lang>:<path>#<Qualified.name> (a file: \
<lang>:<path>). Where a nodeId goes, symbol may instead name it as you would write it \
(Session.get_adapter, requests.get, store.py#Store): the answer names the nodeId chosen and \
any alternatives. Node kinds: file, module, class, interface, trait, struct, enum, function, method, \
variable, constant, type_alias, property. Edge kinds: contains, imports, exports, calls, extends, \
implements, references. detail: signatures and docs. Every answer is a JSON envelope within \
tokenBudget (tokens, default 2000, 100-10000: less is clamped up, more down); when truncated, follow \
dropped.note, or repeat the call with the answer's cursor (its next slice). \
Integers count from 1, flags default to false, unknown arguments are refused.";

#[derive(Clone)]
pub struct NavmapServer {
    engine: Arc<Engine>,
}

impl NavmapServer {
    pub fn new(engine: Arc<Engine>) -> Self {
        NavmapServer { engine }
    }

    /// The `tools/list` entries, from the registry.
    pub fn tool_list(&self) -> Vec<Tool> {
        self.engine
            .tools()
            .iter()
            .map(|t| {
                let tool = Tool::new(t.tool.name(), t.tool.description(), t.params.schema());
                // Annotations only on the one tool that writes: `readOnlyHint: true` on the
                // thirteen others (36 characters each) and openWorldHint (22) would cost a
                // list the agent pays for what the instructions say once (only map_rebuild
                // writes; navmap reads only inside the root). The room goes to a
                // description on every parameter.
                if t.tool.read_only() {
                    return tool;
                }
                // map_rebuild only adds to and refreshes its own map folder.
                tool.with_annotations(
                    ToolAnnotations::new()
                        .read_only(false)
                        .destructive(false)
                        .idempotent(true),
                )
            })
            .collect()
    }
}

impl ServerHandler for NavmapServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("navmap", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tool_list()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // map_rebuild with a progress token: the build's progress as notifications.
        // (The context may still be opening: waited for here as the call would.)
        let ready = match request.name.as_ref() {
            "map_rebuild" => self.engine.ready().await.ok().map(|(ctx, _)| ctx),
            _ => None,
        };
        let _progress = match (context.meta.get_progress_token(), &ready) {
            (Some(token), Some(ctx)) => Some(crate::tools::map_common::forward_progress(
                ctx,
                context.peer.clone(),
                token,
            )),
            _ => None,
        };
        let rendered = self.engine.call(&request.name, request.arguments).await;
        let content = vec![ContentBlock::text(rendered.text)];
        let result = if rendered.ok {
            CallToolResult::success(content)
        } else {
            CallToolResult::error(content)
        };
        Ok(result.into())
    }

    /// A `tools/call` rmcp could not parse arrives here (module docs): answered with a
    /// `BAD_ARGS` tool result. Any other unknown method stays "method not found".
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let Some((text, ok)) = malformed_call(&request.method, request.params.as_ref()) else {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            ));
        };
        let content = vec![ContentBlock::text(text)];
        let result = if ok {
            CallToolResult::success(content)
        } else {
            CallToolResult::error(content)
        };
        serde_json::to_value(result)
            .map(CustomResult::new)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }
}

/// The `BAD_ARGS` envelope for `tools/call` params that MCP's shape rejects (see the
/// module docs), or `None` when the request is not a `tools/call`.
pub fn malformed_call(method: &str, params: Option<&Value>) -> Option<(String, bool)> {
    if method != "tools/call" {
        return None;
    }
    let name = params.and_then(|p| p.get("name"));
    let (field, why) = match (params, name) {
        (Some(Value::Object(_)), Some(Value::String(n))) => {
            let got = params
                .and_then(|p| p.get("arguments"))
                .map_or_else(|| "nothing".to_string(), |a| kind_of(a).to_string());
            (
                "arguments",
                format!("arguments of {n} must be a JSON object, got {got}"),
            )
        }
        (Some(Value::Object(_)), Some(other)) => (
            "name",
            format!("name must be a tool name (string), got {}", kind_of(other)),
        ),
        (Some(Value::Object(_)), None) => ("name", "name (the tool to call) is missing".into()),
        (p, _) => (
            "params",
            format!(
                "tools/call params must be an object {{name, arguments}}, got {}",
                p.map_or("nothing", kind_of)
            ),
        ),
    };
    let err = ToolError::bad_args(
        why,
        "Call tools/call with {\"name\": \"<tool>\", \"arguments\": {…}} (arguments a JSON object; tools/list gives each tool's fields).",
    )
    .with_extra("field", field);
    let out = render_error(&err, Budget::from_request(None));
    Some((out.text, out.ok))
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Serves MCP on stdin/stdout until the client disconnects; `first` is told when the first
/// answer is written.
pub async fn serve_stdio(
    engine: Arc<Engine>,
    first: Option<Arc<crate::startup::FirstAnswer>>,
) -> anyhow::Result<()> {
    use crate::frames;
    // rmcp speaks to our framing layer (crate::frames) through two pipes; the layer owns
    // the real stdin and stdout.
    let (client_side, rmcp_in) = tokio::io::duplex(1 << 20);
    let (rmcp_out, relay_side) = tokio::io::duplex(1 << 20);
    let (out, frames_rx) = tokio::sync::mpsc::unbounded_channel();
    let writer = tokio::spawn(frames::write_frames(tokio::io::stdout(), frames_rx, first));
    let reader = tokio::spawn(frames::read_client(
        tokio::io::stdin(),
        client_side,
        out.clone(),
    ));
    let relay = tokio::spawn(frames::relay_rmcp(relay_side, out));
    let served = async {
        let service = NavmapServer::new(engine).serve((rmcp_in, rmcp_out)).await?;
        service.waiting().await?;
        anyhow::Ok(())
    }
    .await;
    // rmcp is done (its pipes are closed): stop reading stdin, write what is left.
    reader.abort();
    let _ = reader.await;
    let _ = relay.await;
    let _ = writer.await;
    served
}

#[cfg(test)]
mod tests {
    use super::INSTRUCTIONS;
    use crate::tools::{map_common::EDGE_KINDS, map_search::KINDS};

    /// Node and edge kinds are listed once, in the instructions, not in each schema
    /// (`Param::values_unshown`): the list must name every value validation accepts.
    #[test]
    fn the_instructions_list_every_node_and_edge_kind() {
        let listed = |after: &str| -> Vec<String> {
            let start = INSTRUCTIONS.find(after).unwrap() + after.len();
            let end = start + INSTRUCTIONS[start..].find('.').unwrap();
            INSTRUCTIONS[start..end]
                .split(',')
                .map(|k| k.trim().to_string())
                .collect()
        };
        assert_eq!(listed("Node kinds:"), KINDS[1..].to_vec());
        assert_eq!(listed("Edge kinds:"), EDGE_KINDS.to_vec());
    }
}
