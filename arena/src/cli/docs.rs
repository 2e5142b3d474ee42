//! `arena completions` and `arena man`: shell completions and man pages,
//! generated from the same clap definitions that parse the command line, so
//! they cannot fall behind a flag.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, CommandFactory};

use super::Cli;
use super::shared::{CliResult, outln};

/// `arena completions`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    shell: clap_complete::Shell,
}

/// `arena man`.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// The folder to write the pages to (made if needed); install them with: man -M FOLDER arena.
    #[arg(default_value = ".")]
    dir: PathBuf,
}

/// `arena completions`: the script that has the shell ask `arena` itself
/// as the user types (what `COMPLETE=SHELL arena` prints), so that engine
/// names come from the folder's engines.toml.
pub(super) fn completions(args: &CompletionsArgs) -> CliResult {
    let name = args.shell.to_string();
    let shells = clap_complete::env::Shells::builtins();
    let shell = shells.completer(&name).ok_or_else(|| anyhow::anyhow!("no completion for the shell {name}"))?;
    let mut script = Vec::new();
    shell
        .write_registration(COMPLETE_VAR, "arena", "arena", "arena", &mut script)
        .context("cannot write the script")?;
    super::shared::write_out(format_args!("{}", String::from_utf8_lossy(&script)))
}

/// The environment variable through which the shell asks for completions.
pub const COMPLETE_VAR: &str = "COMPLETE";

/// Answers the shell's request for completions, if this process is one
/// (`COMPLETE` set), and exits; otherwise returns.
pub fn answer_completion_request() {
    clap_complete::CompleteEnv::with_factory(Cli::command).var(COMPLETE_VAR).complete();
}

/// `arena man`: `arena.1` and `arena-COMMAND.1` for each command users run.
pub(super) fn man(args: &ManArgs) -> CliResult {
    let folder = args.dir.join("man1");
    std::fs::create_dir_all(&folder).with_context(|| format!("cannot make {}", folder.display()))?;
    let cli = Cli::command();
    let mut pages = 0;
    let commands = cli.get_subcommands().filter(|c| !c.is_hide_set()).cloned().collect::<Vec<_>>();
    let named = commands.into_iter().map(|command| {
        let name = format!("arena-{}", command.get_name());
        (name.clone(), command.name(name))
    });
    for (name, page) in std::iter::once(("arena".to_string(), cli.clone())).chain(named) {
        let mut roff = Vec::new();
        clap_mangen::Man::new(page).render(&mut roff).context("cannot render a man page")?;
        let path = folder.join(format!("{name}.1"));
        std::fs::write(&path, roff).with_context(|| format!("cannot write {}", path.display()))?;
        pages += 1;
    }
    outln!("wrote {pages} man pages to {} (read them with: man -M {} arena)", folder.display(), args.dir.display());
    Ok(())
}
