//! What the rules that guard compiling find: the parts of a document the validator compiler
//! would refuse. Found once per lint, before any rule runs, because two owners need it: the
//! repair sets each of them aside so that the rules needing validators can still run, and the
//! rule each belongs to reports it (and `no-finite-value` leaves the cycles to `ref-cycle`).
//! The walk stays free of any particular rule; this file is where the repair meets them.

use crate::lint::rules::ref_cycle::{self, Cycle};
use crate::lint::rules::{bad_pattern, dangling_ref, discriminator_invalid};
use crate::lint::walk::Walk;

/// What compiling would refuse, by the rule that reports it.
#[derive(Debug)]
pub(crate) struct Found {
    pub(crate) dangling: Vec<dangling_ref::Dangling>,
    pub(crate) patterns: Vec<bad_pattern::Bad>,
    pub(crate) cycles: Vec<Cycle>,
    pub(crate) discriminators: Vec<discriminator_invalid::Bad>,
}

impl Found {
    /// Runs the four finders over the walked document.
    pub(crate) fn of(walk: &Walk<'_>) -> Found {
        Found {
            dangling: dangling_ref::find(walk),
            patterns: bad_pattern::find(walk),
            cycles: ref_cycle::find(walk),
            discriminators: discriminator_invalid::find(walk),
        }
    }
}
