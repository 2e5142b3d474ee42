//! Setting up a tuning run (`arena tune`): the `--param` flags read and
//! checked against the options the engine declares, with bounds and start
//! taken from the engine where the flag leaves them out, and gains derived
//! from each parameter's range (see `model::tune`).

use std::path::Path;

use model::Invalid;
use model::tune::{DEFAULT_C_END_OF_RANGE, DEFAULT_R_END, TuneParam};

use crate::engine_io::engines::EngineSpec;
use crate::engine_io::process::{EngineError, EngineProcess, Timeouts};
use crate::engine_io::uci::output::OptionDecl;

/// A `--param` flag as given: `NAME[=MIN..MAX][,start=V][,c=C][,r=R]`,
/// read by clap; a run file writes it back as that text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParamFlag {
    /// The UCI option.
    pub name: String,
    /// Bounds, if given.
    pub bounds: Option<(f64, f64)>,
    /// Start, if given.
    pub start: Option<f64>,
    /// c_end, if given.
    pub c_end: Option<f64>,
    /// r_end, if given.
    pub r_end: Option<f64>,
}

impl std::fmt::Display for ParamFlag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)?;
        if let Some((low, high)) = self.bounds {
            write!(f, "={low}..{high}")?;
        }
        for (key, value) in [("start", self.start), ("c", self.c_end), ("r", self.r_end)] {
            if let Some(value) = value {
                write!(f, ",{key}={value}")?;
            }
        }
        Ok(())
    }
}

impl serde::Serialize for ParamFlag {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A `--param` flag that cannot be used.
fn bad(problem: String) -> Invalid {
    Invalid::new("param", problem)
}

fn number(text: &str, what: &str, flag: &str) -> Result<f64, Invalid> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(bad(format!("--param {flag}: {what} '{text}' is not a number"))),
    }
}

impl std::str::FromStr for ParamFlag {
    type Err = Invalid;

    fn from_str(flag: &str) -> Result<ParamFlag, Invalid> {
        let mut parts = flag.split(',');
        let head = parts.next().unwrap_or_default();
        let (name, bounds) = match head.split_once('=') {
            Some((name, range)) => {
                let (low, high) = range
                    .split_once("..")
                    .ok_or_else(|| bad(format!("--param {flag}: bounds are MIN..MAX, e.g. FHRMargin=0..400")))?;
                (name, Some((number(low, "the lower bound", flag)?, number(high, "the upper bound", flag)?)))
            }
            None => (head, None),
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(bad(format!("--param '{flag}' names no option: give NAME[=MIN..MAX][,start=V][,c=C][,r=R]")));
        }
        let mut parsed = ParamFlag { name: name.to_string(), bounds, ..ParamFlag::default() };
        for part in parts {
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            let slot = match key.trim() {
                "start" => &mut parsed.start,
                "c" => &mut parsed.c_end,
                "r" => &mut parsed.r_end,
                other => return Err(bad(format!("--param {flag}: unknown setting '{other}' (use start=, c= or r=)"))),
            };
            *slot = Some(number(value, key.trim(), flag)?);
        }
        if let Some((low, high)) = parsed.bounds
            && low >= high
        {
            return Err(bad(format!("--param {flag}: the lower bound must be below the upper bound")));
        }
        for (value, what) in [(parsed.c_end, "c"), (parsed.r_end, "r")] {
            if value.is_some_and(|v| v <= 0.0) {
                return Err(bad(format!("--param {flag}: {what} must be positive")));
            }
        }
        Ok(parsed)
    }
}

/// The options `engine` declares, read by starting it once.
///
/// # Errors
///
/// [`EngineError`] when it cannot be started.
pub async fn declared_options(
    engine: &EngineSpec,
    arena_exe: &Path,
    timeouts: Timeouts,
) -> Result<Vec<OptionDecl>, EngineError> {
    let process = EngineProcess::start(engine, &engine.launch(arena_exe), &[], None, timeouts, None).await?;
    let declared = process.declared_options().to_vec();
    process.quit(timeouts.quit).await;
    Ok(declared)
}

