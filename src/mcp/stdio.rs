//! Starting a stdio server: the child process, and a filter between its standard output and
//! the MCP client.
//!
//! The filter forwards whole lines and checks that each one is JSON. The stdio transport
//! forbids anything else on standard output; a server that prints a banner or a stack trace
//! there would otherwise only be noticed when a request times out. On the first line that is
//! not JSON, or one over the size limit, the filter records why and closes the stream, so the
//! pending request fails at once and the error can say what the server printed.
//!
//! On Unix the server starts in a process group of its own, so that closing the session can
//! stop everything it started: a command run through a wrapper (`npx`, `sh -c`, `uvx`) is a
//! grandchild, which killing the direct child would leave running.
//!
//! The other side is here too: [`Serving`], the transport of `skill-audit mcp` on its own
//! standard input and output, which reads its client's lines with a bound and answers those
//! that are not a message it can take.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::RoleServer;
use rmcp::model::{
    ClientNotification, ClientRequest, GetMeta, JsonRpcMessage, ProtocolVersion, RequestId,
};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use serde::Deserialize;
use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader, DuplexStream};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, oneshot};

/// Largest line accepted from a server's standard output: a resource of
/// [`super::MAX_RESOURCE_BYTES`] plus its JSON escaping fits.
pub(crate) const MAX_LINE_BYTES: usize = 4 * super::MAX_RESOURCE_BYTES;

/// A started server: the process, the ends the client talks through, and what the filter saw.
pub(crate) struct Started {
    pub child: Child,
    pub read: DuplexStream,
    pub write: ChildStdin,
    /// Set when the filter closed the stream because of what the server printed.
    pub fault: Arc<Mutex<Option<String>>>,
    /// The process group the server leads (its process id), on Unix.
    pub group: Option<u32>,
}

/// Start `command` with `args`: no shell, standard error passed through only when `verbose`.
pub(crate) fn start(command: &str, args: &[String], verbose: bool) -> std::io::Result<Started> {
    let mut cmd = Command::new(command);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(if verbose {
            Stdio::inherit()
        } else {
            Stdio::null()
        })
        .kill_on_drop(true);
    #[cfg(unix)]
    cmd.process_group(0);
    let mut child = cmd.spawn()?;
    let group = if cfg!(unix) { child.id() } else { None };
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        return Err(std::io::Error::other(
            "the server's standard streams are missing",
        ));
    };
    let (client_end, filter_end) = tokio::io::duplex(64 * 1024);
    let fault = Arc::new(Mutex::new(None));
    tokio::spawn(filter(stdout, filter_end, Arc::clone(&fault)));
    Ok(Started {
        child,
        read: client_end,
        write: stdin,
        fault,
        group,
    })
}

/// Stop what is left of the process group `group` once its leader is gone: SIGTERM, then
/// SIGKILL for whatever is still there after `grace`. With `grace` zero, SIGKILL at once.
#[cfg(unix)]
pub(crate) async fn stop_group(group: u32, grace: Duration) {
    use rustix::process::{Pid, Signal, getpgrp, kill_process_group, test_kill_process_group};
    let Some(pid) = i32::try_from(group).ok().and_then(Pid::from_raw) else {
        return;
    };
    // Never our own group (or init's): that would stop skill-audit itself.
    if pid == getpgrp() || pid == Pid::INIT {
        return;
    }
    if grace.is_zero() {
        let _ = kill_process_group(pid, Signal::KILL);
        return;
    }
    // An error here is ESRCH: nothing is left in the group.
    if kill_process_group(pid, Signal::TERM).is_err() {
        return;
    }
    let until = tokio::time::Instant::now() + grace;
    while tokio::time::Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(20)).await;
        if test_kill_process_group(pid).is_err() {
            return;
        }
    }
    let _ = kill_process_group(pid, Signal::KILL);
}

#[cfg(not(unix))]
pub(crate) async fn stop_group(_group: u32, _grace: Duration) {}

