//! Reading engine output line by line without trusting it: lines are capped
//! at [`MAX_LINE`] bytes (the rest is discarded), invalid UTF-8 is replaced,
//! and a read can be abandoned by a timeout without losing buffered bytes.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// Longest line kept, in bytes; longer lines are cut there.
pub const MAX_LINE: usize = 64 * 1024;

/// A line reader whose partial line survives a cancelled `next_line` future.
pub struct LineReader<R> {
    inner: R,
    line: Vec<u8>,
    overflowed: bool,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    /// Wraps a buffered reader.
    pub fn new(inner: R) -> Self {
        LineReader { inner, line: Vec::with_capacity(256), overflowed: false }
    }

    /// The next line without its terminator, or `None` at end of input.
    /// Cancel-safe: bytes read before a cancellation stay buffered.
    ///
    /// # Errors
    ///
    /// The underlying read error (a broken pipe reads as end of input).
    pub async fn next_line(&mut self) -> std::io::Result<Option<String>> {
        loop {
            let available = self.inner.fill_buf().await?;
            if available.is_empty() {
                if self.line.is_empty() && !self.overflowed {
                    return Ok(None);
                }
                return Ok(Some(self.take_line()));
            }
            let (chunk, consumed, complete) = match available.iter().position(|&b| b == b'\n') {
                Some(end) => (&available[..end], end + 1, true),
                None => (available, available.len(), false),
            };
            let room = MAX_LINE.saturating_sub(self.line.len());
            if chunk.len() > room {
                self.overflowed = true;
            }
            self.line.extend_from_slice(&chunk[..chunk.len().min(room)]);
            self.inner.consume(consumed);
            if complete {
                return Ok(Some(self.take_line()));
            }
        }
    }

    fn take_line(&mut self) -> String {
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        let text = String::from_utf8_lossy(&self.line).into_owned();
        self.line.clear();
        self.overflowed = false;
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn read_all(bytes: &[u8]) -> Vec<String> {
        let mut reader = LineReader::new(tokio::io::BufReader::with_capacity(7, bytes));
        let mut lines = Vec::new();
        while let Some(line) = reader.next_line().await.unwrap() {
            lines.push(line);
        }
        lines
    }

    #[tokio::test]
    async fn splits_caps_and_survives_bad_bytes() {
        assert_eq!(read_all(b"uciok\r\nreadyok\nlast").await, ["uciok", "readyok", "last"]);
        assert_eq!(read_all(b"a\xff\xfeb\n").await, ["a\u{fffd}\u{fffd}b"]);
        let mut huge = vec![b'x'; 1 << 20];
        huge.extend_from_slice(b"\nbestmove e2e4\n");
        let lines = read_all(&huge).await;
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].len(), MAX_LINE);
        assert_eq!(lines[1], "bestmove e2e4");
        assert!(read_all(b"").await.is_empty());
    }
}
