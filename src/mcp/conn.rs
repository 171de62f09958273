//! The connection to one server: starting or reaching it, `initialize`, requests with
//! their timeouts and bounds, and what its answers and failures say.

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    ClientCapabilities, ClientConfig, ClientRequest, CustomRequest, Implementation, ServerResult,
};
use rmcp::service::{RoleClient, RunningService, ServiceError, ServiceExt};

use super::{Error, MAX_ITEMS, MAX_PAGES, METHOD_NOT_FOUND, Server, Settings, headers, stdio};

/// The live connection and what is needed to explain a failure.
pub(super) struct Conn {
    pub(super) label: String,
    pub(super) timeout: Duration,
    pub(super) client: Option<RunningService<RoleClient, ClientConfig>>,
    pub(super) child: Option<tokio::process::Child>,
    /// The stdio server's process group (Unix), stopped as a whole when the session ends.
    pub(super) group: Option<u32>,
    pub(super) fault: Arc<Mutex<Option<String>>>,
}

impl Conn {
    pub(super) fn error(&self, request: &str, message: impl Into<String>) -> Error {
        Error {
            server: self.label.clone(),
            request: request.to_owned(),
            message: message.into(),
        }
    }

    /// Why the connection ended, when the server's side explains it: garbage on standard
    /// output, or the process exiting.
    pub(super) fn why_closed(&mut self) -> Option<String> {
        if let Some(f) = self.fault.lock().ok().and_then(|f| f.clone()) {
            return Some(f);
        }
        let child = self.child.as_mut()?;
        match child.try_wait() {
            Ok(Some(status)) => Some(match status.code() {
                Some(code) => format!("the server exited with status {code}"),
                None => format!("the server was stopped ({status})"),
            }),
            _ => None,
        }
    }