/// Copy JSON lines from `from` to `to` until the end, a line that is not JSON, or one that is
/// too long.
async fn filter(
    from: impl AsyncRead + Unpin,
    mut to: DuplexStream,
    fault: Arc<Mutex<Option<String>>>,
) {
    let mut reader = BufReader::new(from);
    let mut line = Vec::new();
    loop {
        line.clear();
        match read_line(&mut reader, &mut line).await {
            Ok(Line::Eof) => break,
            Ok(Line::TooLong) => {
                set(
                    &fault,
                    format!(
                        "the server printed a message over {} MiB on standard output",
                        MAX_LINE_BYTES >> 20
                    ),
                );
                break;
            }
            Ok(Line::Complete) => {}
            Err(_) => break,
        }
        let text = line.trim_ascii();
        if text.is_empty() {
            continue;
        }
        if let Some(problem) = not_json_rpc(text) {
            set(
                &fault,
                format!(
                    "the server printed {problem} on standard output: `{}` (a stdio server may write only MCP messages there; logs belong on standard error)",
                    excerpt(text)
                ),
            );
            break;
        }
        if to.write_all(&line).await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}

/// What is wrong with a line that should be a JSON-RPC message (or a batch of them).
fn not_json_rpc(text: &[u8]) -> Option<&'static str> {
    #[derive(serde::Deserialize)]
    struct Envelope {
        jsonrpc: Option<serde_json::Value>,
    }
    if text.first() == Some(&b'[') {
        return serde_json::from_slice::<serde::de::IgnoredAny>(text)
            .is_err()
            .then_some("something that is not JSON-RPC");
    }
    match serde_json::from_slice::<Envelope>(text) {
        Err(_) if serde_json::from_slice::<serde::de::IgnoredAny>(text).is_ok() => {
            Some("JSON that is not a JSON-RPC 2.0 message")
        }
        Err(_) => Some("something that is not JSON-RPC"),
        Ok(e) if e.jsonrpc.as_ref().and_then(|v| v.as_str()) != Some("2.0") => {
            Some("JSON that is not a JSON-RPC 2.0 message")
        }
        Ok(_) => None,
    }
}

enum Line {
    Complete,
    TooLong,
    Eof,
}

/// Read one `\n`-terminated line into `buf` without letting it grow past [`MAX_LINE_BYTES`].
async fn read_line(
    reader: &mut BufReader<impl AsyncRead + Unpin>,
    buf: &mut Vec<u8>,
) -> std::io::Result<Line> {
    loop {
        let chunk = reader.fill_buf().await?;
        if chunk.is_empty() {
            return Ok(if buf.is_empty() {
                Line::Eof
            } else {
                Line::Complete
            });
        }
        let (take, done) = match memchr::memchr(b'\n', chunk) {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if buf.len() + take > MAX_LINE_BYTES {
            return Ok(Line::TooLong);
        }
        buf.extend_from_slice(&chunk[..take]);
        reader.consume(take);
        if done {
            return Ok(Line::Complete);
        }
    }
}

fn set(fault: &Mutex<Option<String>>, message: String) {
    if let Ok(mut f) = fault.lock() {
        f.get_or_insert(message);
    }
}

/// At most 80 characters of what the server printed, with control characters escaped.
pub(crate) fn excerpt(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out: String = text
        .chars()
        .take(80)
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect();
    if text.chars().count() > 80 {
        out.push('…');
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The other side: `skill-audit mcp` serving on its own standard input and output.
//
// rmcp's stdio transport drops a line over its limit without a word, and answers a message it
// cannot read with an error that has no `id` (a batch, a request without `"jsonrpc"`, params
// of the wrong type), so a client waits for an answer that never comes or cannot tell which
// request failed. [`Serving`] reads the lines itself: each is checked before rmcp reads it,
// and what is wrong is answered here with the request's `id` whenever it can be read.

/// The longest line `skill-audit mcp` reads from its client: what it takes of a request body
/// over HTTP, and far above any request it serves (a tool's arguments are at most
/// [`super::server::MAX_ARGUMENT_BYTES`]). A longer line is answered with an error and skipped
/// as it arrives, never kept whole.
pub(crate) const MAX_REQUEST_BYTES: usize = 4 << 20;

/// What a JSON value is, without what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl Kind {
    pub(crate) fn of(v: &serde_json::Value) -> Kind {
        use serde_json::Value as V;
        match v {
            V::Null => Kind::Null,
            V::Bool(_) => Kind::Bool,
            V::Number(_) => Kind::Number,
            V::String(_) => Kind::String,
            V::Array(_) => Kind::Array,
            V::Object(_) => Kind::Object,
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::Null => "null",
            Kind::Bool => "a boolean",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
        })
    }
}

/// The `params` of a request as the server's checks see them: of an object, the members
/// some method of the server takes ([`super::server::takes_member`]), each with its kind.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Params {
    Absent,
    Object(Vec<(String, Kind)>),
    Other(Kind),
}

