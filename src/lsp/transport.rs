//! Standard input and output as the protocol's framed JSON-RPC messages, read so that no input
//! stops the server.
//!
//! - A body that is not JSON is answered with a parse error (-32700), JSON that is not a
//!   message (an array, a batch, a request without a method) with an invalid request error
//!   (-32600); both with the request's `id` when there is one to read, else `null`.
//! - A header block without a usable `Content-Length` loses the framing: it is answered with a
//!   parse error and the input is searched for the next `Content-Length:` header.
//! - No body larger than [`MAX_MESSAGE_BYTES`] is read: it is answered with an error and
//!   skipped without being kept. A header line is read up to [`MAX_HEADER_LINE`] bytes.
//! - The server is never more than [`QUEUED`] messages behind the reader, so a client that
//!   sends faster than the library is judged does not fill the memory either.
//!
//! Error replies that no request id can be given to are written here, beside the writer thread,
//! under the lock of standard output, so that two messages never interleave.

use lsp_server::{Connection, ErrorCode, Message};
use serde_json::Value;
use std::io::{self, BufRead, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The largest message body read: the largest file the audit reads. A document larger than that
/// is not judged from its text, so its messages need not be read either.
pub(crate) const MAX_MESSAGE_BYTES: u64 = crate::boundary::MAX_FILE_BYTES;

/// The longest header line kept. Real header lines are under a hundred bytes.
const MAX_HEADER_LINE: usize = 4096;

/// How many messages the reader lets wait for the server before it waits itself.
const QUEUED: usize = 4;

/// What the reader made of the next message.
#[derive(Debug)]
pub(crate) enum Incoming {
    Message(Message),
    /// Not a message the server can take: answered with this error, then the next is read.
    Error {
        id: Value,
        code: i32,
        message: String,
    },
    /// The input ended; why, when it ended inside a message.
    End(Option<String>),
}

fn error(id: Value, code: ErrorCode, message: String) -> Incoming {
    Incoming::Error {
        id,
        code: code as i32,
        message,
    }
}

/// One header line, or its length when it was too long to keep.
enum Line {
    Text(Vec<u8>),
    TooLong,
}

/// What a header block said.
enum Headers {
    Length(u64),
    /// The framing is lost, for this reason.
    Lost(String),
    /// The input ended before a header (true: inside a header block).
    End(bool),
}

/// The messages of a byte stream.
pub(crate) struct Reader<R> {
    input: R,
    /// A header line already read: the one found after the framing was lost.
    pending: Option<Vec<u8>>,
    /// The framing is lost: the next `Content-Length:` is searched for, from these bytes of a
    /// malformed header line on, then in the input.
    lost: Option<Vec<u8>>,
    /// Bytes of a message too large to read, still to be skipped.
    skip: u64,
}

/// The header that starts a message, in lower case. Its first letter occurs only there, so a
/// byte-by-byte search restarts at the byte that broke a partial match or not at all.
const CONTENT_LENGTH: &[u8] = b"content-length:";

impl<R: BufRead> Reader<R> {
    pub(crate) fn new(input: R) -> Self {
        Reader {
            input,
            pending: None,
            lost: None,
            skip: 0,
        }
    }

    /// The next message, or why the next body is not one.
    pub(crate) fn next(&mut self) -> io::Result<Incoming> {
        loop {
            if self.skip > 0 {
                let skipped = io::copy(&mut (&mut self.input).take(self.skip), &mut io::sink())?;
                if skipped < self.skip {
                    return Ok(Incoming::End(Some(
                        "the input ended inside a message too large to read".to_owned(),
                    )));
                }
                self.skip = 0;
            }
            if let Some(start) = self.lost.take()
                && !self.find_header(start)?
            {
                return Ok(Incoming::End(Some(
                    "the input ended while looking for the next message".to_owned(),
                )));
            }
            let len = match self.headers()? {
                Headers::Length(n) => n,
                Headers::Lost(why) => {
                    return Ok(error(
                        Value::Null,
                        ErrorCode::ParseError,
                        format!("{why}; skipped to the next message"),
                    ));
                }
                Headers::End(inside) => {
                    let why = inside.then_some("the input ended inside a message's headers");
                    return Ok(Incoming::End(why.map(str::to_owned)));
                }
            };
            if len > MAX_MESSAGE_BYTES {
                // Answered before it is skipped: the rest of it may be slow to come, or never.
                self.skip = len;
                return Ok(error(
                    Value::Null,
                    ErrorCode::InvalidRequest,
                    format!(
                        "a message of {len} bytes, over the limit of {} MiB: skipped",
                        MAX_MESSAGE_BYTES >> 20
                    ),
                ));
            }
            let mut body = Vec::new();
            (&mut self.input).take(len).read_to_end(&mut body)?;
            if (body.len() as u64) < len {
                return Ok(Incoming::End(Some(
                    "the input ended inside a message".to_owned(),
                )));
            }
            if let Some(incoming) = classify(&body) {
                return Ok(incoming);
            }
        }
    }

    /// A line with its end, `None` at the end of the input.
    fn line(&mut self) -> io::Result<Option<Line>> {
        let mut out = Vec::new();
        let mut too_long = false;
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                return Ok(match (too_long, out.is_empty()) {
                    (true, _) => Some(Line::TooLong),
                    (false, true) => None,
                    (false, false) => Some(Line::Text(out)),
                });
            }
            let (n, done) = match memchr::memchr(b'\n', buf) {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            if !too_long {
                if out.len() + n > MAX_HEADER_LINE {
                    too_long = true;
                    out = Vec::new();
                } else {
                    out.extend_from_slice(&buf[..n]);
                }
            }
            self.input.consume(n);
            if done {
                return Ok(Some(if too_long {
                    Line::TooLong
                } else {
                    Line::Text(out)
                }));
            }
        }
    }

    /// Read a header block: the body's length, or why the framing is lost.
    fn headers(&mut self) -> io::Result<Headers> {
        let mut length: Option<Option<u64>> = None;
        let mut any = false;
        loop {
            let line = match self.pending.take() {
                Some(l) => Line::Text(l),
                None => match self.line()? {
                    Some(l) => l,
                    None => return Ok(Headers::End(any)),
                },
            };
            let Line::Text(line) = line else {
                self.lost = Some(Vec::new());
                return Ok(Headers::Lost(format!(
                    "a header line longer than {MAX_HEADER_LINE} bytes"
                )));
            };
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            if text.is_empty() {
                // Blank lines between messages are tolerated.
                if any {
                    break;
                }
                continue;
            }
            any = true;
            match header(text) {
                Some((name, value)) if name.eq_ignore_ascii_case(b"content-length") => {
                    let value = std::str::from_utf8(value).ok().map(str::trim);
                    length = Some(value.and_then(|v| v.parse::<u64>().ok()));
                }
                Some(_) => {}
                None => {
                    // The search for the next header starts in this very line: a body sent
                    // without headers runs into the next message's `Content-Length`.
                    self.lost = Some(line);
                    return Ok(Headers::Lost("a malformed header line".to_owned()));
                }
            }
        }
        let why = match length {
            Some(Some(n)) => return Ok(Headers::Length(n)),
            Some(None) => "a Content-Length that is not a number",
            None => "a message without a Content-Length",
        };
        self.lost = Some(Vec::new());
        Ok(Headers::Lost(why.to_owned()))
    }

    /// Look for the next `Content-Length:` header in `start`, then in the input; when found, its
    /// line is the next header read. False when the input ends first.
    fn find_header(&mut self, start: Vec<u8>) -> io::Result<bool> {
        if let Some(at) = start
            .windows(CONTENT_LENGTH.len())
            .position(|w| w.eq_ignore_ascii_case(CONTENT_LENGTH))
        {
            self.pending = Some(start[at..].to_vec());
            return Ok(true);
        }
        let mut matched = 0;
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                return Ok(false);
            }
            let mut used = buf.len();
            for (i, b) in buf.iter().enumerate() {
                let b = b.to_ascii_lowercase();
                matched = if b == CONTENT_LENGTH[matched] {
                    matched + 1
                } else {
                    usize::from(b == CONTENT_LENGTH[0])
                };
                if matched == CONTENT_LENGTH.len() {
                    used = i + 1;
                    break;
                }
            }
            self.input.consume(used);
            if matched == CONTENT_LENGTH.len() {
                let mut line = CONTENT_LENGTH.to_vec();
                match self.line()? {
                    Some(Line::Text(rest)) => line.extend(rest),
                    // Not a header after all: go on looking.
                    Some(Line::TooLong) => {
                        matched = 0;
                        continue;
                    }
                    None => return Ok(false),
                }
                self.pending = Some(line);
                return Ok(true);
            }
        }
    }
}

