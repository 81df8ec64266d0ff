//! The station's state and the three namespaces served over it: an in-memory model of the
//! pumps, valves and tanks, with events broadcast to subscribers.
// `getSpeed` and `temperature` are deprecated in the contract; the plant still serves them.
#![allow(deprecated)]

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use chrono::{DateTime, Utc};
use jsonrpsee::core::{RpcResult, SubscriptionResult, async_trait};
use jsonrpsee::types::ErrorObjectOwned;
use jsonrpsee::{PendingSubscriptionSink, SubscriptionMessage};
use serde::Serialize;
use tokio::sync::broadcast;
use uuid::Uuid;

use crate::pump::{
    Alarm, CounterTotals, Interlock, PumpApiServer, PumpId, PumpState, PumpStatus, PumpSummary,
    SelfTestReport, Speed, SpeedChange, StartMode, Started, StateChange,
};
use crate::tank::{DrainEstimate, LevelAlarm, TankApiServer, TankLevel, TankName};
use crate::valve::{MoveSource, ValveApiServer, ValveId, ValveMoved, ValveStatus, ValveType};

struct Pump {
    state: PumpState,
    setpoint: u16,
    manual: bool,
    runtime: u64,
    starts: u64,
}

struct Valve {
    kind: ValveType,
    opening: f64,
    serves: Option<PumpId>,
}

struct State {
    pumps: BTreeMap<String, Pump>,
    valves: BTreeMap<String, Valve>,
    tanks: BTreeMap<TankName, TankLevel>,
}

/// The station: shared by the three namespaces.
#[derive(Clone)]
pub(crate) struct Station {
    state: Arc<Mutex<State>>,
    /// The contract's keeper: events are emitted through it, checked, to `rpc.subscribe`rs.
    plant: Arc<accord_plant::Plant>,
    state_changed: broadcast::Sender<StateChange>,
    alarms: broadcast::Sender<Alarm>,
    moved: broadcast::Sender<ValveMoved>,
    level_alarms: broadcast::Sender<LevelAlarm>,
}

fn error(code: i32, message: &str, data: Option<serde_json::Value>) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(code, message, data)
}

impl Station {
    pub(crate) fn new(plant: Arc<accord_plant::Plant>) -> Station {
        let pump = |state, setpoint| Pump {
            state,
            setpoint,
            manual: true,
            runtime: 9_051_200,
            starts: 1312,
        };
        let pumps = BTreeMap::from([
            ("P-101".to_owned(), pump(PumpState::Running, 1480)),
            ("P-102".to_owned(), pump(PumpState::Running, 1475)),
            ("P-103".to_owned(), pump(PumpState::Stopped, 0)),
        ]);
        let mut valves = BTreeMap::new();
        for n in ["101", "102", "103"] {
            valves.insert(
                format!("XV-{n}"),
                Valve {
                    kind: ValveType::Isolation,
                    opening: 100.0,
                    serves: Some(PumpId(format!("P-{n}"))),
                },
            );
        }
        valves.insert(
            "FCV-200".to_owned(),
            Valve { kind: ValveType::Control, opening: 42.5, serves: None },
        );
        let now = Utc::now();
        let tanks = BTreeMap::from([
            (
                TankName::Header,
                TankLevel { volume: 182_000.0, fill: 72.8, temperature: 11.4, measured_at: now },
            ),
            (
                TankName::Buffer,
                TankLevel { volume: 40_500.5, fill: 33.75, temperature: 12.0, measured_at: now },
            ),
        ]);
        Station {
            state: Arc::new(Mutex::new(State { pumps, valves, tanks })),
            plant,
            state_changed: broadcast::channel(64).0,
            alarms: broadcast::channel(64).0,
            moved: broadcast::channel(64).0,
            level_alarms: broadcast::channel(64).0,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A poisoned lock only means a handler panicked; the state itself stays usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn with_pump<T>(&self, id: &PumpId, f: impl FnOnce(&mut Pump) -> RpcResult<T>) -> RpcResult<T> {
        let mut state = self.lock();
        match state.pumps.get_mut(&id.0) {
            Some(p) => f(p),
            None => Err(error(-32004, "unknown pump", Some(serde_json::json!({"pump": id.0})))),
        }
    }

    fn transition(&self, pump: &PumpId, from: PumpState, to: PumpState) {
        if from != to {
            let change = StateChange { pump: pump.clone(), from, to, at: Utc::now() };
            self.emit("pump.stateChanged", &change);
            // No subscriber is not an error.
            let _ = self.state_changed.send(change);
        }
    }

    /// Emits one event to accord's `rpc.subscribe`rs; a payload that breaks the contract is
    /// never sent (accord-plant counts and logs it).
    fn emit(&self, event: &str, payload: &impl Serialize) {
        if let Ok(payload) = serde_json::to_value(payload) {
            let _ = self.plant.emit(event, payload);
        }
    }

    fn valve_status(id: &str, v: &Valve) -> ValveStatus {
        ValveStatus {
            valve: ValveId(id.to_owned()),
            r#type: v.kind,
            opening: v.opening,
            moving: false,
            serves_pump: v.serves.clone(),
        }
    }
}

/// Relays one broadcast channel to one subscriber until either side goes away.
async fn relay<T: Serialize + Clone + Send + 'static>(
    pending: PendingSubscriptionSink,
    rx: broadcast::Receiver<T>,
) -> SubscriptionResult {
    let sink = pending.accept().await?;
    let mut rx = rx;
    tokio::spawn(async move {
        while let Ok(item) = rx.recv().await {
            let Ok(raw) = serde_json::value::to_raw_value(&item) else { break };
            if sink.send(SubscriptionMessage::from(raw)).await.is_err() {
                break;
            }
        }
    });
    Ok(())
}

/// The declared error of a valve tag the station does not have (valve 1.2.0).
fn unknown_valve(valve: &ValveId) -> ErrorObjectOwned {
    error(-32022, "unknown valve", Some(serde_json::json!({"valve": valve.0})))
}

fn speed(p: &Pump) -> Speed {
    Speed(if p.state == PumpState::Running { p.setpoint } else { 0 })
}

#[async_trait]
impl PumpApiServer for Station {
    async fn list(&self) -> RpcResult<Vec<PumpSummary>> {
        let state = self.lock();
        Ok(state
            .pumps
            .iter()
            .map(|(id, p)| PumpSummary {
                pump: PumpId(id.clone()),
                state: p.state,
                speed: speed(p),
            })
            .collect())
    }