impl Params {
    pub(crate) fn of(v: Option<&serde_json::Value>) -> Params {
        match v {
            None => Params::Absent,
            Some(serde_json::Value::Object(members)) => Params::Object(
                members
                    .iter()
                    .filter(|(k, _)| super::server::takes_member(k))
                    .map(|(k, v)| (k.clone(), Kind::of(v)))
                    .collect(),
            ),
            Some(v) => Params::Other(Kind::of(v)),
        }
    }

    /// The kind of the member `name`, when it is there.
    pub(crate) fn member(&self, name: &str) -> Option<Kind> {
        match self {
            Params::Object(members) => members.iter().find(|(k, _)| k == name).map(|(_, k)| *k),
            _ => None,
        }
    }
}

/// Checks a request's method and params before rmcp reads it: the error to answer with, or
/// `None` to let rmcp have it.
pub(crate) type Screen = Box<dyn Fn(&str, &Params) -> Option<ErrorData> + Send>;

/// Requests read but not yet answered, at most: past it the client's lines are not read
/// until an answer is written, so a client that stops reading holds the server up, not its
/// memory.
pub(crate) const MAX_IN_FLIGHT: usize = 32;

/// The requests handed to rmcp and not yet answered, each holding one of the slots (a
/// client may give two requests one id: each holds its own).
type InFlight = Arc<Mutex<HashMap<RequestId, Vec<OwnedSemaphorePermit>>>>;

/// A line, and whoever waits for it to be written.
type Outgoing = (Vec<u8>, oneshot::Sender<std::io::Result<()>>);

/// The server's transport on standard input and output: lines read with a bound, checked,
/// and answered here when they are not a message rmcp can take; every line written (rmcp's
/// messages and these answers) goes through one writer, so none is cut into another.
pub(crate) struct Serving<R> {
    read: BufReader<R>,
    /// The line being read, kept across calls: rmcp drops a `receive` that another event
    /// overtook, and the next one goes on with the same line.
    line: Vec<u8>,
    /// Set while the rest of an over-long line is skipped.
    skipping: bool,
    out: mpsc::Sender<Outgoing>,
    /// An answer of this transport's own not yet handed to the writer.
    owed: Option<Vec<u8>>,
    screen: Screen,
    /// Slots for requests in flight ([`MAX_IN_FLIGHT`]).
    slots: Arc<Semaphore>,
    /// A slot taken before the next line is read, kept until a request uses it.
    slot: Option<OwnedSemaphorePermit>,
    in_flight: InFlight,
    /// Set once rmcp has a request that starts the session (`initialize`, or one that
    /// carries the protocol's metadata inline): rmcp ends the session on anything else
    /// before it, so until then this transport answers or drops it.
    started: bool,
}

impl<R: AsyncRead + Unpin + Send> Serving<R> {
    /// Serve on `read` and `write`; the writer runs as a task of the current runtime.
    pub(crate) fn new(
        read: R,
        write: impl tokio::io::AsyncWrite + Unpin + Send + 'static,
        screen: Screen,
    ) -> Serving<R> {
        // A few lines of room: rmcp's sends wait for theirs to be written, as its own stdio
        // transport does; the answers waiting are bounded by the requests in flight.
        let (out, lines) = mpsc::channel(16);
        tokio::spawn(write_lines(lines, write));
        Serving {
            read: BufReader::new(read),
            line: Vec::new(),
            skipping: false,
            out,
            owed: None,
            screen,
            slots: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
            slot: None,
            in_flight: Arc::default(),
            started: false,
        }
    }

