//! The crate's millisecond clock: time elapsed on a wrapping `u32` tick counter
//! ([`elapsed_ms`]) and the rule for a wait that guards a mechanism ([`waited_ms`]).
//!
//! A tick counter read at tick `since` may have been read anywhere in that
//! millisecond, and one read at tick `now` anywhere in its own: `now - since`
//! ticks mean more than `now - since - 1` real milliseconds, and no more is sure.
//! A wait counted as `now - since >= ms` can therefore end almost a millisecond
//! short of `ms` (on the STM32's 8 MHz fallback clock the magnet switched on
//! before the lift was down, and every pick-up missed). A wait that must last
//! at least `ms` real milliseconds (the lift, the magnet, a sensor's warm-up and
//! integration, a button's debounce) lasts one tick more: [`wait_ticks`].

/// Milliseconds elapsed from `since` to `now` on a wrapping `u32` millisecond clock.
#[inline]
pub const fn elapsed_ms(now: u32, since: u32) -> u32 {
    now.wrapping_sub(since)
}

/// The ticks a wait of at least `ms` real milliseconds counts on a millisecond
/// tick counter, whatever the phase it began and ends in: `ms + 1`, and none for
/// no wait. Also what such a wait adds to an estimate in ticks.
#[inline]
pub const fn wait_ticks(ms: u32) -> u32 {
    if ms == 0 {
        0
    } else {
        ms.saturating_add(1)
    }
}

/// Whether a wait of at least `ms` real milliseconds begun at tick `since` is over
/// at tick `now` (see [`wait_ticks`]).
#[inline]
pub const fn waited_ms(now: u32, since: u32, ms: u32) -> bool {
    elapsed_ms(now, since) >= wait_ticks(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tick counter read at real time `us` microseconds (ticks at every whole ms).
    fn tick(us: u64) -> u32 {
        (us / 1000) as u32
    }

    /// Every wait of 1..=5 ms, begun at every phase of a tick and polled at every
    /// 10 µs after: the first poll that finds it over is at least `ms` real ms on.
    #[test]
    fn a_wait_lasts_at_least_its_length_whatever_the_phase() {
        for ms in 1..=5u32 {
            for start_us in (0..1000).step_by(10) {
                let since = tick(start_us);
                let end_us = (start_us..)
                    .step_by(10)
                    .find(|&t| waited_ms(tick(t), since, ms))
                    .unwrap();
                let real = end_us - start_us;
                assert!(
                    real >= u64::from(ms) * 1000,
                    "a {ms} ms wait begun at {start_us} µs ended after {real} µs"
                );
                // And at most a tick more than needed.
                assert!(real <= u64::from(ms + 1) * 1000, "{ms} ms: {real} µs");
            }
        }
    }

    #[test]
    fn no_wait_is_over_at_once() {
        assert!(waited_ms(7, 7, 0));
        assert_eq!(wait_ticks(0), 0);
    }

    #[test]
    fn waits_across_the_counter_wrap() {
        let since = u32::MAX - 1;
        assert!(!waited_ms(since.wrapping_add(250), since, 250));
        assert!(waited_ms(since.wrapping_add(251), since, 250));
        assert_eq!(wait_ticks(u32::MAX), u32::MAX);
    }
}
