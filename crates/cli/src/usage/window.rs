//! `--window`: a duration in whole seconds, minutes, hours, days or weeks (`30d`, `12h`, `90s`),
//! the units Prometheus' range selectors take, so the window is the same in the query as here.

/// A window: its text as written and its length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Window {
    /// As the user wrote it (`30d`).
    pub(crate) text: String,
    /// Its length in seconds.
    pub(crate) seconds: u64,
}

/// Reads `30d`, `12h`, `15m`, `90s` or `2w`; refuses anything else with what it takes.
pub(crate) fn parse(text: &str) -> Result<Window, String> {
    let refuse = || {
        format!(
            "--window `{text}` is not a duration: write a whole number and a unit, s, m, h, d or w (`30d`)"
        )
    };
    let unit = text.chars().last().ok_or_else(refuse)?;
    let number = &text[..text.len() - unit.len_utf8()];
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return Err(refuse());
    }
    let n: u64 = number.parse().map_err(|_| refuse())?;
    let per = match unit {
        's' => 1,
        'm' => 60,
        'h' => 3600,
        'd' => 86_400,
        'w' => 604_800,
        _ => return Err(refuse()),
    };
    let seconds = n.checked_mul(per).filter(|&s| s > 0).ok_or_else(refuse)?;
    Ok(Window { text: text.to_owned(), seconds })
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn windows_are_whole_units() {
        assert_eq!(parse("30d").unwrap().seconds, 2_592_000);
        assert_eq!(parse("90s").unwrap().seconds, 90);
        assert_eq!(parse("2w").unwrap().seconds, 1_209_600);
        for bad in ["", "d", "30", "1.5d", "-1d", "0s", "30 d", "30D", "99999999999999999999w"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
