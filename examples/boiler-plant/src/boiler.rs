//! The `boiler` namespace: the trait jsonrpsee serves and accord extracts, and its types.
//!
//! A plain jsonrpsee trait: `namespace = "boiler"` with jsonrpsee's default `_` separator, so
//! the methods are served as `boiler_status`, `boiler_reading`, … and the telemetry
//! subscription as `boiler_subscribeTelemetry` / `boiler_telemetry` /
//! `boiler_unsubscribeTelemetry`. accord extract records that wire in the contract.

use chrono::{DateTime, Utc};
use jsonrpsee::core::{RpcResult, SubscriptionResult};
use jsonrpsee::proc_macros::rpc;
use serde::{Deserialize, Serialize};

/// A transmitter on the boiler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum Sensor {
    /// Steam drum pressure.
    DrumPressure,
    /// Superheated steam temperature at the outlet header.
    SteamTemperature,
    /// Feedwater flow into the drum.
    FeedwaterFlow,
    /// Oxygen in the flue gas, from the zirconia analyser.
    FlueOxygen,
}

/// What the burner management system is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum BurnerState {
    Off,
    Purging,
    Firing,
}

/// A steam temperature setpoint.
///
/// accord: unit = "degC", min = 120, max = 240
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub(crate) struct Temperature(pub(crate) f64);

/// The burner's firing rate, as a share of its rated heat input.
///
/// accord: unit = "percent", min = 10, max = 100
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FiringRate(pub(crate) u8);

/// The whole boiler at one scan.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BoilerStatus {
    pub(crate) burner: BurnerState,
    /// The firing rate in force; 0 when the burner is off.
    ///
    /// accord: unit = "percent", min = 0, max = 100
    pub(crate) firing_rate: u8,
    /// Steam drum pressure.
    ///
    /// accord: unit = "bar"
    pub(crate) drum_pressure: f64,
    pub(crate) setpoint: Temperature,
}

/// One transmitter's value.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Reading {
    pub(crate) sensor: Sensor,
    /// The value in the transmitter's engineering unit (bar, degC, t/h, percent).
    pub(crate) value: f64,
    /// When the transmitter was last scanned.
    pub(crate) measured_at: DateTime<Utc>,
}

/// accord: inline
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct SetpointChange {
    /// The setpoint before the call.
    pub(crate) previous: Temperature,
    /// The setpoint now in force.
    pub(crate) current: Temperature,
}

/// One telemetry frame, sent every 100 ms while subscribed.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Telemetry {
    /// Frames since the plant started.
    pub(crate) seq: u32,
    pub(crate) burner: BurnerState,
    /// Steam drum pressure.
    ///
    /// accord: unit = "bar"
    pub(crate) drum_pressure: f64,
    /// Superheated steam temperature.
    ///
    /// accord: unit = "degC"
    pub(crate) steam_temperature: f64,
}

/// Burner management of the package boiler in the boiler house: status, transmitters, the
/// steam temperature setpoint, firing and stopping the burner, and live telemetry.
///
/// accord: version = "1.0.0"
#[rpc(server, namespace = "boiler")]
pub(crate) trait BoilerApi {
    /// The boiler's state at its last scan.
    ///
    /// accord: semantics = read
    #[method(name = "status")]
    async fn status(&self) -> RpcResult<BoilerStatus>;

    /// The value of one transmitter. The flue gas analyser is out for calibration: asking for
    /// it answers error -32020.
    ///
    /// accord: semantics = read
    #[method(name = "reading")]
    async fn reading(&self, sensor: Sensor) -> RpcResult<Reading>;

    /// Sets the steam temperature setpoint. Sending the same setpoint again changes nothing.
    ///
    /// accord: semantics = idempotent
    #[method(name = "setSetpoint")]
    async fn set_setpoint(&self, temperature: Temperature) -> RpcResult<SetpointChange>;

    /// Fires the burner at a rate (after a purge when it was off), or changes the rate of a
    /// firing burner; `hold` keeps the rate against the steam pressure loop.
    ///
    /// accord: semantics = write
    #[method(name = "fire")]
    async fn fire(&self, rate: FiringRate, hold: Option<bool>) -> RpcResult<BoilerStatus>;

    /// Stops the burner (post-purge, then off). Stopping a stopped burner does nothing.
    ///
    /// accord: semantics = idempotent
    #[method(name = "stop")]
    async fn stop(&self) -> RpcResult<BurnerState>;

    /// A telemetry frame, every 100 ms.
    #[subscription(name = "subscribeTelemetry" => "telemetry", unsubscribe = "unsubscribeTelemetry", item = Telemetry)]
    async fn subscribe_telemetry(&self) -> SubscriptionResult;
}
