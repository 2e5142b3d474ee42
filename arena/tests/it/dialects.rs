//! arena behind the command lines of fastchess and cutechess-cli: a
//! command line of the shape fishtest's worker builds, run through a link
//! named `fastchess`, read by fishtest's and OpenBench's own parsing
//! (tests/scripts/foreign_parsers.py) gives the counts of `arena report`
//! and of the PGN; a cutechess-cli SPRT on a Polyglot book prints
//! cutechess's lines; what arena cannot honour is one line, nothing stored.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common::{ARENA, arena, arena_ok, assert_refused, have_python, stdout, temp_dir};

/// Eight openings of two plies each (the papers' kind).
const BOOK: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n\
rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n\
rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2\n\
rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2\n\
rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n\
rnbqkbnr/pp1ppppp/2p5/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n\
rnbqkbnr/pppppp1p/6p1/8/2P5/8/PP1PPPPP/RNBQKBNR w KQkq - 0 2\n\
rnbqkbnr/ppp1pppp/8/3p4/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 2\n";

/// The parsers' reading of `out`'s standard output.
fn parsed(out: &Output) -> serde_json::Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/foreign_parsers.py");
    let mut child = Command::new("python3").arg(script).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &out.stdout).unwrap();
    let done = child.wait_with_output().unwrap();
    assert!(done.status.success());
    serde_json::from_slice(&done.stdout).unwrap()
}

/// What OpenBench's version check reads in `out` against `minimum`.
fn version_as_openbench_reads_it(out: &Output, minimum: &str) -> serde_json::Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/foreign_parsers.py");
    let mut child = Command::new("python3")
        .arg(script)
        .args(["--version", minimum])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &out.stdout).unwrap();
    let done = child.wait_with_output().unwrap();
    assert!(done.status.success());
    serde_json::from_slice(&done.stdout).unwrap()
}

/// An engine of the command line: arena's bundled one with `preset`.
fn engine(name: &str, preset: &str) -> Vec<String> {
    ["-engine", &format!("name={name}"), &format!("cmd={ARENA}"), "dir=."]
        .iter()
        .map(ToString::to_string)
        .chain([format!("args=engine-uci --pruning {preset}"), "option.Hash=16".into()])
        .collect()
}

/// `tool`'s command line of dev (nmp2) against base (plain), then `rest`.
fn dev_against_base(tool: &str, rest: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = vec![tool.into()];
    args.extend(engine("dev", "nmp2"));
    args.extend(engine("base", "plain"));
    args.extend(rest.iter().map(ToString::to_string));
    args
}

/// W, D, L and the pentanomial of run 1 as `arena report --format json` gives them.
fn reported(dir: &Path) -> (u64, u64, u64, Vec<u64>) {
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&arena_ok(dir, &["report", "1", "--format", "json"]))).unwrap();
    let stats = &json["pairings"][0]["statistics"];
    let count = |key: &str| stats[key].as_u64().unwrap();
    let ptnml =
        stats["pentanomial"].as_array().map(|p| p.iter().map(|c| c.as_u64().unwrap()).collect()).unwrap_or_default();
    (count("wins"), count("draws"), count("losses"), ptnml)
}

/// Wins, draws and losses of `name` in a PGN file, from its Result tags.
fn pgn_counts(pgn: &str, name: &str) -> (u64, u64, u64) {
    let (mut white, mut counts) = (String::new(), (0, 0, 0));
    for line in pgn.lines() {
        if let Some(w) = line.strip_prefix("[White \"") {
            white = w.trim_end_matches("\"]").to_string();
        }
        if let Some(result) = line.strip_prefix("[Result \"") {
            match (result.trim_end_matches("\"]"), white == name) {
                ("1-0", true) | ("0-1", false) => counts.0 += 1,
                ("1/2-1/2", _) => counts.1 += 1,
                _ => counts.2 += 1,
            }
        }
    }
    counts
}

