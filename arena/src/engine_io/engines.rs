//! Engines by name: the bundled engine's pruning presets, and any UCI engine
//! listed in `engines.toml`.
//!
//! ```toml
//! [[engine]]
//! name = "sf1500"                 # the name used on the command line
//! command = "/usr/games/stockfish" # program (PATH is searched)
//! args = []                       # optional
//! dir = "."                       # optional working directory
//! tc = "nodes=20000"              # optional: this engine's own time control
//! options = { Threads = 1, UCI_LimitStrength = true, UCI_Elo = 1500 }
//!
//! [[engine]]
//! name = "fhr-wide"
//! preset = "fhr"                  # the bundled engine with a preset ...
//! options = { FHRMargin = 50 }    # ... and changed UCI options
//!
//! [[engine]]
//! name = "dev"
//! git = "~/src/myengine"          # built from source: a path or URL git can clone
//! rev = "feature-x"               # branch, tag or commit (resolved when a run is created)
//! build = "make -j EXE={exe}"     # run in a checkout of the commit; {exe}: where the binary goes
//! bench = "auto"                  # or the expected node count; bench_args = ["bench"] by default
//! ```

use std::path::{Path, PathBuf};

use engine::search::PruningConfig;
use engine::search::pruning::PRESETS;
use model::Invalid;
use serde::Deserialize;

pub use model::spec::{BUNDLED_SUBCOMMAND, BenchSignature, DEFAULT_BUILD, EngineSpec, Launch, Source};

/// Engine names that could not be resolved or an `engines.toml` that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// The name is neither a preset nor in `engines.toml`.
    #[error("unknown engine '{name}'; known: {known} (add others to engines.toml, or give a UCI program's path)")]
    Unknown {
        /// The name asked for.
        name: String,
        /// Known names, comma-separated.
        known: String,
    },
    /// The name is no engine and no program on `PATH`, but a program of
    /// that name is in a games folder `PATH` leaves out: Debian installs
    /// `stockfish` as `/usr/games/stockfish`, and root's `PATH` has no
    /// `/usr/games`.
    #[error(
        "unknown engine '{name}': no program '{name}' on PATH, but {found} is one (give that path, or add {folder} to PATH)"
    )]
    OffPath {
        /// The name asked for.
        name: String,
        /// The program found.
        found: String,
        /// Its folder.
        folder: String,
    },
    /// The file could not be read or parsed.
    #[error("{path}: {problem}")]
    File {
        /// The file.
        path: String,
        /// What is wrong and how to fix it.
        problem: String,
    },
}

/// All engines known by name.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    configured: Vec<EngineSpec>,
}

