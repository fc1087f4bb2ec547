//! The stdio framing in front of rmcp: every line the client sends gets a JSON-RPC 2.0
//! answer when it needs one, with an `id`.
//!
//! rmcp 3.9's stdio transport (`AsyncRwTransport`) answers a message it cannot take
//! (an `id` of `true` or `null`, a non-string `method`, array `params`, a batch) with an
//! error frame that has no `id` member, drops unparseable JSON without an answer, and
//! drops a line over its 16 MiB cap with a log line only: a client then waits for its own
//! timeout, and strict clients (the official Python SDK) reject the id-less frame. That
//! is rmcp's behaviour, not navmap's (docs/security.md); this layer meets it without
//! patching rmcp:
//! - [`read_client`] reads stdin line by line with a cap ([`MAX_LINE`]); an oversized
//!   line is discarded as it streams (never buffered) and answered with -32600, the
//!   session goes on;
//! - [`check`] answers what rmcp cannot take: unparseable JSON -32700, a batch or a
//!   malformed message -32600, non-object `params` -32602; `id` is the request's when it
//!   is a valid id, else `null`; everything else passes to rmcp untouched;
//! - [`fix_frame`] adds `"id": null` to any error frame rmcp still writes without one.
//!
//! One writer task owns stdout, so frames from rmcp and from this layer never interleave.

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// The longest line taken (bytes, newline excluded): below rmcp's own 16 MiB cap, so an
/// oversized line is always answered here.
pub const MAX_LINE: usize = 8 * 1024 * 1024;

/// What to do with one line from the client.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Hand it to rmcp.
    Pass,
    /// Answer it with this frame (not passed on).
    Answer(Value),
    /// Drop it (a malformed notification: JSON-RPC answers no notification).
    Drop,
}

fn error(id: Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
}

/// The error frame for a line over [`MAX_LINE`].
pub fn oversized(len: usize) -> Value {
    error(
        Value::Null,
        -32600,
        format!("Invalid Request: message of {len}+ bytes is over the {MAX_LINE}-byte limit"),
    )
}

/// A JSON-RPC id rmcp takes: a string or an integer.
fn valid_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

/// Decides what a complete line (without its newline) needs.
pub fn check(line: &[u8]) -> Verdict {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Verdict::Drop;
    }
    let msg: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => return Verdict::Answer(error(Value::Null, -32700, format!("Parse error: {e}"))),
    };
    let Some(obj) = msg.as_object() else {
        let why = if msg.is_array() {
            "Invalid Request: batches are not supported; send one message per line"
        } else {
            "Invalid Request: a message is a JSON object"
        };
        return Verdict::Answer(error(Value::Null, -32600, why));
    };
    let id = obj.get("id");
    let answer_id = id.filter(|i| valid_id(i)).cloned().unwrap_or(Value::Null);
    let invalid = |why: &str| {
        Verdict::Answer(error(
            answer_id.clone(),
            -32600,
            format!("Invalid Request: {why}"),
        ))
    };
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid("\"jsonrpc\" must be \"2.0\"");
    }
    if let Some(i) = id
        && !valid_id(i)
    {
        return invalid("\"id\" must be a string or an integer");
    }
    match obj.get("method") {
        Some(Value::String(_)) => match obj.get("params") {
            None | Some(Value::Object(_)) => Verdict::Pass,
            Some(_) if id.is_none() => Verdict::Drop,
            Some(_) => Verdict::Answer(error(
                answer_id,
                -32602,
                "Invalid params: \"params\" must be an object",
            )),
        },
        Some(_) if id.is_none() => Verdict::Drop,
        Some(_) => invalid("\"method\" must be a string"),
        // A response to a request of ours (ping): rmcp takes those with an id.
        None if id.is_some() && (obj.contains_key("result") || obj.contains_key("error")) => {
            Verdict::Pass
        }
        None => invalid("no \"method\", and not a response"),
    }
}

