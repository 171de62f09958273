//! A small MCP server for skill-audit's tests (`tests/it/mcp.rs`), built with rmcp's server side.
//!
//! It serves skills over MCP (SEP-2640) and a tool list that depends on the user:
//!
//! ```text
//! mcp_test_server                 stdio; the user is $MCP_TEST_USER (alice, bob, ...)
//! mcp_test_server --http ADDR     streamable HTTP at http://ADDR/mcp; the user is the token of
//!                                 `Authorization: Bearer <user>`; prints the bound address
//! ```
//!
//! - Tools: `get_order`, `search_docs` and `tool_01`..`tool_05` for everyone, `refund_card` for
//!   alice only; lists come in pages of `$MCP_TEST_PAGE` items (default 2).
//! - Skills: `skill://payments/refunds/SKILL.md` (needs `get_order` and one of `refund_card`,
//!   `refund_wallet`), `skill://payments/lookup/SKILL.md` (needs `get_order`),
//!   `skill://ops/tampered/SKILL.md` (listed with the digest of other content),
//!   `skill://ops/misnamed/SKILL.md` (its `name` is not its last segment) and
//!   `skill://ops/bundle/SKILL.md`, which lists four more files: one with the right digest,
//!   one served as a base64 blob with the right digest, one listed with the digest of other
//!   content, and one whose read fails; its body also links to a file it does not list.
//! - Resource templates: three, listed out of order and in pages like the other lists.
//! - `MCP_TEST_SKILLS=resources` hides the skills extension: the skills are then found only
//!   through `resources/list`.
//!
//! `MCP_TEST_MANY=N` adds `skill://ops/many/SKILL.md`, which lists N more files.
//!
//! `MCP_TEST_STDERR=1` prints a line on standard error at start.
//!
//! `MCP_TEST_MODE` turns it into a hostile stdio server that speaks raw JSON-RPC, to test that
//! the client ends with a clear error: `huge` (a tools/list of 100,001 tools), `wrongtypes`
//! (`tools` is a string), `badnames` (a tool whose name is a number), `sleep` (never answers
//! tools/list), `exit` (exits at once), `garbage` (prints a banner on stdout), `endless`
//! (every page has a new `nextCursor`), `crash` (exits on tools/list), `notrpc` (answers
//! tools/list with JSON that is not JSON-RPC). Mode `notemplates` is a well-behaved raw server
//! that has the resources capability but answers `resources/templates/list` with "method not
//! found", as servers that have no templates may. Mode `rawskills` serves
//! `skill://raw/SKILL.md` listed as the spec shows it (digests, no sizes), with one more file
//! whose digest is right, one whose digest is in uppercase and one without a digest: rmcp's
//! server side would refuse to send the last two.

use std::io::{BufRead, Write};
use std::sync::Arc;

use rmcp::model::{
    Extensions, ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Resource, ResourceContents, ResourceTemplate, ServerCapabilities,
    ServerConfig, Skill, SkillFrontmatter, SkillResource, SkillResources, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

const REFUNDS: &str = "---
name: refunds
description: Refund a customer's order. Use when a customer asks for their money back.
dependencies:
  tools:
    all: [get_order]
    any: [refund_card, refund_wallet]
---
# Refunds

Look the order up, then refund it. See [the policy](references/policy.md).
";

const POLICY: &str = "# Refund policy\n\nRefunds within 30 days.\n";

const LOOKUP: &str = "---
name: lookup
description: Look an order up by its number. Use when asked about an order's status.
dependencies:
  tools: [get_order]
---
# Lookup
";

const TAMPERED: &str = "---
name: tampered
description: A skill whose listed digest is not the digest of what is served.
dependencies:
  tools: [search_docs]
---
# Tampered
";

const MISNAMED: &str = "---
name: other-name
description: A skill whose name is not the last segment of its URI.
---
# Misnamed
";

const BUNDLE: &str = "---
name: bundle
description: A skill with files besides its SKILL.md. Use to check that every file is verified.
---
# Bundle

Read [the guide](references/guide.md), [the changes](references/changes.md) and
[the notes](notes/unlisted.md).

![logo](assets/logo.png)
";

/// Bytes that are not UTF-8, so they can only be served as a blob.
const LOGO: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe";

/// A file the server lists.
struct File {
    uri: &'static str,
    /// What `resources/read` returns; `None`: the read fails.
    served: Option<&'static [u8]>,
    /// What the listed digest and size are computed from.
    listed: &'static [u8],
    /// Served as a base64 `blob` rather than `text`.
    blob: bool,
}

/// A file served as text and listed with its own digest.
const fn text(uri: &'static str, content: &'static str) -> File {
    File {
        uri,
        served: Some(content.as_bytes()),
        listed: content.as_bytes(),
        blob: false,
    }
}

/// Every file, built once (`$MCP_TEST_MANY` adds a skill with that many more files).
fn files() -> &'static [File] {
    static FILES: std::sync::OnceLock<Vec<File>> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        let mut all = fixed_files();
        let many: usize = std::env::var("MCP_TEST_MANY")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        if many > 0 {
            all.push(text("skill://ops/many/SKILL.md", MANY));
            // Leaked once per process: the files live as long as the server.
            all.extend((1..=many).map(|i| {
                let uri: &'static str =
                    Box::leak(format!("skill://ops/many/f{i:04}.md").into_boxed_str());
                text(uri, "x\n")
            }));
        }
        all
    })
}

