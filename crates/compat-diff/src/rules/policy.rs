//! Policy rules: the contract-version policy.

use super::Level::{None, Policy};
use super::{Advice, Category, Story};

rules! {
    category: Category::Policy;

    VERSION_NOT_BUMPED {
        id: "version-not-bumped",
        subject: "version",
        action: "change",
        input: Policy,
        output: None,
        dual: "",
        witness: false,
        story: Story::Fixed(
            "The contract version is how callers learn what kind of change a release holds, so it must move as far as the worst change requires."
        ),
        advice: Advice::Fixed("bump `version` to at least the least next version named above."),
        purpose: "A namespace's contract version was not bumped as its changes require.",
        doc: "Policy: no reader fails on a version number, so it is its own level, which `--fail-on policy` selects (`--fail-on breaking,policy` gates a release on both). Reported once, under old callers × new plant (output: none): the version belongs to the release, not to one pairing. A breaking change needs a major bump, an additive one a minor bump; in 0.x a breaking change needs a minor bump and an additive one a patch bump.",
    }
}
