//! The page and the vendored board components, embedded at build time
//! (see `build.rs`): no file is read from disk at run time.

/// Every file under `assets/`, by its path there.
pub static FILES: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The file at `path` (relative to `assets/`) and its content type.
/// Preact's sources import each other without the `.js` ending, so a
/// path without an extension also finds `path.js`.
pub fn get(path: &str) -> Option<(&'static [u8], &'static str)> {
    let find = |p: &str| FILES.iter().find(|(name, _)| *name == p).map(|(_, b)| *b);
    let (bytes, path) = match find(path) {
        Some(b) => (b, path.to_string()),
        None => {
            let last = path.rsplit('/').next().unwrap_or(path);
            if last.contains('.') {
                return None;
            }
            let js = format!("{path}.js");
            (find(&js)?, js)
        }
    };
    Some((bytes, content_type(&path)))
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "md" | "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_page_and_its_components_are_embedded() {
        assert!(super::get("index.html").is_some());
        assert!(super::get("app.js").is_some());
        assert!(super::get("vendor/chessgroundx/chessground.js").is_some());
        assert!(super::get("vendor/shudan/src/main.js").is_some());
        assert_eq!(
            super::get("vendor/preact/src/render").map(|(_, t)| t),
            Some("text/javascript; charset=utf-8")
        );
        assert!(super::get("../Cargo.toml").is_none());
        assert!(super::get("nothing.js").is_none());
    }
}