const MANY: &str = "---
name: many
description: A skill with more files than skill-audit reads for one skill.
---
";

fn fixed_files() -> Vec<File> {
    vec![
        text("skill://payments/refunds/SKILL.md", REFUNDS),
        text("skill://payments/refunds/references/policy.md", POLICY),
        text("skill://payments/lookup/SKILL.md", LOOKUP),
        File {
            listed: b"---\nname: tampered\ndescription: the original\n---\n",
            ..text("skill://ops/tampered/SKILL.md", TAMPERED)
        },
        text("skill://ops/misnamed/SKILL.md", MISNAMED),
        text("skill://ops/bundle/SKILL.md", BUNDLE),
        text("skill://ops/bundle/references/guide.md", "# Guide\n"),
        File {
            listed: b"# Changes\n\n- the original\n",
            ..text("skill://ops/bundle/references/changes.md", "# Changes\n")
        },
        File {
            served: Some(LOGO),
            listed: LOGO,
            blob: true,
            ..text("skill://ops/bundle/assets/logo.png", "")
        },
        File {
            served: None,
            ..text("skill://ops/bundle/references/gone.md", "# Gone\n")
        },
    ]
}

fn tools_for(user: &str) -> Vec<String> {
    let mut t: Vec<String> = vec!["get_order".into(), "search_docs".into()];
    t.extend((1..=5).map(|i| format!("tool_{i:02}")));
    if user == "alice" {
        t.push("refund_card".into());
    }
    t
}

fn page_size() -> usize {
    std::env::var("MCP_TEST_PAGE")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(2)
}

/// One page of `items`, starting at the cursor (an offset).
fn page<T: Clone>(
    items: &[T],
    request: Option<PaginatedRequestParams>,
) -> Result<(Vec<T>, Option<String>), ErrorData> {
    let start = match request.and_then(|r| r.cursor) {
        None => 0,
        Some(c) => c
            .parse::<usize>()
            .map_err(|_| ErrorData::invalid_params("bad cursor", None))?,
    };
    let end = (start + page_size()).min(items.len());
    let next = (end < items.len()).then(|| end.to_string());
    Ok((items.get(start..end).unwrap_or_default().to_vec(), next))
}

#[derive(Clone)]
struct TestServer {
    /// The user of a stdio session ($MCP_TEST_USER); HTTP sessions read it from each request.
    user: Option<String>,
    skills_extension: bool,
}

impl TestServer {
    fn user(&self, extensions: &Extensions) -> String {
        if let Some(u) = &self.user {
            return u.clone();
        }
        extensions
            .get::<http::request::Parts>()
            .and_then(|p| p.headers.get(http::header::AUTHORIZATION))
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or("anonymous")
            .to_owned()
    }
}

impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        let caps = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources();
        let caps = if self.skills_extension {
            caps.enable_skills().build()
        } else {
            caps.build()
        };
        let mut info = ServerConfig::new(caps);
        info.server_info = rmcp::model::Implementation::new("skill-test-server", "1.0.0");
        info
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema: Arc<rmcp::model::JsonObject> = Arc::new(
            serde_json::json!({"type": "object"})
                .as_object()
                .cloned()
                .unwrap_or_default(),
        );
        let tools: Vec<Tool> = tools_for(&self.user(&context.extensions))
            .into_iter()
            .map(|n| Tool::new(n, "a test tool", schema.clone()))
            .collect();
        let (items, next) = page(&tools, request)?;
        let mut result = ListToolsResult::with_all_items(items);
        result.next_cursor = next;
        Ok(result)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let mut all: Vec<Resource> = files()
            .iter()
            .map(|f| Resource::new(f.uri, f.uri.rsplit('/').nth(1).unwrap_or(f.uri)))
            .collect();
        all.push(Resource::new("docs://handbook.md", "handbook"));
        let (items, next) = page(&all, request)?;
        let mut result = ListResourcesResult::with_all_items(items);
        result.next_cursor = next;
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let all: Vec<ResourceTemplate> = [
            ("orders://{id}", "order"),
            ("docs://handbook/{chapter}.md", "chapter"),
            ("docs://archive/{year}/{name}", "archived"),
        ]
        .into_iter()
        .map(|(uri, name)| ResourceTemplate::new(uri, name))
        .collect();
        let (items, next) = page(&all, request)?;
        let mut result = ListResourceTemplatesResult::with_all_items(items);
        result.next_cursor = next;
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        if uri == "docs://handbook.md" {
            let c = ResourceContents::text("# Handbook\n", uri.clone());
            return Ok(ReadResourceResult::new(vec![c]).into());
        }
        let Some(served) = files()
            .iter()
            .find(|f| f.uri == uri)
            .and_then(|f| Some((f.served?, f.blob)))
        else {
            return Err(ErrorData::resource_not_found(
                format!("no resource {uri}"),
                None,
            ));
        };
        let c = match served {
            (bytes, true) => {
                use base64::Engine as _;
                let blob = base64::engine::general_purpose::STANDARD.encode(bytes);
                ResourceContents::blob(blob, uri).with_mime_type("image/png")
            }
            (bytes, false) => ResourceContents::text(String::from_utf8_lossy(bytes), uri)
                .with_mime_type("text/markdown"),
        };
        Ok(ReadResourceResult::new(vec![c]).into())
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        let files = files();
        let skills: Vec<Skill> = files
            .iter()
            .filter(|f| f.uri.ends_with("/SKILL.md"))
            .map(|skill| {
                let uri = skill.uri;
                let text = String::from_utf8_lossy(skill.served.unwrap_or(skill.listed));
                let dir = uri.trim_end_matches("SKILL.md");
                let manifest: Vec<SkillResource> = files
                    .iter()
                    .filter(|f| {
                        f.uri.starts_with(dir) && (f.uri == uri || !f.uri.ends_with("SKILL.md"))
                    })
                    .map(|f| SkillResource::from_bytes(f.uri, f.listed))
                    .collect();
                // rmcp checks that a listed name is the URI's last segment; the served file
                // of `misnamed` says otherwise.
                let name = uri.rsplit('/').nth(1).unwrap_or_default();
                let description = text
                    .lines()
                    .find_map(|l| l.strip_prefix("description: "))
                    .unwrap_or_default();
                Skill::new(
                    uri,
                    SkillFrontmatter::new(name, description),
                    SkillResources::Files(manifest),
                )
            })
            .collect();
        let (items, next) = page(&skills, request)?;
        let mut result = ListSkillsResult::with_all_items(items);
        result.next_cursor = next;
        Ok(result)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    if std::env::var_os("MCP_TEST_STDERR").is_some() {
        eprintln!("mcp-test-server: a line on standard error");
    }
    if let Ok(mode) = std::env::var("MCP_TEST_MODE") {
        hostile(&mode);
        return Ok(());
    }
    let skills_extension = std::env::var("MCP_TEST_SKILLS").as_deref() != Ok("resources");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    match args.as_slice() {
        [flag, addr] if flag == "--http" => rt.block_on(http(addr, skills_extension)),
        [] => rt.block_on(async {
            let server = TestServer {
                user: Some(std::env::var("MCP_TEST_USER").unwrap_or_else(|_| "anonymous".into())),
                skills_extension,
            };
            let running = server.serve(rmcp::transport::stdio()).await?;
            running.waiting().await?;
            Ok(())
        }),
        _ => Err("usage: mcp_test_server [--http ADDR]".into()),
    }
}

/// Serve streamable HTTP at `addr` (port 0 picks a free one) until killed.
async fn http(addr: &str, skills_extension: bool) -> Result<(), Box<dyn std::error::Error>> {
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    };
    let service = StreamableHttpService::new(
        move || {
            Ok(TestServer {
                user: None,
                skills_extension,
            })
        },
        LocalSessionManager::default().into(),
        StreamableHttpServerConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind(addr).await?;
    println!("listening on {}", listener.local_addr()?);
    std::io::stdout().flush()?;
    loop {
        let (stream, _) = listener.accept().await?;
        let service = service.clone();
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            let svc = hyper_util::service::TowerToHyperService::new(service);
            let _ =
                hyper_util::server::conn::auto::Builder::new(hyper_util::rt::TokioExecutor::new())
                    .serve_connection(io, svc)
                    .await;
        });
    }
}