    /// Turn a failed request into an error message.
    pub(super) async fn describe(&mut self, e: ServiceError) -> String {
        match e {
            ServiceError::McpError(data) => answered(data.code.0, &data.message),
            ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
                // The process may need a moment to be seen as exited.
                for _ in 0..20 {
                    if let Some(why) = self.why_closed() {
                        return why;
                    }
                    if self.child.is_none() {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(25)).await;
                }
                match e {
                    ServiceError::TransportSend(t) => {
                        let why = tidy(&t);
                        too_large(&why)
                            .unwrap_or_else(|| format!("the request could not be sent: {why}"))
                    }
                    _ => "the connection closed before the answer came".into(),
                }
            }
            other => clip(&other.to_string()),
        }
    }

    /// Send `method` with `params`: the result as JSON, or the server's error answer (its code
    /// and message). Anything else that goes wrong ends the session.
    pub(super) async fn call(
        &mut self,
        method: &str,
        params: Value,
    ) -> Result<Result<Value, Answer>, Error> {
        let Some(client) = self.client.as_ref() else {
            return Err(self.error(method, "not connected"));
        };
        let req = ClientRequest::CustomRequest(CustomRequest::new(method, Some(params)));
        let answer = tokio::time::timeout(self.timeout, client.send_request(req)).await;
        match answer {
            Err(_) => {
                let why = self.why_closed();
                Err(self.error(
                    method,
                    why.unwrap_or_else(|| format!("no answer within {}", secs(self.timeout))),
                ))
            }
            Ok(Err(ServiceError::McpError(data))) => Ok(Err(Answer {
                code: data.code.0,
                message: data.message.to_string(),
            })),
            Ok(Err(e)) => {
                let m = self.describe(e).await;
                Err(self.error(method, m))
            }
            Ok(Ok(result)) => Ok(Ok(result_json(&result))),
        }
    }

    /// Every page of a list (`tools/list`, ...): the items under `key`.
    pub(super) async fn list(&mut self, method: &str, key: &str) -> Result<Vec<Value>, Error> {
        match self.list_if_offered(method, key).await? {
            Some(items) => Ok(items),
            None => Err(self.error(
                method,
                answered(METHOD_NOT_FOUND, "the server does not offer it"),
            )),
        }
    }

    /// Every page of a list, or `None` when the server answers the first page with "method not
    /// found": for lists a server may leave out although it has the capability.
    pub(super) async fn list_if_offered(
        &mut self,
        method: &str,
        key: &str,
    ) -> Result<Option<Vec<Value>>, Error> {
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        let mut seen = std::collections::HashSet::new();
        for page in 1..=MAX_PAGES {
            let params = match &cursor {
                Some(c) => json!({ "cursor": c }),
                None => json!({}),
            };
            let mut result = match self.call(method, params).await? {
                Ok(result) => result,
                Err(a) if page == 1 && a.code == METHOD_NOT_FOUND => return Ok(None),
                Err(a) => return Err(self.error(method, answered(a.code, &a.message))),
            };
            let Some(obj) = result.as_object_mut() else {
                return Err(self.error(
                    method,
                    format!(
                        "page {page}: the result is {}, not an object",
                        kind(&result)
                    ),
                ));
            };
            match obj.remove(key) {
                Some(Value::Array(list)) => {
                    if items.len() + list.len() > MAX_ITEMS {
                        return Err(self.error(
                            method,
                            format!("the server lists more than {} {key}; skill-audit reads at most that many", thousands(MAX_ITEMS)),
                        ));
                    }
                    items.extend(list);
                }
                Some(other) => {
                    return Err(self.error(
                        method,
                        format!("page {page}: `{key}` is {}, not a list", kind(&other)),
                    ));
                }
                None => {
                    return Err(
                        self.error(method, format!("page {page}: the result has no `{key}`"))
                    );
                }
            }
            cursor = match obj.remove("nextCursor") {
                None | Some(Value::Null) => return Ok(Some(items)),
                Some(Value::String(c)) => {
                    if !seen.insert(c.clone()) {
                        return Err(self.error(
                            method,
                            format!("page {page}: the server sent cursor `{}` a second time; the list never ends", clip(&c)),
                        ));
                    }
                    Some(c)
                }
                Some(other) => {
                    return Err(self.error(
                        method,
                        format!(
                            "page {page}: `nextCursor` is {}, not a string",
                            kind(&other)
                        ),
                    ));
                }
            };
        }
        Err(self.error(
            method,
            format!(
                "the list goes on past {} pages; skill-audit reads at most that many",
                thousands(MAX_PAGES)
            ),
        ))
    }

    /// Names (or URIs) of the items of a list: each item must be an object with a string `field`.
    pub(super) async fn names(
        &mut self,
        method: &str,
        key: &str,
        field: &str,
    ) -> Result<Vec<String>, Error> {
        let items = self.list(method, key).await?;
        self.names_of(method, key, field, &items)
    }

    /// The string `field` of each item, sorted and without duplicates.
    pub(super) fn names_of(
        &self,
        method: &str,
        key: &str,
        field: &str,
        items: &[Value],
    ) -> Result<Vec<String>, Error> {
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match item.get(field) {
                Some(Value::String(s)) if !s.is_empty() => out.push(s.clone()),
                Some(other) => {
                    return Err(self.error(
                        method,
                        format!(
                            "item {} of `{key}`: `{field}` is {}, not a non-empty string",
                            i + 1,
                            kind(other)
                        ),
                    ));
                }
                None => {
                    return Err(self.error(
                        method,
                        format!("item {} of `{key}` has no `{field}`", i + 1),
                    ));
                }
            }
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    pub(super) async fn close(&mut self) {
        if let Some(client) = self.client.take() {
            let _ = tokio::time::timeout(Duration::from_secs(2), client.cancel()).await;
        }
        if let Some(mut child) = self.child.take() {
            // Closing stdin asks a stdio server to exit; give it a moment, then stop it.
            let exited = tokio::time::timeout(Duration::from_millis(500), child.wait())
                .await
                .is_ok();
            if exited {
                // A wrapper (`npx`, `sh -c`) may exit and leave what it started running.
                if let Some(group) = self.group {
                    stdio::stop_group(group, Duration::from_millis(500)).await;
                }
            } else {
                if let Some(group) = self.group {
                    stdio::stop_group(group, Duration::ZERO).await;
                }
                let _ = child.start_kill();
                let _ = tokio::time::timeout(Duration::from_secs(1), child.wait()).await;
            }
        }
    }
}

