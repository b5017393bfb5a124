"""Known mistakes in React, Vue and TypeScript code (eslint-plugin-react, react-hooks,
eslint-plugin-vue, typescript-eslint). General JavaScript: ``code_web_js``; Node servers and
tests: ``code_web_node``."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

_JSX = "javascript typescript"
_UI = "javascript typescript vue svelte"
_TS = "typescript vue svelte"
# A call of an effect hook: React.useEffect( / useLayoutEffect(.
_EFFECT = r"\buse(?:Layout)?Effect\("
# Sanitisers that make injected HTML safe.
_SANITIZED = r"\b(?:DOMPurify|[sS]anitize\w*|purify\w*|xss\w*|escapeH[tT][mM][lL])\b"
# A piece of an HTML tag: a quoted attribute value whole, or a character that is not ">".
_TAG_UNIT = r"""(?:"[^"]{0,300}"|'[^']{0,300}'|[^>"'])"""

PATTERNS: list[Pattern] = [
    pattern(
        "react-effect-no-deps",
        "useEffect without dependency array | useEffect no dependencies array | useEffect "
        "without deps | useEffect second argument | useEffect every render | effect ran on "
        "every render | missing dependency array | useEffect infinite loop",
        _JSX,
        _EFFECT,
        # A dependency array as the effect's last argument: }, [a, b]) or (fn, []).
        r",\s*\[(?:[^\[\]]|\[[^\[\]]*\])*\]\s*\)",
        hits=(
            "useEffect(() => {\nsetCount(c => c + 1)\n})",
            "React.useLayoutEffect(() => {\nmeasure(ref.current)\n});",
            "useEffect(() => { document.title = `${n} items` })",
            "useEffect(syncScroll)",
        ),
        safe=(
            "useEffect(() => {\nfetchUser(id)\n}, [id])",
            "useEffect(() => { document.title = title }, [title]);",
            "useEffect(() => {\nload(items[0].id)\n}, [items[0].id, user?.id])",
            "import { useEffect, useState } from 'react'",
            "useEffect(() => {\nconst id = setInterval(tick, 1000)\nreturn () => clearInterval(id)"
            "\n}, [])",
        ),
    ),
    pattern(
        "react-effect-no-cleanup",
        "useEffect cleanup | effect cleanup | missing cleanup function | clearInterval "
        "cleanup | interval never cleared | listener never removed | clean up listener | "
        "removeEventListener useEffect",
        _JSX,
        _EFFECT + r"[\s\S]{0,800}?(?:\bset(?:Interval|Timeout)\(|\.addEventListener\(|\.subscribe\("
        r"|\bnew (?:WebSocket|EventSource|ResizeObserver|IntersectionObserver|MutationObserver)\(|"
        r"""\.on\(\s*['"])""",
        r"\breturn[ \t]*(?:\(\s*\)\s*=>|function\b|\w+[ \t]*;?$)|\bclear(?:Interval|Timeout)\(|"
        r"\.removeEventListener\(|\.unsubscribe\(|\.disconnect\(|\.close\(\)|\.off\(",
        hits=(
            "useEffect(() => {\nconst id = setInterval(poll, 5000)\n}, [])",
            "useEffect(() => {\nwindow.addEventListener('resize', onResize)\n}, [onResize])",
            "useEffect(() => {\nconst ws = new WebSocket(url)\nws.onmessage = e => push(e.data)"
            "\n}, [url])",
            "useEffect(() => {\nstore.subscribe(render)\n}, [])",
        ),
        safe=(
            "useEffect(() => {\nconst id = setInterval(poll, 5000)\nreturn () => clearInterval(id)"
            "\n}, [])",
            "useEffect(() => {\nwindow.addEventListener('keydown', onKey)\nreturn () => "
            "window.removeEventListener('keydown', onKey)\n}, [onKey])",
            "useEffect(() => {\nconst unsub = store.subscribe(render)\nreturn unsub\n}, [])",
            "button.addEventListener('click', submit)",
        ),
    ),
    pattern(
        "react-fetch-no-abort",
        "fetch in useEffect | AbortController fetch | AbortController useEffect | abort fetch "
        "on unmount | fetch after unmount | stale response overwrote | race condition fetch "
        "useEffect | state update on an unmounted component"
        " | cancel request effect | abort the request effect",
        _JSX,
        _EFFECT + r"[\s\S]{0,800}?(?:\bfetch\(|\baxios(?:\.\w+)?\(|\b(?:api|apiClient|client|http"
        r"|httpClient|ky)\.(?:get|post|put|patch|delete|request)\()",
        r"\bAbortController\b|\bsignal\b|\b(?:ignore|cancell?ed|stale|active|mounted|isMounted|"
        r"isCurrent|didCancel)\s*=\s*(?:true|false)\b",
        hits=(
            "useEffect(() => {\nfetch(`/api/users/${id}`).then(r => r.json()).then(setUser)\n}, "
            "[id])",
            "useEffect(() => {\nasync function load() {\nconst res = await fetch('/api/orders?page="
            "' + page)\nsetOrders(await res.json())\n}\nload()\n}, [page])",
            "useEffect(() => {\naxios.get(`/api/search?q=${query}`).then(r => setResults(r.data))"
            "\n}, [query])",
        ),
        safe=(
            "useEffect(() => {\nconst controller = new AbortController()\nfetch(url, { signal: "
            "controller.signal }).then(r => r.json()).then(setData)\nreturn () => "
            "controller.abort()\n}, [url])",
            "useEffect(() => {\nlet ignore = false\nfetch(u).then(r => r.json()).then(t => { if "
            "(!ignore) setTodos(t) })\nreturn () => { ignore = true }\n}, [u])",
            "const res = await fetch('/api/health')",
        ),
    ),
    pattern(
        "react-index-as-key",
        "index as key | array index key | key prop index | index as React key | React "
        "list key index | list reordered index key"
        " | key={index} | index keys",
        "javascript typescript vue svelte",
        # The key is the .map callback's index parameter; Vue's v-for index; Svelte's each.
        r"\(\s*[\w{}\s,]+?,\s*(?P<ix>\w+)\s*\)\s*=>[\s\S]{0,400}?\bkey=\{(?:[^{}\n]|\$\{[^{}\n]"
        r"*\})*?(?:\$\{\s*)?(?:String\(\s*)?(?<![\w.])(?P=ix)\b(?!\.(?!toString\b)\w)|"
        r"""v-for=["']\(\s*\w+\s*,\s*(?P<vx>\w+)\s*\)\s+(?:in|of)\s[^"']*["'][^>]*:key="""
        r"""["'](?P=vx)["']|"""
        r"\{#each\s[^}]*\bas\s+\w+\s*,\s*(?P<sx>\w+)\s*\(\s*(?P=sx)\s*\)",
        hits=(
            "{todos.map((todo, index) => (\n<TodoItem key={index} todo={todo} />\n))}",
            "rows.map((row, i) => <tr key={`row-${i}`}><td>{row.name}</td></tr>)",
            '<li v-for="(item, idx) in items" :key="idx">{{ item.label }}</li>',
            "{#each cards as card, n (n)}",
            "{users.map(({ id, name }, ix) => <User key={ix.toString()} name={name} />)}",
        ),
        safe=(
            "{todos.map((todo) => <TodoItem key={todo.id} todo={todo} />)}",
            "rows.map((row, i) => <tr key={row.id} data-index={i}><td>{row.name}</td></tr>)",
            '<li v-for="item in items" :key="item.id">{{ item.label }}</li>',
            "{#each cards as card (card.id)}",
        ),
    ),
    pattern(
        "react-missing-key",
        "missing key prop | key prop list | unique key prop | each child in a list should "
        "have a unique key | list items without key",
        _JSX,
        r"\.map\(\s*(?:(?:\([^()]*\)|\w+)\s*=>\s*(?:\{\s*(?:(?!\})[^\n]*\n){0,4}?\s*return\s*)?"
        r"|function\s*\w*\s*\([^()]*\)\s*\{\s*(?:(?!\})[^\n]*\n){0,4}?\s*return\s*)"
        r"\(?\s*<(?!>)[A-Za-z][\w.]*(?:\s[^>]*)?>",
        r"\bkey=",
        hits=(
            "{items.map(item => <li>{item.name}</li>)}",
            "{orders.map((order) => (\n<OrderRow order={order} onSelect={select} />\n))}",
            'return tags.map(t => <Badge color="blue">{t}</Badge>)',
        ),
        safe=(
            "{items.map(item => <li key={item.id}>{item.name}</li>)}",
            "const names = users.map(u => u.name)",
            "{orders.map((order) => (\n<OrderRow key={order.id} order={order} />\n))}",
        ),
    ),
    pattern(
        "react-setstate-in-render",
        "setState in render | setState during render | state setter called during render | "
        "too many re-renders | infinite re-render | handler called during render | called the "
        "handler instead of passing it",
        _JSX,
        # onClick={setOpen(true)}: the setter runs while rendering, not on the click.
        r"\bon[A-Z]\w*=\{\s*(?:(?:this\.)?set[A-Z]\w*|setState|dispatch)\(|"
        r"\bon[A-Z]\w*=\{\s*(?:this\.)?[a-z]\w*\(\s*\)\s*\}",
        hits=(
            "<button onClick={setOpen(true)}>Open</button>",
            "<input value={q} onChange={setQuery(e.target.value)} />",
            '<Button onPress={handleSubmit()} title="Save" />',
            "<a onClick={dispatch(logout())}>Log out</a>",
        ),
        safe=(
            "<button onClick={() => setOpen(true)}>Open</button>",
            '<Button onPress={handleSubmit} title="Save" />',
            "<input onChange={e => setQuery(e.target.value)} />",
            "<Row onSelect={handleSelect(row.id)} />",
        ),
    ),
    pattern(
        "react-state-mutation",
        "mutated state directly | direct state mutation | mutating state directly | this.state "
        "assignment | push to state array | state mutated in place | component did not "
        "re-render after push",
        _JSX,
        r"\bthis\.state\.[\w.\[\]]+\s*(?:=(?!=)|\+\+|--|[-+*/]=)|"
        r"\bthis\.state\.[\w.]+\.(?:push|pop|splice|shift|unshift|sort|reverse)\(|"
        # items.push(x) then setItems(items): the same array, React sees no change.
        # (each stretch bounded: a long minified line must not be walked once per match)
        r"\b(?P<a>\w+)(?:\.\w+)*\.(?:push|pop|splice|shift|unshift|sort|reverse)\([\s\S]{0,300}?"
        r"\bset[A-Z]\w*\(\s*(?P=a)\s*\)|"
        r"\b(?P<o>\w+)\.\w+\s*=(?!=)[^\n]{0,300}\n[\s\S]{0,200}?\bset[A-Z]\w*\(\s*(?P=o)\s*\)|"
        # an element of the state array changed in place, then the same array set again
        r"\b(?P<e>\w+)\s*=\s*(?P<l>\w+)\.(?:find|findLast|at)\([^\n]{0,300}\n[\s\S]{0,300}?\b(?P=e)"
        r"\.\w+\s*=(?!=)[\s\S]{0,300}?\bset[A-Z]\w*\(\s*(?P=l)\s*\)|\b(?P<l2>\w+)\[[^\]\n]+\]\.\w+\s*"
        r"=(?!=)[\s\S]{0,300}?\bset[A-Z]\w*\(\s*(?P=l2)\s*\)",
        hits=(
            "this.state.items.push(newItem)\nthis.setState({ items: this.state.items })",
            "this.state.count = this.state.count + 1",
            "cart.push(product)\nsetCart(cart)",
            "profile.email = email\nsetProfile(profile)",
        ),
        safe=(
            "setCart([...cart, product])",
            "this.setState(prev => ({ count: prev.count + 1 }))",
            "setProfile({ ...profile, email })",
            "const sorted = [...rows].sort(byDate)",
        ),
    ),
    pattern(
        "react-stale-state-update",
        "functional update | functional state update | stale state | stale closure state | "
        "updater function setState | previous state callback | lost state updates"
        " | stale closure | functional updater",
        _JSX,
        # setCount(count + 1), setOpen(!open), setItems([...items, x]) read the render's value.
        r"\bset(?P<n>[A-Z]\w*)\(\s*(?:!(?i:(?P=n))\s*\)|(?i:(?P=n))\s*(?:[-+*]|\|\||&&|\?\?))|"
        r"\bset(?P<m>[A-Z]\w*)\(\s*[\[{]\s*\.\.\.(?i:(?P=m))\b|"
        r"\bset(?P<k>[A-Z]\w*)\(\s*(?i:(?P=k))\.(?:filter|map|concat|slice|toSorted|toReversed"
        r"|toSpliced|with)\(|"
        r"\bsetState\(\s*\{[^}]*\bthis\.state\.",
        hits=(
            "setCount(count + 1)",
            "setItems([...items, newItem])",
            "setOpen(!open)",
            "this.setState({ clicks: this.state.clicks + 1 })",
            "setForm({ ...form, email: e.target.value })",
        ),
        safe=(
            "setCount(c => c + 1)",
            "setItems(prev => [...prev, newItem])",
            "setOpen(o => !o)",
            "setTotal(subtotal + tax)",
        ),
    ),
    pattern(
        "react-async-effect",
        "async useEffect | useEffect async callback | async function passed to useEffect | "
        "useEffect returned a promise | effect callback returned promise",
        _JSX,
        _EFFECT + r"\s*async\b",
        hits=(
            "useEffect(async () => {\nconst r = await load()\nsetRows(r)\n}, [])",
            "React.useEffect(async function sync() {",
            "useLayoutEffect(async () => await measure(), [])",
        ),
        safe=(
            "useEffect(() => {\nconst run = async () => setData(await load())\nrun()\n}, [])",
            "useEffect(() => { void refresh() }, [refresh])",
            "const onSave = async () => { await save() }",
        ),
    ),
    pattern(
        "react-conditional-hook",
        "rules of hooks | hook called conditionally | conditional hook | hook inside if | "
        "rendered fewer hooks than expected | rendered more hooks | hook after early return",
        _JSX,
        # A hook on the line after an if/for/while that does not close there (an early return
        # or an opened block), or a hook behind && / ?:.
        r"^(?:if|for|while|switch)\b[^\n]*[^}\n]\n(?:(?:const|let|var)\s+[^\n=]+=\s*)?"
        r"(?<![\w.])(?:React\.)?use[A-Z]\w*\(|"
        r"&&\s*(?:React\.)?use[A-Z]\w*\(|\?\s*use[A-Z]\w*\([^\n]*:\s*use[A-Z]\w*\(|"
        r"^if\b[^\n]*\{\n(?:(?!\})[^\n]*\n){0,3}?return\b[^\n]*\n(?:(?!\})[^\n]*\n){0,3}?\}\n"
        r"(?:(?:const|let|var)\s+[^\n=]+=\s*)?(?<![\w.])(?:React\.)?use[A-Z]\w*\(",
        hits=(
            "if (!user) return null\nconst [tab, setTab] = useState('profile')",
            "if (props.live) {\nuseEffect(() => subscribe(props.id), [props.id])\n}",
            "const data = enabled && useQuery(['orders'], fetchOrders)",
            "for (const f of fields) {\nconst ref = useRef(null)",
        ),
        safe=(
            "const [tab, setTab] = useState('profile')\nif (!user) return null",
            "useEffect(() => {\nif (!props.live) return\nreturn subscribe(props.id)\n}, "
            "[props.live, props.id])",
            "if (open) { setOpen(false) }\nconst theme = useTheme()",
            "const { data } = useQuery({ queryKey: ['orders'], enabled })",
        ),
    ),
    pattern(
        "react-dangerously-set-inner-html",
        "dangerouslySetInnerHTML | unsanitized html react | xss react html | DOMPurify "
        "sanitize html | rendered user html",
        _JSX,
        r"""\bdangerouslySetInnerHTML=\{\{\s*__html\s*:\s*+(?!(?:'[^'\n]*'|"[^"\n]*")\s*\}\})|"""
        r"\bdangerouslySetInnerHTML=\{\s*[\w.]+\s*\}",
        _SANITIZED,
        hits=(
            "<div dangerouslySetInnerHTML={{ __html: post.body }} />",
            "<span dangerouslySetInnerHTML={{__html: marked(comment.text)}} />",
            '<p\nclassName="bio"\ndangerouslySetInnerHTML={{ __html: `<b>${user.name}</b>` }}\n/>',
        ),
        safe=(
            "<div dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(post.body) }} />",
            "<div>{post.body}</div>",
            "<style dangerouslySetInnerHTML={{ __html: '.a{color:red}' }} />",
        ),
    ),
    pattern(
        "js-innerhtml-xss",
        "innerHTML | innerHTML xss | unsanitized html | html injection | v-html xss | "
        "insertAdjacentHTML | use textContent instead",
        _UI,
        r"""\.(?:inner|outer)HTML\s*\+?=\s*+(?!(?:'[^'\n]*'|"[^"\n]*"|`[^`$\n]*`)\s*;?\s*$)|"""
        r"""\.insertAdjacentHTML\(\s*['"][\w-]+['"]\s*,\s*+"""
        r"""(?!(?:'[^'\n]*'|"[^"\n]*"|`[^`$\n]*`)\s*\))|"""
        r"""\bdocument\.write(?:ln)?\(\s*+(?!(?:'[^'\n]*'|"[^"\n]*")\s*\))|"""
        r"""\bv-html=|\{@html\s|\$\([^()]*\)\.html\(\s*+(?!['"][^'"+]*['"]\s*\))[^)\s]""",
        _SANITIZED,
        hits=(
            "el.innerHTML = `<li>${item.title}</li>`",
            "container.innerHTML += '<p>' + message + '</p>';",
            "document.getElementById('out').innerHTML = response.html",
            '<div class="body" v-html="comment.body"></div>',
            "list.insertAdjacentHTML('beforeend', rowHtml)",
            "{@html post.content}",
        ),
        safe=(
            "el.textContent = item.title",
            "container.innerHTML = ''",
            "el.innerHTML = DOMPurify.sanitize(html)",
            "tpl.innerHTML = '<slot></slot>';",
        ),
    ),
    pattern(
        "ts-any",
        "explicit any | no-explicit-any | cast to any | typescript any type | unknown instead "
        "of any | any disables type checking"
        " | unknown and narrow | typed as any",
        _TS,
        r"(?::\s*any\b|\bas\s+any\b|<any>|\bany\[\]|[<,]\s*any\s*[>,\]])",
        hits=(
            "function handle(evt: any) {",
            "const cfg = JSON.parse(raw) as any",
            "const rows: any[] = []",
            "let cache: Record<string, any> = {}",
        ),
        safe=(
            "function handle(evt: unknown) {",
            "const cfg = JSON.parse(raw) as Config",
            "// accepts any shape",
            "const hasAny = items.some(Boolean)",
        ),
    ),
    pattern(
        "ts-non-null-assertion",
        "non-null assertion | non null assertion operator | no-non-null-assertion | "
        "exclamation mark assertion | asserted not null"
        " | silence null checks",
        _TS,
        r"(?<=[\w\])])!(?=[.;,)\[])|(?<=[)\]])!$",
        hits=(
            "createRoot(document.getElementById('root')!).render(<App />)",
            "const name = user!.profile!.name",
            "return map.get(key)!;",
            "const first = items[0]!.id",
        ),
        safe=(
            "const name = user?.profile?.name ?? ''",
            "if (a !== b) return",
            "if (!user) throw new Error('no user')",
            "<p>Saved!</p>",
        ),
    ),
    pattern(
        "ts-ignore",
        "@ts-ignore | ts-ignore | ts-nocheck | suppressed type error | ts-expect-error instead",
        _UI,
        r"@ts-(?:ignore|nocheck)\b",
        hits=(
            "// @ts-ignore\nconst x = legacy.call()",
            "/* @ts-ignore */ el.value = 3",
            "// @ts-nocheck",
        ),
        safe=(
            "// @ts-expect-error -- upstream types miss `cause`",
            "const x: number = legacy.call() as number",
            "// ignore the cache for tests",
        ),
    ),
    pattern(
        "ts-strict-off",
        "tsconfig strict | strict false tsconfig | strict mode disabled typescript | "
        "strictNullChecks | noImplicitAny",
        "json",
        r'"(?:strict|strictNullChecks|noImplicitAny|strictFunctionTypes|noImplicitThis|'
        r'alwaysStrict)"\s*:\s*false\b',
        hits=(
            '"strict": false',
            '"compilerOptions": {\n"strictNullChecks": false,',
            '"noImplicitAny": false',
        ),
        safe=('"strict": true', '"skipLibCheck": true', '"noImplicitAny": true'),
    ),
    pattern(
        "vue-prop-mutation",
        "mutating a prop | mutate prop directly | prop mutation | props are read-only | "
        "avoid mutating a prop | emit update instead of mutating",
        "vue",
        r"\bprops\.\w+(?:\.\w+){0,6}\s*(?:=(?!=)|\+\+|--|[-+]=)|"
        r"\bprops\.\w+\.(?:push|splice|pop|shift|unshift|sort|reverse)\(|"
        r"""\bprops\s*:\s*\[[^\]]{0,500}?['"](?P<p>\w+)['"][\s\S]{0,1500}?\bthis\.(?P=p)(?:\s*"""
        r"(?:=(?!=)|\+\+|--|[-+]=)|\.(?:push|splice|pop|shift|unshift|sort|reverse)\()",
        hits=("props.modelValue = newValue", "props.items.push(item)", "props.count++"),
        safe=(
            "emit('update:modelValue', newValue)",
            "const local = ref(props.modelValue)",
            "if (props.count === 0) return",
        ),
    ),
    pattern(
        "vue-v-if-with-v-for",
        "v-if with v-for on the same element | v-if and v-for same element | "
        "no-use-v-if-with-v-for | v-for with v-if precedence"
        " | v-if with v-for",
        "vue",
        # (one tag, its quoted values stepped over, read once from each "<" and no further)
        rf"<(?={_TAG_UNIT}{{0,1000}}?\bv-for=)(?={_TAG_UNIT}{{0,1000}}?\bv-if=)",
        hits=(
            '<li v-for="u in users" v-if="u.active" :key="u.id">',
            '<tr v-if="ready" v-for="row in rows" :key="row.id">',
            '<Item\nv-for="item in items"\n:key="item.id"\nv-if="item.visible"\n/>',
        ),
        safe=(
            '<template v-for="u in users" :key="u.id">\n<li v-if="u.active">{{ u.name }}</li>'
            "\n</template>",
            '<li v-for="u in activeUsers" :key="u.id">{{ u.name }}</li>',
            '<p v-if="loading">Loading…</p>',
        ),
    ),
]
