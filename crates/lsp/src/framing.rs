//! LSP base protocol framing: `Content-Length: N\r\n\r\n<N bytes of JSON>`.
//!
//! The reader is deliberately forgiving about what comes *between* frames: some servers
//! (jdtls, misconfigured wrappers) print banners or log lines to stdout. Any line that is
//! not a header is skipped, and a header glued to the end of noise (`noiseContent-Length:`)
//! is still found. It is strict about sizes: no line and no body may exceed a cap, so a
//! server writing garbage cannot make the client allocate without bound.

use std::io;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// The largest body accepted (a references answer on a big tree is a few MB).
pub const MAX_BODY: usize = 64 * 1024 * 1024;
/// Header lines (and noise lines) longer than this are discarded in pieces.
const MAX_LINE: u64 = 8 * 1024;

/// Reads the next frame's body. `Ok(None)` at a clean end of stream.
pub async fn read_frame<R: AsyncBufRead + Unpin>(reader: &mut R) -> io::Result<Option<Vec<u8>>> {
    let mut length: Option<usize> = None;
    let mut line = Vec::with_capacity(64);
    loop {
        line.clear();
        let n = (&mut *reader)
            .take(MAX_LINE)
            .read_until(b'\n', &mut line)
            .await?;
        if n == 0 {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&line);
        let trimmed = text.trim_end_matches(['\r', '\n']);
        if trimmed.is_empty() {
            if let Some(len) = length {
                let mut body = vec![0u8; len];
                reader.read_exact(&mut body).await?;
                return Ok(Some(body));
            }
            continue;
        }
        if let Some(at) = find_ascii_ci(trimmed, "content-length:") {
            if at > 0 {
                tracing::debug!(noise = %&trimmed[..at], "skipped non-protocol output before a header");
            }
            let value = trimmed[at + "content-length:".len()..].trim();
            match value.parse::<usize>() {
                Ok(len) if len <= MAX_BODY => length = Some(len),
                Ok(len) => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("frame of {len} bytes exceeds the {MAX_BODY}-byte cap"),
                    ));
                }
                Err(_) => length = None,
            }
        } else if find_ascii_ci(trimmed, "content-type:") != Some(0) {
            // Noise between frames: drop it, and forget a half-read header block.
            tracing::debug!(noise = %trimmed, "skipped non-protocol output on stdout");
            length = None;
        }
    }
}

fn find_ascii_ci(haystack: &str, needle: &str) -> Option<usize> {
    haystack
        .to_ascii_lowercase()
        .find(needle)
        .filter(|&i| haystack.is_char_boundary(i))
}

/// Writes one frame and flushes it.
pub async fn write_frame<W: AsyncWrite + Unpin>(writer: &mut W, body: &[u8]) -> io::Result<()> {
    let header = format!("Content-Length: {}\r\n\r\n", body.len());
    writer.write_all(header.as_bytes()).await?;
    writer.write_all(body).await?;
    writer.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn frames(input: &[u8]) -> Vec<String> {
        let mut reader = tokio::io::BufReader::new(input);
        let mut out = Vec::new();
        while let Some(body) = read_frame(&mut reader).await.unwrap() {
            out.push(String::from_utf8(body).unwrap());
        }
        out
    }

    #[tokio::test]
    async fn reads_frames_and_skips_noise() {
        let input = b"Starting server v1.2\nContent-Length: 2\r\n\r\n{}garbage line\r\nContent-Type: x\r\nContent-Length: 4\r\n\r\n[12]noiseContent-Length: 1\r\n\r\n7";
        assert_eq!(frames(input).await, vec!["{}", "[12]", "7"]);
    }

    #[tokio::test]
    async fn oversized_noise_lines_are_discarded_in_pieces() {
        let mut input = vec![b'x'; 100_000];
        input.extend_from_slice(b"\nContent-Length: 2\r\n\r\n{}");
        assert_eq!(frames(&input).await, vec!["{}"]);
    }

    #[tokio::test]
    async fn refuses_absurd_lengths() {
        let input = b"Content-Length: 999999999999\r\n\r\n";
        let mut reader = tokio::io::BufReader::new(&input[..]);
        assert!(read_frame(&mut reader).await.is_err());
    }

    #[tokio::test]
    async fn writes_what_it_reads() {
        let mut buf = Vec::new();
        write_frame(&mut buf, r#"{"a":"é"}"#.as_bytes())
            .await
            .unwrap();
        assert_eq!(frames(&buf).await, vec![r#"{"a":"é"}"#]);
    }
}
