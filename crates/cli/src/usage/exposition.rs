//! A reader of the Prometheus and OpenMetrics text exposition formats, for a saved metrics text
//! (`accord usage --metrics FILE`): each sample's name, labels and value. Comments, `# TYPE`,
//! `# HELP` and `# EOF` are skipped; a line that is not a sample is refused with its line number.

/// One sample.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Sample {
    pub(crate) name: String,
    pub(crate) labels: Vec<(String, String)>,
    pub(crate) value: f64,
}

impl Sample {
    /// The value of label `name`, or `""` (an absent label is an empty one, as in Prometheus).
    pub(crate) fn label(&self, name: &str) -> &str {
        self.labels.iter().find(|(n, _)| n == name).map_or("", |(_, v)| v)
    }
}

/// Every sample of `text`.
pub(crate) fn parse(text: &str) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(sample(line).map_err(|why| format!("line {}: {why}", i + 1))?);
    }
    Ok(out)
}

fn sample(line: &str) -> Result<Sample, String> {
    let name_end = line.find(|c: char| c == '{' || c.is_whitespace()).unwrap_or(line.len());
    let name = &line[..name_end];
    if name.is_empty() {
        let start: String = line.chars().take(24).collect();
        return Err(format!("`{start}` does not start with a metric name"));
    }
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
        || name.starts_with(|c: char| c.is_ascii_digit())
    {
        return Err(format!("`{name}` is not a metric name"));
    }
    let mut rest = &line[name_end..];
    let mut labels = Vec::new();
    if let Some(inside) = rest.strip_prefix('{') {
        let mut chars = inside.char_indices().peekable();
        let mut consumed = None;
        loop {
            while chars.peek().is_some_and(|(_, c)| *c == ',' || c.is_whitespace()) {
                chars.next();
            }
            match chars.peek() {
                Some((at, '}')) => {
                    consumed = Some(*at + 1);
                    break;
                }
                None => break,
                _ => {}
            }
            let mut label = String::new();
            while let Some((_, c)) = chars.peek().copied() {
                if c == '=' {
                    break;
                }
                label.push(c);
                chars.next();
            }
            if chars.next().map(|(_, c)| c) != Some('=')
                || chars.next().map(|(_, c)| c) != Some('"')
            {
                return Err(format!("label `{label}` has no quoted value"));
            }
            let mut value = String::new();
            loop {
                match chars.next() {
                    Some((_, '"')) => break,
                    Some((_, '\\')) => match chars.next() {
                        Some((_, 'n')) => value.push('\n'),
                        Some((_, c)) => value.push(c),
                        None => return Err("a label value is not closed".to_owned()),
                    },
                    Some((_, c)) => value.push(c),
                    None => return Err("a label value is not closed".to_owned()),
                }
            }
            labels.push((label.trim().to_owned(), value));
        }
        let Some(consumed) = consumed else { return Err("the labels are not closed".to_owned()) };
        rest = &inside[consumed..];
    }
    // The value, then an optional timestamp (ignored).
    let value = rest.split_whitespace().next().ok_or("no value")?;
    let value = match value {
        "+Inf" => f64::INFINITY,
        "-Inf" => f64::NEG_INFINITY,
        v => v.parse().map_err(|_| format!("`{v}` is not a value"))?,
    };
    Ok(Sample { name: name.to_owned(), labels, value })
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn samples_are_read_and_bad_lines_refused_with_their_line() {
        let text = "# TYPE accord_calls counter\naccord_calls_total{namespace=\"m\",method=\"a\\\"b\",declared_version=\"2.0.0\"} 3\naccord_plant_uptime_seconds 12.5 1700000000\n# EOF\n";
        let samples = parse(text).unwrap();
        assert_eq!(samples.len(), 2);
        assert_eq!(samples[0].label("method"), "a\"b");
        assert_eq!(samples[0].label("nothing"), "");
        assert_eq!(samples[1].value, 12.5);
        assert_eq!(parse("x{a=\"1\"\n").unwrap_err(), "line 1: the labels are not closed");
        assert_eq!(parse("ok 1\n9x 1\n").unwrap_err(), "line 2: `9x` is not a metric name");
        assert_eq!(parse("x{a=1} 1").unwrap_err(), "line 1: label `a` has no quoted value");
        assert_eq!(parse("x one").unwrap_err(), "line 1: `one` is not a value");
    }
}
