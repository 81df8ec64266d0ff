//! The `pump` namespace: the trait jsonrpsee serves and accord extracts, and its types.
// `getSpeed` is deprecated in the contract; the generated server still calls it.
#![allow(deprecated)]

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use jsonrpsee::core::{RpcResult, SubscriptionResult};
use jsonrpsee::proc_macros::rpc;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The pump's tag on the P&ID, e.g. P-101.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct PumpId(pub(crate) String);

/// Shaft speed. The motors are 4-pole at 50 Hz; above 1500 rpm is field weakening, allowed up to
/// 3600 rpm for short periods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Speed(pub(crate) u16);

/// Where a pump is in its start/stop cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum PumpState {
    Stopped,
    Starting,
    Running,
    Stopping,
    Fault,
}

/// The line a pump gets in a list.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct PumpSummary {
    pub(crate) pump: PumpId,
    pub(crate) state: PumpState,
    /// Measured speed.
    pub(crate) speed: Speed,
}

fn not_sent(t: &f64) -> bool {
    t.is_nan()
}

/// The full live state of a pump.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PumpStatus {
    pub(crate) pump: PumpId,
    pub(crate) state: PumpState,
    /// Measured speed, from the encoder.
    pub(crate) speed: Speed,
    /// Gauge pressure at the discharge flange; the casing is rated PN16.
    pub(crate) discharge_pressure: f64,
    /// Gauge pressure at the suction flange; negative under suction lift, never a full vacuum.
    pub(crate) suction_pressure: f64,
    /// Winding temperature from the PT100 in the stator.
    pub(crate) motor_temperature: f64,
    /// Flow through the pump from its magnetic flow meter.
    pub(crate) flow: f64,
    /// Motor load relative to the rated current; the VFD trips before 150.
    pub(crate) load: f64,
    /// Total running time since the counters were last reset.
    pub(crate) runtime: u64,
    /// RMS vibration velocity on the drive-end bearing, by axis.
    pub(crate) vibration: (f64, f64, f64),
    /// The fault that last tripped the pump, or null if it has not tripped since the last reset.
    pub(crate) last_fault: Option<Fault>,
    /// The motor temperature under its 1.x name.
    #[deprecated(
        note = "Use motorTemperature; this copy is only sent to clients built against 1.x and goes away in 3.0.0."
    )]
    #[serde(default, skip_serializing_if = "not_sent")]
    pub(crate) temperature: f64,
}

/// A drive trip.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Fault {
    /// The VFD fault code.
    pub(crate) code: String,
    /// The VFD's own text for the fault.
    pub(crate) message: String,
    /// When the drive tripped.
    pub(crate) at: DateTime<Utc>,
}

/// How a started pump is controlled.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", rename_all_fields = "camelCase")]
pub(crate) enum StartMode {
    /// Run at a fixed speed set by the operator.
    Manual {
        /// The fixed speed to run at.
        rpm: Speed,
    },
    /// Hold a header pressure; the loop sets the speed.
    Pressure {
        /// The header pressure the PID loop holds.
        target_pressure: f64,
    },
    /// Run at a fixed speed until a given time (night-tariff filling).
    Schedule {
        /// When the pump stops by itself.
        until: DateTime<Utc>,
        rpm: Speed,
    },
}

/// Why a pump may not start: the `data` of error -32010 (described in the contract by hand:
/// error data is not part of the trait).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Interlock {
    pub(crate) permissive: &'static str,
    pub(crate) since: DateTime<Utc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) detail: Option<String>,
}

/// accord: inline
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Started {
    /// Identifies this run in the historian.
    pub(crate) run_id: Uuid,
    /// When the start command was latched.
    pub(crate) started_at: DateTime<Utc>,
}

/// accord: inline
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct SpeedChange {
    /// The setpoint before the call.
    pub(crate) previous: Speed,
    /// The setpoint now in force.
    pub(crate) current: Speed,
}

/// accord: inline
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct CounterTotals {
    /// The runtime total before the reset.
    pub(crate) runtime: u64,
    /// The start count before the reset.
    pub(crate) starts: u64,
}

/// accord: inline
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SelfTestReport {
    /// Whether every step passed.
    pub(crate) passed: bool,
    /// Winding-to-earth resistance measured at 500 V.
    pub(crate) insulation_resistance: f64,
    /// How long the test took.
    pub(crate) duration: u32,
}

/// accord: inline
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct StateChange {
    pub(crate) pump: PumpId,
    pub(crate) from: PumpState,
    pub(crate) to: PumpState,
    /// When the VFD reported the transition.
    pub(crate) at: DateTime<Utc>,
}