    /// What to do with a message rmcp could read: requests take a slot, a cancellation gives
    /// one back, and before the session starts only what rmcp takes then gets through.
    fn admit(&mut self, m: Box<RxJsonRpcMessage<RoleServer>>) -> Outcome {
        if !self.started {
            match before_start(&m) {
                Early::Pass => {}
                Early::Start => self.started = true,
                Early::Drop => return Outcome::Ignore,
                Early::Answer(line) => return Outcome::Answer(line),
            }
        }
        match &*m {
            JsonRpcMessage::Request(r) => {
                if let Some(slot) = self.slot.take() {
                    let mut in_flight = super::server::lock(&self.in_flight);
                    in_flight.entry(r.id.clone()).or_default().push(slot);
                }
            }
            JsonRpcMessage::Notification(n) => {
                // rmcp drops the answer of a cancelled request, so its slot is free now.
                if let ClientNotification::CancelledNotification(c) = &n.notification
                    && let Some(id) = &c.params.request_id
                {
                    release(&self.in_flight, id);
                }
            }
            _ => {}
        }
        Outcome::Message(m)
    }

    /// Read up to the end of the next line into `self.line`. Safe to drop at any await: the
    /// bytes taken from the reader are in `self.line` (or skipped) by then.
    async fn next_line(&mut self) -> Got {
        loop {
            let chunk = match self.read.fill_buf().await {
                Ok(c) => c,
                Err(_) => return Got::End,
            };
            // A last line without its newline is not a whole message, as rmcp has it.
            if chunk.is_empty() {
                return Got::End;
            }
            let newline = memchr::memchr(b'\n', chunk);
            let take = newline.map_or(chunk.len(), |i| i + 1);
            if self.skipping {
                self.skipping = newline.is_none();
                self.read.consume(take);
                continue;
            }
            let limit = MAX_REQUEST_BYTES + usize::from(newline.is_some());
            if self.line.len() + take > limit {
                // What was kept is the line's start, where its `id` is read from.
                self.skipping = newline.is_none();
                self.read.consume(take);
                return Got::TooLong;
            }
            self.line.extend_from_slice(&chunk[..take]);
            self.read.consume(take);
            if newline.is_some() {
                return Got::Line;
            }
        }
    }

    /// Hand the owed answer to the writer and wait until it is written: false when it cannot
    /// be (the client is gone).
    async fn answer(&mut self) -> bool {
        let Ok(permit) = self.out.reserve().await else {
            return false;
        };
        // Only taken once there is room for it: a `receive` dropped while waiting keeps it.
        let Some(line) = self.owed.take() else {
            return true;
        };
        let (done, written) = oneshot::channel();
        permit.send((line, done));
        matches!(written.await, Ok(Ok(())))
    }
}

enum Got {
    Line,
    TooLong,
    End,
}

/// What becomes of one line.
enum Outcome {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    Answer(Vec<u8>),
    Ignore,
}