#[derive(Deserialize)]
struct EnginesFile {
    #[serde(default)]
    engine: Vec<FileEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileEntry {
    name: String,
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    dir: Option<PathBuf>,
    #[serde(default)]
    preset: Option<String>,
    #[serde(default)]
    options: toml::Table,
    #[serde(default)]
    tc: Option<String>,
    #[serde(default)]
    ponder: bool,
    #[serde(default)]
    git: Option<String>,
    #[serde(default)]
    rev: Option<String>,
    #[serde(default)]
    build: Option<String>,
    #[serde(default)]
    bench: Option<toml::Value>,
    #[serde(default)]
    bench_args: Vec<String>,
}

impl FileEntry {
    /// The engine this entry defines, or the problem with it.
    fn spec(self) -> Result<EngineSpec, Invalid> {
        if let Some(preset) = &self.preset
            && PruningConfig::preset(preset).is_err()
        {
            return Err(Invalid::new("preset", format!("unknown preset '{preset}' (known: {})", PRESETS.join(", "))));
        }
        let command = match (&self.command, &self.preset, &self.git) {
            (Some(command), None, None) => command.clone(),
            (None, Some(_), None) | (None, None, Some(_)) => String::new(),
            _ => return Err(Invalid::new("command", "needs exactly one of 'command', 'preset' or 'git'")),
        };
        let source = match (&self.git, &self.rev, &self.build) {
            (Some(git), rev, build) => Some(Source {
                repo: crate::engine_io::source::repo_location(git),
                rev: rev.clone().unwrap_or_else(|| "HEAD".into()),
                commit: String::new(),
                build: build.clone().unwrap_or_else(|| DEFAULT_BUILD.into()),
            }),
            (None, None, None) => None,
            (None, ..) => return Err(Invalid::new("git", "'rev' and 'build' need 'git'")),
        };
        let bench = match &self.bench {
            None => None,
            Some(toml::Value::Integer(n)) if *n > 0 => Some(BenchSignature::Nodes(*n as u64)),
            Some(toml::Value::String(text)) => Some(text.parse::<BenchSignature>()?),
            Some(other) => {
                return Err(Invalid::new(
                    "bench",
                    format!("bench = {other} is neither a positive node count nor \"auto\""),
                ));
            }
        };
        if self.preset.is_some() && (bench.is_some() || !self.bench_args.is_empty()) {
            return Err(Invalid::new(
                "bench",
                "a preset's bench is the bundled engine's; 'bench' is for external engines",
            ));
        }
        let tc = match &self.tc {
            Some(tc) => Some(tc.parse::<model::TimeControl>().map_err(|e| Invalid::new("tc", e.to_string()))?),
            None => None,
        };
        let options = self
            .options
            .iter()
            .map(|(key, value)| {
                let text = match value {
                    toml::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (key.clone(), text)
            })
            .collect();
        Ok(EngineSpec {
            name: self.name,
            command,
            args: self.args,
            dir: self.dir,
            preset: self.preset,
            options,
            tc,
            ponder: self.ponder,
            source,
            bench,
            bench_args: self.bench_args,
        })
    }
}

impl Registry {
    /// Reads `path` if given (it must exist), else `engines.toml` in the
    /// working directory if present, else only the presets.
    ///
    /// # Errors
    ///
    /// [`RegistryError::File`] when the file is unreadable or invalid.
    pub fn load(path: Option<&Path>) -> Result<Registry, RegistryError> {
        let default = Path::new("engines.toml");
        let path = match path {
            Some(path) => path,
            None if default.exists() => default,
            None => return Ok(Registry::default()),
        };
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| RegistryError::File { path: shown.clone(), problem: format!("cannot read: {e}") })?;
        Registry::parse(&shown, &text)
    }

    /// Parses `engines.toml` text.
    ///
    /// # Errors
    ///
    /// [`RegistryError::File`] naming the problem.
    pub fn parse(path: &str, text: &str) -> Result<Registry, RegistryError> {
        let bad = |problem: String| RegistryError::File { path: path.to_string(), problem };
        let file: EnginesFile = toml::from_str(text).map_err(|e| bad(format!("not a valid engines file: {e}")))?;
        let mut configured: Vec<EngineSpec> = Vec::new();
        for entry in file.engine {
            if configured.iter().any(|e| e.name == entry.name) {
                return Err(bad(format!("engine '{}' is defined twice", entry.name)));
            }
            let name = entry.name.clone();
            configured.push(entry.spec().map_err(|problem| bad(format!("engine '{name}': {problem}")))?);
        }
        Ok(Registry { configured })
    }

    /// The engine called `name`: an `engines.toml` entry, else a preset or
    /// `+` combination of presets.
    ///
    /// # Errors
    ///
    /// [`RegistryError::Unknown`] listing the known names.
    pub fn get(&self, name: &str) -> Result<EngineSpec, RegistryError> {
        if let Some(spec) = self.configured.iter().find(|e| e.name == name) {
            return Ok(spec.clone());
        }
        if PruningConfig::preset(name).is_ok() {
            return Ok(EngineSpec::bundled(name));
        }
        Err(RegistryError::Unknown { name: name.to_string(), known: self.names().join(", ") })
    }