/// A parameter from its flag and the engine's declaration: a `spin` is an
/// integer with the spin's bounds by default; a `string` option takes real
/// values and needs bounds. The start is the flag's, else the engine's
/// configured value, else its default.
///
/// # Errors
///
/// One line naming the problem: an option the engine lacks or that cannot
/// be tuned, bounds outside the spin's, a start outside the bounds.
pub fn resolve(flag: &ParamFlag, engine: &EngineSpec, declared: &[OptionDecl]) -> Result<TuneParam, Invalid> {
    let name = &flag.name;
    let tunable: Vec<&str> =
        declared.iter().filter(|d| d.kind == "spin" || d.kind == "string").map(|d| d.name.as_str()).collect();
    let Some(decl) = declared.iter().find(|d| d.name.eq_ignore_ascii_case(name)) else {
        return Err(bad(format!(
            "engine '{}' has no option '{name}' (spin and string options: {})",
            engine.name,
            tunable.join(", ")
        )));
    };
    let integer = match decl.kind.as_str() {
        "spin" => true,
        "string" => false,
        kind => {
            return Err(bad(format!(
                "option '{}' of engine '{}' is a {kind}; only spin and string options can be tuned",
                decl.name, engine.name
            )));
        }
    };
    let declared_bounds = decl.min.zip(decl.max).map(|(low, high)| (low as f64, high as f64));
    let (min, max) = match (flag.bounds, declared_bounds) {
        (Some((low, high)), Some((dlow, dhigh))) if low < dlow || high > dhigh => {
            return Err(bad(format!("--param {name}={low}..{high} is outside the engine's range {dlow}..{dhigh}")));
        }
        (Some(bounds), _) | (None, Some(bounds)) => bounds,
        (None, None) => return Err(bad(format!("--param {name}: give bounds, e.g. {name}=0..1")))?,
    };
    let configured = engine.options.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.clone());
    let start =
        match flag.start {
            Some(start) => start,
            None => configured.or_else(|| decl.default.clone()).and_then(|v| v.trim().parse::<f64>().ok()).ok_or_else(
                || bad(format!("--param {name}: the engine gives no numeric value to start from; add ,start=V")),
            )?,
        };
    if !(min..=max).contains(&start) {
        return Err(bad(format!("--param {name}: the start {start} is outside {min}..{max}; add ,start=V inside")));
    }
    let mut c_end = flag.c_end.unwrap_or((max - min) * DEFAULT_C_END_OF_RANGE);
    if integer && flag.c_end.is_none() {
        // Smaller perturbations would round θ+ and θ− to the same value.
        c_end = c_end.max(1.0);
    }
    Ok(TuneParam {
        name: decl.name.clone(),
        min,
        max,
        start,
        integer,
        c_end,
        r_end: flag.r_end.unwrap_or(DEFAULT_R_END),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin(name: &str, default: i64, min: i64, max: i64) -> OptionDecl {
        OptionDecl {
            name: name.into(),
            kind: "spin".into(),
            default: Some(default.to_string()),
            min: Some(min),
            max: Some(max),
            vars: Vec::new(),
        }
    }

    #[test]
    fn flags_parse_and_bad_ones_say_why() {
        let flag: ParamFlag = "FHRMargin=0..400,start=50,c=20,r=0.01".parse().unwrap();
        assert_eq!(flag.bounds, Some((0.0, 400.0)));
        assert_eq!((flag.start, flag.c_end, flag.r_end), (Some(50.0), Some(20.0), Some(0.01)));
        assert_eq!("X".parse::<ParamFlag>().unwrap().bounds, None);
        for bad in ["=0..1", "X=5", "X=a..3", "X=3..1", "X=0..1,q=2", "X,c=-1", "X,start=nan"] {
            let error = bad.parse::<ParamFlag>().unwrap_err().to_string();
            assert!(error.starts_with("--param"), "{bad}: {error}");
        }
    }

    #[test]
    fn resolve_takes_the_engines_bounds_and_start() {
        let engine = EngineSpec { options: vec![("FHRMargin".into(), "120".into())], ..EngineSpec::bundled("fhr") };
        let declared = vec![spin("FHRMargin", 100, 0, 1000), spin("Hash", 16, 1, 1024)];
        let p = resolve(&"fhrmargin".parse().unwrap(), &engine, &declared).unwrap();
        assert_eq!((p.name.as_str(), p.min, p.max, p.start, p.integer), ("FHRMargin", 0.0, 1000.0, 120.0, true));
        assert_eq!(p.c_end, 50.0);
        let narrowed = resolve(&"FHRMargin=0..400,start=10".parse().unwrap(), &engine, &declared).unwrap();
        assert_eq!((narrowed.max, narrowed.start, narrowed.c_end), (400.0, 10.0, 20.0));
        for bad in ["Nope", "FHRMargin=0..5000", "FHRMargin=0..50"] {
            assert!(resolve(&bad.parse().unwrap(), &engine, &declared).is_err(), "{bad}");
        }
    }
}
