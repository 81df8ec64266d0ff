//! One forwarded call as a conform transcript (docs/conform.md, execution-apis' `.io` lines):
//! `// ` notes, `>> ` what was sent, `<< ` what the plant answered, one message a line, so a
//! call made at the page can be pasted into a replay file.

/// The lines of one HTTP exchange: a note for a status that is not 200, then the request and
/// the answer (or a note that none came).
pub(crate) fn http_exchange(request: &str, status: u16, answer: &str) -> String {
    let mut lines = String::from("// transport: http\n");
    lines.push_str(">> ");
    lines.push_str(&one_line(request));
    lines.push('\n');
    if status != 200 {
        lines.push_str(&format!("// http status {status}\n"));
    }
    if answer.trim().is_empty() {
        lines.push_str("// no answer\n");
    } else {
        lines.push_str("<< ");
        lines.push_str(&one_line(answer));
        lines.push('\n');
    }
    lines
}

/// A message on one line: compact JSON when it parses, else its text with line breaks as
/// spaces.
fn one_line(text: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(value) => value.to_string(),
        Err(_) => text.replace(['\r', '\n'], " "),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_exchange_is_one_line_each_way() {
        let lines = super::http_exchange("{\n \"id\": 1\n}", 200, "{\"id\":1,\"result\":2}");
        assert_eq!(lines, "// transport: http\n>> {\"id\":1}\n<< {\"id\":1,\"result\":2}\n");
        let refused = super::http_exchange("{}", 401, "");
        assert_eq!(refused, "// transport: http\n>> {}\n// http status 401\n// no answer\n");
    }
}