const RAW_FILES: [(&str, &str); 4] = [
    (
        "skill://raw/SKILL.md",
        "---\nname: raw\ndescription: A skill listed as the spec shows it.\n---\n# Raw\n",
    ),
    ("skill://raw/ok.md", "ok\n"),
    ("skill://raw/upper.md", "upper\n"),
    ("skill://raw/none.md", "none\n"),
];

/// The `skills/list` result of mode `rawskills`.
fn raw_skills() -> serde_json::Value {
    let digest = |i: usize| rmcp::model::sha256_digest(RAW_FILES[i].1.as_bytes());
    serde_json::json!({ "skills": [{
        "uri": RAW_FILES[0].0,
        "frontmatter": {"name": "raw", "description": "A skill listed as the spec shows it."},
        "resources": [
            {"uri": RAW_FILES[0].0, "digest": digest(0)},
            {"uri": RAW_FILES[1].0, "digest": digest(1)},
            {"uri": RAW_FILES[2].0, "digest": digest(2).to_uppercase()},
            {"uri": RAW_FILES[3].0}
        ]
    }]})
}

/// Raw JSON-RPC over stdio that misbehaves in one way after a normal `initialize`.
fn hostile(mode: &str) {
    let mut out = std::io::stdout().lock();
    if mode == "exit" {
        std::process::exit(3);
    }
    if mode == "garbage" {
        let _ = writeln!(out, "Starting the best MCP server v1.0 ...");
        let _ = out.flush();
    }
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(&line) else {
            continue;
        };
        let Some(id) = msg.get("id").cloned() else {
            continue; // a notification
        };
        let method = msg.get("method").and_then(|m| m.as_str()).unwrap_or("");
        let result = match method {
            "initialize" => {
                let mut caps = serde_json::json!({"tools": {}});
                if mode == "notemplates" || mode == "rawskills" {
                    caps["resources"] = serde_json::json!({});
                }
                if mode == "rawskills" {
                    caps["extensions"] =
                        serde_json::json!({ "io.modelcontextprotocol/skills": {} });
                }
                serde_json::json!({
                    "protocolVersion": msg["params"]["protocolVersion"].as_str().unwrap_or("2025-06-18"),
                    "capabilities": caps,
                    "serverInfo": {"name": format!("hostile-{mode}"), "version": "0"}
                })
            }
            "resources/list" => {
                serde_json::json!({ "resources": [{"uri": "docs://only.md", "name": "only"}] })
            }
            "tools/list" => match mode {
                "huge" => {
                    let tools: Vec<serde_json::Value> = (0..100_001)
                        .map(|i| serde_json::json!({"name": format!("t{i}"), "inputSchema": {"type": "object"}}))
                        .collect();
                    serde_json::json!({ "tools": tools })
                }
                "wrongtypes" => serde_json::json!({ "tools": "get_order" }),
                "badnames" => serde_json::json!({ "tools": [{"name": 42, "inputSchema": {}}] }),
                "endless" => {
                    let n = msg["params"]["cursor"]
                        .as_str()
                        .and_then(|c| c.parse::<u64>().ok())
                        .unwrap_or(0);
                    serde_json::json!({ "tools": [], "nextCursor": (n + 1).to_string() })
                }
                "sleep" => {
                    std::thread::sleep(std::time::Duration::from_secs(3600));
                    continue;
                }
                "crash" => std::process::exit(70),
                "notrpc" => {
                    let _ = writeln!(out, "{{\"hello\": \"world\"}}");
                    let _ = out.flush();
                    continue;
                }
                _ => serde_json::json!({ "tools": [] }),
            },
            "skills/list" if mode == "rawskills" => raw_skills(),
            "resources/read" if mode == "rawskills" => {
                let uri = msg["params"]["uri"].as_str().unwrap_or_default();
                let text = RAW_FILES
                    .iter()
                    .find(|(u, _)| *u == uri)
                    .map_or("", |(_, t)| t);
                serde_json::json!({ "contents": [{"uri": uri, "text": text}] })
            }
            "ping" => serde_json::json!({}),
            _ => {
                let e = serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "method not found"}});
                let _ = writeln!(out, "{e}");
                let _ = out.flush();
                continue;
            }
        };
        let reply = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result});
        let _ = writeln!(out, "{reply}");
        let _ = out.flush();
    }
}