    /// The engine called `name`, or, when nothing has that name, the
    /// program it names: a path (it holds a `/`: `./myengine`,
    /// `/usr/games/stockfish`) or a program on `PATH` (`stockfish`, as
    /// cutechess's `cmd=stockfish`), named as given and run by its absolute
    /// path, symbolic links kept. Only for names a user types: a worker runs what its own
    /// `engines.toml` names, never a path from the database.
    ///
    /// # Errors
    ///
    /// [`RegistryError::Unknown`] for an unknown name that is no program on
    /// `PATH`, [`RegistryError::File`] for a path to no program.
    pub fn get_or_path(&self, name: &str) -> Result<EngineSpec, RegistryError> {
        let unknown = match self.get(name) {
            Ok(spec) => return Ok(spec),
            Err(e) => e,
        };
        let found = if name.contains('/') {
            PathBuf::from(name)
        } else if let Some(found) = crate::engine_io::source::find_program(Path::new(name), None) {
            found
        } else {
            return Err(off_path(name, GAMES_FOLDERS).unwrap_or(unknown));
        };
        let problem = |problem: &str| RegistryError::File { path: name.to_string(), problem: problem.to_string() };
        // Absolute, but as given: a symbolic link is run by its own path (a
        // virtualenv's python finds its modules by it, a program may read
        // its own name); only the check follows it to the file.
        let path = std::path::absolute(&found).map_err(|e| problem(&format!("no engine program there ({e})")))?;
        if let Err(e) = std::fs::metadata(&path) {
            return Err(problem(&format!("no engine program there ({e})")));
        }
        if !path.is_file() {
            return Err(problem("not a program (give an engine's executable)"));
        }
        if name.contains('@') {
            return Err(problem("a path with '@' cannot name an engine; name it in engines.toml"));
        }
        Ok(EngineSpec { name: name.to_string(), command: path.display().to_string(), ..EngineSpec::default() })
    }

