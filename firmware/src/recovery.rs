//! The I2C bus-recovery sequence on two open-drain lines, without hardware: the
//! firmware's `bus::SensorBus` runs it on PB6/PB7, `firmware/host-check` runs it
//! against a model of a slave holding SDA low.
//!
//! A slave reset or disturbed in the middle of a read can hold SDA low for ever,
//! waiting for clocks. The I2C specification's recovery (UM10204 §3.1.16): clock SCL
//! up to nine times until the slave lets SDA go (it finishes its byte, then sees no
//! acknowledge), then send a STOP (SDA rising while SCL is high) so that every slave
//! is back in its idle state.

/// Two open-drain lines: releasing one lets the pull-up raise it unless a slave holds
/// it low.
pub trait OpenDrainLines {
    /// Releases (`true`) or pulls low SCL, then waits half a clock period.
    fn set_scl(&mut self, released: bool);
    /// Releases (`true`) or pulls low SDA, then waits half a clock period.
    fn set_sda(&mut self, released: bool);
    /// Whether SDA reads high.
    fn sda_is_high(&mut self) -> bool;
}

/// Clocks SCL (both lines released first) up to 9 times until SDA reads high, then
/// sends a STOP: SCL low, SDA low, SCL high, SDA high. Returns whether SDA reads high
/// afterwards (the bus is free).
pub fn free_bus(lines: &mut impl OpenDrainLines) -> bool {
    lines.set_sda(true);
    lines.set_scl(true);
    for _ in 0..9 {
        if lines.sda_is_high() {
            break;
        }
        lines.set_scl(false);
        lines.set_scl(true);
    }
    lines.set_scl(false);
    lines.set_sda(false);
    lines.set_scl(true);
    lines.set_sda(true);
    lines.sda_is_high()
}
