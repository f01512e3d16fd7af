//! The learned evaluation's weights ([`super::learned`]), one constant per table kind, written
//! by `scripts/fit-evaluation.sh OWARE_DIR KALAH_DIR 17..=24 20000` over tables of each kind
//! that hold those layers; do not edit by hand.

/// oware-6-awari: fitted on 160000 random boards of layers 17..=24 (20000 a layer).
/// Mean absolute error 2.806 seeds on as many others; the seed difference's 3.499.
pub(super) const OWARE_6: [f64; 25] = [
    0.211131, 0.102479, -0.000286, -0.130478, -0.177759, -0.125601, 0.000000, 0.000000, -0.135298,
    -0.064804, 0.053905, 0.231678, 0.333774, 0.292040, 0.000000, 0.000000, -1.084636, 1.875831,
    -2.404898, 2.514781, 0.198062, -0.486178, 0.800192, -1.720899, -1.427612,
];

/// kalah-6-empty-owner: fitted on 160000 random boards of layers 17..=24 (20000 a layer).
/// Mean absolute error 4.872 seeds on as many others; the seed difference's 6.731.
pub(super) const KALAH_6_EMPTY: [f64; 25] = [
    0.630471, 0.353437, -0.024152, -0.359048, -0.657995, -0.406820, 0.000000, 0.000000, -0.056953,
    -0.011296, 0.188598, 0.426079, 0.660142, 0.331653, 0.000000, 0.000000, -0.403481, 0.346485,
    -2.738779, 2.696501, 1.476495, -0.821333, 4.434594, -3.978743, 0.503061,
];

/// kalah-6-standard-owner: fitted on 160000 random boards of layers 17..=24 (20000 a layer).
/// Mean absolute error 4.641 seeds on as many others; the seed difference's 6.549.
pub(super) const KALAH_6_STANDARD: [f64; 25] = [
    0.599656, 0.341579, -0.014517, -0.361335, -0.650192, -0.357970, 0.000000, 0.000000, -0.038327,
    0.000052, 0.179974, 0.433909, 0.680198, 0.333376, 0.000000, 0.000000, -0.159790, 0.118887,
    -2.243683, 2.302691, 1.645206, -0.940039, 4.504575, -3.959706, 0.150121,
];
