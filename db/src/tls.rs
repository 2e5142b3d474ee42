//! TLS to PostgreSQL as libpq verifies it, where sqlx's own TLS refuses:
//! a server whose certificate is self-signed and given to the client as
//! its `sslrootcert` (PostgreSQL's documentation makes one with `openssl
//! req -new -x509 … -subj "/CN=dbhost"`; libpq, through OpenSSL, takes such
//! a certificate as its own trust anchor). rustls's verifier refuses a
//! certificate that is an authority's (`CaUsedAsEndEntity`), and sqlx
//! offers no way to give it another verifier.
//!
//! So, for such a server only, this process carries the connection's TLS
//! itself: a [`Tunnel`] listens on a Unix socket in a private folder, and
//! each connection sqlx makes to it (unencrypted, inside this machine's
//! kernel) is carried to the server over TLS that this module sets up:
//! PostgreSQL's `SSLRequest`, then rustls with [`Pinned`], which accepts
//! what rustls's own verifier accepts, and beside it a self-signed
//! certificate that is byte for byte one of `sslrootcert`'s (pinned), in
//! its validity period and, under `verify-full`, naming the host (its
//! subject alternative names, else its common name, as libpq reads them).
//! A client certificate (`sslcert`, `sslkey`) is presented as sqlx would.

use std::io;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, OtherError, RootCertStore, SignatureScheme};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpStream, UnixListener};
use x509_cert::der::Decode;
use x509_cert::der::oid::ObjectIdentifier;

/// PostgreSQL's `SSLRequest`: length 8, code 80877103.
const SSL_REQUEST: [u8; 8] = [0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f];

/// X.520's commonName and X.509's subjectAltName extension.
const COMMON_NAME: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.4.3");
const SUBJECT_ALT_NAME: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.17");

/// Why a certificate was refused beyond rustls's own reasons, as the
/// cause's text carries it (`tls_cause_in_words` puts it in words).
#[derive(Debug)]
pub(crate) enum Refusal {
    /// A self-signed (authority's) certificate that `sslrootcert` does not hold.
    NotPinned,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)
    }
}

impl std::error::Error for Refusal {}

/// How a connection is made: the server, its name as TLS checks it, the
/// client's configuration.
#[derive(Clone)]
pub(crate) struct Route {
    host: String,
    port: u16,
    name: ServerName<'static>,
    config: Arc<ClientConfig>,
}

/// The server's certificate checked as libpq checks it under `verify-ca`
/// (`names` false) or `verify-full`: the chain by rustls, or a pinned
/// self-signed certificate.
#[derive(Debug)]
struct Pinned {
    chains: Arc<WebPkiServerVerifier>,
    pinned: Vec<CertificateDer<'static>>,
    names: bool,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let refused = match self.chains.verify_server_cert(end_entity, intermediates, server_name, ocsp, now) {
            Ok(verified) => return Ok(verified),
            Err(e) => e,
        };
        match &refused {
            rustls::Error::InvalidCertificate(CertificateError::NotValidForName)
            | rustls::Error::InvalidCertificate(CertificateError::NotValidForNameContext { .. })
                if !self.names =>
            {
                Ok(ServerCertVerified::assertion())
            }
            rustls::Error::InvalidCertificate(CertificateError::Other(other))
                if other.0.downcast_ref::<webpki::Error>() == Some(&webpki::Error::CaUsedAsEndEntity) =>
            {
                if !self.pinned.iter().any(|trusted| trusted.as_ref() == end_entity.as_ref()) {
                    return Err(certificate_error(CertificateError::Other(OtherError(Arc::new(Refusal::NotPinned)))));
                }
                pinned_certificate_holds(end_entity, server_name, now, self.names)?;
                Ok(ServerCertVerified::assertion())
            }
            _ => Err(refused),
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider.signature_verification_algorithms.supported_schemes()
    }
}

fn certificate_error(error: CertificateError) -> rustls::Error {
    rustls::Error::InvalidCertificate(error)
}

/// A pinned certificate's own checks: in its validity period at `now`, and
/// (`names`) naming the host: a subject alternative name matching it, or,
/// when the certificate has no such extension, a common name equal to it
/// (libpq reads the common name only then).
fn pinned_certificate_holds(
    der: &CertificateDer<'_>,
    server_name: &ServerName<'_>,
    now: UnixTime,
    names: bool,
) -> Result<(), rustls::Error> {
    let cert =
        x509_cert::Certificate::from_der(der.as_ref()).map_err(|_| certificate_error(CertificateError::BadEncoding))?;
    let tbs = &cert.tbs_certificate;
    let now = now.as_secs();
    if now < tbs.validity.not_before.to_unix_duration().as_secs() {
        return Err(certificate_error(CertificateError::NotValidYet));
    }
    if now > tbs.validity.not_after.to_unix_duration().as_secs() {
        return Err(certificate_error(CertificateError::Expired));
    }
    if !names {
        return Ok(());
    }
    let has_alt_names = tbs.extensions.iter().flatten().any(|extension| extension.extn_id == SUBJECT_ALT_NAME);
    let matches = match has_alt_names {
        true => webpki::EndEntityCert::try_from(der)
            .is_ok_and(|cert| cert.verify_is_valid_for_subject_name(server_name).is_ok()),
        false => {
            let host = server_name.to_str();
            tbs.subject.0.iter().flat_map(|rdn| rdn.0.iter()).filter(|attribute| attribute.oid == COMMON_NAME).any(
                |attribute| std::str::from_utf8(attribute.value.value()).is_ok_and(|cn| cn.eq_ignore_ascii_case(&host)),
            )
        }
    };
    match matches {
        true => Ok(()),
        false => Err(certificate_error(CertificateError::NotValidForName)),
    }
}

