//! The rule sets and the options where the sources disagree (`docs/rules/bao.md` cites each).

use granary_rules::named_option;

/// The game and its start.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Start {
    /// Bao la kiswahili: nyumba 6, the two pits to its right 2 each, 22 seeds in hand (KIBA).
    Kiswahili,
    /// Bao la kujifunza: 2 seeds in every pit, no hand, no namua, no nyumba (Polish Wikipedia).
    Kujifunza,
    /// Bao la kiswahili with the Malawi start: nyumba 8, 2 and 2, 20 seeds in hand (Polish
    /// Wikipedia).
    Malawi,
}

impl Start {
    /// The name on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Start::Kiswahili => "kiswahili",
            Start::Kujifunza => "kujifunza",
            Start::Malawi => "malawi",
        }
    }
}

/// When a player's nyumba stops being special (it never is in Bao la kujifunza).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum NyumbaRule {
    /// KIBA (namua 6.1): owned until its owner lifts all its seeds or the opponent
    /// captures it; it acts as a nyumba while owned and holding 6 seeds or more.
    Emptied,
    /// Owned only while it holds 6 seeds or more: once below 6 (after the tax, say) it is an
    /// ordinary pit for good.
    BelowSix,
    /// Special in the namua stage only: a player's nyumba becomes ordinary when their hand is empty.
    Namua,
}

impl NyumbaRule {
    /// The name on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            NyumbaRule::Emptied => "emptied",
            NyumbaRule::BelowSix => "below6",
            NyumbaRule::Namua => "namua",
        }
    }
}

/// Takasia: after a forced takasa that threatens exactly one pit, the opponent may not lift it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TakasiaRule {
    /// KIBA (mtaji 5): in the mtaji stage, unless the opponent can capture, or the pit is the
    /// opponent's nyumba, or it is the only pit the opponent could play.
    Kiba,
    /// No takasia.
    Off,
}

impl TakasiaRule {
    /// The name on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TakasiaRule::Kiba => "kiba",
            TakasiaRule::Off => "off",
        }
    }
}

/// When the nyumba may be taxed (namua takasa from the nyumba: 2 seeds only).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TaxRule {
    /// KIBA (namua 5.2): only when no other front pit holds seeds.
    LastResort,
    /// Whenever the player takasas (Polish Wikipedia's first reading).
    Always,
}

impl TaxRule {
    /// The name on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TaxRule::LastResort => "last-resort",
            TaxRule::Always => "always",
        }
    }
}

named_option!(
    Start,
    "bao rule set",
    [Start::Kiswahili, Start::Kujifunza, Start::Malawi]
);
named_option!(
    NyumbaRule,
    "bao nyumba rule",
    [NyumbaRule::Emptied, NyumbaRule::BelowSix, NyumbaRule::Namua]
);
named_option!(
    TakasiaRule,
    "bao takasia rule",
    [TakasiaRule::Kiba, TakasiaRule::Off]
);
named_option!(
    TaxRule,
    "bao tax rule",
    [TaxRule::LastResort, TaxRule::Always]
);

/// A complete rule set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BaoRules {
    pub start: Start,
    pub nyumba: NyumbaRule,
    pub takasia: TakasiaRule,
    pub tax: TaxRule,
}

impl BaoRules {
    /// The rule set with every option at its default (KIBA's reading).
    #[must_use]
    pub const fn new(start: Start) -> BaoRules {
        BaoRules {
            start,
            nyumba: NyumbaRule::Emptied,
            takasia: TakasiaRule::Kiba,
            tax: TaxRule::LastResort,
        }
    }

    /// Whether the game has a nyumba with special rules at all (not in Bao la kujifunza).
    #[must_use]
    pub const fn has_nyumba(&self) -> bool {
        !matches!(self.start, Start::Kujifunza)
    }

    /// The seeds a player holds in hand at the start.
    #[must_use]
    pub const fn start_hand(&self) -> u8 {
        match self.start {
            Start::Kiswahili => 22,
            Start::Malawi => 20,
            Start::Kujifunza => 0,
        }
    }

    /// `bao kiswahili (nyumba emptied, takasia kiba, tax last-resort)`.
    #[must_use]
    pub fn describe(&self) -> String {
        if self.has_nyumba() {
            format!(
                "bao {} (nyumba {}, takasia {}, tax {})",
                self.start.name(),
                self.nyumba.name(),
                self.takasia.name(),
                self.tax.name()
            )
        } else {
            format!(
                "bao {} (takasia {})",
                self.start.name(),
                self.takasia.name()
            )
        }
    }
}

impl Default for BaoRules {
    fn default() -> Self {
        BaoRules::new(Start::Kiswahili)
    }
}
