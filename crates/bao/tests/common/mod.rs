pub mod reference;
pub mod rng;