impl<R: AsyncRead + Unpin + Send> rmcp::transport::Transport<RoleServer> for Serving<R> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let out = self.out.clone();
        let line = serde_json::to_vec(&item);
        let answered = match &item {
            JsonRpcMessage::Response(r) => Some(r.id.clone()),
            JsonRpcMessage::Error(e) => e.id.clone(),
            _ => None,
        };
        let in_flight = Arc::clone(&self.in_flight);
        async move {
            let wrote = write_message(out, line).await;
            // Written or not, the request is done with: its slot is free.
            if let Some(id) = answered {
                release(&in_flight, &id);
            }
            wrote
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if self.owed.is_some() && !self.answer().await {
                return None;
            }
            if self.slot.is_none() {
                self.slot = Some(self.slots.clone().acquire_owned().await.ok()?);
            }
            let outcome = match self.next_line().await {
                Got::End => return None,
                Got::TooLong => Outcome::Answer(error_line(
                    id_in(&self.line),
                    &ErrorData::invalid_request(
                        format!(
                            "the message is longer than {} MiB, more than this server reads of one: it was skipped unread",
                            MAX_REQUEST_BYTES >> 20
                        ),
                        None,
                    ),
                )),
                Got::Line => match judge(&self.line, &self.screen) {
                    Outcome::Message(m) => self.admit(m),
                    other => other,
                },
            };
            // A long line's buffer is not kept for the short ones after it.
            if self.line.capacity() > 64 << 10 {
                self.line = Vec::new();
            } else {
                self.line.clear();
            }
            match outcome {
                Outcome::Message(m) => return Some(*m),
                Outcome::Answer(line) => self.owed = Some(line),
                Outcome::Ignore => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// Free the slot of one request with `id`.
fn release(in_flight: &InFlight, id: &RequestId) {
    let mut in_flight = super::server::lock(in_flight);
    if let Some(slots) = in_flight.get_mut(id) {
        slots.pop();
        if slots.is_empty() {
            in_flight.remove(id);
        }
    }
}

/// Hand a message to the writer and wait until it is written.
async fn write_message(
    out: mpsc::Sender<Outgoing>,
    line: serde_json::Result<Vec<u8>>,
) -> std::io::Result<()> {
    let mut line = line.map_err(std::io::Error::other)?;
    line.push(b'\n');
    let (done, written) = oneshot::channel();
    out.send((line, done)).await.map_err(|_| closed())?;
    written.await.map_err(|_| closed())?
}

/// What becomes of a message that arrives before the session started.
enum Early {
    /// rmcp answers it and goes on waiting (`ping`, `server/discover`).
    Pass,
    /// It starts the session.
    Start,
    /// A notification or a response: MCP lets a server ignore it, and rmcp would end the
    /// session on it.
    Drop,
    Answer(Vec<u8>),
}

/// What to do with `m`, read before the session started.
fn before_start(m: &RxJsonRpcMessage<RoleServer>) -> Early {
    let JsonRpcMessage::Request(r) = m else {
        return Early::Drop;
    };
    let id = serde_json::to_value(&r.id).ok();
    match &r.request {
        ClientRequest::PingRequest(_) | ClientRequest::DiscoverRequest(_) => Early::Pass,
        ClientRequest::InitializeRequest(_) => Early::Start,
        // An `initialize` rmcp could not read comes as a request of its own: say why.
        ClientRequest::CustomRequest(c) if c.method == "initialize" => {
            let why = super::server::typed_problem("initialize", c.params.clone());
            Early::Answer(error_line(id, &ErrorData::invalid_params(why, None)))
        }
        request
            if request
                .get_meta()
                .missing_required_keys(&ProtocolVersion::V_2026_07_28)
                .is_empty() =>
        {
            Early::Start
        }
        _ => Early::Answer(error_line(
            id,
            &ErrorData::invalid_request(
                "send `initialize` first: the session has not started",
                None,
            ),
        )),
    }
}

fn closed() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client closed its end")
}

/// Write each line handed over, in order, until the other end closes or a write fails.
async fn write_lines(
    mut lines: mpsc::Receiver<Outgoing>,
    mut to: impl tokio::io::AsyncWrite + Unpin,
) {
    while let Some((line, done)) = lines.recv().await {
        let wrote = match to.write_all(&line).await {
            Ok(()) => to.flush().await,
            Err(e) => Err(e),
        };
        let failed = wrote.is_err();
        let _ = done.send(wrote);
        if failed {
            break;
        }
    }
}

/// What to do with one line from the client (with its newline).
fn judge(line: &[u8], screen: &Screen) -> Outcome {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    // RFC 8259 lets a parser skip a byte order mark, as rmcp does.
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Outcome::Ignore;
    }
    let answer = |id: Option<Value>, e: ErrorData| Outcome::Answer(error_line(id, &e));
    let invalid =
        |id: Option<Value>, why: String| answer(id, ErrorData::invalid_request(why, None));
    let m = match serde_json::from_slice::<Top>(line) {
        Ok(Top::Object(m)) => m,
        Ok(Top::Other(Kind::Array)) => {
            return invalid(
                None,
                "a batch (an array of messages) is not taken: MCP removed JSON-RPC batching in 2025-06-18; send one message per line".into(),
            );
        }
        Ok(Top::Other(kind)) => {
            return invalid(None, format!("a message is a JSON object, not {kind}"));
        }
        Err(e) => {
            return answer(
                id_in(line),
                ErrorData::parse_error(format!("the line is not JSON: {e}"), None),
            );
        }
    };
    let id = m.id.as_ref().and_then(Scalar::request_id);
    // A response (the server sends no request, but a client may answer anyway) is never
    // answered: two peers answering each other's errors would never stop.
    if m.method.is_none() && m.response {
        return rmcp_reads(line).map_or(Outcome::Ignore, Outcome::Message);
    }
    let method = match &m.method {
        Some(Scalar::Text(method)) => method.as_str(),
        Some(other) => {
            return invalid(
                id,
                format!("`method` must be a string, not {}", other.kind()),
            );
        }
        None => return invalid(id, "the message has no `method`".into()),
    };
    match &m.jsonrpc {
        Some(Scalar::Text(v)) if v == "2.0" => {}
        Some(other) => {
            return invalid(
                id,
                format!("`jsonrpc` must be \"2.0\", not {}", other.shown()),
            );
        }
        None => {
            return invalid(
                id,
                "the message has no `\"jsonrpc\": \"2.0\"`: it is not JSON-RPC 2.0".into(),
            );
        }
    }
    let Some(given) = &m.id else {
        // A notification is never answered, even one whose params are wrong. What has no `id`
        // but is not a request object (no `"jsonrpc": "2.0"`, a `method` that is not a
        // string) was answered above: JSON-RPC 2.0 answers an invalid request, id null.
        if matches!(m.params, Some(Params::Other(_))) {
            return Outcome::Ignore;
        }
        return rmcp_reads(line).map_or(Outcome::Ignore, Outcome::Message);
    };
    if !given.is_request_id() {
        return invalid(
            id,
            format!(
                "the `id` must be a string or an integer, not {}",
                given.shown()
            ),
        );
    }
    if m.response {
        return invalid(id, "a request has no `result` or `error`".into());
    }
    if let Some(e) = screen(method, m.params.as_ref().unwrap_or(&Params::Absent)) {
        return answer(id, e);
    }
    match serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(line) {
        Ok(message) => Outcome::Message(Box::new(message)),
        Err(e) => invalid(id, format!("the request is not one MCP defines: {e}")),
    }
}

