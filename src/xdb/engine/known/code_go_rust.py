"""Known mistakes in Go code (go vet, staticcheck, errcheck, errorlint, gosec, bodyclose).
Rust: ``code_go_rust_rs``."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

PATTERNS: list[Pattern] = [
    pattern(
        "go-ignored-error",
        "ignored error | ignoring the error | discarded error | error discarded with blank "
        "identifier | unchecked error | blank identifier error | errcheck error",
        "go",
        # v, _ := f() / _ = f() (comma-ok lookups excepted), or a bare call whose error is lost.
        r"^(?:\w+\s*,\s*)*_\s*:?=\s*(?!\w+\.(?:Load|LoadOrStore|LoadAndDelete)\(|"
        r"os\.LookupEnv\()[\w.]*\w\(|"
        r"^(?:os\.(?:Remove|RemoveAll|Mkdir|MkdirAll|WriteFile|Rename|Setenv|Chmod|Chdir|"
        r"Symlink)|\w+\.(?:Exec|ExecContext|Commit)|(?:json|xml|yaml)\.Unmarshal)\(",
        hits=(
            'n, _ := strconv.Atoi(r.URL.Query().Get("limit"))',
            "_ = json.Unmarshal(body, &cfg)",
            "_ = os.Remove(tmpPath)",
            "f, _ := os.Open(path)",
            "os.MkdirAll(outDir, 0o755)",
        ),
        safe=(
            "n, err := strconv.Atoi(s)\nif err != nil {\nreturn err\n}",
            "for _, item := range items {",
            "v, ok := m[key]",
            "if err := os.MkdirAll(outDir, 0o755); err != nil {\nreturn err\n}",
            "val, _ := cache.Load(key)",
            "_, err := w.Write(buf)",
        ),
    ),
    pattern(
        "go-json-unmarshal-unchecked",
        "json.Unmarshal error ignored | Unmarshal error unchecked | ignored Unmarshal error | "
        "Decode error ignored | unmarshal failed silently"
        " | unmarshal error check | unmarshal error unchecked",
        "go",
        r"^(?:_\s*=\s*)?\w+\.Unmarshal\(|^(?:_\s*=\s*)?\w+\.NewDecoder\([^)]*\)\.Decode\(",
        hits=(
            "json.Unmarshal(data, &resp)",
            "_ = yaml.Unmarshal(raw, &cfg)",
            "json.NewDecoder(r.Body).Decode(&req)",
        ),
        safe=(
            "if err := json.Unmarshal(data, &resp); err != nil {\nreturn err\n}",
            "if err := json.NewDecoder(r.Body).Decode(&req); err != nil {",
            "b, err := json.Marshal(v)",
        ),
    ),
    pattern(
        "go-resp-body-not-closed",
        "resp.Body.Close | response body not closed | close the response body | body never "
        "closed | leaked http connections | bodyclose linter",
        "go",
        r"\b\w+\s*,\s*\w+\s*:?=\s*(?:http|\w*[cC]lient|\w+\.(?:client|httpClient|http))\."
        r"(?:Get|Post|PostForm|Head|Do)\((?!ctx\b)|\b(?:res|resp|response|\w*Resp)\s*,\s*\w+\s*:?=\s*\w+\.Do\(",
        r"\.Body\.Close\(\)",
        hits=(
            "resp, err := http.Get(url)\nif err != nil {\nreturn err\n}\ndata, _ := "
            "io.ReadAll(resp.Body)",
            "res, err := client.Do(req)\nif res.StatusCode != 200 {",
            'r, err := s.client.Post(endpoint, "application/json", buf)',
        ),
        safe=(
            "resp, err := http.Get(url)\nif err != nil {\nreturn err\n}\ndefer resp.Body.Close()",
            "val, err := redisClient.Get(ctx, key).Result()",
            "req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)",
        ),
    ),
    pattern(
        "go-goroutine-no-wait",
        "goroutines without WaitGroup | sync.WaitGroup | wait for goroutines | goroutine not "
        "waited | main exited before goroutines | fire and forget goroutine | errgroup goroutines",
        "go",
        r"^for\b[^\n]*\{\n(?:[^\n]*\n){0,3}?go\s+(?:func\b|[\w.]+\()",
        # (an accept loop's per-connection goroutine is meant to run on)
        r"\bsync\.WaitGroup\b|\bwg\.\w+\(|\berrgroup\b|\.Wait\(\)|<-|\.Accept\(\)",
        hits=(
            "for _, u := range urls {\ngo fetch(u)\n}",
            "for i := 0; i < workers; i++ {\ngo func(id int) {\nprocess(id)\n}(i)\n}",
            'for _, job := range jobs {\nlog.Printf("start %s", job.ID)\ngo s.run(job)\n}\n'
            "return nil",
        ),
        safe=(
            "var wg sync.WaitGroup\nfor _, u := range urls {\nwg.Add(1)\ngo func(u string) {\n"
            "defer wg.Done()\nfetch(u)\n}(u)\n}\nwg.Wait()",
            "g, ctx := errgroup.WithContext(ctx)\nfor _, u := range urls {\ng.Go(func() error "
            "{ return fetch(ctx, u) })\n}",
            "for _, u := range urls {\nfetch(u)\n}",
            "for {\nconn, err := ln.Accept()\nif err != nil { continue }\ngo s.serve(conn)\n}",
        ),
    ),
    pattern(
        "go-loop-var-capture",
        "loop variable capture | loop variable captured by closure | goroutine captured loop "
        "variable | closure captures loop variable | all goroutines saw the last value | copy "
        "the loop variable",
        "go",
        r"^for\s+(?:\w+\s*,\s*)?(?P<v>\w+)\s*:=\s*range\b[^\n]*\n(?:[^\n]*\n){0,3}?"
        r"go\s+func\(\)\s*\{[\s\S]{0,300}?\b(?P=v)\b|"
        r"^for\s+(?P<i>\w+)\s*:=\s*[^;\n]+;[^\n]*\n(?:[^\n]*\n){0,3}?"
        r"go\s+func\(\)\s*\{[\s\S]{0,300}?\b(?P=i)\b|"
        r"^for\s+(?:\w+\s*,\s*)?(?P<t>\w+)\s*:=\s*range\b[^\n]*\n(?:[^\n]*\n){0,3}?[^\n]*\.Run\("
        r"[^\n]*\bfunc\(\s*\w+\s+\*testing\.[TB]\s*\)\s*\{\n(?:[^\n]*\n){0,2}?\w+\.Parallel\(\)"
        r"[\s\S]{0,300}?\b(?P=t)\b",
        r"^(?P<c>\w+)\s*:=\s*(?P=c)\s*$|^(?P<d>\w+)\s*,\s*(?P<e>\w+)\s*:=\s*(?P=d)\s*,\s*(?P=e)\s*$",
        hits=(
            "for _, job := range jobs {\ngo func() {\nprocess(job)\n}()\n}",
            "for i := 0; i < n; i++ {\ngo func() {\nresults[i] = compute(i)\n}()\n}",
            "for k, v := range cfg {\nwg.Add(1)\ngo func() {\ndefer wg.Done()\napply(k, v)\n}()\n}",
        ),
        safe=(
            "for _, job := range jobs {\njob := job\ngo func() {\nprocess(job)\n}()\n}",
            "for _, job := range jobs {\ngo func(j Job) {\nprocess(j)\n}(job)\n}",
            "for _, job := range jobs {\nprocess(job)\n}",
        ),
    ),
    pattern(
        "go-defer-in-loop",
        "defer in loop | defer inside a loop | defer inside loop | defers loop function returns"
        " | deferred close in loop | defer runs at function return not loop | too many open "
        "files defer",
        "go",
        # A resource opened in the loop body and deferred there (the loop's own lines: no
        # closing brace before the open, no closure around the defer).
        r"^for\b[^\n]*\{\n(?:(?!\}|[^\n]*\bfunc\b)[^\n]*\n){0,6}?(?P<r>\w+)(?:\s*,\s*\w+)?\s*"
        r":?=\s*[^\n]*\n(?:(?![^\n]*\bfunc\b)[^\n]*\n){0,6}?defer\s+(?P=r)\."
        r"(?:Close|Rollback|Unlock|RUnlock|Stop|Release)\(|"
        r"^for\b[^\n]*\{\n(?:(?!\}|[^\n]*\bfunc\b)[^\n]*\n){0,6}?(?P<m>[\w.]+)\.R?Lock\(\)\n"
        r"(?:(?![^\n]*\bfunc\b)[^\n]*\n){0,3}?defer\s+(?P=m)\.R?Unlock\(",
        hits=(
            "for _, name := range files {\nf, err := os.Open(name)\nif err != nil {\nreturn err"
            "\n}\ndefer f.Close()",
            "for rows.Next() {\ntx, err := db.Begin()\ndefer tx.Rollback()",
            "for _, acct := range accounts {\nacct.mu.Lock()\ndefer acct.mu.Unlock()\n"
            "acct.balance += 1\n}",
        ),
        safe=(
            "for _, name := range files {\nif err := func() error {\nf, err := os.Open(name)\n"
            "if err != nil {\nreturn err\n}\ndefer f.Close()\nreturn scan(f)\n}(); err != nil {\n"
            "return err\n}\n}",
            "f, err := os.Create(out)\nif err != nil {\nreturn err\n}\ndefer f.Close()\n"
            "for _, line := range lines {\nfmt.Fprintln(f, line)\n}",
            "for _, x := range xs {\ntotal += x\n}\nf, err := os.Create(out)\ndefer f.Close()",
        ),
    ),
    pattern(
        "go-http-no-timeout",
        "http client without timeout | http.DefaultClient | default http client has no "
        "timeout | http.Get without timeout | http.Client Timeout | client Timeout field",
        "go",
        r"\bhttp\.(?:Get|Post|PostForm|Head)\(|\bhttp\.DefaultClient\b|"
        r"\bhttp\.Client\{(?:[^{}]|\{[^{}]*\})*\}",
        r"\bTimeout\s*:|\.Timeout\s*=|\bcontext\.WithTimeout\(|\bcontext\.WithDeadline\(",
        hits=(
            "resp, err := http.Get(u)",
            "client := &http.Client{}",
            "res, err := http.DefaultClient.Do(req)",
            "c := &http.Client{\nTransport: &http.Transport{MaxIdleConns: 10},\n}",
        ),
        safe=(
            "client := &http.Client{Timeout: 10 * time.Second}",
            "c := &http.Client{\nTransport: tr,\nTimeout: 15 * time.Second,\n}",
            "w.WriteHeader(http.StatusNoContent)",
        ),
    ),
    pattern(
        "go-context-background-in-handler",
        "context.Background in handler | context.TODO in handler | context.Background "
        "instead of request context | request context not propagated | cancellation not "
        "propagated | use the request context handler",
        "go",
        r"(?:\*http\.Request\)|\*gin\.Context\)|\becho\.Context\)|\*fiber\.Ctx\))"
        r"[\s\S]{0,800}?\bcontext\.(?:Background|TODO)\(\)",
        r"\bcontext\.WithoutCancel\(",
        hits=(
            "func (h *Handler) Create(w http.ResponseWriter, r *http.Request) {\nrow := "
            "h.db.QueryRowContext(context.Background(), q, id)",
            'func GetUser(c *gin.Context) {\nu, err := svc.Find(context.TODO(), c.Param("id"))',
            'http.HandleFunc("/sync", func(w http.ResponseWriter, req *http.Request) {\n'
            "ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)",
        ),
        safe=(
            "func (h *Handler) Create(w http.ResponseWriter, r *http.Request) {\nrow := "
            "h.db.QueryRowContext(r.Context(), q, id)",
            "func main() {\nctx := context.Background()\nrun(ctx)\n}",
            "func GetUser(c *gin.Context) {\nu, err := svc.Find(c.Request.Context(), "
            'c.Param("id"))',
        ),
    ),
    pattern(
        "go-time-after-in-loop",
        "time.After leak | time.After in select loop | timer leak select loop | "
        "time.NewTimer instead of time.After | time.After allocates a timer",
        "go",
        r"^for\b[^\n]*\{\n(?:[^\n]*\n){0,10}?case\s+(?:\w+\s*:?=\s*)?<-\s*time\.After\(",
        r"\btime\.NewTimer\(|\.Reset\(",
        hits=(
            "for {\nselect {\ncase msg := <-in:\nhandle(msg)\ncase <-time.After(30 * "
            "time.Second):\nreturn errIdle\n}\n}",
            "for ev := range events {\nselect {\ncase out <- ev:\ncase <-time.After(time.Second)"
            ':\nlog.Println("drop")\n}\n}',
            "for {\nselect {\ncase <-ctx.Done():\nreturn\ncase <-time.After(interval):\npoll()\n}"
            "\n}",
        ),
        safe=(
            "t := time.NewTimer(idle)\ndefer t.Stop()\nfor {\nselect {\ncase msg := <-in:\n"
            "t.Reset(idle)\ncase <-t.C:\nreturn errIdle\n}\n}",
            "select {\ncase res := <-done:\nreturn res\ncase <-time.After(5 * time.Second):\n"
            "return errTimeout\n}",
            "ticker := time.NewTicker(interval)\nfor range ticker.C {\npoll()\n}",
        ),
    ),
    pattern(
        "go-mutex-copied",
        "mutex copied | copy mutex | copies lock value | copylocks vet | value receiver mutex | "
        "sync.Mutex by value | lock passed by value",
        "go",
        r"^func\s*\(\s*(?P<r>\w+)\s+[A-Za-z_]\w*\s*\)[^\n]*\{\n(?:[^\n]*\n){0,5}?"
        r"(?P=r)\.\w*(?:mu|mutex|Mutex|lock|Lock)\w*\.R?Lock\(\)|"
        r"^func\b[^\n]{0,300}?\([^)]{0,300}?\b\w+\s+sync\.(?:RW)?Mutex\b",
        hits=(
            "func (c Counter) Inc() {\nc.mu.Lock()\ndefer c.mu.Unlock()\nc.n++\n}",
            "func (s Store) Get(k string) string {\ns.lock.RLock()",
            "func drain(q []int, mu sync.Mutex) {",
        ),
        safe=(
            "func (c *Counter) Inc() {\nc.mu.Lock()\ndefer c.mu.Unlock()\nc.n++\n}",
            "type Counter struct {\nmu sync.Mutex\nn int\n}",
            "func drain(q []int, mu *sync.Mutex) {",
        ),
    ),
    pattern(
        "go-concurrent-map-write",
        "concurrent map writes | concurrent map write | concurrent map read and map write | "
        "map written from goroutines | map not safe for concurrent use | data race on map"
        " | shared map goroutine | map writes mutex",
        "go",
        r"(?:(?P<m>\w+)\s*:?=\s*(?:make\(\s*)?|\bvar\s+(?P<v>\w+)\s*=?\s*(?:make\(\s*)?)map\["
        r"[\s\S]{0,2000}?(?:\bgo\s+func\b|\bfunc\s*\(\s*\w+\s+http\.ResponseWriter\b)[\s\S]{0,400}?"
        r"\b(?:(?P=m)|(?P=v))\[[^\]\n]+\]\s*"
        r"(?:=|\+\+|\+=|-=)",
        r"\.Lock\(\)|\bsync\.Map\b",
        hits=(
            "counts := make(map[string]int)\nfor _, w := range words {\ngo func(w string) {\n"
            "counts[w]++\n}(w)\n}",
            "seen := map[string]bool{}\nfor _, u := range urls {\nwg.Add(1)\ngo func(u string) {"
            "\ndefer wg.Done()\nseen[u] = check(u)\n}(u)\n}",
            "var cache = make(map[int]*User)\nfunc warm(id int) {\ngo func() {\ncache[id] = "
            "load(id)\n}()\n}",
        ),
        safe=(
            "counts := make(map[string]int)\nvar mu sync.Mutex\nfor _, w := range words {\n"
            "go func(w string) {\nmu.Lock()\ncounts[w]++\nmu.Unlock()\n}(w)\n}",
            "counts := make(map[string]int)\nfor _, w := range words {\ncounts[w]++\n}",
            "var cache sync.Map\ngo func() {\ncache.Store(id, u)\n}()",
        ),
    ),
    pattern(
        "go-nil-map-write",
        "assignment to entry in nil map | write to nil map | nil map panic | map not "
        "initialized with make",
        "go",
        r"\bvar\s+(?P<m>\w+)\s+map\[[^\]\n]+\][^\n=]*\n(?:[^\n]*\n){0,10}?"
        r"(?P=m)\[[^\]\n]+\]\s*(?:=|\+\+|\+=)",
        r"\b\w+\s*=\s*(?:make\(\s*)?map\[",
        hits=(
            "var counts map[string]int\nfor _, w := range words {\ncounts[w]++\n}",
            "var index map[int]*Node\nindex[n.ID] = n",
            'var headers map[string]string\nheaders["X-Req"] = id',
        ),
        safe=(
            "counts := make(map[string]int)\nfor _, w := range words {\ncounts[w]++\n}",
            "var index map[int]*Node\nindex = make(map[int]*Node)\nindex[n.ID] = n",
            "var counts map[string]int\nreturn counts[key]",
        ),
    ),
    pattern(
        "go-panic-in-library",
        "panic in library | library code panics | return an error instead of panic | "
        "panicked instead of returning an error | panics instead of returning error"
        " | panic libraries | panicking package | panic in a package",
        "go",
        r"(?<![\w.])panic\(",
        r"^package main\b|\bfunc\s+(?:init|main)\(\)|\bfunc\s+(?:\([^)]*\)\s*)?Must[A-Z]\w*\(",
        hits=(
            "if err != nil {\npanic(err)\n}",
            'func (c *Client) Token() string {\nif c.key == "" {\npanic("no api key")\n}',
            'default:\npanic(fmt.Sprintf("unknown kind %d", k))',
        ),
        safe=(
            'if err != nil {\nreturn fmt.Errorf("open store: %w", err)\n}',
            "func MustParse(s string) Version {\nv, err := Parse(s)\nif err != nil {\npanic(err)"
            "\n}\nreturn v\n}",
            "package main\n\nfunc main() {\nif err := run(); err != nil {\npanic(err)\n}\n}",
        ),
    ),
    pattern(
        "go-log-fatal-in-library",
        "log.Fatal in library | log.Fatalf | log.Fatal skips defers | log.Fatal skipped "
        "defers | log.Fatal killed the process | os.Exit in library | library exits the "
        "process"
        " | log.fatal package | log.fatal library",
        "go",
        r"\b(?:log|logrus|logger|klog|glog|sugar|zap\.[LS]\(\))\.(?:Fatal|Fatalf|Fatalln|Fatalw)\("
        r"|\bos\.Exit\(",
        r"^package main\b|\bfunc main\(\)",
        hits=(
            'if err != nil {\nlog.Fatalf("connect: %v", err)\n}',
            "func (s *Store) Load() {\ndata, err := os.ReadFile(s.path)\nif err != nil {\n"
            "log.Fatal(err)\n}",
            "if cfg.Port == 0 {\nos.Exit(1)\n}",
        ),
        safe=(
            'if err != nil {\nreturn nil, fmt.Errorf("connect: %w", err)\n}',
            "func main() {\nif err := run(); err != nil {\nlog.Fatal(err)\n}\n}",
            'log.Printf("retrying in %s", d)',
        ),
    ),
    pattern(
        "go-exit-skips-defer",
        "os.Exit skips deferred | os.Exit skipped deferred | os.Exit defer | os.Exit skips "
        "defers | log.Fatal skipped deferred | deferred cleanup skipped | deferred calls did "
        "not run | os.Exit deferred | log.Fatal deferred",
        "go",
        r"\bdefer\b[^\n]*\n(?:[^\n]*\n){0,30}?[^\n]*\b(?:os\.Exit|log\.Fatal(?:f|ln)?)\(",
        r"\bos\.Exit\(\s*run\w*\(",
        hits=(
            "func main() {\ndb := mustOpen()\ndefer db.Close()\nif err := serve(db); err != nil {"
            "\nlog.Println(err)\nos.Exit(1)\n}\n}",
            'defer f.Close()\nif err := w.Flush(); err != nil {\nlog.Fatalf("flush: %v", err)\n}',
            'defer cancel()\nif !ok {\nlog.Fatal("no config")\n}',
        ),
        safe=(
            "func run() int {\ndefer db.Close()\nif err := serve(db); err != nil {\nreturn 1\n}\n"
            "return 0\n}\nfunc main() {\nos.Exit(run())\n}",
            "func main() {\nos.Exit(run())\n}",
            "defer f.Close()\nreturn w.Flush()",
        ),
    ),
    pattern(
        "go-errorf-no-wrap",
        "fmt.Errorf without %w | fmt.Errorf %w | wrap errors with %w | %v loses the error "
        "chain | error wrapping %w | errors.Is failed on wrapped error",
        "go",
        r'\bfmt\.Errorf\(\s*"(?:(?!%w)[^"\\]|\\.)*%[vs](?:(?!%w)[^"\\]|\\.)*"\s*,[^\n]*'
        r"\berr\b(?:\.Error\(\))?\s*\)|"
        r"\berrors\.New\([^\n]{0,300}?(?:\berr\.Error\(\)|\bSprintf\([^\n]{0,300}?,\s*err\s*\))|"
        r"\bfmt\.Errorf\([^\n]{0,300}?\berr\.Error\(\)",
        hits=(
            'return fmt.Errorf("load config: %v", err)',
            'return nil, fmt.Errorf("query user %d: %s", id, err.Error())',
            'return errors.New("save failed: " + err.Error())',
        ),
        safe=(
            'return fmt.Errorf("load config: %w", err)',
            'return fmt.Errorf("user %s not found", id)',
            'log.Printf("load config: %v", err)',
        ),
    ),
    pattern(
        "go-error-compare",
        "errors.Is wrapped error | wrapped error comparison | err == sql.ErrNoRows | error "
        "string comparison | compare err.Error() string | errorlint error",
        "go",
        r"\berr\s*(?:==|!=)\s*(?!nil\b|io\.EOF\b)(?:[\w.]*\bErr\w*|context\.(?:Canceled|"
        r"DeadlineExceeded)|[a-z]\w*\.[A-Z]\w*)\b|\berr\.Error\(\)\s*(?:==|!=)|"
        r"\bswitch\s+err\s*\{\n(?:[^\n]*\n){0,6}?case\s+(?!nil\b|io\.EOF\b)[a-z]\w*\.[A-Z]\w*"
        r"\s*[:,]|"
        r"\bstrings\.(?:Contains|HasPrefix|HasSuffix|EqualFold)\(\s*err\.Error\(\)",
        hits=(
            "if err == sql.ErrNoRows {\nreturn nil, ErrNotFound\n}",
            'if err != nil && err.Error() == "record not found" {',
            'if strings.Contains(err.Error(), "connection refused") {',
            "case err == context.DeadlineExceeded:",
        ),
        safe=(
            "if errors.Is(err, sql.ErrNoRows) {",
            "if err != nil {",
            "if err == io.EOF {\nbreak\n}",
        ),
    ),
    pattern(
        "go-sql-rows-not-closed",
        "rows.Close | rows not closed | defer rows.Close | sql rows leak | connection pool "
        "exhausted rows",
        "go",
        r"\b\w+\s*,\s*\w+\s*:?=\s*[\w.]+\.Query(?:Context|x|xContext)?\(",
        r"\.Close\(\)",
        hits=(
            'rows, err := db.Query("SELECT id FROM users")\nif err != nil {\nreturn err\n}\n'
            "for rows.Next() {",
            "rs, err := s.db.QueryContext(ctx, q, id)\nfor rs.Next() {",
            "r, err := tx.Query(`SELECT name FROM tags WHERE post_id = $1`, pid)",
        ),
        safe=(
            'rows, err := db.Query("SELECT id FROM users")\nif err != nil {\nreturn err\n}\n'
            "defer rows.Close()",
            'row := db.QueryRow("SELECT name FROM users WHERE id = $1", id)',
            'res, err := db.Exec("DELETE FROM sessions WHERE expired")',
        ),
    ),
    pattern(
        "go-sql-rows-err-unchecked",
        "rows.Err not checked | check rows.Err | rows.Err after loop | iteration error "
        "ignored rows.Next",
        "go",
        r"^for\s+\w+\.Next\(\s*(?:ctx|context\.\w+\(\))?\s*\)\s*\{",
        r"\.Err\(\)",
        hits=(
            "for rows.Next() {\nvar u User\nif err := rows.Scan(&u.ID); err != nil {\nreturn "
            "nil, err\n}\nout = append(out, u)\n}\nreturn out, nil",
            "for rs.Next() {\nn++\n}",
            "for it.Next() {\nkeys = append(keys, it.Key())\n}",
        ),
        safe=(
            "for rows.Next() {\nn++\n}\nif err := rows.Err(); err != nil {\nreturn err\n}",
            "for scanner.Scan() {\nlines = append(lines, scanner.Text())\n}\nreturn lines, "
            "scanner.Err()",
            "for i := 0; i < n; i++ {",
        ),
    ),
    pattern(
        "go-sql-concat",
        "SQL injection | string concatenation SQL | fmt.Sprintf SQL | SQL built with Sprintf "
        "| query placeholders | parameterized query",
        "go",
        r"""(?i)["`]\s*(?:select\s[^"`\n]*\bfrom\b|insert\s+into\b|update\s+[\w.]+\s+set\b|"""
        r"""delete\s+from\b)[^"`]*["`]\s*\+|"""
        r"""\.Where\(\s*(?:["`][^"`]*["`]\s*\+|fmt\.Sprintf\()|"""
        r"""fmt\.Sprintf\(\s*["`][^"`]*(?:\bselect\s[^"`]*\bfrom\b|\binsert\s+into\b|"""
        r"""\bupdate\s+\w+\s+set\b|\bdelete\s+from\b)[^"`]*%[sdvq]""",
        hits=(
            'rows, err := db.Query("SELECT * FROM users WHERE name = \'" + name + "\'")',
            'q := fmt.Sprintf("DELETE FROM sessions WHERE user_id = %d", uid)',
            'db.Where("email = \'" + email + "\'").First(&u)',
            '_, err := db.ExecContext(ctx, "UPDATE users SET role = \'" + role + "\' WHERE id '
            '= $1", id)',
        ),
        safe=(
            'rows, err := db.Query("SELECT * FROM users WHERE name = $1", name)',
            'db.Where("email = ?", email).First(&u)',
            'msg := fmt.Sprintf("user %s not found", name)',
            'key := fmt.Sprintf("user:%d", id)',
        ),
    ),
    pattern(
        "go-waitgroup-add-in-goroutine",
        "wg.Add inside goroutine | WaitGroup Add inside goroutine | wg.Add race | call wg.Add "
        "before the go statement"
        " | waitgroup add goroutine",
        "go",
        r"\bgo\s+func\([^)]*\)\s*\{\n(?:[^\n]*\n){0,2}?(?:[\w.]*\.)?(?:\w*wg|\w*[wW]ait[gG]roup|"
        r"\w*[gG]roup)\.Add\(|\b(?P<w>\w+)\s+sync\.WaitGroup\b[\s\S]{0,2000}?\bgo\s+func\([^)]*\)"
        r"\s*\{\n"
        r"(?:[^\n]*\n){0,2}?(?:[\w.]*\.)?(?P=w)\.Add\(|\bgo\s+func\([^)]*\)\s*\{\n(?:[^\n]*\n){0,2}?"
        r"(?P<g>[\w.]+)\.Add\(1\)\n(?:[^\n]*\n){0,2}?defer\s+(?P=g)\.Done\(\)",
        hits=(
            "for _, t := range tasks {\ngo func(t Task) {\nwg.Add(1)\ndefer wg.Done()\nrun(t)\n"
            "}(t)\n}\nwg.Wait()",
            "go func() {\ns.wg.Add(1)\ndefer s.wg.Done()",
            'go func(id int) {\nlog.Printf("worker %d", id)\nwg.Add(1)',
        ),
        safe=(
            "for _, t := range tasks {\nwg.Add(1)\ngo func(t Task) {\ndefer wg.Done()\nrun(t)\n"
            "}(t)\n}\nwg.Wait()",
            "wg.Go(func() {\nrun(t)\n})",
            "go func() {\ndefer wg.Done()\nhits.Add(1)\n}()",
        ),
    ),
    pattern(
        "go-context-cancel-leak",
        "context leak cancel | cancel function not called | discarded cancel function | "
        "defer cancel | lostcancel vet | context WithTimeout cancel",
        "go",
        r"\b\w+\s*,\s*\w+\s*:?=\s*context\.With(?:Timeout|Cancel|Deadline)\w*\(",
        r"\bdefer\s+\w+\(\)|\b\w*[cC]ancel\w*\(\)|[=(,]\s*(?:\w*[cC]ancel\w*|stop)\s*(?:$|[,)}])"
        r"|^return\b[^\n]*\b(?:\w*[cC]ancel\w*|stop)\b",
        hits=(
            "ctx, _ := context.WithTimeout(r.Context(), 2*time.Second)",
            "ctx, cancel := context.WithCancel(parent)\ngo watch(ctx)\nreturn nil",
            "tctx, _ = context.WithDeadline(ctx, deadline)",
        ),
        safe=(
            "ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)\ndefer cancel()",
            "ctx, stop := context.WithCancel(parent)\ndefer stop()",
            "ctx := context.Background()",
        ),
    ),
]
