//! What arena says about itself: `--version` names the commit it was built
//! from, `arena completions` prints scripts the shells accept, and
//! `arena man` writes a page for arena and for every command users run.

use std::process::Command;

use crate::common::{ARENA, arena_ok, stdout, temp_dir};

#[test]
fn version_names_the_commit_it_was_built_from() {
    let out = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let version = String::from_utf8_lossy(&Command::new(ARENA).arg("--version").output().unwrap().stdout).into_owned();
    let commit = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() {
        assert!(version.contains("(unknown commit)"), "outside a checkout: {version}");
        return;
    }
    assert_eq!(version.trim(), format!("arena {} ({commit})", env!("CARGO_PKG_VERSION")));
}

#[test]
fn completions_are_scripts_the_shells_accept_and_man_pages_cover_every_command() {
    let dir = temp_dir("docs");
    let bash = stdout(&arena_ok(&dir, &["completions", "bash"]));
    std::fs::write(dir.join("arena.bash"), &bash).unwrap();
    let loaded = Command::new("bash")
        .arg("-c")
        .arg("source ./arena.bash && complete -p arena")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(loaded.status.success(), "bash rejects the script: {}", String::from_utf8_lossy(&loaded.stderr));
    assert!(String::from_utf8_lossy(&loaded.stdout).contains("_arena"), "{}", String::from_utf8_lossy(&loaded.stdout));
    for (shell, marker) in [("zsh", "#compdef arena"), ("fish", "complete --keep-order --exclusive --command arena")] {
        let script = stdout(&arena_ok(&dir, &["completions", shell]));
        assert!(script.contains(marker) && script.contains("COMPLETE"), "{shell}: {script}");
    }
    // What the shell gets as the user types (the scripts ask arena itself, as fish does here).
    std::fs::write(dir.join("engines.toml"), "[[engine]]\nname = \"sf-dev\"\ncommand = \"/usr/games/stockfish\"\n")
        .unwrap();
    std::fs::write(dir.join("mine.epd"), "").unwrap();
    let offered = |words: &[&str]| {
        let out = Command::new(ARENA).env("COMPLETE", "fish").arg("--").args(words).current_dir(&dir).output().unwrap();
        assert!(out.status.success(), "{words:?}: {}", String::from_utf8_lossy(&out.stderr));
        stdout(&out).lines().map(|l| l.split('\t').next().unwrap_or_default().to_string()).collect::<Vec<_>>()
    };
    let engines = offered(&["arena", "elo", "--a", ""]);
    assert!(
        ["fhr", "nmp-adaptive", "multicut", "sf-dev"].iter().all(|e| engines.iter().any(|o| o == e)),
        "{engines:?}"
    );
    assert_eq!(offered(&["arena", "sprt", "--b", "sf"]), ["sf-dev"]);
    let books = offered(&["arena", "match", "--openings", ""]);
    assert!(["feldmann25", "noob_2moves", "mine.epd"].iter().all(|b| books.iter().any(|o| o == b)), "{books:?}");
    assert_eq!(offered(&["arena", "sprt", "--elo"]), ["--elo0", "--elo1"]);
    assert!(offered(&["arena", "report", "1", "--format", ""]).contains(&"markdown".to_string()));

    let said = stdout(&arena_ok(&dir, &["man", "pages"]));
    assert!(said.starts_with("wrote "), "{said}");
    // Short help shows the flags most runs use, grouped; --help all of them.
    let short = stdout(&arena_ok(&dir, &["elo", "-h"]));
    let long = stdout(&arena_ok(&dir, &["elo", "--help"]));
    assert!(short.lines().count() < 50 && short.contains("--tc") && short.contains("Openings:"), "{short}");
    assert!(!short.contains("--affinity") && long.contains("--affinity") && long.contains("--set-aside-p"), "{long}");
    let help = stdout(&arena_ok(&dir, &["--help"]));
    // The commands `arena --help` lists (indented names before their text), and `help` itself.
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .collect();
    assert!(commands.len() >= 20 && commands.contains(&"elo") && commands.contains(&"man"), "{help}");
    for name in std::iter::once("arena".to_string()).chain(commands.iter().map(|c| format!("arena-{c}"))) {
        let page = std::fs::read_to_string(dir.join(format!("pages/man1/{name}.1"))).unwrap_or_default();
        assert!(page.contains(&format!(".TH {name} 1")), "{name}.1: {page:.200}");
    }
    let elo = std::fs::read_to_string(dir.join("pages/man1/arena-elo.1")).unwrap();
    assert!(elo.contains("\\-\\-tc") && elo.contains("\\-\\-openings"), "arena-elo.1 names its flags");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every relative link of the README and the guide names a file that exists
/// (anchors aside), the README stays a front door (at most 200 lines), and
/// the guide's SUMMARY lists every page of `docs/src`.
#[test]
fn the_readme_and_the_guide_link_only_to_files_that_exist() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(readme.lines().count() <= 200, "README.md has {} lines", readme.lines().count());
    let mut pages = vec![root.join("README.md")];
    let mut guide: Vec<String> = std::fs::read_dir(root.join("docs/src"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .collect();
    guide.sort();
    pages.extend(guide.iter().map(|name| root.join("docs/src").join(name)));
    let mut links = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for (_, rest) in text.match_indices("](").map(|(at, _)| ((), &text[at + 2..])) {
            let target = rest.split(')').next().unwrap().split('#').next().unwrap();
            if target.is_empty() || target.starts_with("http") {
                continue;
            }
            links += 1;
            let path = page.parent().unwrap().join(target);
            assert!(path.exists(), "{}: the link {target} names no file", page.display());
        }
    }
    assert!(links >= 20, "{links} links");
    let summary = std::fs::read_to_string(root.join("docs/src/SUMMARY.md")).unwrap();
    for name in guide.iter().filter(|n| *n != "SUMMARY.md") {
        assert!(summary.contains(&format!("({name})")), "SUMMARY.md does not list {name}");
    }
}

/// The words of a shell command line: spaces split, double and single
/// quotes group, as the examples write them.
fn shell_words(line: &str) -> Vec<String> {
    let (mut words, mut word, mut quote, mut started) = (Vec::new(), String::new(), None, false);
    for c in line.chars() {
        match (quote, c) {
            (None, '"' | '\'') => (quote, started) = (Some(c), true),
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                }
                started = false;
            }
            (_, c) => (word, started) = (word + &c.to_string(), true),
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// The `arena …` commands of a page's text: each an indented line,
/// continued by `\\`, its comment cut.
fn examples(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(command) = line.strip_prefix("    ").map(str::trim).filter(|l| l.starts_with("arena ")) else {
            continue;
        };
        let mut command = command.to_string();
        while command.ends_with('\\') {
            command.pop();
            command.push(' ');
            command.push_str(lines.next().unwrap_or_default().trim());
        }
        found.push(command.split(" #").next().unwrap_or_default().trim().to_string());
    }
    found
}

/// Every `arena …` command the README and the guide show as an example (an
/// indented line, continued by `\\`, comment cut) is one the binary takes:
/// clap parses it (typed values such as `--tc` and `--budgets` included),
/// and a fastchess or cutechess command line is one arena reads. Lines
/// with choices or elisions (`[…]`, `|`, `…`, `<…>`) are forms, not
/// examples; `RUN` and `DIR` stand for a run id and a folder.
#[test]
fn every_example_in_the_readme_and_the_guide_is_a_command_arena_takes() {
    use clap::Parser;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut pages = vec![root.join("README.md")];
    let mut guide: Vec<_> = std::fs::read_dir(root.join("docs/src")).unwrap().map(|e| e.unwrap().path()).collect();
    guide.sort();
    pages.extend(guide.into_iter().filter(|p| p.extension().is_some_and(|e| e == "md")));
    let (mut checked, mut wrong) = (0, Vec::new());
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        for command in examples(&text) {
            if command.contains(['[', ']', '|', '…', '<', '>']) {
                continue;
            }
            let words: Vec<String> =
                shell_words(&command).into_iter().map(|w| w.replace("RUN", "1").replace("DIR", "pages")).collect();
            checked += 1;
            let said = match arena::cli::Cli::try_parse_from(&words) {
                Err(e) if e.kind() == clap::error::ErrorKind::DisplayVersion => None,
                Err(e) => Some(e.to_string().lines().next().unwrap_or_default().to_string()),
                Ok(cli) => match cli.command {
                    arena::cli::Command::Fastchess(args) => {
                        arena::cli::dialect::read_only(arena::cli::dialect::Dialect::Fastchess, &args.words).err()
                    }
                    arena::cli::Command::Cutechess(args) => {
                        arena::cli::dialect::read_only(arena::cli::dialect::Dialect::Cutechess, &args.words).err()
                    }
                    _ => None,
                }
                .map(|e| e.to_string()),
            };
            if let Some(said) = said {
                wrong.push(format!("{}: {command}: {said}", page.display()));
            }
        }
    }
    assert!(checked >= 50, "{checked} examples");
    assert!(wrong.is_empty(), "examples the binary refuses:\n{}", wrong.join("\n"));
}

