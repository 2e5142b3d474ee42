//! `arena engines`: every engine known by name, with the options it declares.

use clap::Args;
use engine::search::pruning::PRESETS;

use super::shared::CliResult;
use super::shared::outln;

use crate::engine_io::process::{EngineProcess, Timeouts};

/// `arena engines`.
#[derive(Args, Debug)]
pub struct EnginesArgs {
    #[command(flatten)]
    registry: super::shared::EnginesFileArg,
}

/// `arena engines`.
pub(super) async fn list(args: EnginesArgs) -> CliResult {
    let registry = args.registry.load()?;
    let arena_exe = std::env::current_exe()?;
    outln!("bundled engine presets (combine with '+', e.g. nmp2+multicut): {}", PRESETS.join(", "));
    let mut shown_bundled = false;
    for name in registry.names() {
        let spec = registry.get(&name)?;
        let is_preset = spec.preset.is_some() && PRESETS.contains(&name.as_str());
        if is_preset && shown_bundled {
            continue;
        }
        let launch = spec.launch(&arena_exe);
        let what = match &spec.preset {
            Some(preset) => format!("bundled engine, preset {preset}"),
            None => format!("{} {}", spec.command, spec.args.join(" ")),
        };
        match EngineProcess::start(&spec, &launch, &[], None, Timeouts::default(), None).await {
            Ok(process) => {
                let title =
                    if is_preset { "bundled engine (all presets)".to_string() } else { format!("{name}: {what}") };
                outln!("\n{title}  [id name: {}]", process.id_name().unwrap_or("?"));
                for option in process.declared_options() {
                    let range = match (option.min, option.max) {
                        (Some(min), Some(max)) => format!(" {min}..{max}"),
                        _ => String::new(),
                    };
                    let vars =
                        if option.vars.is_empty() { String::new() } else { format!(" [{}]", option.vars.join(", ")) };
                    let default = option.default.as_deref().map(|d| format!(" default {d}")).unwrap_or_default();
                    outln!("  {:<24} {}{default}{range}{vars}", option.name, option.kind);
                }
                if !spec.options.is_empty() {
                    let set: Vec<String> = spec.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    outln!("  set by engines.toml: {}", set.join(", "));
                }
                process.quit(Timeouts::default().quit).await;
            }
            Err(e) => outln!("\n{name}: {what}\n  cannot start: {e}"),
        }
        shown_bundled |= is_preset;
    }
    Ok(())
}