/// `line` as rmcp reads it, if it can.
fn rmcp_reads(line: &[u8]) -> Option<Box<RxJsonRpcMessage<RoleServer>>> {
    serde_json::from_slice(line).ok().map(Box::new)
}

/// A JSON-RPC error answer, as a line; `id` null when it cannot be read.
fn error_line(id: Option<Value>, error: &ErrorData) -> Vec<u8> {
    // A struct, for the members in the order every answer has them.
    #[derive(serde::Serialize)]
    struct Answer<'a> {
        jsonrpc: &'static str,
        id: Value,
        error: &'a ErrorData,
    }
    let answer = Answer {
        jsonrpc: "2.0",
        id: id.unwrap_or(Value::Null),
        error,
    };
    // Nothing in it can fail to serialize; were it to, the client still gets an answer.
    let mut line = serde_json::to_vec(&answer).unwrap_or_else(|_| {
        br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}"#
            .to_vec()
    });
    line.push(b'\n');
    line
}

/// The `id` of a message whose line is cut short or is not JSON throughout: read from its
/// start, when it comes before whatever stops the reading there (and is a string or an
/// integer: see [`Scalar::request_id`]).
pub(crate) fn id_in(head: &[u8]) -> Option<Value> {
    let mut found = None;
    let mut de = serde_json::Deserializer::from_slice(head);
    // The reading stops with an error where the line does; what was found before stays.
    let _ = serde::Deserializer::deserialize_map(&mut de, IdFinder(&mut found));
    found
}

struct IdFinder<'a>(&'a mut Option<Value>);

impl<'de> Visitor<'de> for IdFinder<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key == "id" {
                *self.0 = map.next_value::<Scalar>()?.request_id();
                return Ok(());
            }
            map.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
}

/// A message as the checks see it, read without keeping what its params hold.
enum Top {
    Object(Envelope),
    Other(Kind),
}

#[derive(Default)]
struct Envelope {
    jsonrpc: Option<Scalar>,
    id: Option<Scalar>,
    method: Option<Scalar>,
    params: Option<Params>,
    /// It has `result` or `error`.
    response: bool,
}