/// A header line's name and value (`Name: value`), `None` when it is not one.
fn header(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let colon = memchr::memchr(b':', line)?;
    let name = &line[..colon];
    // A token: visible characters without separators.
    let token = !name.is_empty()
        && name
            .iter()
            .all(|b| b.is_ascii_graphic() && !b"()<>@,;:\\\"/[]?={}".contains(b));
    token.then(|| (name, &line[colon + 1..]))
}

/// The message a body holds; an error to answer when it is not one; `None` for what is dropped
/// (a response: the server sends no requests).
fn classify(body: &[u8]) -> Option<Incoming> {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            // A body cut short still names its request: answered with that id, the client's
            // request is not left waiting for ever.
            let id = crate::mcp::jsonrpc_id_in(body).unwrap_or(Value::Null);
            return Some(error(
                id,
                ErrorCode::ParseError,
                format!("not a JSON message: {e}"),
            ));
        }
    };
    let invalid = |id: Value, why: &str| {
        Some(error(
            id,
            ErrorCode::InvalidRequest,
            format!("not a JSON-RPC message: {why}"),
        ))
    };
    let map = match value {
        Value::Object(map) => map,
        Value::Array(_) => return invalid(Value::Null, "an array (the protocol has no batches)"),
        _ => return invalid(Value::Null, "not an object"),
    };
    // The id to answer with: a string or an integer, as JSON-RPC 2.0 has them (a fraction is
    // an id that cannot be told, answered with null), else none.
    let id = match map.get("id") {
        Some(id @ Value::String(_)) => id.clone(),
        Some(id @ Value::Number(n)) if n.is_i64() || n.is_u64() => id.clone(),
        _ => Value::Null,
    };
    match map.get("method") {
        Some(Value::String(_)) => {}
        Some(_) => return invalid(id, "its method is not a string"),
        None if map.contains_key("result") || map.contains_key("error") => return None,
        None => return invalid(id, "no method"),
    }
    if map.contains_key("id")
        && serde_json::from_value::<lsp_server::RequestId>(id.clone()).is_err()
    {
        return invalid(id, "its id is not a string or a 32-bit integer");
    }
    match serde_json::from_value::<Message>(Value::Object(map)) {
        Ok(m) => Some(Incoming::Message(m)),
        Err(e) => invalid(id, &e.to_string()),
    }
}

