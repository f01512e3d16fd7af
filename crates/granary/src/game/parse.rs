//! Parsing what a user typed beside a game: a list of moves as pit numbers, a family of start
//! positions (`1..6x1..5`).

use crate::error::InputError;

/// Parses a list of pit numbers (`3`, ` 1 `), naming the first entry that is not one.
///
/// # Errors
/// [`InputError::Move`] for the first entry that is not a whole number.
pub fn parse_pits<S: AsRef<str>>(moves: &[S]) -> Result<Vec<usize>, InputError> {
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let m = m.as_ref().trim();
            m.parse::<usize>().map_err(|_| InputError::Move {
                number: i + 1,
                pit: None,
                reason: format!("'{m}' is not a pit number"),
            })
        })
        .collect()
}

/// Parses a family of start positions, `A..BxC..D` (pits a side `A` to `B`, seeds a pit `C` to
/// `D`; a single number for either range), e.g. `1..6x1..5`.
///
/// # Errors
/// [`InputError::Value`] naming the text when it is not two ranges, a range is empty or
/// reversed, or pits fall outside `1..=8` or seeds outside `1..=127`.
pub fn parse_family(
    spec: &str,
) -> Result<
    (
        std::ops::RangeInclusive<usize>,
        std::ops::RangeInclusive<u32>,
    ),
    InputError,
> {
    let bad = |why: &str| {
        InputError::Value(format!(
            "family '{spec}': {why}; expected PITSxSEEDS ranges such as 1..6x1..5"
        ))
    };
    let (pits, seeds) = spec.split_once('x').ok_or_else(|| bad("no 'x'"))?;
    let range = |r: &str, what: &str| -> Result<(u32, u32), InputError> {
        let r = r.trim();
        let (a, b) = r.split_once("..").unwrap_or((r, r));
        let number = |t: &str| {
            t.trim()
                .parse::<u32>()
                .map_err(|_| bad(&format!("'{}' is not a number", t.trim())))
        };
        let (a, b) = (number(a)?, number(b)?);
        if a > b {
            return Err(bad(&format!("{what} {a}..{b} is empty")));
        }
        Ok((a, b))
    };
    let (p0, p1) = range(pits, "pits")?;
    // Pits a side as every game's are checked: both ends, the first out of range named.
    for p in [p0, p1] {
        granary_rules::checked_pits(p as usize).map_err(|e| bad(&e.to_string()))?;
    }
    let (s0, s1) = range(seeds, "seeds")?;
    if s0 < 1 || s1 > 127 {
        return Err(bad("seeds must lie within 1..127"));
    }
    Ok((p0 as usize..=p1 as usize, s0..=s1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_name_the_entry_at_fault() {
        assert_eq!(parse_pits(&["3", " 1 "]).unwrap(), vec![3, 1]);
        let err = parse_pits(&["3", "x"]).unwrap_err().to_string();
        assert_eq!(err, "moves: move 2: 'x' is not a pit number");
        let err = InputError::Move {
            number: 1,
            pit: Some(7),
            reason: "pit 7 does not exist".into(),
        };
        assert_eq!(
            err.to_string(),
            "moves: move 1 (pit 7): pit 7 does not exist"
        );
    }

    #[test]
    fn family_ranges() {
        let (p, s) = parse_family("1..6x1..5").unwrap();
        assert_eq!((p, s), (1..=6, 1..=5));
        assert_eq!(parse_family(" 4 x 3 ").unwrap(), (4..=4, 3..=3));
        for bad in [
            "",
            "6",
            "x",
            "1..6x",
            "0..6x1..5",
            "1..9x1",
            "6..1x1",
            "1x0",
            "1x1..4000000000",
            "1..6x1..5..7",
            "-1x2",
        ] {
            let err = parse_family(bad).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("family '{bad}': ")) && !err.contains('\n'),
                "{bad}: {err}"
            );
        }
        assert_eq!(
            parse_family("1..9x1").unwrap_err().to_string(),
            "family '1..9x1': pits 9 is out of range: a side has 1 to 8 pits; expected \
             PITSxSEEDS ranges such as 1..6x1..5"
        );
    }
}
