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

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

use crate::Engine;

/// Sent in `initialize`: how to use navmap cheaply.
pub const INSTRUCTIONS: &str = "navmap navigates this repository. Orient with map_* (map_status, map_search: \
the structural map, cheap), drill with nav_* (live language servers: definitions, references, types), \
cross between a map node ID and a live position with resolve. Every answer is a JSON envelope within \
tokenBudget; when truncated, follow dropped.note or pass cursor for the next slice.";

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
                let read_only = t.tool.read_only();
                let mut annotations = ToolAnnotations::new()
                    .read_only(read_only)
                    .open_world(false);
                if !read_only {
                    // map_rebuild only adds to and refreshes its own map folder.
                    annotations = annotations.destructive(false).idempotent(true);
                }
                Tool::new(t.tool.name(), t.tool.description(), t.params.schema())
                    .with_annotations(annotations)
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
        let _progress = match context.meta.get_progress_token() {
            Some(token) if request.name == "map_rebuild" => {
                Some(crate::tools::map_common::forward_progress(
                    self.engine.context(),
                    context.peer.clone(),
                    token,
                ))
            }
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
}

/// Serves MCP on stdin/stdout until the client disconnects.
pub async fn serve_stdio(engine: Arc<Engine>) -> anyhow::Result<()> {
    let service = NavmapServer::new(engine)
        .serve(rmcp::transport::stdio())
        .await?;
    service.waiting().await?;
    Ok(())
}