/// What a PostgreSQL URL asks of TLS, read as libpq reads it: the URL's
/// query parameters first, then the URL's own host and port, then the
/// `PG*` variables (`env`), so that a URL naming its server is not
/// redirected by a `PGHOST` left in the environment.
struct Asked {
    host: String,
    port: u16,
    verify_full: bool,
    root_cert: Option<PathBuf>,
    client: Option<(PathBuf, PathBuf)>,
}

fn asked(url: &url::Url, env: impl Fn(&str) -> Option<String>) -> Result<Asked, String> {
    let query = |key: &str| url.query_pairs().find(|(k, _)| k == key).map(|(_, v)| v.into_owned());
    let param = |key: &str, variable: &str| query(key).or_else(|| env(variable)).filter(|v| !v.is_empty());
    let host = (query("host").filter(|h| !h.is_empty()))
        .or_else(|| url.host_str().filter(|h| !h.is_empty()).map(str::to_string))
        .or_else(|| env("PGHOST").filter(|h| !h.is_empty()))
        .unwrap_or_else(|| "localhost".into());
    let host = host.trim_start_matches('[').trim_end_matches(']').to_string();
    let port = match query("port").filter(|p| !p.is_empty()) {
        Some(port) => Some(port),
        None => url.port().map(|port| port.to_string()).or_else(|| env("PGPORT").filter(|p| !p.is_empty())),
    };
    let port = match port {
        Some(port) => port.parse().map_err(|_| format!("port '{port}' is not a port number"))?,
        None => 5432,
    };
    let verify_full = param("sslmode", "PGSSLMODE").as_deref() == Some("verify-full");
    let root_cert = param("sslrootcert", "PGSSLROOTCERT").map(PathBuf::from);
    let client = param("sslcert", "PGSSLCERT").zip(param("sslkey", "PGSSLKEY")).map(|(c, k)| (c.into(), k.into()));
    Ok(Asked { host, port, verify_full, root_cert, client })
}

/// The certificates of the PEM file `path`.
fn certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let read = CertificateDer::pem_file_iter(path).and_then(|certs| certs.collect::<Result<Vec<_>, _>>());
    match read {
        Ok(certs) if !certs.is_empty() => Ok(certs),
        Ok(_) => Err(format!("'{}' holds no certificate", path.display())),
        Err(e) => Err(format!("cannot read the certificates of '{}': {e}", path.display())),
    }
}

/// The route to the server `url` names, with [`Pinned`] checking its
/// certificate against `sslrootcert`'s.
pub(crate) fn route(url: &url::Url) -> Result<Route, String> {
    let asked = asked(url, |variable| std::env::var(variable).ok())?;
    let root_cert = asked.root_cert.ok_or("a self-signed server certificate needs sslrootcert=FILE naming it")?;
    let pinned = certificates(&root_cert)?;
    let mut roots = RootCertStore::empty();
    for cert in &pinned {
        // An authority's certificate that does not parse as one is still pinned.
        let _ = roots.add(cert.clone());
    }
    // The provider sqlx's own TLS uses (ring), deprecated by rustls for
    // lacking post-quantum key exchange, which its alternative (aws-lc-rs)
    // has at the price of a C and assembly build.
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let chains = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
        .build()
        .map_err(|e| format!("'{}': {e}", root_cert.display()))?;
    let verifier = Pinned { chains, pinned, names: asked.verify_full, provider: provider.clone() };
    let builder = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier));
    let config = match &asked.client {
        Some((cert, key)) => {
            let chain = certificates(cert)?;
            let key = PrivateKeyDer::from_pem_file(key)
                .map_err(|e| format!("cannot read the private key of '{}': {e}", key.display()))?;
            builder.with_client_auth_cert(chain, key).map_err(|e| format!("sslcert and sslkey: {e}"))?
        }
        None => builder.with_no_client_auth(),
    };
    let name = ServerName::try_from(asked.host.clone()).map_err(|_| format!("'{}' is not a host name", asked.host))?;
    Ok(Route { host: asked.host, port: asked.port, name, config: Arc::new(config) })
}