/// rmcp's frame with `"id": null` added when it is an error without an `id`.
pub fn fix_frame(line: &[u8]) -> Option<Vec<u8>> {
    // Cheap test first: most frames are results.
    if !line.windows(7).any(|w| w == b"\"error\"") {
        return None;
    }
    let mut v: Value = serde_json::from_slice(line).ok()?;
    let obj = v.as_object_mut()?;
    if obj.contains_key("error") && !obj.contains_key("id") {
        obj.insert("id".into(), Value::Null);
        return serde_json::to_vec(&v).ok();
    }
    None
}

/// One line from the client, or the length of one that was over the cap.
enum Line {
    Whole(Vec<u8>),
    Oversized(usize),
    Eof,
}

async fn read_line<R: AsyncRead + Unpin>(reader: &mut BufReader<R>) -> std::io::Result<Line> {
    let mut buf = Vec::new();
    let mut len = 0usize;
    loop {
        let (used, done) = {
            let available = reader.fill_buf().await?;
            if available.is_empty() {
                return Ok(match (len, buf.is_empty()) {
                    (0, _) => Line::Eof,
                    (n, _) if n > MAX_LINE => Line::Oversized(n),
                    _ => Line::Whole(buf),
                });
            }
            match available.iter().position(|b| *b == b'\n') {
                Some(i) => {
                    len += i;
                    if len <= MAX_LINE {
                        buf.extend_from_slice(&available[..i]);
                    }
                    (i + 1, true)
                }
                None => {
                    len += available.len();
                    if len <= MAX_LINE {
                        buf.extend_from_slice(available);
                    } else {
                        buf = Vec::new(); // never buffer an oversized line
                    }
                    (available.len(), false)
                }
            }
        };
        reader.consume(used);
        if done {
            if len > MAX_LINE {
                return Ok(Line::Oversized(len));
            }
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(Line::Whole(buf));
        }
    }
}

/// Reads the client's lines: what rmcp can take goes to `to_rmcp` (newline-terminated),
/// the answers of this layer to `out`. Returns at EOF (dropping `to_rmcp` ends rmcp's
/// input) or when rmcp stops reading.
pub async fn read_client<R, W>(input: R, mut to_rmcp: W, out: mpsc::UnboundedSender<Vec<u8>>)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut reader = BufReader::with_capacity(64 * 1024, input);
    loop {
        let verdict = match read_line(&mut reader).await {
            Ok(Line::Eof) | Err(_) => break,
            Ok(Line::Oversized(n)) => Verdict::Answer(oversized(n)),
            Ok(Line::Whole(line)) => match check(&line) {
                Verdict::Pass => {
                    let mut framed = line;
                    framed.push(b'\n');
                    if to_rmcp.write_all(&framed).await.is_err() || to_rmcp.flush().await.is_err() {
                        break;
                    }
                    continue;
                }
                other => other,
            },
        };
        if let Verdict::Answer(frame) = verdict {
            tracing::debug!(frame = %frame, "answered a message rmcp cannot take");
            let mut bytes = serde_json::to_vec(&frame).unwrap_or_default();
            bytes.push(b'\n');
            if out.send(bytes).is_err() {
                break;
            }
        }
    }
    let _ = to_rmcp.shutdown().await;
}

/// Passes rmcp's frames to `out`, each error frame with an `id` ([`fix_frame`]).
pub async fn relay_rmcp<R: AsyncRead + Unpin>(from_rmcp: R, out: mpsc::UnboundedSender<Vec<u8>>) {
    let mut lines = BufReader::new(from_rmcp);
    let mut line = Vec::new();
    loop {
        line.clear();
        match lines.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let body = line.strip_suffix(b"\n").unwrap_or(&line);
        let mut frame = fix_frame(body).unwrap_or_else(|| body.to_vec());
        frame.push(b'\n');
        if out.send(frame).is_err() {
            break;
        }
    }
}