/// How urgent the alarm is. New severities may be added (the alarm management project wants
/// `emergency`); show unknown ones as critical.
///
/// accord: inline
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Severity {
    Info,
    Warning,
    Critical,
    #[serde(other)]
    Unknown,
}

/// An alarm raised on a pump.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Alarm {
    /// Identifies the alarm in the alarm journal; the acknowledgement refers to it.
    pub(crate) id: Uuid,
    /// The pump the alarm is about.
    pub(crate) pump: PumpId,
    pub(crate) severity: Severity,
    /// Text for the operator, in English.
    pub(crate) message: String,
    /// When the condition was first seen.
    pub(crate) raised_at: DateTime<Utc>,
    /// The readings that crossed their limit, by signal name, in the signal's own unit.
    #[serde(default, skip_serializing_if = "HashMap::is_empty")]
    pub(crate) readings: HashMap<String, f64>,
}

/// Duty pumps: their state, speed control, start and stop, and the runtime counters used for
/// maintenance planning.
///
/// accord: version = "2.4.0"
#[rpc(server, namespace = "pump", namespace_separator = ".")]
pub(crate) trait PumpApi {
    /// Lists every pump the controller drives, with its state, in tag order.
    ///
    /// accord: semantics = read
    #[method(name = "list")]
    async fn list(&self) -> RpcResult<Vec<PumpSummary>>;

    /// The full live status of one pump, as sampled by the VFD on its last scan (every 100 ms).
    ///
    /// accord: semantics = read
    #[method(name = "status")]
    async fn status(&self, pump: PumpId) -> RpcResult<PumpStatus>;

    /// Starts a pump in the given mode. The VFD ramps up over the configured ramp time; the
    /// call answers once the start command is latched, not when the pump reaches speed (watch
    /// stateChanged for that).
    ///
    /// accord: semantics = write, params = by-name
    #[method(name = "start", param_kind = map)]
    async fn start(
        &self,
        pump: PumpId,
        mode: StartMode,
        #[argument(rename = "rampTime")] ramp_time: Option<u32>,
    ) -> RpcResult<Started>;

    /// Changes the speed setpoint of a running pump in manual mode. Sending the same setpoint
    /// again changes nothing.
    ///
    /// accord: semantics = idempotent
    #[method(name = "setSpeed")]
    async fn set_speed(&self, pump: PumpId, rpm: Speed) -> RpcResult<SpeedChange>;

    /// Stops a pump along its ramp-down. Stopping a stopped pump does nothing and succeeds.
    ///
    /// accord: semantics = idempotent
    #[method(name = "stop")]
    async fn stop(&self, pump: PumpId, coast: Option<bool>) -> RpcResult<PumpState>;

    /// Sets the runtime and start counters of a pump back to zero, after a motor or impeller
    /// replacement. The old totals are gone for good; export them from the historian first.
    ///
    /// accord: semantics = destructive
    #[method(name = "resetRuntimeCounters")]
    async fn reset_runtime_counters(
        &self,
        pump: PumpId,
        #[argument(rename = "workOrder")] work_order: String,
    ) -> RpcResult<CounterTotals>;

    /// Runs the VFD self-test: a short jog at low speed and an insulation check. The pump must
    /// be stopped; it turns briefly. The vendor documents neither its effect on the process nor
    /// whether repeating it is safe, so no semantics are declared.
    #[method(name = "runSelfTest")]
    async fn run_self_test(&self, pump: PumpId) -> RpcResult<SelfTestReport>;

    /// The measured speed of one pump.
    ///
    /// accord: semantics = read
    #[deprecated(
        note = "Use pump.status, which reports the speed with the rest of the pump's state in one scan. getSpeed goes away in 3.0.0."
    )]
    #[method(name = "getSpeed")]
    async fn get_speed(&self, pump: PumpId) -> RpcResult<u16>;

    /// A pump moved from one state to another. Sent once per transition, in order per pump.
    #[subscription(name = "subscribeStateChanged" => "stateChanged", unsubscribe = "unsubscribeStateChanged", item = StateChange)]
    async fn subscribe_state_changed(&self) -> SubscriptionResult;

    /// An alarm was raised on a pump. Alarms are not repeated while they stay active.
    #[subscription(name = "subscribeAlarm" => "alarm", unsubscribe = "unsubscribeAlarm", item = Alarm)]
    async fn subscribe_alarm(&self) -> SubscriptionResult;
}