/// A member whose value matters when it is a string or a number (`jsonrpc`, `id`, `method`).
enum Scalar {
    Text(String),
    Number(serde_json::Number),
    Other(Kind),
}

impl Scalar {
    fn kind(&self) -> Kind {
        match self {
            Scalar::Text(_) => Kind::String,
            Scalar::Number(_) => Kind::Number,
            Scalar::Other(k) => *k,
        }
    }

    /// As an `id` to answer with, whatever else is wrong: one MCP allows
    /// ([`Scalar::is_request_id`]). Any other (`1.5`, `null`) is what is wrong, and JSON-RPC
    /// 2.0 answers a request whose id cannot be told with id null.
    fn request_id(&self) -> Option<Value> {
        match self {
            _ if !self.is_request_id() => None,
            Scalar::Text(s) => Some(Value::String(s.clone())),
            Scalar::Number(n) => Some(Value::Number(n.clone())),
            Scalar::Other(_) => None,
        }
    }

    /// Whether it is an `id` MCP allows: a string or an integer.
    fn is_request_id(&self) -> bool {
        match self {
            Scalar::Text(_) => true,
            Scalar::Number(n) => {
                n.is_i64()
                    || n.as_f64()
                        .is_some_and(|f| f.fract() == 0.0 && f.abs() < 9.2e18)
            }
            Scalar::Other(_) => false,
        }
    }

    /// For a message: the value when it is short, else its kind.
    fn shown(&self) -> String {
        match self {
            Scalar::Text(s) if s.len() <= 40 => format!("{s:?}"),
            Scalar::Number(n) => n.to_string(),
            other => other.kind().to_string(),
        }
    }
}

/// Skip whatever an array or object holds.
fn drain_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

fn drain_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