/// Write an error response with the framing of every message.
fn write_error(out: &mut impl Write, id: &Value, code: i32, message: &str) -> io::Result<()> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    })
    .to_string();
    write!(out, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    out.flush()
}

/// The threads behind [`stdio`].
pub(crate) struct Threads {
    writer: std::thread::JoinHandle<io::Result<()>>,
    reader: std::thread::JoinHandle<()>,
}

impl Threads {
    /// Wait until everything the server sent is written. The reader is waited for only when it
    /// is done: after `exit` it reads no more, but a client may keep the input open.
    pub(crate) fn finish(self) -> io::Result<()> {
        let written = self
            .writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the writer thread panicked")));
        if self.reader.is_finished() {
            let _ = self.reader.join();
        }
        written
    }
}

/// A connection over standard input and output, for [`super::run`].
pub(crate) fn stdio() -> io::Result<(Connection, Threads)> {
    let (server, client) = Connection::memory();
    let Connection {
        sender: to_server,
        receiver: from_server,
    } = client;
    let gone = Arc::new(AtomicBool::new(false));
    let writer_gone = gone.clone();
    let writer = std::thread::Builder::new()
        .name("lsp-writer".to_owned())
        .spawn(move || {
            let written = from_server.into_iter().try_for_each(|msg| {
                let mut out = io::stdout().lock();
                msg.write(&mut out)
            });
            // The server dropped its end: it has ended.
            writer_gone.store(true, Ordering::Relaxed);
            written
        })?;
    let reader = std::thread::Builder::new()
        .name("lsp-reader".to_owned())
        .spawn(move || {
            let mut r = Reader::new(io::stdin().lock());
            loop {
                match r.next() {
                    Ok(Incoming::Message(m)) => {
                        let exit = matches!(&m, Message::Notification(n) if n.method == "exit");
                        while to_server.len() >= QUEUED && !gone.load(Ordering::Relaxed) {
                            std::thread::sleep(std::time::Duration::from_millis(1));
                        }
                        // After `exit` nothing is read: the server is ending.
                        if to_server.send(m).is_err() || exit {
                            return;
                        }
                    }
                    Ok(Incoming::Error { id, code, message }) => {
                        say!("skill-audit lsp: {message}");
                        let mut out = io::stdout().lock();
                        if write_error(&mut out, &id, code, &message).is_err() {
                            return;
                        }
                    }
                    Ok(Incoming::End(why)) => {
                        if let Some(why) = why {
                            say!("skill-audit lsp: {why}");
                        }
                        return;
                    }
                    Err(e) => {
                        say!("skill-audit lsp: reading standard input failed: {e}");
                        return;
                    }
                }
            }
        })?;
    Ok((server, Threads { writer, reader }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    /// Everything read from `input`: each message's method, or the error code and id.
    fn read_all(input: &[u8]) -> Vec<String> {
        let mut r = Reader::new(input);
        let mut out = Vec::new();
        loop {
            match r.next().expect("in memory") {
                Incoming::Message(Message::Request(q)) => out.push(q.method),
                Incoming::Message(Message::Notification(n)) => out.push(n.method),
                Incoming::Message(Message::Response(_)) => out.push("response".to_owned()),
                Incoming::Error { id, code, .. } => out.push(format!("{code} {id}")),
                Incoming::End(why) => {
                    out.push(format!("end {}", why.is_some()));
                    return out;
                }
            }
        }
    }

    const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    const NOTE: &str = r#"{"jsonrpc":"2.0","method":"note"}"#;

    #[test]
    fn bodies_that_are_not_messages_are_answered_and_the_next_is_read() {
        let mut input = String::new();
        for body in [
            "not json",
            "[1,2,3]",
            r#"[{"jsonrpc":"2.0","id":2,"method":"a"}]"#,
            "7",
            r#"{"jsonrpc":"2.0","id":3}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":5}"#,
            r#"{"jsonrpc":"2.0","id":5000000000,"method":"big"}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"nullid"}"#,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"half"}"#,
            r#"{"jsonrpc":"2.0","id":9,"result":null}"#,
            PING,
        ] {
            input.push_str(&framed(body));
        }
        assert_eq!(
            read_all(input.as_bytes()),
            [
                "-32700 null",
                "-32600 null",
                "-32600 null",
                "-32600 null",
                "-32600 3",
                "-32600 4",
                "-32600 5000000000",
                "-32600 null",
                "-32600 null",
                "ping",
                "end false"
            ]
        );
        // Not UTF-8: the framing holds, the body is not JSON.
        let mut bytes = b"Content-Length: 4\r\n\r\n\"\xff\xfe\"".to_vec();
        bytes.extend(framed(NOTE).as_bytes());
        assert_eq!(read_all(&bytes), ["-32700 null", "note", "end false"]);
        // Cut short, or broken after its id: answered with that id, when it is one a request
        // may have.
        let mut input = String::new();
        for body in [
            r#"{"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":{"#,
            r#"{"id":"a","method":"x","params":nope}"#,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"#,
            r#"{"jsonrpc":"2.0","method":"x","id":"#,
        ] {
            input.push_str(&framed(body));
        }
        assert_eq!(
            read_all(input.as_bytes()),
            [
                "-32700 5",
                "-32700 \"a\"",
                "-32700 null",
                "-32700 null",
                "end false"
            ]
        );
    }

    #[test]
    fn lost_framing_skips_to_the_next_content_length() {
        // No Content-Length; one that is not a number; a malformed header line; a body sent
        // with no header at all, running into the next message's header.
        let input = format!(
            "Content-Type: x\r\n\r\n{NOTE}{}Content-Length: abc\r\n\r\n{NOTE}{}{NOTE}\r\n{}",
            framed(PING),
            framed(NOTE),
            framed(PING),
        );
        assert_eq!(
            read_all(input.as_bytes()),
            [
                "-32700 null",
                "ping",
                "-32700 null",
                "note",
                "-32700 null",
                "ping",
                "end false"
            ]
        );
        // Headers are matched in any case; blank lines between messages are tolerated.
        let input = format!("\r\ncontent-length: {}\r\n\r\n{PING}", PING.len());
        assert_eq!(read_all(input.as_bytes()), ["ping", "end false"]);
        // Nothing to find: the input ends, with a reason.
        assert_eq!(
            read_all(b"garbage\r\nmore garbage"),
            ["-32700 null", "end true"]
        );
        // A header line too long to keep.
        let input = format!("X: {}\r\n\r\n{}", "y".repeat(10_000), framed(PING));
        assert_eq!(
            read_all(input.as_bytes()),
            ["-32700 null", "ping", "end false"]
        );
    }

    #[test]
    fn a_message_over_the_limit_is_answered_and_skipped_unread() {
        let len = MAX_MESSAGE_BYTES + 1;
        let mut input = format!("Content-Length: {len}\r\n\r\n").into_bytes();
        input.resize(input.len() + len as usize, b'[');
        input.extend(framed(PING).as_bytes());
        assert_eq!(read_all(&input), ["-32600 null", "ping", "end false"]);
        // A length no input will ever hold: answered, then the input ends inside it.
        let input = format!("Content-Length: 99999999999999\r\n\r\n{}", framed(PING));
        assert_eq!(read_all(input.as_bytes()), ["-32600 null", "end true"]);
        // Cut short.
        assert_eq!(read_all(b"Content-Length: 10\r\n\r\n{}"), ["end true"]);
        assert_eq!(read_all(b"Content-Length: 10\r\n"), ["end true"]);
    }

    #[test]
    fn an_error_is_framed_like_every_message() {
        let mut out = Vec::new();
        write_error(&mut out, &Value::Null, -32700, "bad").expect("in memory");
        let body = r#"{"error":{"code":-32700,"message":"bad"},"id":null,"jsonrpc":"2.0"}"#;
        assert_eq!(String::from_utf8(out).expect("UTF-8"), framed(body));
    }
}
