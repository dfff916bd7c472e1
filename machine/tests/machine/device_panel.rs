//! Buttons and lights through embedded-hal-mock pins.

use embedded_hal_mock::eh1::digital::{Mock as PinMock, State as S, Transaction as T};
use tictable_machine::panel::{Button, Debouncer, Light, Panel};

#[test]
fn bounces_shorter_than_the_debounce_time_never_count() {
    let mut d = Debouncer::new(10); // raised to the 50 ms minimum
    for t in 0..1000u32 {
        // Toggles every 49 ms from released: never stable for 50.
        let level = (t / 49) % 2 == 1;
        assert_eq!(d.update(level, t), None, "at {t}");
    }
    assert!(!d.level());
}

#[test]
fn one_press_is_reported_once_and_release_is_not_a_press() {
    let mut d = Debouncer::new(50);
    let mut presses = 0;
    for t in 0..400u32 {
        let level = (20..200).contains(&t) && !(20..26).contains(&t) || t == 21;
        if d.update(level, t) == Some(true) {
            presses += 1;
        }
    }
    assert_eq!(presses, 1);
    assert!(!d.level());
}

#[test]
fn the_panel_reads_active_low_buttons_and_writes_lights_only_on_change() {
    // Done pushed at t=1 and held: pressed at t=52, the first tick at least 50 real
    // ms after the push whatever the phase it was seen in; the others stay high.
    let ticks = 53;
    let mut expected_buttons: Vec<Vec<T>> = vec![Vec::new(); 5];
    for t in 0..ticks {
        expected_buttons[0].push(T::get(if t == 0 { S::High } else { S::Low }));
        for b in &mut expected_buttons[1..] {
            b.push(T::get(S::High));
        }
    }
    let buttons: Vec<PinMock> = expected_buttons.iter().map(PinMock::new).collect();
    let mut lights: Vec<PinMock> = (0..7)
        .map(|i| {
            PinMock::new(&match i {
                0 => vec![T::set(S::High), T::set(S::Low)],
                _ => vec![T::set(S::Low)],
            })
        })
        .collect();
    let mut panel = Panel::new(
        [
            buttons[0].clone(),
            buttons[1].clone(),
            buttons[2].clone(),
            buttons[3].clone(),
            buttons[4].clone(),
        ],
        core::array::from_fn(|i| lights[i].clone()),
        50,
    );
    let mut pressed_at = None;
    for t in 0..ticks as u32 {
        let p = panel.poll(t).unwrap();
        if p.contains(Button::Done) {
            pressed_at = Some(t);
        }
        assert!(!p.contains(Button::Start));
    }
    assert_eq!(pressed_at, Some(52));
    panel.show(&[Light::Lamp]).unwrap();
    panel.show(&[Light::Lamp]).unwrap(); // no change: no pin writes
    assert!(panel.is_lit(Light::Lamp));
    panel.set(Light::Lamp, false).unwrap();
    for mut b in buttons {
        b.done();
    }
    for l in &mut lights {
        l.done();
    }
}

#[test]
fn a_light_mask_lights_the_lights_of_its_bits_and_writes_only_changes() {
    for l in Light::ALL {
        assert_eq!(l.bit(), 1 << l.index());
    }
    // Lamp and Error on, the others off; then Lamp off: only its pin is written.
    let mut lights: Vec<PinMock> = (0..7)
        .map(|i| {
            PinMock::new(&match i {
                0 => vec![T::set(S::High), T::set(S::Low)],
                6 => vec![T::set(S::High)],
                _ => vec![T::set(S::Low)],
            })
        })
        .collect();
    let buttons: [PinMock; 5] = core::array::from_fn(|_| PinMock::new(&[]));
    let mut panel = Panel::new(
        buttons.clone(),
        core::array::from_fn(|i| lights[i].clone()),
        50,
    );
    panel
        .show_mask(Light::Lamp.bit() | Light::Error.bit())
        .unwrap();
    for l in Light::ALL {
        assert_eq!(
            panel.is_lit(l),
            l == Light::Lamp || l == Light::Error,
            "{l:?}"
        );
    }
    panel.show(&[Light::Error]).unwrap(); // the same as show_mask(Error.bit())
    assert!(!panel.is_lit(Light::Lamp) && panel.is_lit(Light::Error));
    for l in &mut lights {
        l.done();
    }
    for mut b in buttons {
        b.done();
    }
}

#[test]
fn a_button_held_through_a_reset_is_held_but_not_a_new_press() {
    let mut d = Debouncer::new(50);
    // Down from the first sample (held while the machine restarted).
    for t in 0..500u32 {
        assert_eq!(d.update(true, t), None, "at {t}");
        assert!(d.level(), "held at {t}");
    }
    // Released, then pressed again: that is a press.
    let mut presses = 0;
    for t in 500..800u32 {
        if d.update(!(500..600).contains(&t), t) == Some(true) {
            presses += 1;
        }
    }
    assert_eq!(presses, 1);
}
