//! Calendar dates of Unix times (UTC), for report headers and PGN `Date` tags.

/// Year, month (1–12), day (1–31) and seconds into the day of a Unix
/// millisecond time, UTC, proleptic Gregorian (Howard Hinnant's
/// days-to-civil algorithm).
pub(crate) fn civil(unix_ms: i64) -> (i64, i64, i64, i64) {
    let seconds = unix_ms.div_euclid(1000);
    let (days, of_day) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, of_day)
}