#[test]
fn fishtest_and_openbench_read_arena_as_they_read_fastchess() {
    if !have_python("json") {
        return;
    }
    let dir = temp_dir("dialect-fastchess");
    std::fs::write(dir.join("book.epd"), BOOK).unwrap();
    let link = dir.join("fastchess");
    std::os::unix::fs::symlink(ARENA, &link).unwrap();
    // As fishtest's worker (worker/games.py) builds it, with node limits for speed.
    let mut args: Vec<String> = "-testEnv -recover -repeat -games 2 -rounds 6 -ratinginterval 1 -scoreinterval 1 \
         -autosaveinterval 0 -report penta=true -pgnout file=out.pgn append=false match_line=^info\\sdepth -crc32 pgn=true \
         -site https://tests.stockfishchess.org/tests/view/1 -event Batch-1 -srand 1234 \
         -resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20 -variant standard -concurrency 2 \
         -openings file=book.epd format=epd order=random plies=16 start=1 -check-mate-pvs"
        .split_whitespace()
        .map(ToString::to_string)
        .collect();
    args.extend(engine("New-1a2b3c4d5e", "nmp2"));
    args.extend(["tc=inf".to_string(), "nodes=500".to_string()]);
    args.extend(engine("Base-1a2b3c4d5e", "plain"));
    args.extend(["tc=inf", "nodes=500", "-each", "proto=uci"].map(String::from));
    let out = Command::new(&link).args(&args).current_dir(&dir).output().unwrap();
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("Started game 1 of 12 (New-1a2b3c4d5e vs Base-1a2b3c4d5e)"), "{text}");
    assert!(text.contains("Results of New-1a2b3c4d5e vs Base-1a2b3c4d5e (500 nodes, NULL, 16MB, book.epd):"), "{text}");
    let read = parsed(&out);
    let (fishtest, openbench) = (&read["fishtest"], &read["openbench"]);
    assert_eq!(fishtest["finished_match"], true, "{text}");
    assert_eq!(read["started"], 12);
    let (w, d, l, ptnml) = reported(&dir);
    let wld = &fishtest["wld"];
    assert_eq!(
        (wld["wins"].as_u64(), wld["draws"].as_u64(), wld["losses"].as_u64()),
        (Some(w), Some(d), Some(l)),
        "{text}"
    );
    assert_eq!(wld["games"], 12);
    assert_eq!(fishtest["ptnml"], serde_json::json!(ptnml), "{text}");
    // OpenBench pairs games 2k-1 and 2k itself: the same pentanomial, and its trinomial is L, D, W.
    assert_eq!(openbench["pentanomial"], serde_json::json!(ptnml), "{text}");
    assert_eq!(openbench["trinomial"], serde_json::json!([l, d, w]));
    assert_eq!(openbench["unpaired"], 0);
    // The PGN says the same, and the CRC32 printed is the file's.
    let pgn = std::fs::read(dir.join("out.pgn")).unwrap();
    assert_eq!(pgn_counts(&String::from_utf8_lossy(&pgn), "New-1a2b3c4d5e"), (w, d, l));
    // match_line: engine moves carry the last `info depth` line of their search, its PV starting with the move.
    let pgn_text = String::from_utf8_lossy(&pgn);
    let kept: Vec<&str> = pgn_text.split("line=\"").skip(1).map(|rest| rest.split('"').next().unwrap()).collect();
    assert!(kept.len() > 100 && kept.iter().all(|line| line.starts_with("info depth ")), "{pgn_text}");
    let crc = Command::new("python3")
        .args(["-c", "import sys, zlib; print(hex(zlib.crc32(open(sys.argv[1], 'rb').read())))"])
        .arg(dir.join("out.pgn"))
        .output()
        .unwrap();
    assert_eq!(fishtest["crc"].as_str(), Some(stdout(&crc).trim()), "{text}");
    // A run like any other: shown, and its flags written back as arena's.
    let shown = stdout(&arena_ok(&dir, &["show", "1"]));
    assert!(shown.contains("New-1a2b3c4d5e") && shown.contains("12 games"), "{shown}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// OpenBench's client's own command line (Client/worker.py,
/// `build_runner_command`: basic, concurrency, adjudication, engine, book
/// and pgnout settings, in that order, split by `shlex`) through a link
/// named as it names the runner, `fastchess-ob`: engines in `Engines/` run
/// by `cmd=./NAME`, `st=… timemargin=250`, an option the engine lacks,
/// `-games 2` without `-repeat`, a random book walk from `start=` with
/// `-srand`, and `-pgnout … seldepth=true nodes=true match_line=…`. Its
/// reading of the output (ASCII, as it decodes each line) equals `arena
/// report`, and every engine move's comment has what its PGN formatter
/// (Client/pgn_util.py, `format_move_comment_verbose`) needs, so no move
/// is uploaded as `unknown`.
#[test]
fn openbench_s_own_command_line_plays_and_its_client_reads_it() {
    if !have_python("json") {
        return;
    }
    let dir = temp_dir("dialect-openbench");
    for sub in ["Engines", "Books", "PGNs"] {
        std::fs::create_dir(dir.join(sub)).unwrap();
    }
    std::fs::write(dir.join("Books/book.epd"), BOOK).unwrap();
    for (name, preset) in [("Arena-1a2b3c4d", "nmp2"), ("Arena-5e6f7a8b", "plain")] {
        let script = format!("#!/bin/sh\nexec '{ARENA}' engine-uci --pruning {preset}\n");
        let path = dir.join("Engines").join(name);
        std::fs::write(&path, script).unwrap();
        let mut permissions = std::fs::metadata(&path).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
        std::fs::set_permissions(&path, permissions).unwrap();
    }
    let link = dir.join("fastchess-ob");
    std::os::unix::fs::symlink(ARENA, &link).unwrap();
    let command = "-recover -variant standard -testEnv -concurrency 2 -rounds 3 -games 2 \
        -resign movecount=3 score=400 -draw movenumber=40 movecount=8 score=10  \
        -engine dir=Engines/ cmd=./Arena-1a2b3c4d proto=uci st=0.02 timemargin=250 option.Threads=1 option.Hash=8 name=Arena-dev \
        -engine dir=Engines/ cmd=./Arena-5e6f7a8b proto=uci st=0.02 timemargin=250 option.Threads=1 option.Hash=8 name=Arena-base \
        -openings file=Books/book.epd format=epd order=random start=3 -srand 77";
    let mut args: Vec<String> = command.split_whitespace().map(ToString::to_string).collect();
    // shlex.split of `-pgnout file=… match_line='^info string pgncomment .*'`: the quoted value is one word.
    args.extend(
        [
            "-pgnout",
            "file=PGNs/1700000000.0.pgn",
            "seldepth=true",
            "nodes=true",
            "match_line=^info string pgncomment .*",
        ]
        .map(String::from),
    );
    let out = Command::new("./fastchess-ob").args(&args).current_dir(&dir).output().unwrap();
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_ascii(), "OpenBench decodes each line as ASCII: {text}");
    assert!(text.contains("Warning; Arena-dev doesn't have option Threads"), "{text}");
    let read = parsed(&out);
    let openbench = &read["openbench"];
    let (w, d, l, ptnml) = reported(&dir);
    assert_eq!(w + d + l, 6, "{text}");
    assert_eq!(openbench["pentanomial"], serde_json::json!(ptnml), "{text}");
    assert_eq!(openbench["trinomial"], serde_json::json!([l, d, w]), "{text}");
    assert_eq!(openbench["unpaired"], 0);
    // Client/pgn_util.py: its move pattern, and the four fields of a verbose comment.
    let pgn = std::fs::read_to_string(dir.join("PGNs/1700000000.0.pgn")).unwrap();
    assert_eq!(pgn_counts(&pgn, "Arena-dev"), (w, d, l));
    let mv = regex::Regex::new(r"\s*(?:\d+\.{1,3} )?([a-zA-Z0-9+=#*-]+) (?:\s*\{\s*([^}]*)\s*\})?").unwrap();
    let fields =
        [r"([+-]?M?\d+(?:\.\d+)?)/(\d+)", r"([\d.]+s)", r"n=(\d+)", r"sd=(\d+)"].map(|f| regex::Regex::new(f).unwrap());
    let (mut engine_moves, mut unknown) = (0, Vec::new());
    for game in pgn.split("[Event ").skip(1) {
        let movetext: String = game.lines().skip_while(|l| !l.is_empty()).collect::<Vec<_>>().join(" ");
        for caps in mv.captures_iter(&movetext) {
            let (token, comment) = (&caps[1], caps.get(2).map_or("", |c| c.as_str()).trim());
            // Results (`1/2-1/2` reads as `1`, `2-1`, `2`) and book moves.
            if !token.contains(|c: char| c.is_ascii_alphabetic()) || comment == "book" {
                continue;
            }
            engine_moves += 1;
            // A move the engine gave no score for: fastchess writes an empty
            // score (`/5 0.010s`), which OpenBench cannot read either.
            let needed = if comment.starts_with('?') { &fields[1..] } else { &fields[..] };
            if !needed.iter().all(|f| f.is_match(comment)) {
                unknown.push(format!("{token} {{{comment}}}"));
            }
        }
    }
    assert!(engine_moves > 60, "{pgn}");
    assert!(unknown.is_empty(), "moves OpenBench uploads as unknown: {unknown:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_cutechess_sprt_on_a_polyglot_book_prints_cutechess_lines() {
    if !have_python("chess") {
        return;
    }
    let dir = temp_dir("dialect-cutechess");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/polyglot_book.py");
    let made = Command::new("python3").arg(&script).arg("write").arg(dir.join("small.bin")).output().unwrap();
    assert!(made.status.success());
    let mut args: Vec<String> = vec!["cutechess".into()];
    args.extend(engine("dev", "nmp2"));
    args.extend(engine("base", "plain"));
    args.extend(
        "-each proto=uci tc=inf nodes=400 book=small.bin bookdepth=4 -tournament round-robin -games 2 -rounds 5 -repeat \
         -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 -pgnout games.pgn min -concurrency 1"
            .split_whitespace()
            .map(ToString::to_string),
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = arena_ok(&dir, &args);
    let text = stdout(&out);
    let read = parsed(&out);
    let score = read["score"].as_array().unwrap_or_else(|| panic!("no Score of line: {text}"));
    let (w, d, l, _) = reported(&dir);
    assert_eq!(score[..4], [w, l, d, w + d + l].map(serde_json::Value::from), "{text}");
    assert_eq!((score[5].as_str(), score[6].as_str()), (Some("dev"), Some("base")));
    assert!(text.contains("Elo difference: ") && text.contains("SPRT: llr "), "{text}");
    assert!(text.lines().last() == Some("Finished match"), "{text}");
    // Five lines in the book: a deterministic run plays each once, and the PGN's moves are the book's.
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Result ").count() as u64, w + d + l);
    let checked = Command::new("python3")
        .arg(&script)
        .arg("check")
        .arg(dir.join("small.bin"))
        .arg(dir.join("games.pgn"))
        .output()
        .unwrap();
    assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn what_arena_cannot_honour_is_one_line() {
    let dir = temp_dir("dialect-refused");
    let base = |extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = vec!["fastchess".into()];
        args.extend(engine("a", "nmp2"));
        args.extend(engine("b", "plain"));
        args.extend(["-each", "tc=inf", "nodes=300", "-repeat", "-rounds", "2"].map(String::from));
        args.extend(extra.iter().map(ToString::to_string));
        args
    };
    let cases: [(&[&str], &str); 9] = [
        (&["-wait", "100"], "-wait: arena starts the next game at once"),
        (&["-noswap"], "-noswap: arena plays each opening twice"),
        (&["-log", "file=x.log"], "arena log RUN GAME"),
        (&["-frobnicate"], "-frobnicate is not an option arena knows"),
        (&["-sprt", "elo0=0", "elo1=5", "model=gaussian"], "-sprt model=gaussian: unknown SPRT model"),
        (&["-tournament", "knockout"], "round-robin or gauntlet"),
        (&["-pgnout", "file=x.pgn", "match_line=(?<=x)"], "match_line=(?<=x): not a regular expression"),
        (&["-each", "proto=xboard"], "UCI only"),
        (&["-openings", "file=b.pgn", "format=epd"], "format=epd but b.pgn"),
    ];
    for (extra, needle) in cases {
        let args = base(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_refused(&dir, &args, needle, "arena.db");
    }
    let odd = [
        "cutechess",
        "-engine",
        "cmd=nmp2",
        "-engine",
        "cmd=plain",
        "-each",
        "nodes=300",
        "-rounds",
        "3",
        "-games",
        "1",
        "-repeat",
    ];
    assert_refused(&dir, &odd, "arena plays them in pairs", "arena.db");
    // fastchess's --compliance: arena check of the program with its arguments.
    let checked = arena(&dir, &["fastchess", "--compliance", ARENA, "engine-uci", "--pruning", "fhr"]);
    let text = stdout(&checked);
    assert!(checked.status.success() && text.contains(" pass, 0 warn, 0 fail"), "{text}");
    assert_refused(&dir, &["fastchess", "--compliance", "./no-such-engine"], "no-such-engine", "arena.db");
    // The version, as OpenBench's client reads it (the spellings it tries
    // that fastchess answers; a bare `version` is a stray word to both):
    // fastchess 1.8.2, at least the 1.8.1 its server asks for.
    for option in ["--version", "-v", "-version"] {
        let version = arena(&dir, &["fastchess", option]);
        let text = stdout(&version);
        assert!(version.status.success() && text.starts_with("fastchess alpha 1.8.2 compatible (arena "), "{text}");
        let read = version_as_openbench_reads_it(&version, "1.8.1");
        assert_eq!((read["version"].as_str(), read["acceptable"].as_bool()), (Some("1.8.2"), Some(true)), "{text}");
    }
    let version = stdout(&arena(&dir, &["cutechess", "--version"]));
    assert!(version.starts_with("cutechess-cli 1.5.1 compatible (arena "), "{version}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// fastchess's way to continue: a run killed mid-way is played on by
/// `-config file=config.json`, the state file written when it started,
/// printing only the games played since and counting all of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_fastchess_run_continues_from_its_config_file() {
    let dir = temp_dir("dialect-config");
    let mut args: Vec<String> = vec!["fastchess".into()];
    args.extend(engine("a", "nmp2"));
    args.extend(engine("b", "plain"));
    args.extend(
        "-each tc=inf nodes=3000 -rounds 8 -repeat -concurrency 1 -openings file=book.epd -pgnout file=out.pgn"
            .split_whitespace()
            .map(String::from),
    );
    std::fs::write(dir.join("book.epd"), BOOK).unwrap();
    let mut child =
        Command::new(ARENA).args(&args).current_dir(&dir).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    crate::runs::wait_for_games(&dir.join("arena.db"), 4, &mut child).await;
    child.kill().unwrap();
    child.wait().unwrap();
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("config.json")).unwrap()).unwrap();
    assert_eq!(state["arena"]["run"], 1, "{state}");
    let db = db::Db::open(&db::Target::Sqlite(dir.join("arena.db"))).await.unwrap();
    let pairs_before = db.run(1).await.unwrap().pairs_done as u64;
    db.close().await;
    assert!(pairs_before < 8, "killed mid-run");

    // Only -concurrency may come with it; another option is one line.
    let refused = arena(&dir, &["fastchess", "-config", "file=config.json", "-rounds", "3"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).trim().lines().count() == 1);
    std::fs::write(dir.join("theirs.json"), r#"{"engines": [], "stats": {}}"#).unwrap();
    let theirs = arena(&dir, &["fastchess", "-config", "file=theirs.json"]);
    let said = String::from_utf8_lossy(&theirs.stderr);
    assert!(theirs.status.code() == Some(2) && said.contains("fastchess's own state"), "{said}");

    let out = arena(&dir, &["fastchess", "-config", "file=config.json", "-concurrency", "2"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let printed = text.lines().filter(|l| l.starts_with("Finished game ")).count() as u64;
    assert_eq!(printed, 16 - 2 * pairs_before, "only the games played since: {text}");
    let (w, d, l, ptnml) = reported(&dir);
    assert_eq!(w + d + l, 16);
    assert!(text.contains(&format!("Games: 16, Wins: {w}, Losses: {l}, Draws: {d},")), "{text}");
    let [a, b, c, e, f] = ptnml[..] else { panic!("{ptnml:?}") };
    assert!(text.contains(&format!("Ptnml(0-2): [{a}, {b}, {c}, {e}, {f}]")), "{text}");
    let pgn = std::fs::read_to_string(dir.join("out.pgn")).unwrap();
    assert_eq!(pgn_counts(&pgn, "a"), (w, d, l), "the PGN holds every game");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The two things a client reads besides the counts, as fastchess writes
/// them: `-pgnout` without `append=` adds to the file (two runs leave both
/// runs' games in it), each game's `Termination` is fastchess's
/// (`illegal move`, `time forfeit`), the way a game ended closes its last
/// move's comment (no comment stands apart), and fishtest's patterns, read
/// on standard output and standard error together as its worker reads
/// them, count each time loss once.
#[test]
fn a_tools_pgn_is_appended_to_and_each_fault_is_counted_once() {
    if !have_python("json") {
        return;
    }
    let dir = temp_dir("dialect-pgn");
    let link = dir.join("fastchess");
    std::os::unix::fs::symlink(ARENA, &link).unwrap();
    let fake = env!("CARGO_BIN_EXE_fake-engine");
    let play = |mode: &str, tc: &str| {
        let args = format!(
            "-engine name=bad cmd={fake} args={mode} -engine name=good cmd={fake} args=instant -each tc={tc} \
             -rounds 2 -games 2 -repeat -pgnout file=out.pgn -maxmoves 20 -db run-{mode}.db"
        );
        let out = Command::new(&link).args(args.split_whitespace()).current_dir(&dir).output().unwrap();
        assert!(out.status.success(), "{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
        out
    };
    play("illegal", "10+0.1");
    let out = play("hang", "0.3+0");
    let pgn = std::fs::read_to_string(dir.join("out.pgn")).unwrap();
    let tags = |name: &str| pgn.lines().filter(|l| l.starts_with(&format!("[{name} "))).collect::<Vec<_>>();
    assert_eq!(tags("Event").len(), 8, "both runs' games: {pgn}");
    let terminations = tags("Termination");
    assert_eq!(terminations[..4], ["[Termination \"illegal move\"]"; 4], "{pgn}");
    assert_eq!(terminations[4..], ["[Termination \"time forfeit\"]"; 4], "{pgn}");
    // Movetext: every comment follows a move, never another comment.
    let movetext: String = pgn.lines().filter(|l| !l.starts_with('[')).collect::<Vec<_>>().join(" ");
    for (at, _) in movetext.match_indices('{') {
        assert!(!movetext[..at].trim_end().ends_with('}'), "a comment apart: {}", &movetext[at.saturating_sub(80)..at]);
    }
    assert!(movetext.contains("loses on time: ") && movetext.contains("makes an illegal move"), "{movetext}");
    // fishtest reads both streams: each game lost on time counted once.
    let mut both = out.clone();
    both.stdout.extend_from_slice(&out.stderr);
    let read = parsed(&both);
    assert_eq!(read["fishtest"]["time_losses"], 4, "{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
    assert_eq!(read["fishtest"]["crashes"], 0);
}

/// A UCI engine in Python that plays the first legal move in sorted order,
/// importing a module that only its virtualenv holds.
const VENV_ENGINE: &str = r#"import sys
import chess
import venvonly

board = chess.Board()
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name " + venvonly.NAME, "uciok", sep="\n", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        at = words.index("moves") if "moves" in words else len(words)
        board = chess.Board() if words[1] == "startpos" else chess.Board(" ".join(words[2:at]))
        for move in words[at + 1:]:
            board.push_uci(move)
    elif words[0] == "go":
        move = sorted(m.uci() for m in board.legal_moves)[0]
        print("info depth 1 score cp 0 nodes 1", "bestmove " + move, sep="\n", flush=True)
    elif words[0] == "quit":
        break
"#;

/// An engine given as a virtualenv's python (a symbolic link to the base
/// interpreter, which finds the virtualenv's modules only when run by the
/// link's own path) is run as given, not through the link's target: the
/// game is played, the engine's name is the one its virtualenv gave it.
#[test]
fn an_engine_run_by_a_virtualenvs_python_plays() {
    if !have_python("chess") {
        return;
    }
    let dir = temp_dir("dialect-venv");
    let made = Command::new("python3")
        .args(["-m", "venv", "--system-site-packages", "--without-pip", "v"])
        .current_dir(&dir)
        .status()
        .unwrap();
    assert!(made.success(), "python3 -m venv");
    assert!(std::fs::symlink_metadata(dir.join("v/bin/python")).unwrap().file_type().is_symlink());
    let lib = std::fs::read_dir(dir.join("v/lib")).unwrap().next().unwrap().unwrap().path();
    std::fs::write(lib.join("site-packages/venvonly.py"), "NAME = \"venv-engine\"\n").unwrap();
    std::fs::write(dir.join("engine.py"), VENV_ENGINE).unwrap();
    let mut args: Vec<String> =
        ["fastchess", "-engine", "name=py", "cmd=./v/bin/python", "args=engine.py"].map(String::from).into();
    args.extend(engine("plain", "plain"));
    args.extend(
        ["-each", "tc=inf", "nodes=200", "-rounds", "1", "-games", "2", "-repeat", "-maxmoves", "10"].map(String::from),
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = arena_ok(&dir, &args);
    assert!(stdout(&out).contains("Finished game 2 "), "{}", stdout(&out));
    let json = stdout(&arena_ok(&dir, &["report", "1", "--format", "json"]));
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(report["header"]["games_played"], 2, "{json}");
    assert_eq!(report["pairings"][0]["statistics"]["games"].as_u64(), Some(2), "{json}");
    assert!(json.contains("v/bin/python"), "the command as given: {json}");
}

/// An option an engine does not declare, and a value outside an option's
/// bounds: fastchess's warning lines, which fishtest's own patterns read
/// (and stop the test for), and the games are played without them, as
/// fastchess plays them.
#[test]
fn an_option_an_engine_lacks_is_fastchess_s_warning_and_the_games_play() {
    let dir = temp_dir("dialect-missing-option");
    let args = dev_against_base(
        "fastchess",
        &[
            "-each",
            "tc=inf",
            "nodes=200",
            "option.NoSuchOption=3",
            "option.Move Overhead=-354",
            "-rounds",
            "1",
            "-repeat",
            "-maxmoves",
            "10",
        ],
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = arena_ok(&dir, &args);
    let said = stdout(&out);
    // fishtest's worker/games.py: re.compile(r"Warning;.*doesn't have option")
    let fishtest = regex::Regex::new(r"Warning;.*doesn't have option").unwrap();
    let warnings: Vec<&str> = said.lines().filter(|l| fishtest.is_match(l)).collect();
    assert_eq!(
        warnings,
        ["Warning; dev doesn't have option NoSuchOption", "Warning; base doesn't have option NoSuchOption"],
        "{said}"
    );
    // fishtest's worker/games.py: re.compile(r"Warning; Invalid value for option")
    let invalid = regex::Regex::new(r"Warning; Invalid value for option").unwrap();
    let warnings: Vec<&str> = said.lines().filter(|l| invalid.is_match(l)).collect();
    assert_eq!(warnings, ["Warning; Invalid value for option Move Overhead; -354"; 2], "{said}");
    assert!(said.contains("Finished game 2 "), "{said}");
}

/// A tool's command line plays with the tool's defaults and is answered in
/// the tool's flags: without `-concurrency` one game at a time (fastchess's
/// and cutechess-cli's default, not arena's 2), and a book too small for
/// the rounds under `nodes=` is capped with a note naming `-openings
/// file=`, not arena's `--openings`.
#[test]
fn a_tools_defaults_are_the_tools_and_its_notes_name_its_flags() {
    let dir = temp_dir("dialect-defaults");
    std::fs::write(dir.join("book.epd"), BOOK).unwrap();
    for tool in ["fastchess", "cutechess"] {
        let db = format!("{tool}.db");
        let args = dev_against_base(
            tool,
            &[
                "-each",
                "tc=inf",
                "nodes=200",
                "-openings",
                "file=book.epd",
                "format=epd",
                "-rounds",
                "10",
                "-games",
                "2",
                "-repeat",
                "-maxmoves",
                "8",
                "-db",
                &db,
            ],
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = arena_ok(&dir, &args);
        let said = String::from_utf8_lossy(&out.stderr);
        let note = said.lines().find(|l| l.contains("independent")).unwrap_or_else(|| panic!("{tool}: {said}"));
        assert!(note.contains("16 games per pairing, not 20"), "{tool}: {note}");
        assert!(note.contains("a larger book (-openings file=feldmann25: 25 openings)"), "{tool}: {note}");
        assert!(!note.contains("--openings"), "{tool}: {note}");
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let spec = runtime.block_on(async {
            let handle = db::Db::open(&db::Target::Sqlite(dir.join(&db))).await.unwrap();
            let info = handle.run(1).await.unwrap();
            handle.close().await;
            model::Spec::parse(1, info.kind, &info.spec).unwrap()
        });
        assert_eq!(spec.concurrency(), Some(1), "{tool}: one game at a time without -concurrency");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