/// The visitor methods of a value whose scalars are told only by kind, `$wrap` making the
/// visitor's value of a kind.
macro_rules! kinds_of_scalars {
    ($wrap:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok($wrap(Kind::Bool))
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok($wrap(Kind::Number))
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok($wrap(Kind::Number))
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok($wrap(Kind::Number))
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok($wrap(Kind::String))
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($wrap(Kind::Null))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            drain_seq(seq)?;
            Ok($wrap(Kind::Array))
        }
    };
}

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Kind, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Kind;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            kinds_of_scalars!(|k| k);
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Kind, A::Error> {
                drain_map(map)?;
                Ok(Kind::Object)
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Scalar, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_bool<E>(self, _: bool) -> Result<Scalar, E> {
                Ok(Scalar::Other(Kind::Bool))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Scalar, E> {
                Ok(Scalar::Number(n.into()))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Scalar, E> {
                Ok(Scalar::Number(n.into()))
            }
            fn visit_f64<E>(self, n: f64) -> Result<Scalar, E> {
                Ok(serde_json::Number::from_f64(n)
                    .map_or(Scalar::Other(Kind::Number), Scalar::Number))
            }
            fn visit_str<E>(self, s: &str) -> Result<Scalar, E> {
                Ok(Scalar::Text(s.to_owned()))
            }
            fn visit_unit<E>(self) -> Result<Scalar, E> {
                Ok(Scalar::Other(Kind::Null))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Scalar, A::Error> {
                drain_seq(seq)?;
                Ok(Scalar::Other(Kind::Array))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Scalar, A::Error> {
                drain_map(map)?;
                Ok(Scalar::Other(Kind::Object))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Params {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Params, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Params;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            kinds_of_scalars!(Params::Other);
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Params, A::Error> {
                let mut members = Vec::new();
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    let kind = map.next_value::<Kind>()?;
                    // Only what a check looks at is kept: a line of a million members costs
                    // no more than reading it.
                    if super::server::takes_member(&key) {
                        members.push((key.into_owned(), kind));
                    }
                }
                Ok(Params::Object(members))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Top {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Top, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Top;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            kinds_of_scalars!(Top::Other);
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top, A::Error> {
                let mut m = Envelope::default();
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match &*key {
                        "jsonrpc" => m.jsonrpc = Some(map.next_value()?),
                        "id" => m.id = Some(map.next_value()?),
                        "method" => m.method = Some(map.next_value()?),
                        "params" => m.params = Some(map.next_value()?),
                        "result" | "error" => {
                            map.next_value::<IgnoredAny>()?;
                            m.response = true;
                        }
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(Top::Object(m))
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_json_rpc_passes() {
        assert_eq!(
            not_json_rpc(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            None
        );
        assert_eq!(not_json_rpc(br#"[{"jsonrpc":"2.0","method":"x"}]"#), None);
        assert!(not_json_rpc(b"Starting server...").is_some());
        assert!(
            not_json_rpc(br#"{"hello":"world"}"#)
                .unwrap()
                .contains("JSON-RPC 2.0")
        );
        assert!(not_json_rpc(br#"{"jsonrpc":"1.0"}"#).is_some());
        assert!(not_json_rpc(b"42").unwrap().contains("JSON-RPC 2.0"));
    }

    #[test]
    fn the_id_is_read_from_a_lines_start_when_it_comes_first() {
        let head = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"x":"yyyy"#;
        assert_eq!(id_in(head), Some(serde_json::json!(7)));
        assert_eq!(
            id_in(br#"{"id":"a b","method":"#),
            Some(serde_json::json!("a b"))
        );
        // Behind what is cut off, or not a string or number: not read.
        assert_eq!(id_in(br#"{"params":{"x":"yyyy"#), None);
        assert_eq!(id_in(br#"{"id":{"a":1},"method":"ping"}"#), None);
        assert_eq!(id_in(br#"{"id":1.5,"method":"#), None);
        assert_eq!(id_in(b"[1, 2"), None);
        assert_eq!(id_in(b"not json"), None);
    }

    /// The answer to `line`, as JSON; `None` when it is not answered here.
    fn answer(line: &str) -> Option<Value> {
        let screen: Screen =
            Box::new(|method, params| super::super::server::screen(method, params, false));
        match judge(line.as_bytes(), &screen) {
            Outcome::Answer(a) => Some(serde_json::from_slice(&a).expect("JSON")),
            Outcome::Message(_) | Outcome::Ignore => None,
        }
    }

    #[test]
    fn what_is_not_a_request_is_answered_with_its_id_when_it_can_be_read() {
        let code_and_id = |line: &str| {
            let a = answer(line).unwrap_or_else(|| panic!("no answer to {line}"));
            assert!(a.get("id").is_some(), "{a}");
            (a["error"]["code"].as_i64().unwrap_or(0), a["id"].clone())
        };
        let cases = [
            (r#"{"id":5,"method":"ping"}"#, -32600, serde_json::json!(5)),
            (
                r#"{"jsonrpc":"1.0","id":"x","method":"ping"}"#,
                -32600,
                "x".into(),
            ),
            (
                r#"{"jsonrpc":"2.0","id":4,"method":"ping","params":[1]}"#,
                -32602,
                4.into(),
            ),
            (
                r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
                -32600,
                Value::Null,
            ),
            (
                r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
                -32600,
                Value::Null,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
                -32600,
                Value::Null,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1e+23,"method":"ping"}"#,
                -32600,
                Value::Null,
            ),
            (r#"{"jsonrpc":"2.0","method":5}"#, -32600, Value::Null),
            (r#"{"method":"ping"}"#, -32600, Value::Null),
            (
                r#"{"jsonrpc":"2.0","id":3,"method":["ping"]}"#,
                -32600,
                3.into(),
            ),
            (r#"{"jsonrpc":"2.0","id":3}"#, -32600, 3.into()),
            (
                r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
                -32600,
                Value::Null,
            ),
            ("[]", -32600, Value::Null),
            ("42", -32600, Value::Null),
            (r#"{"jsonrpc":"2.0","id":9,"method":"#, -32700, 9.into()),
            ("not json", -32700, Value::Null),
            (
                r#"{"jsonrpc":"2.0","id":2,"method":"x/y","params":"p"}"#,
                -32601,
                2.into(),
            ),
        ];
        for (line, code, id) in cases {
            assert_eq!(code_and_id(line), (code, id), "{line}");
        }
        // Notifications and responses are never answered; good requests go to rmcp.
        for line in [
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/whatever"}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n",
            r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"rule"}}"#,
            "   ",
        ] {
            assert_eq!(answer(line), None, "{line}");
        }
    }
}
