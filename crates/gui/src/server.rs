//! HTTP and WebSocket on one port. The page and its components are
//! served from the binary; `/ws` carries the game. Requests must name
//! this server as their `Host` (no DNS rebinding) and a WebSocket's
//! `Origin` must be this server's own page.

use crate::assets;
use crate::hub::Hub;
use crate::msg::{self, ServerMsg};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

#[derive(Clone)]
pub struct App {
    pub hub: Arc<Hub>,
    /// `127.0.0.1:PORT` and `localhost:PORT`: the hosts this server is.
    pub hosts: Arc<Vec<String>>,
}

impl App {
    pub fn new(hub: Arc<Hub>, addr: SocketAddr) -> App {
        let port = addr.port();
        let mut hosts = vec![format!("{}:{port}", addr.ip()), format!("localhost:{port}")];
        if addr.ip().is_loopback() {
            hosts.push(format!("127.0.0.1:{port}"));
        }
        App {
            hub,
            hosts: Arc::new(hosts),
        }
    }

    fn host_ok(&self, headers: &HeaderMap) -> bool {
        headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .is_some_and(|h| self.hosts.iter().any(|ok| ok == h))
    }

    fn origin_ok(&self, headers: &HeaderMap) -> bool {
        headers
            .get(header::ORIGIN)
            .and_then(|h| h.to_str().ok())
            .and_then(|o| o.strip_prefix("http://"))
            .is_some_and(|o| self.hosts.iter().any(|ok| ok == o))
    }
}

pub fn router(app: App) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/assets/{*path}", get(asset))
        .route("/ws", get(ws))
        .with_state(app)
}

const CSP: &str = "default-src 'self'; script-src 'self' 'unsafe-inline'; \
style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

fn file(bytes: &'static [u8], ctype: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(ctype)),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(CSP),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
        ],
        bytes,
    )
        .into_response()
}

fn refused(why: &'static str) -> Response {
    (StatusCode::FORBIDDEN, why).into_response()
}

async fn index(State(app): State<App>, headers: HeaderMap) -> Response {
    if !app.host_ok(&headers) {
        return refused("wrong Host");
    }
    match assets::get("index.html") {
        Some((b, t)) => file(b, t),
        None => (StatusCode::NOT_FOUND, "no page").into_response(),
    }
}

async fn asset(State(app): State<App>, headers: HeaderMap, Path(path): Path<String>) -> Response {
    if !app.host_ok(&headers) {
        return refused("wrong Host");
    }
    match assets::get(&path) {
        Some((b, t)) => file(b, t),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

async fn ws(State(app): State<App>, headers: HeaderMap, upgrade: WebSocketUpgrade) -> Response {
    if !app.host_ok(&headers) {
        return refused("wrong Host");
    }
    if !app.origin_ok(&headers) {
        return refused("wrong Origin");
    }
    upgrade
        .max_message_size(msg::MAX_CLIENT_MSG * 4)
        .on_upgrade(move |socket| session(app, socket))
}

/// One tab: the greeting, then its messages and everyone's broadcasts.
async fn session(app: App, mut socket: WebSocket) {
    let mut news = app.hub.subscribe();
    for text in app.hub.greeting() {
        if socket.send(Message::Text(text.into())).await.is_err() {
            return;
        }
    }
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let reply = match incoming {
                    None | Some(Err(_)) => return,
                    Some(Ok(Message::Text(text))) => {
                        let hub = Arc::clone(&app.hub);
                        let text = text.to_string();
                        let handled = tokio::task::spawn_blocking(move || {
                            msg::read(&text).and_then(|m| hub.handle(m))
                        })
                        .await;
                        match handled {
                            Ok(Ok(reply)) => reply,
                            Ok(Err(e)) => Some(ServerMsg::error(e).json()),
                            Err(e) => Some(ServerMsg::error(format!("internal error: {e}")).json()),
                        }
                    }
                    Some(Ok(Message::Binary(_))) => {
                        Some(ServerMsg::error("binary messages are not understood").json())
                    }
                    Some(Ok(Message::Close(_))) => return,
                    Some(Ok(_)) => None,
                };
                if let Some(text) = reply {
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        return;
                    }
                }
            }
            news_item = news.recv() => {
                let text = match news_item {
                    Ok(t) => t,
                    // Fell behind: the whole state again is enough.
                    Err(RecvError::Lagged(_)) => match app.hub.greeting().into_iter().nth(1) {
                        Some(t) => t,
                        None => continue,
                    },
                    Err(RecvError::Closed) => return,
                };
                if socket.send(Message::Text(text.into())).await.is_err() {
                    return;
                }
            }
        }
    }
}
