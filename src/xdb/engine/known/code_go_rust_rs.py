"""Known mistakes in Rust code (clippy's restriction and pedantic lints, tokio's guides,
cargo-geiger, semgrep's rust rules). Go: ``code_go_rust``."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

# A test (where unwrap, expect and panic! are fine).
_TEST = r"#\[(?:cfg\(test\)|test|tokio::test|should_panic)"

PATTERNS: list[Pattern] = [
    pattern(
        "rust-unwrap",
        "unwrap | unwrap in production code | unwrap panicked | expect panicked | called "
        "unwrap on a None value | use ? instead of unwrap | unwrap on Err"
        " | instead of unwrapping | expect crashed",
        "rust",
        # A lock's unwrap (poisoning) is the accepted idiom.
        r"(?<!lock\(\))(?<!read\(\))(?<!write\(\))\.(?:unwrap\(\)|expect\(\s*(?:\"|&?format!))",
        _TEST,
        hits=(
            'let port: u16 = env::var("PORT").unwrap().parse().unwrap();',
            'let cfg = fs::read_to_string(path).expect("config missing");',
            "let user = users.get(&id).unwrap();",
        ),
        safe=(
            'let port: u16 = env::var("PORT")?.parse()?;',
            "let n = s.parse::<u32>().unwrap_or(0);",
            '#[test]\nfn parses() {\nassert_eq!(parse("1").unwrap(), 1);\n}',
            "let guard = state.lock().unwrap();",
        ),
    ),
    pattern(
        "rust-panic",
        "panic! macro | panic! in library | todo! left in | unimplemented! | panicked at | "
        "return an error instead of panic",
        "rust",
        r"\b(?:panic|todo|unimplemented)!\s*\(",
        _TEST + r"|\bfn main\(\)",
        hits=(
            'if n == 0 {\npanic!("empty batch");\n}',
            "fn refund(&self, id: OrderId) -> Result<()> {\ntodo!()\n}",
            '_ => unimplemented!("codec {}", c),',
        ),
        safe=(
            "if n == 0 {\nreturn Err(Error::EmptyBatch);\n}",
            '#[test]\n#[should_panic]\nfn rejects_empty() {\npanic!("boom");\n}',
            "_ => unreachable!(),",
            'log::error!("panic hook installed");',
        ),
    ),
    pattern(
        "rust-mutex-across-await",
        "MutexGuard held across await | mutex guard across .await | std Mutex in async | "
        "holding a lock across await | future is not Send mutex | tokio::sync::Mutex"
        " | lock guard across await",
        "rust",
        r"\blet\s+(?:mut\s+)?\w+\s*=\s*[\w.()]+\.(?:lock|read|write)\(\)\s*"
        r"(?:\.unwrap\(\)|\.expect\([^)]*\)|\?)?\s*;(?:(?!^\};$)[\s\S]){0,400}?\.await\b",
        r"\bdrop\(\s*\w+\s*\)\s*;",
        hits=(
            "let mut cache = self.cache.lock().unwrap();\nlet v = fetch(key).await?;\n"
            "cache.insert(key, v);",
            'let guard = state.write().expect("poisoned");\nclient.send(guard.msg.clone()).await?;',
            "let conns = POOL.lock()?;\ntokio::time::sleep(d).await;",
        ),
        safe=(
            "let v = {\nlet cache = self.cache.lock().unwrap();\ncache.get(&key).cloned()\n};",
            "let mut cache = self.cache.lock().await;\nlet v = fetch(key).await?;",
            "let guard = m.lock().unwrap();\nlet snapshot = guard.clone();\ndrop(guard);\n"
            "send(snapshot).await?;",
        ),
    ),
    pattern(
        "rust-blocking-in-async",
        "blocking call in async | blocking in async | std::thread::sleep in async | blocking "
        "the runtime | blocked the tokio runtime | std::fs in async fn | spawn_blocking",
        "rust",
        r"\basync\s+(?:fn\b|move\s*\{|\{|move\s*\|)[\s\S]{0,1000}?(?:\b(?:std::)?thread::"
        r"sleep\(|(?<!tokio::)(?<!async_std::)\b(?:std::)?fs::\w+\((?![^\n]*\.await)|"
        r"\bFile::(?:open|create)\((?![^\n]*\.await)|\breqwest::blocking::|"
        r"\.read_line\((?![^\n]*\.await))",
        r"\bspawn_blocking\(|\bblock_in_place\(",
        hits=(
            "async fn poll(&self) {\nloop {\nself.tick().await;\n"
            "std::thread::sleep(Duration::from_secs(1));\n}\n}",
            "pub async fn load(path: &Path) -> Result<Config> {\nlet text = "
            "std::fs::read_to_string(path)?;\nOk(toml::from_str(&text)?)\n}",
            "tokio::spawn(async move {\nlet body = reqwest::blocking::get(url)?.text()?;\n});",
        ),
        safe=(
            "pub async fn load(path: &Path) -> Result<Config> {\nlet text = "
            "tokio::fs::read_to_string(path).await?;\nOk(toml::from_str(&text)?)\n}",
            "async fn poll(&self) {\nloop {\nself.tick().await;\n"
            "tokio::time::sleep(Duration::from_secs(1)).await;\n}\n}",
            "fn load(path: &Path) -> Result<String> {\nOk(std::fs::read_to_string(path)?)\n}",
        ),
    ),
    pattern(
        "rust-block-on-in-async",
        "block_on inside async | block_on in async context | Cannot start a runtime from "
        "within a runtime | nested runtime | Runtime::new inside async",
        "rust",
        r"\basync\s+(?:fn\b|move\s*\{|\{)[\s\S]{0,1000}?(?:\bblock_on\(|\bRuntime::new\(\)|"
        r"\bBuilder::new_(?:current_thread|multi_thread)\(\))",
        r"\bspawn_blocking\(|\bblock_in_place\(",
        hits=(
            "async fn handler(req: Request) -> Response {\nlet rt = "
            "tokio::runtime::Runtime::new().unwrap();\nrt.block_on(fetch(req))\n}",
            "pub async fn sync_all(&self) {\nfutures::executor::block_on(self.flush());\n}",
            "tokio::spawn(async move {\nlet v = Handle::current().block_on(load());\n});",
        ),
        safe=(
            "fn main() {\nlet rt = tokio::runtime::Runtime::new().unwrap();\n"
            "rt.block_on(serve());\n}",
            "pub async fn sync_all(&self) {\nself.flush().await;\n}",
            "pub async fn sync_all(&self) {\ntokio::task::spawn_blocking(move || legacy_sync())"
            ".await?;\n}",
        ),
    ),
    pattern(
        "rust-unsafe",
        "unsafe block | unsafe fn | undocumented unsafe | SAFETY comment unsafe | unsafe "
        "without a safety comment"
        " | safety invariant | unsafe undefined behavior | from_utf8_unchecked",
        "rust",
        r"\bunsafe\s*\{|\bunsafe\s+(?:fn|impl)\b",
        r"//\s*SAFETY:|#\s*Safety",
        hits=(
            "let s = unsafe { std::str::from_utf8_unchecked(&buf) };",
            "unsafe impl Send for Handle {}",
            "pub unsafe fn from_raw(p: *mut Node) -> Box<Node> {",
        ),
        safe=(
            "// SAFETY: buf was validated as UTF-8 by parse_header above\n"
            "let s = unsafe { std::str::from_utf8_unchecked(&buf) };",
            "let s = std::str::from_utf8(&buf)?;",
            "#![forbid(unsafe_code)]",
        ),
    ),
    pattern(
        "rust-as-truncation",
        "as cast truncated | truncating cast | lossy cast | as u32 truncated | as i32 "
        "truncated | as u8 truncated | numeric cast overflow | cast_possible_truncation"
        " | as u16 | as u64 | as usize | checked conversion",
        "rust",
        r"\bas\s+(?:u8|u16|u32|i8|i16|i32)\b|"
        r"(?:\.(?:round|floor|ceil|trunc)\(\)|\d\.\d+\)?)\s*as\s+[iu](?:8|16|32|64|128|size)\b|"
        r"\.as_(?:millis|micros|nanos)\(\)\s*as\s+[iu](?:8|16|32|64|size)\b",
        r"\b(?:try_from|try_into)\b",
        hits=(
            "let n = items.len() as u32;",
            "let port = cfg.port as u16;",
            "let cents = (amount * 100.0).round() as i64;",
            "let b = code as u8;",
        ),
        safe=(
            "let n = u32::try_from(items.len())?;",
            "let ratio = done as f64 / total as f64;",
            "let idx = i as usize;",
        ),
    ),
    pattern(
        "rust-ignored-result",
        "let _ = ignored result | ignored Result | discarded Result | unused Result | "
        "must_use result ignored | error silently ignored | let _ result swallowed",
        "rust",
        r"^let\s+_\s*=\s*+(?![\w.]+\.(?:send|try_send)\()[^;]*\)\s*;|"
        r"^[\w.:()&]+\([^\n]*\)(?:\s*\.await)?\s*\.ok\(\);$",
        hits=(
            "let _ = fs::remove_file(&tmp_path);",
            'let _ = writeln!(out, "{}", line);',
            'conn.execute("DELETE FROM cache", []).ok();',
        ),
        safe=(
            "fs::remove_file(&tmp_path)?;",
            "let _ = tx.send(Event::Done);",
            "let _guard = span.enter();",
            'if let Err(e) = fs::remove_file(&tmp_path) {\nwarn!("cleanup failed: {e}");\n}',
        ),
    ),
    pattern(
        "rust-process-exit",
        "std::process::exit | process::exit skips drop | exit skipped destructors | "
        "destructors did not run | process::exit in library",
        "rust",
        r"\b(?:std::)?process::exit\(",
        r"\bfn main\(\)",
        hits=(
            "if args.is_empty() {\nstd::process::exit(2);\n}",
            'Err(e) => {\neprintln!("{e}");\nprocess::exit(1)\n}',
            "pub fn fail(msg: &str) -> ! {\nstd::process::exit(1)\n}",
        ),
        safe=(
            'fn main() {\nif let Err(e) = run() {\neprintln!("{e}");\nstd::process::exit(1);\n}\n}',
            'return Err(anyhow!("no args"));',
            "fn main() -> ExitCode {\nExitCode::from(2)\n}",
        ),
    ),
    pattern(
        "rust-sql-format",
        "SQL injection | format! SQL | SQL built with format! | sqlx query format | bind "
        "parameters instead of format",
        "rust",
        r"""(?i)(?:query|query_as|query_scalar|execute|prepare|batch_execute|sql_query)\w*"""
        r"""(?:::<[^>]*>)?\(\s*&?format!\(\s*"[^"]*\b(?:select|insert|update|delete|where)\b|"""
        r"""let\s+\w+\s*=\s*format!\(\s*"[^"]*(?:\bselect\s[^"]*\bfrom\b|\binsert\s+into\b|"""
        r"""\bupdate\s+\w+\s+set\b|\bdelete\s+from\b)[^"]*\{""",
        hits=(
            "let rows = sqlx::query(&format!(\"SELECT * FROM users WHERE name = '{}'\", name))"
            ".fetch_all(&pool).await?;",
            'let sql = format!("DELETE FROM sessions WHERE user_id = {uid}");',
            "client.execute(&format!(\"UPDATE accounts SET plan = '{}' WHERE id = $1\", plan), "
            "&[&id]).await?;",
        ),
        safe=(
            'let rows = sqlx::query("SELECT * FROM users WHERE name = $1").bind(&name)'
            ".fetch_all(&pool).await?;",
            'let msg = format!("user {} not found", name);',
            'let rows = sqlx::query!("SELECT id FROM users WHERE email = $1", email)'
            ".fetch_all(&pool).await?;",
        ),
    ),
    pattern(
        "rust-shell-injection",
        "command injection | shell injection | sh -c format | Command::new sh -c | shell "
        "command built with format!"
        " | bash -c format | shell invocation command",
        "rust",
        r'Command::new\(\s*"(?:/(?:usr/)?bin/)?(?:sh|bash|zsh|cmd|powershell)"\s*\)[\s\S]{0,120}?'
        r'\.args?\(\s*&?\[?\s*"(?:-l?c|/C|-Command)"[\s\S]{0,120}?format!|'
        r'\blet\s+(?P<c>\w+)\s*=\s*format!\([\s\S]{0,300}?Command::new\(\s*"(?:/(?:usr/)?bin/)?'
        r'(?:sh|bash|zsh|cmd|powershell)"\s*\)[\s\S]{0,120}?\.args?\(\s*&?\[?\s*"(?:-l?c|/C|'
        r'-Command)"\s*(?:,|\)\s*\.arg\()\s*&?(?P=c)\b',
        hits=(
            'Command::new("sh").arg("-c").arg(format!("git clone {} {}", url, dir)).status()?;',
            'let out = Command::new("bash")\n.args(["-c", &format!("tar xzf {path}")])\n'
            ".output()?;",
            'Command::new("cmd").args(&["/C", &format!("del {}", file)]).spawn()?;',
        ),
        safe=(
            'Command::new("git").args(["clone", &url, &dir]).status()?;',
            'Command::new("sh").arg("-c").arg("make release").status()?;',
            'let msg = format!("cloning {}", url);',
        ),
    ),
]
