//! Statistics (Elo, confidence intervals, significance, SPRT) and report rendering.