/// Start or reach the server and run `initialize`, all within the timeout.
pub(super) async fn connect(
    conn: &mut Conn,
    server: &Server,
    settings: &Settings,
) -> Result<(), Error> {
    let info = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("skill-audit", env!("CARGO_PKG_VERSION")),
    );
    let started = match server {
        Server::Stdio { command, args } => {
            let s = stdio::start(command, args, settings.verbose).map_err(|e| {
                conn.error(
                    "start",
                    match e.kind() {
                        std::io::ErrorKind::NotFound => {
                            format!("cannot run `{command}`: no such program")
                        }
                        _ => format!("cannot run `{command}`: {e}"),
                    },
                )
            })?;
            conn.child = Some(s.child);
            conn.group = s.group;
            conn.fault = s.fault;
            // rmcp drops a line over its own limit without a word, and the request then
            // waits out the timeout; with the filter's limit as rmcp's, a line too long is
            // caught by the filter, which ends the session saying why.
            let transport =
                rmcp::transport::async_rw::AsyncRwTransport::new_client(s.read, s.write)
                    .with_max_line_length(stdio::MAX_LINE_BYTES);
            tokio::time::timeout(settings.timeout, info.serve(transport)).await
        }
        Server::Http { url, headers } => {
            use rmcp::transport::StreamableHttpClientTransport;
            use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
            // reqwest is built without a crypto provider (Cargo.toml): TLS uses ring's. An
            // error only says one is installed already.
            let _ = rustls::crypto::ring::default_provider().install_default();
            let headers = http_headers(headers).map_err(|m| conn.error("connect", m))?;
            let config = StreamableHttpClientTransportConfig::with_uri(url.clone())
                .custom_headers(headers)
                .max_json_response_size(stdio::MAX_LINE_BYTES)
                .max_sse_event_size(stdio::MAX_LINE_BYTES);
            let transport = StreamableHttpClientTransport::from_config(config);
            tokio::time::timeout(settings.timeout, info.serve(transport)).await
        }
    };
    match started {
        Err(_) => {
            let why = conn.why_closed();
            Err(conn.error(
                "initialize",
                why.unwrap_or_else(|| format!("no answer within {}", secs(settings.timeout))),
            ))
        }
        Ok(Err(e)) => {
            let mut why = None;
            for _ in 0..20 {
                why = conn.why_closed();
                if why.is_some() || conn.child.is_none() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
            Err(conn.error(
                "initialize",
                why.unwrap_or_else(|| {
                    let why = tidy(&e);
                    too_large(&why).unwrap_or(why)
                }),
            ))
        }
        Ok(Ok(client)) => {
            conn.client = Some(client);
            Ok(())
        }
    }
}

/// The `--header` values, expanded, as HTTP headers (marked sensitive, so they are never
/// printed by the HTTP stack).
fn http_headers(
    headers: &[(String, String)],
) -> Result<std::collections::HashMap<http::HeaderName, http::HeaderValue>, String> {
    let mut map = std::collections::HashMap::new();
    for (name, value) in headers::resolve(headers)? {
        let n = http::HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| format!("`{name}` is not a valid HTTP header name"))?;
        let mut v = http::HeaderValue::from_str(&value).map_err(|_| {
            format!("the value of header `{name}` has characters HTTP does not allow")
        })?;
        v.set_sensitive(true);
        map.insert(n, v);
    }
    Ok(map)
}

/// What to say when the HTTP transport refused an answer over its size limit (rmcp's error
/// types are generic over the HTTP client's, so its message is what can be matched).
fn too_large(why: &str) -> Option<String> {
    why.contains("exceeded the maximum size of").then(|| {
        format!(
            "the answer is over {} MiB, more than skill-audit reads",
            stdio::MAX_LINE_BYTES >> 20
        )
    })
}

/// An error answer from the server.
pub(super) struct Answer {
    pub(super) code: i32,
    pub(super) message: String,
}

/// How an error answer reads in a message.
pub(super) fn answered(code: i32, message: &str) -> String {
    format!("the server answered with error {code}: {}", clip(message))
}

/// A result as JSON, whatever type `rmcp` read it into.
pub(super) fn result_json(result: &ServerResult) -> Value {
    serde_json::to_value(result).unwrap_or(Value::Null)
}

/// "a string", "a number", ... for messages about wrong shapes.
pub(super) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

pub(super) fn secs(d: Duration) -> String {
    format!("{}s", d.as_secs_f64())
}

pub(super) use crate::diagnostic::thousands;

/// An error and its causes as one line, without the transport's type names.
pub(super) fn tidy(e: &dyn std::error::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut next: Option<&dyn std::error::Error> = Some(e);
    while let Some(err) = next {
        let text = err.to_string();
        // `Transport [rmcp::transport::...<...>] error: X, when send initialize request`
        let text = match text.find("] error: ") {
            Some(i) => text[i + 9..].to_owned(),
            None => text,
        };
        let text = text
            .rsplit_once(", when ")
            .map_or(text.as_str(), |(a, _)| a)
            .to_owned();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        next = err.source();
    }
    clip(&parts.join(": "))
}

/// At most 300 characters of a message that came from a server.
pub(super) fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(300).collect();
    if s.chars().count() > 300 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_with_separators() {
        assert_eq!(thousands(100_000), "100,000");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(999), "999");
    }
}