/// The README's five-minute tour runs, in order, in an empty folder, with
/// fast limits put in for its long ones: `--games` 2 (a suite: `--count`
/// 4), `--tc nodes=300`, budgets of 300 and 600 nodes (an extension: 1,200),
/// depths 2..3; `RUN` is the run the command before made. Left out: what
/// needs what the reader brings (`--repo`, a PostgreSQL `--db`, `engines.toml`'s
/// `dev`), `serve`, and installing.
/// The text of the guide's page `name` (`docs/src/NAME.md`).
fn guide_page(name: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    std::fs::read_to_string(root.join(format!("docs/src/{name}.md"))).unwrap()
}

/// Runs `commands` (an example's `arena …` lines) in `dir` with fast
/// limits in place of the page's long ones: two games, `nodes=300`, depths
/// 2..3 on four positions, a cap of four games; `RUN` is the run the last
/// command made (else 1). Returns the commands run, as run.
fn run_fast(dir: &std::path::Path, commands: &[String], what: &str) -> Vec<String> {
    run_fast_with(dir, commands, what, &[])
}

/// [`run_fast`] with `env` set for every command; an `sprt` without a
/// game cap gets one of four games.
fn run_fast_with(dir: &std::path::Path, commands: &[String], what: &str, env: &[(&str, String)]) -> Vec<String> {
    let bin = std::path::Path::new(ARENA).parent().unwrap();
    let path = format!("{}:/usr/games:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let (mut ran, mut last_run) = (Vec::new(), String::from("1"));
    for command in commands {
        let command = command.split(" > ").next().unwrap().trim().to_string();
        let words = shell_words(&command);
        let command_name = words.get(1).cloned().unwrap_or_default();
        let mut fast: Vec<String> = Vec::new();
        let mut rest = words.into_iter().skip(1);
        while let Some(word) = rest.next() {
            let replaced: Option<Vec<&str>> = match word.as_str() {
                "--games" => Some(vec!["--games", "2"]),
                "--max-games" => Some(vec!["--max-games", "4"]),
                "--tc" => Some(vec!["--tc", "nodes=300"]),
                "--budgets" if command_name == "extend" => Some(vec!["--budgets", "nodes=1200"]),
                "--budgets" => Some(vec!["--budgets", "nodes=300,nodes=600"]),
                "--depth" => Some(vec!["--depth", "2..3", "--count", "4"]),
                "--nodes" if command_name == "suite" => Some(vec!["--nodes", "300", "--count", "4"]),
                "-rounds" => Some(vec!["-rounds", "1"]),
                _ => None,
            };
            // fastchess's and cutechess's time control, one word.
            let word = match word.strip_prefix("tc=") {
                Some(_) => "nodes=300".to_string(),
                None => word,
            };
            match replaced {
                Some(words) => {
                    let _ = rest.next();
                    fast.extend(words.into_iter().map(String::from));
                }
                None if word == "RUN" => fast.push(last_run.clone()),
                None => fast.push(word),
            }
        }
        if fast.first().is_some_and(|c| c == "suite") && !fast.iter().any(|w| w == "--count") {
            fast.extend(["--count".into(), "4".into()]);
        }
        if fast.first().is_some_and(|c| c == "sprt") && !fast.iter().any(|w| w == "--max-games") {
            fast.extend(["--max-games".into(), "4".into()]);
        }
        let mut run = Command::new(ARENA);
        run.args(&fast).env("PATH", &path).current_dir(dir);
        for (name, value) in env {
            run.env(name, value);
        }
        let out = run.output().unwrap();
        assert!(
            out.status.success(),
            "{what}: `{command}` as `arena {}`: {}",
            fast.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        if let Some(run) = String::from_utf8_lossy(&out.stdout).lines().find_map(|l| l.strip_prefix("arena run ")) {
            last_run = run.split(':').next().unwrap_or("1").to_string();
        }
        ran.push(fast.first().cloned().unwrap_or_default());
    }
    ran
}

#[test]
fn the_readmes_tour_runs_with_fast_limits() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let tour = readme.split("## A five-minute tour").nth(1).unwrap().split("\n## ").next().unwrap();
    let dir = temp_dir("tour");
    let commands: Vec<String> = examples(tour)
        .into_iter()
        .filter(|command| {
            let words = shell_words(command);
            !["--repo", "--db", "serve", "check"].iter().any(|skip| words.iter().any(|w| w == skip))
        })
        .collect();
    let ran = run_fast(&dir, &commands, "README's tour");
    for needed in ["elo", "show", "report", "sprt-calc", "scale", "extend", "tune", "suite", "moves", "prune"] {
        assert!(ran.iter().any(|r| r == needed), "the tour ran no `arena {needed}`: {ran:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The main example of each page of the guide that shows one it can run
/// here (a block marked `<!-- runs -->`) runs with fast limits, in an
/// empty folder; a block that names `RUN` gets a tournament of three
/// presets to report on first. The main examples of the source page,
/// "Coming from…", many machines and the dashboard need a repository,
/// programs, a PostgreSQL server or a server left running: tests of their
/// own below run them.
#[test]
fn each_pages_main_example_runs_with_fast_limits() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut pages = Vec::new();
    let entries = std::fs::read_dir(root.join("docs/src")).unwrap().map(|e| e.unwrap().path());
    for page in entries.filter(|p| p.extension().is_some_and(|e| e == "md")) {
        let text = std::fs::read_to_string(&page).unwrap();
        for (n, block) in text.split("<!-- runs -->").skip(1).enumerate() {
            let name = page.file_stem().unwrap().to_string_lossy().to_string();
            let block = block.trim_start_matches('\n');
            let end = block.find("\n\n").unwrap_or(block.len());
            let commands = examples(&block[..end]);
            assert!(!commands.is_empty(), "{name}: a block marked runs has no `arena …` line");
            let dir = temp_dir(&format!("runs-{name}-{n}"));
            if commands.iter().any(|c| shell_words(c).iter().any(|w| w == "RUN")) {
                let setup = ["arena tournament --engines fhr,plain,nmp2 --games 2 --tc nodes=300".to_string()];
                run_fast(&dir, &setup, &format!("{name}: a run to report on"));
            }
            run_fast(&dir, &commands, &name);
            let _ = std::fs::remove_dir_all(&dir);
            pages.push(name);
        }
    }
    pages.sort();
    assert_eq!(pages, ["engines", "reports", "suites-and-papers", "tuning"], "the pages whose main example runs");
}

/// The source page's one line (`arena sprt --repo ~/src/myengine --dev
/// feature-x --base master --build "make -j EXE={exe}" …`) runs as written
/// but for fast limits, against a repository at `~/src/myengine` whose
/// makefile builds the test engine: master a random mover, feature-x one
/// that grabs material.
#[test]
fn the_source_pages_one_line_builds_and_plays_two_revisions() {
    use crate::source::{commit, git};
    let page = guide_page("source");
    let section = page.split("## One line").nth(1).unwrap().split("\n## ").next().unwrap();
    let commands = examples(section);
    assert_eq!(commands.len(), 1, "{commands:?}");
    let home = temp_dir("source-page");
    let repo = home.join("src/myengine");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "master"]);
    std::fs::write(
        repo.join("Makefile"),
        "all:\n\tsed \"s|@FAKE@|$(FAKE_ENGINE)|\" engine.sh > $(EXE) && chmod +x $(EXE)\n",
    )
    .unwrap();
    git(&repo, &["add", "Makefile"]);
    commit(&repo, 0, "echo 'Nodes searched : 1000'", "random mover");
    git(&repo, &["checkout", "-q", "-b", "feature-x"]);
    commit(&repo, 1000, "echo 'Nodes searched : 2000'", "grabs material");
    let dir = home.join("work");
    std::fs::create_dir_all(&dir).unwrap();
    let env = [("HOME", home.display().to_string()), ("ARENA_CACHE", home.join("cache").display().to_string())];
    let env = [env.as_slice(), &[("FAKE_ENGINE", crate::common::FAKE.to_string())]].concat();
    run_fast_with(&dir, &commands, "source.md's one line", &env);
    let report = stdout(&arena_ok(&dir, &["report", "1", "--format", "json"]));
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    let names: Vec<&str> =
        report["header"]["engines"].as_array().unwrap().iter().filter_map(|e| e["name"].as_str()).collect();
    assert_eq!(names, ["feature-x", "master"], "each engine named after its revision");
    assert_eq!(report["header"]["games_played"], 4, "the cap of four games");
    let _ = std::fs::remove_dir_all(&home);
}

/// The first example of "Coming from…", a fastchess command line, runs as
/// written but for fast limits, with `./dev` and `./base` the bundled
/// engine and a small EPD book as `UHO.epd`: one round, both games in its
/// PGN and in the run.
#[test]
fn the_coming_from_pages_fastchess_line_runs() {
    let page = guide_page("coming-from");
    let first = examples(&page).into_iter().next().unwrap();
    assert!(first.starts_with("arena fastchess "), "{first}");
    let dir = temp_dir("coming-from");
    for (name, preset) in [("dev", "fhr"), ("base", "plain")] {
        let script = dir.join(name);
        std::fs::write(&script, format!("#!/bin/sh\nexec '{ARENA}' engine-uci --pruning {preset}\n")).unwrap();
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    let book = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"e4 e5\";\n\
                rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - id \"d4 d5\";\n";
    std::fs::write(dir.join("UHO.epd"), book).unwrap();
    run_fast(&dir, &[first], "coming-from.md's fastchess line");
    let pgn = std::fs::read_to_string(dir.join("out.pgn")).unwrap();
    assert_eq!(pgn.matches("[White \"").count(), 2, "one round of two games:\n{pgn}");
    let show = stdout(&arena_ok(&dir, &["show", "1"]));
    assert!(show.contains("dev") && show.contains("base"), "{show}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The first block of "Many machines, one run", on a scratch PostgreSQL
/// schema: the run created with `--no-local` (fast limits), a worker that
/// plays it (with the owner's URL in place of the worker role's, and
/// `--run 1` so that it ends with the run), and `arena show` from anywhere.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_many_machines_pages_run_is_played_by_a_worker() {
    let server = std::env::var("ARENA_TEST_POSTGRES").unwrap_or_else(|_| db::TEST_POSTGRES_DEFAULT.to_string());
    let url = match db::scratch_postgres(&server.parse().unwrap(), "arena_docs_many_machines").await {
        Ok(db::Target::Postgres(url)) => url,
        Ok(other) => panic!("a scratch PostgreSQL target is no SQLite file: {other:?}"),
        Err(e) if std::env::var_os("CI").is_some() => panic!("CI needs a PostgreSQL server: {e}"),
        Err(e) => return eprintln!("skipping the many-machines page: {e}"),
    };
    let page = guide_page("many-machines");
    let page =
        page.replace("postgres://arena@db.lan/arena", &url).replace("postgres://arena_worker@db.lan/arena", &url);
    let block: Vec<&str> =
        page.lines().skip_while(|l| !l.starts_with("    ")).take_while(|l| !l.trim().is_empty()).collect();
    let commands = examples(&block.join("\n"));
    assert!(commands.len() == 2 && commands[0].starts_with("arena sprt"), "{commands:?}");
    let worker = block.iter().find_map(|l| l.split_once("arena worker ")).map(|(_, rest)| rest).unwrap();
    let dir = temp_dir("many-machines");
    run_fast(&dir, &commands[..1], "many-machines.md's run");
    let mut args = vec!["worker".to_string()];
    args.extend(shell_words(worker));
    args.extend(["--run".into(), "1".into()]);
    let out = Command::new(ARENA).args(&args).current_dir(&dir).output().unwrap();
    assert!(out.status.success(), "many-machines.md's worker: {}", String::from_utf8_lossy(&out.stderr));
    run_fast(&dir, &commands[1..], "many-machines.md's show");
    let report = stdout(&arena_ok(&dir, &["report", "1", "--format", "json", "--db", &url]));
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert_eq!(report["header"]["games_played"], 4, "the worker played the run to its cap");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The dashboard page's first line serves the runs of the folder's
/// database: the runs list and a run's page answer.
#[test]
fn the_dashboard_pages_first_line_serves_the_runs() {
    let page = guide_page("dashboard");
    let first = examples(&page).into_iter().next().unwrap();
    let words = shell_words(&first);
    assert_eq!(words[..2], ["arena", "serve"], "{first}");
    let dir = temp_dir("dashboard-page");
    run_fast(&dir, &["arena tournament --engines fhr,plain,nmp2 --games 2 --tc nodes=300".into()], "a run to serve");
    let args: Vec<&str> = words[2..].iter().map(String::as_str).collect();
    let (mut child, address) = crate::common::start_serve(&dir, &args);
    let (status, runs) = crate::common::http(address, "GET", "/", &[], "");
    let (run_status, run) = crate::common::http(address, "GET", "/runs/1", &[], "");
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(status, 200, "{runs}");
    assert!(runs.contains("<a href=\"/runs/1\">1</a>"), "{runs}");
    assert_eq!(run_status, 200, "{run}");
    assert!(run.contains("fhr") && run.contains("nmp2"), "{run}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The blocks of `page` marked `<!-- checked -->`: each `$ arena …` line
/// with the lines quoted after it, what that command prints.
fn checked_blocks(page: &str) -> Vec<Vec<(String, Vec<String>)>> {
    let mut blocks = Vec::new();
    let mut lines = page.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() != "<!-- checked -->" {
            continue;
        }
        while lines.peek().is_some_and(|l| l.trim().is_empty()) {
            lines.next();
        }
        let mut block: Vec<(String, Vec<String>)> = Vec::new();
        while let Some(quoted) = lines.next_if(|l| l.starts_with("    ")) {
            match quoted.trim().strip_prefix("$ ") {
                Some(command) => block.push((command.to_string(), Vec::new())),
                None => block.last_mut().expect("a checked block starts with `$ arena …`").1.push(quoted.trim().into()),
            }
        }
        blocks.push(block);
    }
    blocks
}

/// Output quoted in the README and the guide is what the binary prints: a
/// block marked `<!-- checked -->` is run, command by command, in an empty
/// folder, and each quoted line must appear in that command's output, in
/// order (`…` stands for any text). A test of this test: changing a quoted
/// word in such a block makes it fail.
#[test]
fn quoted_output_in_the_guide_is_what_the_binary_prints() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut pages = vec![root.join("README.md")];
    pages.extend(std::fs::read_dir(root.join("docs/src")).unwrap().map(|e| e.unwrap().path()));
    let bin = std::path::Path::new(ARENA).parent().unwrap();
    let path = format!("{}:/usr/games:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut checked = 0;
    for page in pages.iter().filter(|p| p.extension().is_some_and(|e| e == "md")) {
        let text = std::fs::read_to_string(page).unwrap();
        for (n, block) in checked_blocks(&text).into_iter().enumerate() {
            let dir = temp_dir(&format!("quoted-{}-{n}", page.file_stem().unwrap().to_string_lossy()));
            for (command, quoted) in block {
                let run = || Command::new("bash").arg("-c").arg(&command).env("PATH", &path).current_dir(&dir).output();
                let out = run().unwrap();
                let printed = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
                let mut lines = printed.lines();
                for line in &quoted {
                    let pattern = line.split('…').map(regex::escape).collect::<Vec<_>>().join(".*");
                    let pattern = regex::Regex::new(&format!("^{pattern}$")).unwrap();
                    assert!(
                        lines.any(|l| pattern.is_match(l.trim())),
                        "{}: `{command}` no longer prints (in this order)\n  {line}\nbut:\n{printed}",
                        page.display()
                    );
                    checked += 1;
                }
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    assert!(checked >= 8, "only {checked} quoted lines are checked");
}

/// engines.md's `engines.toml`, copied from the page as written, passes
/// `arena check` for both its engines on a machine with Debian's Stockfish.
#[test]
fn the_engines_page_engines_toml_passes_check_as_written() {
    if !std::path::Path::new("/usr/games/stockfish").exists() {
        assert!(std::env::var_os("CI").is_none(), "CI must install stockfish (see .ci/run)");
        return;
    }
    let page = guide_page("engines");
    let toml = page.split("```toml\n").nth(1).and_then(|rest| rest.split("```").next()).unwrap();
    let dir = temp_dir("engines-page-toml");
    std::fs::write(dir.join("engines.toml"), toml).unwrap();
    let out = crate::common::arena(&dir, &["check", "sf1500", "fhr-wide"]);
    let printed = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{printed}");
    for name in ["sf1500", "fhr-wide"] {
        assert!(
            printed.lines().any(|l| l.trim().starts_with(&format!("{name}: ")) && l.ends_with(" 0 fail")),
            "{printed}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// suites-and-papers.md's Bratko–Kopec table is what `arena suite
/// --engines plain,fhr --suite bk --depth 4..8` prints: every node total,
/// every share of plain's and every solved count (the engine is
/// deterministic at a fixed depth).
#[test]
fn the_bk_table_is_what_the_suite_prints() {
    let page = guide_page("suites-and-papers");
    let table: Vec<Vec<String>> = page
        .split("| depth | 4 | 5 | 6 | 7 | 8 |")
        .nth(1)
        .unwrap()
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split('|').map(|c| c.trim().to_string()).collect())
        .collect();
    let row = |name: &str| table.iter().find(|r| r[0] == name).unwrap_or_else(|| panic!("no row {name}"))[1..].to_vec();
    let dir = temp_dir("bk-table");
    arena_ok(&dir, &["suite", "--engines", "plain,fhr", "--suite", "bk", "--depth", "4..8", "--quiet"]);
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "1", "--format", "json"]))).unwrap();
    let cell = |engine: &str, depth: usize, key: &str| {
        let rows = json["rows"].as_array().unwrap();
        let found = rows.iter().find(|r| r["engine"] == engine && r["limit"] == format!("depth {depth}"));
        found.unwrap_or_else(|| panic!("{engine} depth {depth}: {json}"))[key].clone()
    };
    let thousands = |n: u64| {
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    for (k, depth) in (4..=8).enumerate() {
        let nodes = |engine: &str| cell(engine, depth, "nodes").as_u64().unwrap();
        assert_eq!(row("plain")[k], thousands(nodes("plain")), "plain at depth {depth}");
        assert_eq!(row("fhr")[k], thousands(nodes("fhr")), "fhr at depth {depth}");
        let share = 100.0 * nodes("fhr") as f64 / nodes("plain") as f64;
        assert_eq!(row("fhr / plain")[k], format!("{share:.0} %"), "share at depth {depth}");
        let solved = |engine: &str| cell(engine, depth, "solved").as_u64().unwrap();
        assert_eq!(row("solved plain / fhr")[k], format!("{} / {}", solved("plain"), solved("fhr")), "depth {depth}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// What `--help` states as a default is what a run given no such flag
/// records: a match's clock, concurrency, adjudication, book (shuffled with
/// a seed kept in the run) and 100 games; an elo run's feldmann25 in file
/// order.
#[test]
fn help_states_the_defaults_the_binary_uses() {
    let dir = temp_dir("help-defaults");
    let help = stdout(&arena_ok(&dir, &["match", "--help"]));
    let config = |run: &str| stdout(&arena_ok(&dir, &["show", run, "--config"]));
    let flag = |config: &str, key: &str| {
        config.lines().find_map(|l| l.strip_prefix(&format!("{key} = "))).map(|v| v.trim_matches('"').to_string())
    };
    arena_ok(&dir, &["match", "--a", "fhr", "--b", "plain", "--games", "2", "--quiet"]);
    let first = config("1");
    for (key, stated) in [
        ("tc", "2+0.02"),
        ("concurrency", "2"),
        ("draw", "movenumber=40,movecount=8,score=10"),
        ("resign", "movecount=3,score=1000,twosided=true"),
        ("maxmoves-score", "200"),
    ] {
        assert!(help.contains(&format!("[default: {stated}")), "match --help states no default {stated} for {key}");
        assert_eq!(flag(&first, key).as_deref(), Some(stated), "{key}: {first}");
    }
    assert!(help.contains("arena sprt, match and tune: noob_2moves, shuffled]"), "{help}");
    assert_eq!(flag(&first, "openings").as_deref(), Some("noob_2moves"), "{first}");
    assert!(flag(&first, "seed").is_some(), "shuffled with a new seed, kept in the run: {first}");
    assert!(help.contains("[default: 100]"), "{help}");
    arena_ok(&dir, &["match", "--a", "fhr", "--b", "plain", "--tc", "nodes=50", "--quiet"]);
    assert_eq!(flag(&config("2"), "games").as_deref(), Some("100"));
    let elo_help = stdout(&arena_ok(&dir, &["elo", "--help"]));
    assert!(elo_help.contains("[default: feldmann25;"), "{elo_help}");
    assert!(elo_help.contains("without it a book given with --openings plays in file order"), "{elo_help}");
    arena_ok(&dir, &["elo", "--a", "fhr", "--b", "plain", "--games", "2", "--tc", "nodes=50", "--quiet"]);
    let elo = config("3");
    assert_eq!((flag(&elo, "openings").as_deref(), flag(&elo, "seed")), (Some("feldmann25"), None), "{elo}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The project speaks of itself, not of how it was made: no tracked text
/// file names the stretches of work behind it (the words are built below,
/// so that this file does not hold them); a measurement carries its date,
/// commit and machine instead. A line naming a Unix process group or
/// PostgreSQL's advisory lock uses one of the words technically and is
/// left alone.
#[test]
fn no_tracked_text_speaks_of_how_the_project_was_made() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let listed = Command::new("git").args(["ls-files", "-z"]).current_dir(root).output().unwrap();
    if !listed.status.success() {
        assert!(std::env::var_os("CI").is_none(), "CI runs in a checkout");
        eprintln!("skipping: not a git checkout");
        return;
    }
    let technical = ["advisory", "pgrp", "setsid"];
    let (work, seat) = (["sess", "ion"].concat(), ["sitt", "ing"].concat());
    let making_words = [work.clone(), format!("{work}s"), seat.clone(), format!("{seat}s")];
    let mut found = Vec::new();
    for path in String::from_utf8_lossy(&listed.stdout).split('\0').filter(|p| !p.is_empty()) {
        let Ok(text) = std::fs::read_to_string(format!("{root}/{path}")) else { continue };
        for (number, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).collect();
            let making = words.iter().any(|w| making_words.iter().any(|m| m == w));
            if making && !technical.iter().any(|t| lower.contains(t)) {
                found.push(format!("{path}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "words of the making process:\n{}", found.join("\n"));
}

/// BENCHMARKS.md holds today's figures, each with what reproduces it:
/// every section with a table (but the dated history at its end) names a
/// commit, a date and the command that measured it, and the file stays
/// under 1,000 lines (the history takes a line a change).
#[test]
fn every_benchmark_table_names_its_command_commit_and_date() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../BENCHMARKS.md")).unwrap();
    assert!(text.lines().count() < 1000, "BENCHMARKS.md has {} lines", text.lines().count());
    let commit = regex::Regex::new(r"commits? [0-9a-f]{7}|\b[0-9a-f]*[a-f][0-9a-f]*\b").unwrap();
    let hash = |word: &str| word.len() >= 7 && word.chars().any(|c| c.is_ascii_digit());
    let date = regex::Regex::new(r"20\d\d-\d\d-\d\d").unwrap();
    let command =
        regex::Regex::new(r"`(cargo|arena|bench/|python3|C_CHESS_CLI|PGBOUNCER)[^`]*`|\n    (cargo|arena|bench)")
            .unwrap();
    let mut sections = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        if line.starts_with("## ") || line.starts_with("### ") {
            sections.push(std::mem::take(&mut current));
        }
        current.push_str(line);
        current.push('\n');
    }
    sections.push(current);
    let mut wanting = Vec::new();
    let mut tables = 0;
    for section in sections.iter().filter(|s| s.starts_with("#") && !s.starts_with("## History")) {
        if !section.lines().any(|l| l.starts_with('|')) {
            continue;
        }
        tables += 1;
        let named = commit.find_iter(section).any(|m| m.as_str().starts_with("commit") || hash(m.as_str()));
        if !(named && date.is_match(section) && command.is_match(section)) {
            wanting.push(section.lines().next().unwrap_or_default().to_string());
        }
    }
    assert!(tables >= 20, "{tables} sections with a table");
    assert!(wanting.is_empty(), "sections without their command, commit or date:\n{}", wanting.join("\n"));
}
