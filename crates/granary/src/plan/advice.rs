//! What to do about a position the tables present do not answer, in words a user can follow on
//! this machine ([`advice`]): never a build beyond its free disk; for a Kalah position whose
//! tables would take long to build (a start), the search that answers it (`granary solve`), with
//! the planner's estimate of its time, or, beyond the cost model's measured range, that no time
//! is promised.

use granary_retrograde::MemoryPlan;
use granary_rules::Game;

use super::build_memory;
use super::{
    AUTO_BUILD_SECONDS, CostModel, Limits, SEARCH_MAX_SEEDS, TableChoice, layers_bytes, plan_solve,
    search_answers, searched_above_tables,
};
use crate::game::Mancala;
use crate::machine::Machine;
use crate::tablebase::{build_command, solve_command};
use crate::units::{human_bytes, human_seconds};

/// What answers `game`'s position, with layers `0..=present` of its tables present, on
/// `machine` (whose speed `model` gives): a clause such as ``build them with `granary build
/// ...` (2.1 GB on disk, about 4.0 min)``.
///
/// The build of the missing layers up to the position's seeds is advised only where the free
/// disk (less a margin) holds them, with their size and estimated time. Oware: that build, or
/// that this machine cannot hold its tables. Kalah: that build if it also takes at most
/// [`AUTO_BUILD_SECONDS`], and the `granary solve` command that answers the position by search
/// over the tables the planner picks, with its estimated time; where the search lies beyond the
/// cost model's measured range, that command with no time and a clause that says why.
#[must_use]
pub fn advice(
    game: &Mancala,
    present: Option<u32>,
    machine: &Machine,
    model: &CostModel,
) -> String {
    let kind = game.kind();
    let seeds = game.position.board.seeds(kind.pits);
    let build = build(game, present, machine, model);
    if !searched_above_tables(kind.game) {
        return match build {
            Ok((text, _)) => text,
            Err(why) => why.to_string(),
        };
    }
    if search_answers(seeds).is_err() {
        return format!(
            "no search answers positions of more than {SEARCH_MAX_SEEDS} seeds on the board"
        );
    }
    let planned = plan_solve(
        kind,
        seeds,
        present,
        TableChoice::Auto,
        None,
        machine,
        model,
    );
    let (command, how, seconds) = match planned {
        Ok(plan) => (
            solve_command(game),
            match plan.horizon {
                Some(h) if plan.build_positions > 0 => format!(
                    "it builds tables up to {h} seeds ({} on disk) and searches over them",
                    human_bytes(plan.build_bytes)
                ),
                Some(h) => format!("it searches over the tables up to {h} seeds present"),
                None => "it searches without tables".into(),
            },
            plan.search_measured
                .is_none_or(|m| m)
                .then(|| plan.build_seconds + plan.search_seconds.unwrap_or(0.0)),
        ),
        // Not even the smallest tables fit: the search alone.
        Err(_) => (
            format!("{} --no-tables", solve_command(game)),
            "it searches without tables".into(),
            model.search(kind, seeds, 0, machine.cores).expected(),
        ),
    };
    let search = match seconds {
        Some(seconds) => format!(
            "`{command}` answers it: {how}, about {} in all",
            human_seconds(seconds)
        ),
        None => format!(
            "`{command}` answers it: {how}; no time is promised: the search lies beyond the cost \
             model's measured range"
        ),
    };
    match build {
        Ok((text, build_seconds)) if build_seconds <= AUTO_BUILD_SECONDS => {
            format!("{text}; or {search}")
        }
        _ => search,
    }
}

/// The `granary build` command of `game`'s missing layers up to its seeds, where the free disk
/// (less its margin) holds them (the build [`advice`] names); `None` where it does not.
#[must_use]
pub fn advised_build(
    game: &Mancala,
    present: Option<u32>,
    machine: &Machine,
    model: &CostModel,
) -> Option<String> {
    let kind = game.kind();
    build(game, present, machine, model)
        .ok()
        .map(|_| build_command(kind, game.position.board.seeds(kind.pits)))
}

