//! The `tank` namespace.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use jsonrpsee::core::{RpcResult, SubscriptionResult};
use jsonrpsee::proc_macros::rpc;
use serde::{Deserialize, Serialize};

/// The station's tanks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum TankName {
    Header,
    Buffer,
}

/// One level reading.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TankLevel {
    /// Water volume from the strapping table.
    pub(crate) volume: f64,
    /// Volume as a share of the usable capacity.
    pub(crate) fill: f64,
    /// Water temperature at mid height.
    pub(crate) temperature: f64,
    pub(crate) measured_at: DateTime<Utc>,
}

/// accord: inline
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DrainEstimate {
    /// Estimated time to reach the level at the current outflow.
    pub(crate) expected_duration: u32,
}

/// accord: inline
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum AlarmLimit {
    LowLow,
    Low,
    High,
    HighHigh,
}

/// accord: inline
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct LevelAlarm {
    pub(crate) tank: TankName,
    /// The alarm level crossed; low-low and high-high also trip the pumps through the PLC
    /// interlocks.
    pub(crate) limit: AlarmLimit,
    /// Whether the level was rising when it crossed.
    pub(crate) rising: bool,
    pub(crate) level: TankLevel,
}

/// The header tank and the buffer tank: levels, level history and draining. Still settling:
/// expect breaking changes before 1.0.0.
///
/// accord: version = "0.4.2"
#[rpc(server, namespace = "tank", namespace_separator = ".")]
pub(crate) trait TankApi {
    /// The current level of every tank, by tank name.
    ///
    /// accord: semantics = read
    #[method(name = "levels")]
    async fn levels(&self) -> RpcResult<BTreeMap<String, TankLevel>>;

    /// Level samples of one tank over a time window, from the historian, oldest first.
    ///
    /// accord: semantics = read
    #[method(name = "history")]
    async fn history(
        &self,
        tank: TankName,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        interval: Option<u32>,
    ) -> RpcResult<Vec<(DateTime<Utc>, f64)>>;

    /// Opens the drain valve of a tank until it reaches the given level. The water goes to the
    /// river outfall and is lost to the process.
    ///
    /// accord: semantics = destructive
    #[method(name = "drain")]
    async fn drain(
        &self,
        tank: TankName,
        #[argument(rename = "downTo")] down_to: f64,
    ) -> RpcResult<DrainEstimate>;

    /// A tank crossed one of its alarm levels, rising or falling.
    #[subscription(name = "subscribeLevelAlarm" => "levelAlarm", unsubscribe = "unsubscribeLevelAlarm", item = LevelAlarm)]
    async fn subscribe_level_alarm(&self) -> SubscriptionResult;
}