    async fn status(&self, pump: PumpId) -> RpcResult<PumpStatus> {
        self.with_pump(&pump, |p| {
            let running = p.state == PumpState::Running;
            Ok(PumpStatus {
                pump: pump.clone(),
                state: p.state,
                speed: speed(p),
                discharge_pressure: if running { 6.2 } else { 0.1 },
                suction_pressure: 0.35,
                motor_temperature: if running { 61.5 } else { 18.0 },
                flow: if running { 2150.0 } else { 0.0 },
                load: if running { 78.5 } else { 0.0 },
                runtime: p.runtime,
                vibration: if running { (1.2, 0.9, 2.4) } else { (0.0, 0.0, 0.1) },
                last_fault: None,
                temperature: f64::NAN,
            })
        })
    }

    async fn start(
        &self,
        pump: PumpId,
        mode: StartMode,
        ramp_time: Option<u32>,
    ) -> RpcResult<Started> {
        let ramp = ramp_time.unwrap_or(30);
        if !(5..=600).contains(&ramp) {
            return Err(error(-32602, "rampTime must lie in 5..=600 s", None));
        }
        let suction_closed =
            self.lock().valves.get(&pump.0.replace("P-", "XV-")).is_some_and(|v| v.opening == 0.0);
        let from = self.with_pump(&pump, |p| {
            if matches!(p.state, PumpState::Starting | PumpState::Running) {
                return Err(error(-32012, "pump already running", None));
            }
            if suction_closed {
                let data = Interlock {
                    permissive: "suction-valve-closed",
                    since: Utc::now(),
                    detail: None,
                };
                return Err(error(-32010, "pump interlocked", serde_json::to_value(data).ok()));
            }
            let from = p.state;
            p.state = PumpState::Running;
            p.starts += 1;
            match mode {
                StartMode::Manual { rpm } | StartMode::Schedule { rpm, .. } => {
                    p.setpoint = rpm.0;
                    p.manual = matches!(mode, StartMode::Manual { .. });
                }
                StartMode::Pressure { .. } => {
                    p.setpoint = 1450;
                    p.manual = false;
                }
            }
            Ok(from)
        })?;
        self.transition(&pump, from, PumpState::Running);
        Ok(Started { run_id: Uuid::new_v4(), started_at: Utc::now() })
    }

    async fn set_speed(&self, pump: PumpId, rpm: Speed) -> RpcResult<SpeedChange> {
        self.with_pump(&pump, |p| {
            if !p.manual {
                return Err(error(-32013, "pump not in manual mode", None));
            }
            if rpm.0 > 3600 {
                return Err(error(
                    -32011,
                    "speed out of range",
                    Some(serde_json::json!({"requested": rpm.0, "min": 0, "max": 3600})),
                ));
            }
            let previous = Speed(p.setpoint);
            p.setpoint = rpm.0;
            Ok(SpeedChange { previous, current: rpm })
        })
    }

    async fn stop(&self, pump: PumpId, _coast: Option<bool>) -> RpcResult<PumpState> {
        let from = self.with_pump(&pump, |p| {
            let from = p.state;
            p.state = PumpState::Stopped;
            Ok(from)
        })?;
        self.transition(&pump, from, PumpState::Stopped);
        Ok(PumpState::Stopped)
    }

