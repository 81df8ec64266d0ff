//! Confirmation before pressing (docs/console.md): what each semantics asks of the person at
//! the page, and the tokens that bind one confirmed call. The page shows the dialog; the
//! console refuses a call that is not a read unless it carries the token of that exact call
//! (method and params), given to the same loaded page (its page-session cookie, src/page.rs):
//! a request that did not load the page can neither obtain nor spend one.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use accord_schema_model::{Semantics, SemanticsClass};
use serde_json::{Value, json};

/// The words of the format's policy for a method without semantics.
pub const UNDECLARED_WORDS: &str = "this method declares no semantics: ask before pressing";

/// How long a confirmation stays good.
const TTL: Duration = Duration::from_secs(300);

/// The most confirmations waiting at once; past it the oldest is dropped.
const MAX_PENDING: usize = 1024;

/// What pressing a method asks first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Confirmation {
    /// `read`: called at once.
    None,
    /// `write` and `idempotent`: asked once, naming the method and its semantics.
    Once,
    /// `destructive`: the method's name typed back.
    TypeName,
    /// No semantics, or one this build does not know: asked with the policy's words.
    Undeclared,
}

/// The confirmation a method of these semantics needs.
pub fn confirmation_of(semantics: Option<&Semantics>) -> Confirmation {
    // The model's one reading of semantics, as conform's and mcp's policies read them.
    match SemanticsClass::of_semantics(semantics) {
        SemanticsClass::Read => Confirmation::None,
        SemanticsClass::Write | SemanticsClass::Idempotent => Confirmation::Once,
        SemanticsClass::Destructive => Confirmation::TypeName,
        SemanticsClass::Undeclared => Confirmation::Undeclared,
    }
}

impl Confirmation {
    /// Its name in the console's API.
    pub fn as_str(self) -> &'static str {
        match self {
            Confirmation::None => "none",
            Confirmation::Once => "once",
            Confirmation::TypeName => "type-name",
            Confirmation::Undeclared => "undeclared",
        }
    }

    /// What the dialog says for the method `qualified` of these semantics.
    pub fn prompt(self, qualified: &str, semantics: Option<&Semantics>) -> String {
        let semantics = semantics.map_or("undeclared", Semantics::as_str);
        match self {
            Confirmation::None => format!("{qualified} is a read: it is called at once"),
            Confirmation::Once => {
                format!("Call {qualified}? Its semantics are `{semantics}`: it changes the plant.")
            }
            Confirmation::TypeName => format!(
                "{qualified} is destructive: it removes or overwrites state on the plant. Type {qualified} to call it."
            ),
            Confirmation::Undeclared => format!("{qualified}: {UNDECLARED_WORDS}."),
        }
    }

    /// The JSON the page is given for a method.
    pub(crate) fn describe(self, qualified: &str, semantics: Option<&Semantics>) -> Value {
        json!({"kind": self.as_str(), "prompt": self.prompt(qualified, semantics)})
    }
}

/// Confirmed calls not yet made, by token.
#[derive(Default)]
pub(crate) struct Pending {
    entries: HashMap<String, Entry>,
}

struct Entry {
    /// The secret of the page it was given to.
    page: String,
    method: String,
    params: Value,
    issued: Instant,
}

/// Why a call's confirmation was not accepted.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// No token came with the call.
    Missing,
    /// The token is unknown, used or expired.
    Unknown,
    /// The token confirms another call.
    OtherCall,
    /// The token was given to another page (or the request carries no page's secret).
    OtherPage,
}

impl Refusal {
    pub(crate) fn reason(&self) -> &'static str {
        match self {
            Refusal::Missing => "this call is not a read and carries no confirmation",
            Refusal::Unknown => "the confirmation is unknown, already used or expired",
            Refusal::OtherCall => {
                "the confirmation was given for another call (method or params differ)"
            }
            Refusal::OtherPage => {
                "the confirmation was given to another page: a confirmation is good only from the console page that asked for it"
            }
        }
    }
}