    /// All names, each once: presets first, then configured engines (an
    /// entry with a preset's name, as run files write them, replaces it).
    pub fn names(&self) -> Vec<String> {
        let configured = self.configured.iter().map(|e| e.name.clone());
        let presets = PRESETS.iter().filter(|p| !self.configured.iter().any(|e| e.name == **p));
        presets.map(|p| p.to_string()).chain(configured).collect()
    }
}

/// Where distributions install games, chess engines among them, outside
/// the `PATH` of root and of some service managers.
const GAMES_FOLDERS: &[&str] = &["/usr/games", "/usr/local/games"];

/// The error for `name` found in one of `folders` but not on `PATH`.
fn off_path(name: &str, folders: &[&str]) -> Option<RegistryError> {
    let (folder, found) = folders
        .iter()
        .map(|folder| (folder, Path::new(folder).join(name)))
        .find(|(_, found)| crate::engine_io::source::find_program(found, None).is_some())?;
    Some(RegistryError::OffPath {
        name: name.to_string(),
        found: found.display().to_string(),
        folder: folder.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_combinations_and_file_entries_resolve() {
        let registry = Registry::parse(
            "engines.toml",
            "[[engine]]\nname = \"sf\"\ncommand = \"stockfish\"\ntc = \"nodes=1000\"\noptions = { Threads = 1, UCI_LimitStrength = true, Name = \"x y\" }\n\
             [[engine]]\nname = \"fhr-wide\"\npreset = \"fhr\"\n",
        )
        .unwrap();
        let sf = registry.get("sf").unwrap();
        assert_eq!(sf.command, "stockfish");
        assert!(sf.options.contains(&("UCI_LimitStrength".into(), "true".into())));
        assert!(sf.options.contains(&("Name".into(), "x y".into())));
        assert_eq!(registry.get("fhr-wide").unwrap().preset.as_deref(), Some("fhr"));
        assert!(registry.get("/bin/sh").is_err(), "get never takes a path");
        let sh = registry.get_or_path("/bin/../bin/sh").unwrap();
        assert_eq!((sh.name.as_str(), sh.preset.as_deref()), ("/bin/../bin/sh", None));
        assert_eq!(sh.command, "/bin/../bin/sh", "absolute and as given: links and '..' are not resolved");
        assert_eq!(registry.get_or_path("sf").unwrap().command, "stockfish");
        let on_path = registry.get_or_path("sh").unwrap();
        assert_eq!(on_path.name, "sh", "a program on PATH keeps the name typed");
        assert!(on_path.command.starts_with('/') && on_path.command.ends_with("sh"), "{}", on_path.command);
        for (bad, says) in [
            ("/nonexistent/x", "no engine program there"),
            ("/bin", "not a program"),
            ("nobody-of-that-name", "unknown engine"),
        ] {
            let error = registry.get_or_path(bad).unwrap_err().to_string();
            assert!(error.contains(says), "{bad}: {error}");
        }
        assert_eq!(registry.get("nmp2+multicut").unwrap().preset.as_deref(), Some("nmp2+multicut"));
        let launch = registry.get("fhr").unwrap().launch(Path::new("/bin/arena"));
        assert_eq!(launch.args, ["engine-uci", "--pruning", "fhr"]);
        let error = registry.get("fhx").unwrap_err().to_string();
        assert!(error.contains("unknown engine 'fhx'") && error.contains("plain") && error.contains("sf"), "{error}");
        // An entry with a preset's name (a run file's) replaces it, and is listed once.
        let replaced = Registry::parse("r.toml", "[[engine]]\nname = \"fhr\"\npreset = \"fhr\"\n").unwrap();
        let names = replaced.names();
        assert_eq!(names.iter().filter(|n| *n == "fhr").count(), 1, "{names:?}");
        assert_eq!(names.len(), PRESETS.len(), "{names:?}");
    }

    #[test]
    fn a_program_in_a_games_folder_off_path_is_pointed_to() {
        use std::os::unix::fs::PermissionsExt;
        let folder = std::env::temp_dir().join(format!("arena-games-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let program = folder.join("fancy-engine");
        std::fs::write(&program, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        let shown = folder.display().to_string();
        let error = off_path("fancy-engine", &["/nonexistent", &shown]).unwrap().to_string();
        assert_eq!(
            error,
            format!(
                "unknown engine 'fancy-engine': no program 'fancy-engine' on PATH, but {shown}/fancy-engine is one \
                 (give that path, or add {shown} to PATH)"
            )
        );
        assert!(off_path("other-engine", &[&shown]).is_none(), "only a program that is there");
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(off_path("fancy-engine", &[&shown]).is_none(), "only an executable");
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn bad_files_name_the_problem() {
        for (text, needle) in [
            ("[[engine]]\nname = \"a\"\n", "exactly one of"),
            ("[[engine]]\nname = \"a\"\ncommand = \"x\"\ngit = \"r\"\n", "exactly one of"),
            ("[[engine]]\nname = \"a\"\ncommand = \"x\"\nrev = \"main\"\n", "need 'git'"),
            ("[[engine]]\nname = \"a\"\ncommand = \"x\"\nbench = \"soon\"\n", "neither a node count"),
            ("[[engine]]\nname = \"a\"\ncommand = \"x\"\nbench = -3\n", "positive node count"),
            ("[[engine]]\nname = \"a\"\npreset = \"zzz\"\n", "unknown preset"),
            ("[[engine]]\nname = \"a\"\ncommand = \"x\"\ntc = \"40/\"\n", "bad time control"),
            ("[[engine]]\nname = \"a\"\ncommand = \"x\"\n[[engine]]\nname = \"a\"\ncommand = \"y\"\n", "defined twice"),
            ("[[engine]]\nname = \"a\"\ncommand = \"x\"\nflavour = 1\n", "not a valid engines file"),
        ] {
            let error = Registry::parse("e.toml", text).unwrap_err().to_string();
            assert!(error.starts_with("e.toml: ") && error.contains(needle), "{error}");
        }
    }
}
