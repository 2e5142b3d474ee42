//! `arena serve`: the dashboard over a database (see [`crate::serve`]).

use anyhow::anyhow;
use std::net::SocketAddr;
use std::time::Duration;

use clap::Args;
use model::Invalid;

use super::common::open_existing;
use super::shared::{CliResult, DbArg};
use crate::serve::{ServeConfig, run_dashboard};

/// `arena serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    #[command(flatten)]
    db: DbArg,
    /// Address and port to listen on (loopback by default; another address needs a --token to be safe).
    #[arg(long, default_value = "127.0.0.1:8080", value_parser = address)]
    listen: SocketAddr,
    /// Token that allows stop, resume and priority (default: $ARENA_TOKEN; without one the server is read-only).
    #[arg(long)]
    token: Option<String>,
    /// Seconds between refreshes of a page's live part.
    #[arg(long, default_value_t = 5.0, value_parser = refresh_seconds)]
    refresh: f64,
}

/// `--listen`: an address and port.
fn address(text: &str) -> Result<SocketAddr, Invalid> {
    text.parse()
        .map_err(|_| Invalid::new("listen", format!("'{text}' is not an address and port, e.g. 127.0.0.1:8080")))
}

/// `--refresh`: seconds, from 0.2 to an hour.
fn refresh_seconds(text: &str) -> Result<f64, Invalid> {
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && (0.2..=3600.0).contains(&seconds) => Ok(seconds),
        _ => Err(Invalid::new("refresh", "must be between 0.2 and 3600 seconds")),
    }
}

/// `arena serve`.
pub(super) async fn dashboard(args: ServeArgs) -> CliResult {
    let token = args.token.or_else(|| std::env::var("ARENA_TOKEN").ok());
    if token.as_deref().is_some_and(|t| t.trim().is_empty()) {
        return Err(anyhow!("the token is empty: give --token or ARENA_TOKEN a value, or neither (read-only)"));
    }
    let db = open_existing(&args.db.target).await?;
    let config = ServeConfig { listen: args.listen, token, refresh: Duration::from_secs_f64(args.refresh) };
    Ok(run_dashboard(db, config).await?)
}
