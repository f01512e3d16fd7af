//! The learned evaluation's weights ([`super::learned`]), one constant per table kind, written
//! by `scripts/fit-evaluation.sh OWARE_DIR KALAH_DIR 17..=24 20000` over tables of each kind
//! that hold those layers; do not edit by hand.

/// oware-6-awari: fitted on 160000 random quiet boards of layers 17..=24 (20000 a layer).
/// Mean absolute error 2.194 seeds on as many others; the seed difference's 3.145.
pub(super) const OWARE_6: [f64; 25] = [
    0.235514, 0.108053, -0.012320, -0.184640, -0.264994, -0.164481, 0.000000, 0.000000, -0.133183,
    -0.067038, 0.043682, 0.233153, 0.311561, 0.259582, 0.000000, 0.000000, -0.719009, 0.931442,
    -2.274018, 2.787142, -0.244062, 0.040038, -0.310816, -1.262733, -2.273765,
];

/// kalah-6-empty-owner: fitted on 160000 random quiet boards of layers 17..=24 (20000 a layer).
/// Mean absolute error 4.515 seeds on as many others; the seed difference's 6.484.
pub(super) const KALAH_6_EMPTY: [f64; 25] = [
    0.533087, 0.243586, -0.124012, -0.414654, -0.615442, -0.214990, 0.000000, 0.000000, -0.136775,
    -0.130539, 0.058412, 0.289612, 0.561549, 0.374587, 0.000000, 0.000000, -0.333482, 0.346012,
    -3.043225, 2.735956, 2.704783, -0.650702, 4.259930, -5.072191, -0.737529,
];

/// kalah-6-standard-owner: fitted on 160000 random quiet boards of layers 17..=24 (20000 a layer).
/// Mean absolute error 4.419 seeds on as many others; the seed difference's 6.348.
pub(super) const KALAH_6_STANDARD: [f64; 25] = [
    0.531239, 0.267022, -0.063090, -0.378829, -0.638375, -0.258087, 0.000000, 0.000000, -0.212590,
    -0.142554, 0.077713, 0.363991, 0.651797, 0.349402, 0.000000, 0.000000, -0.228969, 0.106836,
    -2.626685, 2.383522, 2.549246, -0.833618, 4.165110, -5.042101, -0.158285,
];