/// Writes frames to `sink` in the order they arrive, flushing each; tells `first` once
/// the first one is out (the map's open waits for it: `crate::startup::FirstAnswer`).
pub async fn write_frames<W: AsyncWrite + Unpin>(
    mut sink: W,
    mut frames: mpsc::UnboundedReceiver<Vec<u8>>,
    mut first: Option<std::sync::Arc<crate::startup::FirstAnswer>>,
) {
    while let Some(f) = frames.recv().await {
        if sink.write_all(&f).await.is_err() || sink.flush().await.is_err() {
            break;
        }
        if let Some(first) = first.take() {
            first.written();
        }
    }
    // Nothing was written, and nothing more will be: the open waits no longer.
    if let Some(first) = first {
        first.written();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &str) -> Value {
        match check(line.as_bytes()) {
            Verdict::Answer(v) => v,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn what_rmcp_cannot_take_is_answered_with_an_id() {
        let a = answer("{not json");
        assert_eq!(
            (a["id"].clone(), a["error"]["code"].clone()),
            (Value::Null, json!(-32700))
        );
        for (line, id, code) in [
            (
                r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
                Value::Null,
                -32600,
            ),
            (
                r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
                Value::Null,
                -32600,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
                Value::Null,
                -32600,
            ),
            (
                r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
                Value::Null,
                -32600,
            ),
            (r#"{"jsonrpc":"2.0","id":7,"method":3}"#, json!(7), -32600),
            (
                r#"{"jsonrpc":"2.0","id":"x","method":"ping","params":[1]}"#,
                json!("x"),
                -32602,
            ),
            (
                r#"{"jsonrpc":"1.0","id":8,"method":"ping"}"#,
                json!(8),
                -32600,
            ),
            (
                r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
                Value::Null,
                -32600,
            ),
            (r#"[]"#, Value::Null, -32600),
            (r#"42"#, Value::Null, -32600),
            (r#"{"jsonrpc":"2.0","id":9}"#, json!(9), -32600),
        ] {
            let a = answer(line);
            assert_eq!(a["id"], id, "{line}");
            assert_eq!(a["error"]["code"], code, "{line}");
            assert_eq!(a["jsonrpc"], "2.0");
        }
        for line in [
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
        ] {
            assert_eq!(check(line.as_bytes()), Verdict::Pass, "{line}");
        }
        assert_eq!(
            check(br#"{"jsonrpc":"2.0","method":"x","params":[1]}"#),
            Verdict::Drop
        );
    }

    #[test]
    fn id_less_errors_get_a_null_id() {
        let fixed =
            fix_frame(br#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"x"}}"#).unwrap();
        let v: Value = serde_json::from_slice(&fixed).unwrap();
        assert_eq!(v["id"], Value::Null);
        assert!(v.as_object().unwrap().contains_key("id"));
        assert!(
            fix_frame(br#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}"#).is_none()
        );
        assert!(fix_frame(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#).is_none());
    }

    #[tokio::test]
    async fn an_oversized_line_is_answered_and_the_next_one_passes() {
        let mut input = vec![b'x'; MAX_LINE + 10];
        input.push(b'\n');
        input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
        let (to_rmcp, mut rmcp_side) = tokio::io::duplex(1 << 16);
        let (tx, mut rx) = mpsc::unbounded_channel();
        let reader = tokio::spawn(read_client(std::io::Cursor::new(input), to_rmcp, tx));
        let mut passed = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut rmcp_side, &mut passed)
            .await
            .unwrap();
        reader.await.unwrap();
        assert_eq!(
            passed,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"
        );
        let err: Value = serde_json::from_slice(&rx.recv().await.unwrap()).unwrap();
        assert_eq!(err["id"], Value::Null);
        assert_eq!(err["error"]["code"], -32600);
        assert!(rx.recv().await.is_none());
    }
}
