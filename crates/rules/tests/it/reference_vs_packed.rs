//! The packed engine against the plain reference implementation: random games of every variant and
//! option, from the start or from random layouts, compared at every ply.

use granary_rules::reference::{RefPosition, Reference};
use granary_rules::{
    Capture, Engine, Game, OwareRules, Position, Rules, RulesVisitor, Side, Sweep, Variant,
};
use proptest::prelude::*;

fn games() -> impl Strategy<Value = Game> {
    prop_oneof![
        Just(Game::Kalah {
            capture: Capture::Empty,
            sweep: Sweep::Owner
        }),
        Just(Game::Kalah {
            capture: Capture::Standard,
            sweep: Sweep::Owner
        }),
        Just(Game::Kalah {
            capture: Capture::Empty,
            sweep: Sweep::Emptied
        }),
        Just(Game::Kalah {
            capture: Capture::Standard,
            sweep: Sweep::Emptied
        }),
        Just(Game::Oware {
            rules: OwareRules::Abapa
        }),
        Just(Game::Oware {
            rules: OwareRules::Awari
        }),
    ]
}

/// A start: `None` for the variant's start position, or pits and stores of a random layout.
fn layouts(m: usize) -> impl Strategy<Value = Option<(Vec<u8>, [u8; 2], bool)>> {
    let max = (255 / (2 * m + 2)).min(20) as u8;
    prop_oneof![
        Just(None),
        (
            prop::collection::vec(0..=max, 2 * m),
            [0..=max, 0..=max],
            any::<bool>()
        )
            .prop_map(Some),
    ]
}

fn to_reference(pos: &Position, m: usize) -> RefPosition {
    let pits = pos
        .absolute_pits(m)
        .iter()
        .map(|&x| u32::from(x))
        .collect::<Vec<_>>();
    RefPosition {
        pits: [pits[..m].to_vec(), pits[m..].to_vec()],
        stores: pos.absolute_stores().map(u32::from),
        to_move: pos.to_move,
    }
}

/// Asserts that the rules it visits play `pos` as `engine` does.
struct SameRules<'a> {
    engine: &'a Engine,
    pos: &'a Position,
    label: &'a str,
}

impl RulesVisitor for SameRules<'_> {
    type Output = ();

    fn visit<R: Rules>(self, rules: &R) {
        let (engine, pos, label) = (self.engine, self.pos, self.label);
        let m = engine.pits();
        assert_eq!(rules.pits(), m, "{label}");
        assert_eq!(rules.legal_moves(pos), engine.legal_moves(pos), "{label}");
        assert_eq!(rules.outcome(pos), engine.outcome(pos), "{label}");
        for lane in 0..m + 1 {
            assert_eq!(
                rules.play_if_legal(pos, lane),
                engine.play_if_legal(pos, lane),
                "{label} lane {lane}"
            );
        }
    }
}

fn check_game(
    game: Game,
    m: usize,
    seeds: u32,
    layout: Option<(Vec<u8>, [u8; 2], bool)>,
    choices: &[u16],
) {
    let variant = Variant::new(game, m, seeds).unwrap();
    let engine: Engine = variant.engine();
    let reference = Reference::new(game, m);
    let mut pos = match layout {
        None => variant.start(),
        Some((pits, stores, north)) => {
            let side = if north { Side::North } else { Side::South };
            Position::from_sides(&pits[..m], &pits[m..], stores, side)
        }
    };
    let mut ref_pos = to_reference(&pos, m);
    for (ply, &choice) in choices.iter().enumerate() {
        assert_eq!(to_reference(&pos, m), ref_pos, "{variant} ply {ply}");
        let legal: Vec<usize> = engine.legal_moves(&pos).iter().collect();
        assert_eq!(
            legal,
            reference.legal_moves(&ref_pos),
            "{variant} ply {ply} {ref_pos:?}"
        );
        let outcome = engine.outcome(&pos).map(|o| pos.absolute(o.stores));
        assert_eq!(
            outcome,
            reference.outcome(&ref_pos),
            "{variant} ply {ply} {ref_pos:?}"
        );
        // Every lane, legal or not: `play_if_legal` is `is_legal` then `play`.
        for lane in 0..m + 1 {
            assert_eq!(
                engine.play_if_legal(&pos, lane),
                legal.contains(&lane).then(|| engine.play(&pos, lane)),
                "{variant} ply {ply} lane {lane} {ref_pos:?}"
            );
        }
        // The rules as their own type (`Engine::visit`: 6 pits a constant on a 6-pit board), as
        // the builders run them, against the enum's at every ply.
        engine.visit(SameRules {
            engine: &engine,
            pos: &pos,
            label: &format!("{variant} ply {ply} (visited)"),
        });
        if legal.is_empty() {
            return;
        }
        let lane = legal[usize::from(choice) % legal.len()];
        pos = engine.play(&pos, lane);
        ref_pos = reference.play(&ref_pos, lane);
    }
}

proptest! {
    #![proptest_config(crate::cases(3000))]

    #[test]
    fn packed_matches_reference(
        game in games(),
        (m, layout) in (1usize..=8).prop_flat_map(|m| (Just(m), layouts(m))),
        seeds_frac in 0.0f64..1.0,
        choices in prop::collection::vec(any::<u16>(), 1..400),
    ) {
        let max_seeds = (255 / (2 * m)).min(12) as u32;
        let seeds = 1 + (seeds_frac * f64::from(max_seeds)) as u32;
        check_game(game, m, seeds.min(max_seeds), layout, &choices);
    }
}

#[test]
fn kalah_6_up_to_10_seeds_and_oware_8_at_the_limit_play_to_the_end_as_the_reference() {
    // Kalah(6,n) up to n = 10 and Oware(8,n) at the encoding's limit, one long game each.
    for seeds in 1..=10 {
        check_game(
            Game::Kalah {
                capture: Capture::Empty,
                sweep: Sweep::Owner,
            },
            6,
            seeds,
            None,
            &[7; 2000],
        );
    }
    check_game(
        Game::Oware {
            rules: OwareRules::Awari,
        },
        8,
        15,
        None,
        &[3; 2000],
    );
}
