//! `arena serve`: the dashboard over a database (see [`crate::serve`]).

use anyhow::anyhow;
use std::net::SocketAddr;
use std::time::Duration;

use clap::Args;

use super::common::open_existing;
use super::{CliResult, DbArg};
use crate::serve::{ServeConfig, run_dashboard};

/// `arena serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    #[command(flatten)]
    db: DbArg,
    /// Address and port to listen on (loopback by default; another address needs a --token to be safe).
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: String,
    /// Token that allows stop, resume and priority (default: $ARENA_TOKEN; without one the server is read-only).
    #[arg(long)]
    token: Option<String>,
    /// Seconds between refreshes of a page's live part.
    #[arg(long, default_value_t = 5.0)]
    refresh: f64,
}

/// `arena serve`.
pub(super) async fn dashboard(args: ServeArgs) -> CliResult {
    let listen: SocketAddr = args
        .listen
        .parse()
        .map_err(|_| anyhow!("--listen '{}' is not an address and port, e.g. 127.0.0.1:8080", args.listen))?;
    let token = args.token.or_else(|| std::env::var("ARENA_TOKEN").ok());
    if token.as_deref().is_some_and(|t| t.trim().is_empty()) {
        return Err(anyhow!("the token is empty: give --token or ARENA_TOKEN a value, or neither (read-only)"));
    }
    if !(args.refresh.is_finite() && (0.2..=3600.0).contains(&args.refresh)) {
        return Err(anyhow!("--refresh must be between 0.2 and 3600 seconds"));
    }
    let db = open_existing(&args.db.target).await?;
    let config = ServeConfig { listen, token, refresh: Duration::from_secs_f64(args.refresh) };
    Ok(run_dashboard(db, config).await?)
}