impl Pending {
    /// A token for one call of `method` with `params` from the page whose secret is `page`,
    /// good once within the TTL; `None` when the OS gives no randomness to make one.
    pub(crate) fn issue(&mut self, page: &str, method: &str, params: Value) -> Option<String> {
        let now = Instant::now();
        self.entries.retain(|_, e| now.duration_since(e.issued) < TTL);
        if self.entries.len() >= MAX_PENDING
            && let Some(oldest) =
                self.entries.iter().min_by_key(|(_, e)| e.issued).map(|(t, _)| t.clone())
        {
            self.entries.remove(&oldest);
        }
        let token = new_token()?;
        self.entries.insert(
            token.clone(),
            Entry { page: page.to_owned(), method: method.to_owned(), params, issued: now },
        );
        Some(token)
    }

    /// Takes the token for the call of `method` with `params` from the page whose secret is
    /// `page`: good when it was issued to that page for exactly this call and is not used or
    /// expired. A token presented for another call or from another page is spent all the
    /// same (it was shown to a script that changed the call, or leaked).
    pub(crate) fn redeem(
        &mut self,
        token: Option<&str>,
        page: Option<&str>,
        method: &str,
        params: &Value,
    ) -> Result<(), Refusal> {
        let token = token.ok_or(Refusal::Missing)?;
        let entry = self.entries.remove(token).ok_or(Refusal::Unknown)?;
        if entry.issued.elapsed() >= TTL {
            return Err(Refusal::Unknown);
        }
        if page != Some(entry.page.as_str()) {
            return Err(Refusal::OtherPage);
        }
        if entry.method != method || &entry.params != params {
            return Err(Refusal::OtherCall);
        }
        Ok(())
    }
}

/// 128 random bits, hex; `None` without the OS's randomness (a counter would make tokens a
/// script could guess without asking for one).
pub(crate) fn new_token() -> Option<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).ok()?;
    Some(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_semantics_asks_what_the_policy_says() {
        assert_eq!(confirmation_of(Some(&Semantics::Read)), Confirmation::None);
        assert_eq!(confirmation_of(Some(&Semantics::Write)), Confirmation::Once);
        assert_eq!(confirmation_of(Some(&Semantics::Idempotent)), Confirmation::Once);
        assert_eq!(confirmation_of(Some(&Semantics::Destructive)), Confirmation::TypeName);
        assert_eq!(confirmation_of(None), Confirmation::Undeclared);
        let unknown = Semantics::Unknown("append".into());
        assert_eq!(confirmation_of(Some(&unknown)), Confirmation::Undeclared);
        assert!(Confirmation::Undeclared.prompt("pump.x", None).contains(UNDECLARED_WORDS));
    }

    #[test]
    fn a_token_confirms_one_exact_call_once() {
        let mut pending = Pending::default();
        let params = json!({"pump": "P-101"});
        let page = Some("page-a");
        let token = pending.issue("page-a", "pump.stop", params.clone()).unwrap();
        assert_eq!(token.len(), 32);
        assert_eq!(pending.redeem(None, page, "pump.stop", &params), Err(Refusal::Missing));
        assert_eq!(
            pending.redeem(Some(&token), page, "pump.stop", &json!({"pump": "P-102"})),
            Err(Refusal::OtherCall)
        );
        // Spent by the attempt on another call.
        assert_eq!(pending.redeem(Some(&token), page, "pump.stop", &params), Err(Refusal::Unknown));
        let token = pending.issue("page-a", "pump.stop", params.clone()).unwrap();
        assert_eq!(
            pending.redeem(Some(&token), page, "pump.start", &params),
            Err(Refusal::OtherCall)
        );
        // From another page, or from no page: refused, and spent.
        for other in [Some("page-b"), None] {
            let token = pending.issue("page-a", "pump.stop", params.clone()).unwrap();
            assert_eq!(
                pending.redeem(Some(&token), other, "pump.stop", &params),
                Err(Refusal::OtherPage)
            );
            assert_eq!(
                pending.redeem(Some(&token), page, "pump.stop", &params),
                Err(Refusal::Unknown)
            );
        }
        let token = pending.issue("page-a", "pump.stop", params.clone()).unwrap();
        assert_eq!(pending.redeem(Some(&token), page, "pump.stop", &params), Ok(()));
        assert_eq!(pending.redeem(Some(&token), page, "pump.stop", &params), Err(Refusal::Unknown));
    }
}
