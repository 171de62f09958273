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

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader, DuplexStream};
use tokio::process::{Child, ChildStdin, Command};

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
}