/// A TLS connection to the server along `route`: TCP, PostgreSQL's
/// `SSLRequest` and its `S`, then the handshake.
pub(crate) async fn connect(route: &Route) -> io::Result<tokio_rustls::client::TlsStream<TcpStream>> {
    let mut tcp = TcpStream::connect((route.host.as_str(), route.port)).await?;
    tcp.set_nodelay(true)?;
    tcp.write_all(&SSL_REQUEST).await?;
    let mut answer = [0u8; 1];
    tcp.read_exact(&mut answer).await?;
    if answer[0] != b'S' {
        return Err(io::Error::other("the server does not offer TLS (ssl = off)"));
    }
    tokio_rustls::TlsConnector::from(route.config.clone()).connect(route.name.clone(), tcp).await
}

/// Connections carried over TLS along a [`Route`]: a Unix socket in a
/// folder of its own (mode 0700) that sqlx connects to without TLS; a
/// thread of its own serves it, so that it outlives whichever runtime
/// opened the database. Dropped, it stops listening and removes the folder;
/// connections already carried end with their peers.
#[derive(Debug)]
pub(crate) struct Tunnel {
    folder: PathBuf,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Tunnel {
    /// Listens for the connections to `route`'s server (named, as
    /// PostgreSQL's socket is, `.s.PGSQL.PORT`).
    pub(crate) fn open(route: Route) -> io::Result<Tunnel> {
        let mut random = [0u8; 8];
        getrandom::fill(&mut random).map_err(|e| io::Error::other(e.to_string()))?;
        let suffix: String = random.iter().map(|b| format!("{b:02x}")).collect();
        let folder = std::env::temp_dir().join(format!("arena-tls-{}-{suffix}", std::process::id()));
        std::fs::DirBuilder::new().mode(0o700).create(&folder)?;
        let socket = folder.join(format!(".s.PGSQL.{}", route.port));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (ready, listening) = std::sync::mpsc::channel::<io::Result<()>>();
        std::thread::Builder::new().name("arena-tls".into()).spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                Ok(runtime) => runtime,
                Err(e) => return drop(ready.send(Err(e))),
            };
            runtime.block_on(serve(socket, route, stopped, ready));
        })?;
        let tunnel = Tunnel { folder, stop: Some(stop) };
        listening.recv().map_err(|_| io::Error::other("the TLS tunnel's thread ended"))??;
        Ok(tunnel)
    }

    /// The folder to give sqlx as the server's `host` (a socket folder).
    pub(crate) fn folder(&self) -> &Path {
        &self.folder
    }
}

impl Drop for Tunnel {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// The tunnel's loop: each connection accepted is carried to the server
/// until either side closes it; a failed connection to the server closes
/// the client's (sqlx then says it lost the connection, and the pool
/// tries again as it does for a server that went away).
async fn serve(
    socket: PathBuf,
    route: Route,
    mut stopped: tokio::sync::oneshot::Receiver<()>,
    ready: std::sync::mpsc::Sender<io::Result<()>>,
) {
    let listener = match UnixListener::bind(&socket) {
        Ok(listener) => listener,
        Err(e) => return drop(ready.send(Err(e))),
    };
    let _ = ready.send(Ok(()));
    loop {
        tokio::select! {
            _ = &mut stopped => return,
            accepted = listener.accept() => {
                let Ok((mut client, _)) = accepted else { continue };
                let route = route.clone();
                tokio::spawn(async move {
                    if let Ok(mut server) = connect(&route).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                        let _ = server.shutdown().await;
                    }
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The environment of these tests: a server and certificate elsewhere.
    fn env(variable: &str) -> Option<String> {
        let value = match variable {
            "PGHOST" => "elsewhere.lan",
            "PGPORT" => "6543",
            "PGSSLMODE" => "verify-ca",
            "PGSSLROOTCERT" => "/env/root.crt",
            _ => return None,
        };
        Some(value.to_string())
    }

    #[test]
    fn the_url_names_the_server_before_the_environment_does() {
        let url =
            url::Url::parse("postgres://w@db.lan:5433/arena?sslmode=verify-full&sslrootcert=/etc/ca.crt").unwrap();
        let named = asked(&url, env).unwrap();
        assert_eq!((named.host.as_str(), named.port, named.verify_full), ("db.lan", 5433, true));
        assert_eq!(named.root_cert, Some(PathBuf::from("/etc/ca.crt")));
        // A URL without them: the environment's, as libpq reads them.
        let bare = asked(&url::Url::parse("postgres:///arena").unwrap(), env).unwrap();
        assert_eq!((bare.host.as_str(), bare.port, bare.verify_full), ("elsewhere.lan", 6543, false));
        assert_eq!(bare.root_cert, Some(PathBuf::from("/env/root.crt")));
        // The query's host and port come first, and a bad port is one line.
        let query = url::Url::parse("postgres://w@db.lan/arena?host=other.lan&port=7000").unwrap();
        let queried = asked(&query, |_| None).unwrap();
        assert_eq!((queried.host.as_str(), queried.port), ("other.lan", 7000));
        let bad = url::Url::parse("postgres://w@db.lan/arena?port=x").unwrap();
        assert_eq!(asked(&bad, |_| None).err().as_deref(), Some("port 'x' is not a port number"));
    }
}
