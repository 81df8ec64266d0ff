//! The `valve` namespace.

use jsonrpsee::core::{RpcResult, SubscriptionResult};
use jsonrpsee::proc_macros::rpc;
use serde::{Deserialize, Serialize};

use crate::pump::PumpId;

/// The valve's tag: XV for isolation valves, FCV for flow control valves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ValveId(pub(crate) String);

/// accord: inline
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ValveType {
    Isolation,
    Control,
}

/// A valve's position and what it is for.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ValveStatus {
    pub(crate) valve: ValveId,
    /// What the valve is for.
    pub(crate) r#type: ValveType,
    /// Measured opening.
    pub(crate) opening: f64,
    /// Whether the actuator is running.
    pub(crate) moving: bool,
    /// The pump whose suction this valve isolates; null for valves on the header.
    pub(crate) serves_pump: Option<PumpId>,
}

/// accord: inline
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum MoveSource {
    Api,
    Panel,
    Plc,
}

/// accord: inline
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ValveMoved {
    pub(crate) valve: ValveId,
    pub(crate) opening: f64,
    /// How long the movement took.
    pub(crate) travel_time: u32,
    /// Who ordered the movement.
    pub(crate) source: MoveSource,
}

/// Motorised valves: the suction isolation valve of each pump and the header control valve.
///
/// accord: version = "1.2.0"
#[rpc(server, namespace = "valve", namespace_separator = ".")]
pub(crate) trait ValveApi {
    /// The position of a valve as reported by its actuator's feedback potentiometer.
    ///
    /// accord: semantics = read
    #[method(name = "position")]
    async fn position(&self, valve: ValveId) -> RpcResult<ValveStatus>;

    /// Drives a valve to an opening and waits until it gets there or the timeout runs out.
    /// Sending the same target again is harmless.
    ///
    /// accord: semantics = idempotent
    #[method(name = "moveTo")]
    async fn move_to(
        &self,
        valve: ValveId,
        opening: f64,
        timeout: Option<u32>,
    ) -> RpcResult<ValveStatus>;

    /// A valve finished a movement, whoever ordered it (this API, the local panel or the PLC
    /// logic).
    #[subscription(name = "subscribeMoved" => "moved", unsubscribe = "unsubscribeMoved", item = ValveMoved)]
    async fn subscribe_moved(&self) -> SubscriptionResult;
}
