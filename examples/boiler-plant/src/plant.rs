//! The boiler's state and the namespace served over it: an in-memory model of the burner and
//! its transmitters, and the telemetry every subscriber gets.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use chrono::Utc;
use jsonrpsee::core::{RpcResult, SubscriptionResult, async_trait};
use jsonrpsee::types::ErrorObjectOwned;
use jsonrpsee::types::error::INVALID_PARAMS_CODE;
use jsonrpsee::{PendingSubscriptionSink, SubscriptionMessage};

use crate::boiler::{
    BoilerApiServer, BoilerStatus, BurnerState, FiringRate, Reading, Sensor, SetpointChange,
    Telemetry, Temperature,
};

/// The declared error of `boiler.reading` (in the contract by hand: errors are not part of
/// the trait).
const SENSOR_OFFLINE: i32 = -32020;
/// The declared error of `boiler.fire`.
const HOLD_BELOW_LOW_FIRE: i32 = -32021;
/// The lowest rate `hold` may keep.
const LOW_FIRE: u8 = 30;

struct State {
    burner: BurnerState,
    rate: u8,
    setpoint: f64,
}

/// The boiler, shared by every connection.
#[derive(Clone)]
pub(crate) struct Boiler {
    state: Arc<Mutex<State>>,
}

impl Boiler {
    pub(crate) fn new() -> Boiler {
        Boiler {
            state: Arc::new(Mutex::new(State {
                burner: BurnerState::Firing,
                rate: 45,
                setpoint: 180.0,
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A poisoned lock only means a handler panicked; the state itself stays usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn status_of(s: &State) -> BoilerStatus {
        BoilerStatus {
            burner: s.burner,
            firing_rate: s.rate,
            drum_pressure: drum_pressure(s),
            setpoint: Temperature(s.setpoint),
        }
    }
}

fn drum_pressure(s: &State) -> f64 {
    if s.burner == BurnerState::Off { 1.0 } else { 8.0 + f64::from(s.rate) / 20.0 }
}

/// jsonrpsee checks each param's type with serde; the bounds the contract states on top of the
/// types are checked here, and refused with jsonrpsee's own invalid-params code.
fn out_of_range(what: &str, value: f64, min: f64, max: f64) -> Option<ErrorObjectOwned> {
    (!(min..=max).contains(&value)).then(|| {
        ErrorObjectOwned::owned(
            INVALID_PARAMS_CODE,
            "Invalid params",
            Some(format!("{what} {value} is outside {min}..={max}")),
        )
    })
}

#[async_trait]
impl BoilerApiServer for Boiler {
    async fn status(&self) -> RpcResult<BoilerStatus> {
        Ok(Boiler::status_of(&self.lock()))
    }

    async fn reading(&self, sensor: Sensor) -> RpcResult<Reading> {
        let s = self.lock();
        let value = match sensor {
            Sensor::DrumPressure => drum_pressure(&s),
            Sensor::SteamTemperature => s.setpoint - 1.5,
            Sensor::FeedwaterFlow => f64::from(s.rate) * 0.12,
            Sensor::FlueOxygen => {
                return Err(ErrorObjectOwned::owned(
                    SENSOR_OFFLINE,
                    "sensor offline",
                    Some(serde_json::json!({"sensor": "flueOxygen"})),
                ));
            }
        };
        Ok(Reading { sensor, value, measured_at: Utc::now() })
    }

    async fn set_setpoint(&self, temperature: Temperature) -> RpcResult<SetpointChange> {
        if let Some(e) = out_of_range("temperature", temperature.0, 120.0, 240.0) {
            return Err(e);
        }
        let mut s = self.lock();
        let previous = Temperature(s.setpoint);
        s.setpoint = temperature.0;
        Ok(SetpointChange { previous, current: temperature })
    }

    async fn fire(&self, rate: FiringRate, hold: Option<bool>) -> RpcResult<BoilerStatus> {
        if let Some(e) = out_of_range("rate", f64::from(rate.0), 10.0, 100.0) {
            return Err(e);
        }
        if hold == Some(true) && rate.0 < LOW_FIRE {
            return Err(ErrorObjectOwned::owned(
                HOLD_BELOW_LOW_FIRE,
                "hold below low fire",
                Some(serde_json::json!({"lowFire": LOW_FIRE})),
            ));
        }
        let mut s = self.lock();
        s.burner = BurnerState::Firing;
        s.rate = rate.0;
        Ok(Boiler::status_of(&s))
    }

    async fn stop(&self) -> RpcResult<BurnerState> {
        let mut s = self.lock();
        s.burner = BurnerState::Off;
        s.rate = 0;
        Ok(s.burner)
    }

    async fn subscribe_telemetry(&self, pending: PendingSubscriptionSink) -> SubscriptionResult {
        let sink = pending.accept().await?;
        let boiler = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_millis(100));
            for seq in 0.. {
                tick.tick().await;
                let frame = {
                    let s = boiler.lock();
                    Telemetry {
                        seq,
                        burner: s.burner,
                        drum_pressure: drum_pressure(&s),
                        steam_temperature: s.setpoint - 1.5,
                    }
                };
                let Ok(raw) = serde_json::value::to_raw_value(&frame) else { break };
                // An error means the subscriber has gone: the frame has no one to go to.
                if sink.send(SubscriptionMessage::from(raw)).await.is_err() {
                    break;
                }
            }
        });
        Ok(())
    }
}

/// The RPC module of the boiler.
pub(crate) fn module(
    boiler: Boiler,
) -> Result<jsonrpsee::RpcModule<()>, jsonrpsee::core::RegisterMethodError> {
    let mut module = jsonrpsee::RpcModule::new(());
    module.merge(BoilerApiServer::into_rpc(boiler))?;
    Ok(module)
}
