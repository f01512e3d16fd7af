//! Builds Oware(6) awari layers `0..=MAX` into `DIR` and prints each layer's rate:
//! `cargo run --release -p granary-retrograde --example quickbuild -- MAX DIR`.

struct Rates;

impl granary_retrograde::BuildObserver for Rates {
    fn layer_done(&self, r: &granary_retrograde::LayerReport) {
        if let Some(s) = r.seconds {
            println!(
                "layer {} {} positions {:.2}s {:.2} M/s",
                r.seeds,
                r.positions,
                s,
                r.positions as f64 / s / 1e6
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let max: u32 = args[1].parse().unwrap();
    let dir = std::path::PathBuf::from(&args[2]);
    let kind = granary_tables::TableKind {
        game: granary_rules::Game::Oware {
            rules: granary_rules::OwareRules::Awari,
        },
        pits: 6,
    };
    let opts = granary_retrograde::BuildOptions {
        threads: None,
        memory: None,
        compress: None,
        checkpoint_every: None,
        region: None,
    };
    granary_retrograde::build_layers(&dir, kind, max, opts, &Rates).unwrap();
}