    async fn reset_runtime_counters(
        &self,
        pump: PumpId,
        work_order: String,
    ) -> RpcResult<CounterTotals> {
        let valid = work_order
            .strip_prefix("WO-")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if !valid || work_order.len() > 32 {
            return Err(error(-32602, "workOrder must look like WO-123", None));
        }
        self.with_pump(&pump, |p| {
            let totals = CounterTotals { runtime: p.runtime, starts: p.starts };
            p.runtime = 0;
            p.starts = 0;
            Ok(totals)
        })
    }

    async fn run_self_test(&self, pump: PumpId) -> RpcResult<SelfTestReport> {
        self.with_pump(&pump, |_| {
            Ok(SelfTestReport { passed: true, insulation_resistance: 850.0, duration: 12_450 })
        })
    }

    async fn get_speed(&self, pump: PumpId) -> RpcResult<u16> {
        self.with_pump(&pump, |p| Ok(speed(p).0))
    }

    async fn subscribe_state_changed(
        &self,
        pending: PendingSubscriptionSink,
    ) -> SubscriptionResult {
        relay(pending, self.state_changed.subscribe()).await
    }

    async fn subscribe_alarm(&self, pending: PendingSubscriptionSink) -> SubscriptionResult {
        relay(pending, self.alarms.subscribe()).await
    }
}

#[async_trait]
impl ValveApiServer for Station {
    async fn position(&self, valve: ValveId) -> RpcResult<ValveStatus> {
        let state = self.lock();
        match state.valves.get(&valve.0) {
            Some(v) => Ok(Station::valve_status(&valve.0, v)),
            None => Err(unknown_valve(&valve)),
        }
    }

    async fn move_to(
        &self,
        valve: ValveId,
        opening: f64,
        _timeout: Option<u32>,
    ) -> RpcResult<ValveStatus> {
        let status = {
            let mut state = self.lock();
            let Some(v) = state.valves.get_mut(&valve.0) else {
                return Err(unknown_valve(&valve));
            };
            if v.kind == ValveType::Isolation && opening != 0.0 && opening != 100.0 {
                return Err(error(-32021, "isolation valve takes 0 or 100 only", None));
            }
            v.opening = opening;
            Station::valve_status(&valve.0, v)
        };
        let moved = ValveMoved { valve, opening, travel_time: 0, source: MoveSource::Api };
        self.emit("valve.moved", &moved);
        let _ = self.moved.send(moved);
        Ok(status)
    }

    async fn subscribe_moved(&self, pending: PendingSubscriptionSink) -> SubscriptionResult {
        relay(pending, self.moved.subscribe()).await
    }
}

#[async_trait]
impl TankApiServer for Station {
    async fn levels(&self) -> RpcResult<BTreeMap<String, TankLevel>> {
        let state = self.lock();
        let name = |t: &TankName| match t {
            TankName::Header => "header",
            TankName::Buffer => "buffer",
        };
        Ok(state.tanks.iter().map(|(t, l)| (name(t).to_owned(), l.clone())).collect())
    }

    async fn history(
        &self,
        tank: TankName,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        interval: Option<u32>,
    ) -> RpcResult<Vec<(DateTime<Utc>, f64)>> {
        let interval = i64::from(interval.unwrap_or(60).max(10));
        let samples = (to - from).num_seconds().max(0) / interval;
        if samples > 10_000 {
            return Err(error(
                -32030,
                "window too large",
                Some(serde_json::json!({"samples": samples})),
            ));
        }
        let volume = self.lock().tanks.get(&tank).map_or(0.0, |l| l.volume);
        Ok((0..samples).map(|i| (from + chrono::Duration::seconds(i * interval), volume)).collect())
    }

    async fn drain(&self, tank: TankName, down_to: f64) -> RpcResult<DrainEstimate> {
        let state = self.lock();
        if tank == TankName::Header && state.pumps.values().any(|p| p.state == PumpState::Running) {
            return Err(error(-32031, "pumps running", None));
        }
        let fill = state.tanks.get(&tank).map_or(0.0, |l| l.fill);
        // About 1.9 percent of the tank a minute through the drain valve.
        let seconds = ((fill - down_to).max(0.0) / 1.9 * 60.0).round() as u32;
        Ok(DrainEstimate { expected_duration: seconds })
    }

    async fn subscribe_level_alarm(&self, pending: PendingSubscriptionSink) -> SubscriptionResult {
        relay(pending, self.level_alarms.subscribe()).await
    }
}

/// The three namespaces as one module.
pub(crate) fn module(
    station: Station,
) -> Result<jsonrpsee::RpcModule<()>, jsonrpsee::core::RegisterMethodError> {
    let mut module = jsonrpsee::RpcModule::new(());
    module.merge(PumpApiServer::into_rpc(station.clone()))?;
    module.merge(ValveApiServer::into_rpc(station.clone()))?;
    module.merge(TankApiServer::into_rpc(station))?;
    Ok(module)
}
