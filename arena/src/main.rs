//! The arena binary.

fn main() {}