/// Why no build of a game's missing layers is advised, in words a user can follow.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
enum NoBuild {
    /// More seeds on the board than tables hold (`oware`: answered from tables alone).
    #[error(
        "tables hold at most {limit} seeds on the board{}",
        if *.oware { ", and oware is answered from tables alone" } else { "" }
    )]
    TooManySeeds { limit: u32, oware: bool },
    /// The layers and the build's scratch files need more disk than is free.
    #[error(
        "{tables} tables up to {seeds} seeds need {} more on disk{} and {} is free: more than \
         this machine holds",
        human_bytes(*.layers),
        with_scratch(*.layers, *.scratch),
        human_bytes(*.free)
    )]
    Disk {
        tables: String,
        seeds: u32,
        /// Bytes of the layers.
        layers: u64,
        /// Bytes of the build's scratch files at most.
        scratch: u64,
        /// Bytes free on the disk.
        free: u64,
    },
}

/// ` (2.1 GB with the build's scratch files)` where the build has scratch files.
fn with_scratch(layers: u64, scratch: u64) -> String {
    if scratch > 0 {
        format!(
            " ({} with the build's scratch files)",
            human_bytes(layers.saturating_add(scratch))
        )
    } else {
        String::new()
    }
}

/// The build of `game`'s missing layers up to its seeds, in words, and its estimated seconds,
/// where the free disk (less its margin) holds it: the layers and the scratch files that the
/// build's own disk check counts with this machine's default memory
/// ([`MemoryPlan::most_scratch_bytes`], as [`crate::build::scratch_bytes`]); else why not.
fn build(
    game: &Mancala,
    present: Option<u32>,
    machine: &Machine,
    model: &CostModel,
) -> Result<(String, f64), NoBuild> {
    let kind = game.kind();
    let seeds = game.position.board.seeds(kind.pits);
    let limit = granary_index::MAX_LAYER_SEEDS;
    if seeds > limit {
        return Err(NoBuild::TooManySeeds {
            limit,
            oware: matches!(kind.game, Game::Oware { .. }),
        });
    }
    let from = present.map_or(0, |p| p + 1);
    let tables = layers_bytes(kind, from, seeds);
    let scratch =
        MemoryPlan::most_scratch_bytes(kind, from..=seeds, build_memory(machine), true, 1);
    if tables.saturating_add(scratch) > Limits::of(machine, 0).disk {
        return Err(NoBuild::Disk {
            tables: kind.name(),
            seeds,
            layers: tables,
            scratch,
            free: machine.free_disk,
        });
    }
    let seconds = model.build_seconds(kind, from, seeds, machine.cores);
    Ok((
        format!(
            "build them with `{}` ({} on disk, about {})",
            build_command(kind, seeds),
            human_bytes(tables),
            human_seconds(seconds)
        ),
        seconds,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameName, Setup};

    fn machine(free_disk: u64) -> Machine {
        Machine {
            memory: 24 << 30,
            available_memory: 24 << 30,
            free_disk,
            cores: 2,
        }
    }

    fn game(name: GameName, rules: &str, pits: usize, position: Option<&str>) -> Mancala {
        Setup {
            pits: Some(pits),
            rules: Some(rules.into()),
            ..Setup::default()
        }
        .mancala(name, position)
        .unwrap()
    }

    #[test]
    fn a_kalah_start_is_pointed_to_its_search_with_an_estimate() {
        let start = game(GameName::Kalah, "standard", 6, None);
        for disk in [u64::MAX, 2 << 30, 0] {
            let text = advice(&start, None, &machine(disk), &CostModel::default());
            assert!(
                text.starts_with(
                    "`granary solve kalah --pits 6 --rules standard --sweep owner --position \
                     \"4,4,4,4,4,4/4,4,4,4,4,4 0-0 S\" --all-moves"
                ),
                "{text}"
            );
            assert!(text.contains("` answers it: "), "{text}");
            assert!(text.contains(" in all"), "{text}");
            assert!(!text.contains("--max-seeds"), "{text}");
        }
        // No disk to build on: the search goes without tables.
        let text = advice(&start, None, &machine(0), &CostModel::default());
        assert!(
            text.contains("--all-moves --no-tables` answers it: it searches without tables"),
            "{text}"
        );
        // Tables present are searched over.
        let text = advice(&start, Some(20), &machine(0), &CostModel::default());
        assert!(
            text.contains("over the tables up to 20 seeds present"),
            "{text}"
        );
    }

    #[test]
    fn a_search_beyond_the_measured_range_is_pointed_to_without_a_time() {
        let start = game(GameName::Kalah, "empty", 6, Some("6,6,6,6,6,6/6,6,6,6,6,6"));
        for (disk, how) in [
            (u64::MAX, "it builds tables up to 32 seeds"),
            (0, "it searches without tables"),
        ] {
            let text = advice(&start, None, &machine(disk), &CostModel::default());
            assert!(text.starts_with("`granary solve kalah --pits 6"), "{text}");
            assert!(text.contains(how), "{text}");
            assert!(
                text.ends_with(
                    "; no time is promised: the search lies beyond the cost model's measured range"
                ),
                "{text}"
            );
            assert!(
                !text.contains(" in all") && !text.contains("about"),
                "{text}"
            );
        }
    }

    #[test]
    fn a_small_kalah_position_gets_its_quick_build_and_its_search() {
        let small = game(GameName::Kalah, "empty", 3, Some("1,2,3/4,5,6"));
        let text = advice(&small, None, &machine(u64::MAX), &CostModel::default());
        assert!(
            text.starts_with(
                "build them with `granary build kalah --pits 3 --rules empty --sweep owner \
                 --max-seeds 21` ("
            ),
            "{text}"
        );
        assert!(
            text.contains("; or `granary solve kalah --pits 3"),
            "{text}"
        );
        // No disk: only the search.
        let text = advice(&small, None, &machine(0), &CostModel::default());
        assert!(text.starts_with("`granary solve kalah --pits 3"), "{text}");
    }

    #[test]
    fn an_oware_build_is_advised_only_where_the_disk_holds_it() {
        let model = CostModel::default();
        // Oware(6,4) from its start: 48 seeds, more than any disk of this machine. The build
        // needs its tables and the scratch files of its largest layer (the memory is the same on
        // every machine here).
        let start = game(GameName::Oware, "awari", 6, None);
        let tables = layers_bytes(start.kind(), 0, 48);
        let memory = build_memory(&machine(0));
        let needed = tables + MemoryPlan::most_scratch_bytes(start.kind(), 0..=48, memory, true, 1);
        assert!(needed > tables);
        let advice_start = advice(&start, None, &machine(500_000_000_000), &model);
        assert!(!advice_start.contains("granary build"), "{advice_start}");
        assert!(
            advice_start.contains(&format!(
                "oware-6-awari tables up to 48 seeds need {} more on disk ({} with the build's \
                 scratch files) and 500.0 GB is free",
                human_bytes(tables),
                human_bytes(needed)
            )),
            "{advice_start}"
        );
        // Where the disk holds them (less its margin), the build is the advice, the tables'
        // size and its time given; a disk that holds the tables but not the scratch files of
        // the build gets no build, as the build's own disk check would refuse it.
        let roomy = advice(&start, None, &machine(needed / 49 * 50 + (1 << 31)), &model);
        assert!(
            roomy.starts_with(&format!(
                "build them with `granary build oware --pits 6 --rules awari --max-seeds 48` ({} \
                 on disk",
                human_bytes(tables)
            )),
            "{roomy}"
        );
        let tight = advice(&start, None, &machine(tables / 49 * 50 + (1 << 31)), &model);
        assert!(!tight.contains("granary build"), "{tight}");
        // A small position: built where the disk holds it, refused where it does not.
        let small = game(GameName::Oware, "awari", 4, Some("2,0,1,1/0,2,1,1"));
        let build = advice(&small, Some(3), &machine(u64::MAX), &model);
        assert!(
            build.starts_with(
                "build them with `granary build oware --pits 4 --rules awari --max-seeds 8` ("
            ),
            "{build}"
        );
        assert!(
            !advice(&small, None, &machine(1 << 20), &model).contains("granary build"),
            "no disk"
        );
    }
}
