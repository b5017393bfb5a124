"""Known mistakes in Swift, C, C++, Elixir and Dart/Flutter code (and an iOS Info.plist):
what SwiftLint, the compilers' -Wformat-security and banned-function lists, clang-tidy,
cppcheck, Sobelow/Credo and the Flutter lints flag, and what agents are known to get
wrong in them."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

# A postfix ``!`` (force unwrap, null assertion) where an expression goes on.
_BANG = r"[\w)\]]!(?=\.|\)|,|\]|;|$|\s*(?:\)|,|\}|;|$|[-+*/]\s|==|!=|\?\?|as\b))"
# A variable (not a literal, not a MACRO constant) as the whole format argument.
_FORMAT_VAR = r"(?![A-Z][A-Z0-9_]*\s*\))[A-Za-z_][\w.\->\[\]]*(?:\.c_str\(\))?\s*\)"
_SECRET_KEY = (
    r"(?i:token|password|passwd|secret|api_?key|credential|session_?id|jwt|passcode|pin(?:code)?\b)"
)

PATTERNS: list[Pattern] = [
    pattern(
        "swift-force-unwrap",
        "force unwrap | force unwrapping | force unwrapped | forced unwrap | implicitly"
        " unwrapped optional | force cast | guard let instead | unexpectedly found nil"
        " | conditional casting | conditional cast",
        "swift",
        r"^(?![^\n]*@IBOutlet)(?!//)[^\n]*?(?:" + _BANG + r"|\bas!\s)",
        "",
        hits=(
            "let url = URL(string: endpoint)!",
            "let name = user!.profile.displayName",
            'let cell = tableView.dequeueReusableCell(withIdentifier: "row") as! OrderCell',
            'let price = dict["price"]! + fee',
        ),
        safe=(
            "guard let url = URL(string: endpoint) else { return }",
            "@IBOutlet weak var titleLabel: UILabel!",
            'let title = item.title ?? "Untitled"\nif !items.isEmpty && a != b {',
            'print("Saved! Thanks")',
        ),
    ),
    pattern(
        "swift-force-try",
        "force try | forced try | try bang | do catch instead force try | do catch try",
        "swift",
        r"\btry!\s",
        "",
        hits=(
            "let data = try! Data(contentsOf: fileURL)",
            "let order = try! JSONDecoder().decode(Order.self, from: data)",
            "let regex = try! NSRegularExpression(pattern: input)",
        ),
        safe=(
            "let data = try Data(contentsOf: fileURL)",
            "guard let order = try? JSONDecoder().decode(Order.self, from: data) else { return }",
            'do {\nlet data = try Data(contentsOf: url)\n} catch {\nlogger.error("\\(error)")\n}',
        ),
    ),
    pattern(
        "swift-main-sync-deadlock",
        "dispatchqueue.main.sync | main sync deadlock | main queue sync | sync on main"
        " queue | main thread deadlock"
        " | synchronous dispatch main | main queue froze | dispatch main asynchronously",
        "swift",
        r"\bDispatchQueue\.main\.sync\b",
        "",
        hits=(
            "DispatchQueue.main.sync {\nself.tableView.reloadData()\n}",
            "DispatchQueue.main.sync { label.text = status }",
            "let size = DispatchQueue.main.sync { view.bounds.size }",
        ),
        safe=(
            "DispatchQueue.main.async {\nself.tableView.reloadData()\n}",
            "await MainActor.run { label.text = status }",
            "queue.sync { cache[key] = value }",
        ),
    ),
    pattern(
        "swift-ats-arbitrary-loads",
        "nsallowsarbitraryloads | app transport security | arbitrary loads plist | ats disabled"
        " | cleartext http ios"
        " | arbitrary loads transport",
        "xml",
        r"<key>NSAllowsArbitraryLoads(?:InWebContent|ForMedia)?</key>\s*<true\s*/>",
        "",
        hits=(
            "<key>NSAppTransportSecurity</key>\n<dict>\n<key>NSAllowsArbitraryLoads</key>\n"
            "<true/>\n</dict>",
            "<key>NSAllowsArbitraryLoads</key><true/>",
            "<key>NSAllowsArbitraryLoadsInWebContent</key>\n<true />",
        ),
        safe=(
            "<key>NSAllowsArbitraryLoads</key>\n<false/>",
            "<key>NSExceptionDomains</key>\n<dict>\n<key>legacy.acme.com</key>",
            "<key>CFBundleName</key>\n<string>Shop</string>",
        ),
    ),
    pattern(
        "swift-userdefaults-secret",
        "userdefaults token | token stored userdefaults | password in userdefaults | keychain"
        " instead userdefaults | secrets in userdefaults | appstorage token"
        " | appstorage key | appstorage secret | keychain credentials | keychain token",
        "swift",
        r"(?:\bUserDefaults\b[^\n]*|\b\w*[dD]efaults)\.(?:set|setValue)\s*\([^\n]*"
        + _SECRET_KEY
        + r"|@AppStorage\s*\(\s*\"[^\"\n]*"
        + _SECRET_KEY,
        "",
        hits=(
            'UserDefaults.standard.set(token, forKey: "authToken")',
            'UserDefaults.standard.setValue(password, forKey: "password")',
            '@AppStorage("apiKey") var apiKey = ""',
        ),
        safe=(
            'UserDefaults.standard.set(true, forKey: "onboardingDone")',
            'try keychain.set(token, key: "authToken")',
            '@AppStorage("theme") var theme = "system"',
        ),
    ),
    pattern(
        "c-unbounded-string-copy",
        "strcpy | strcat | sprintf overflow | buffer overflow | unbounded copy"
        " | snprintf instead of sprintf"
        " | strlcpy instead | fgets instead gets | scanf %s overflow",
        "c cpp",
        r"\b(?:strcpy|strcat|wcscpy|wcscat|stpcpy|sprintf|vsprintf|gets|lstrcpy\w*"
        r"|lstrcat\w*)\s*\(|\b[fs]?scanf\s*\([^;]*\"[^\"\n]*%s",
        "",
        hits=(
            "strcpy(user->name, input);",
            'sprintf(path, "%s/%s", dir, file);',
            "gets(line);",
            'scanf("%s", name);',
            "std::strcat(buf, suffix);",
        ),
        safe=(
            'snprintf(path, sizeof path, "%s/%s", dir, file);',
            "strlcpy(user->name, input, sizeof user->name);",
            "fgets(line, sizeof line, stdin);",
            'scanf("%63s", name);',
        ),
    ),
    pattern(
        "c-format-string",
        "format string vulnerability | format string attack | uncontrolled format string"
        " | printf user input | wformat-security | printf without format"
        " | non literal format | format strings constants | syslog format | format literal",
        "c cpp",
        r"\b(?:printf|vprintf)\s*\(\s*"
        + _FORMAT_VAR
        + r"|\b(?:fprintf|vfprintf|dprintf|syslog)\s*\(\s*[^,()\"]+,\s*"
        + _FORMAT_VAR
        + r"|\b(?:sprintf|snprintf)\s*\(\s*[^,()\"]+,\s*(?:[^,()\"]+,\s*)?"
        + _FORMAT_VAR,
        "",
        hits=(
            "printf(msg);",
            "fprintf(stderr, err->text);",
            "syslog(LOG_ERR, buf);",
            "snprintf(out, sizeof out, user_input);",
        ),
        safe=(
            'printf("%s\\n", msg);',
            'fprintf(stderr, "%s", err->text);',
            'syslog(LOG_ERR, "%s", buf);',
            "puts(msg);",
            "printf(USAGE);",
        ),
    ),
    pattern(
        "c-system-injection",
        "command injection | shell injection | system call user input | popen injection"
        " | system() injection | execvp instead system | command string system popen",
        "c cpp",
        r"\b(?:system|popen)\s*\(\s*(?!\"[^\"\n]*\"\s*[,)]|NULL\b|nullptr\b|0\s*\))[^)\s]"
        r"|\bexeclp?\s*\(\s*\"(?:/bin/)?(?:ba)?sh\"\s*,\s*\"(?:ba)?sh\"\s*,\s*\"-c\"\s*,"
        r"(?!\s*\")",
        "",
        hits=(
            'snprintf(cmd, sizeof cmd, "convert %s out.png", path);\nsystem(cmd);',
            'std::system(("ping -c 1 " + host).c_str());',
            'FILE *p = popen(command, "r");',
            'execl("/bin/sh", "sh", "-c", line, (char *)NULL);',
        ),
        safe=(
            'system("clear");',
            "execvp(argv[0], argv);",
            'FILE *p = popen("uname -a", "r");',
            "if (system(NULL) == 0) return;",
        ),
    ),
    pattern(
        "cpp-using-namespace-in-header",
        "using namespace header | using namespace std header | namespace pollution header"
        " | using directive header"
        " | using namespace std",
        "c cpp",
        r"(?:#pragma\s+once|#ifndef\s+\w*_H(?:PP|XX)?_?\b)[\s\S]*?^using\s+namespace\s+[\w:]+"
        r"\s*;",
        "",
        hits=(
            "#pragma once\n#include <string>\nusing namespace std;\nclass Order {",
            "#ifndef CART_H\n#define CART_H\n#include <vector>\nusing namespace std;",
            "#ifndef ACME_NET_CLIENT_HPP_\n#define ACME_NET_CLIENT_HPP_\nusing namespace"
            " boost::asio;",
        ),
        safe=(
            "#pragma once\n#include <string>\nnamespace shop {\nusing std::string;\n}",
            "#include <vector>\nusing namespace std;\nint main() {",
            "#pragma once\nnamespace fs = std::filesystem;",
        ),
    ),
    pattern(
        "cpp-catch-by-value",
        "catch by value | catch by reference | exception slicing | catch const reference"
        " | sliced exception",
        "cpp",
        r"\bcatch\s*\(\s*(?:const\s+)?(?!(?:const|int|long|short|char|unsigned|signed|bool"
        r"|double|float|size_t|auto)\b)[A-Za-z_][\w:]*(?:<[^<>()\n]*>)?(?:\s+\w+)?\s*\)",
        "",
        hits=(
            "} catch (std::exception e) {",
            "catch (const std::runtime_error err) {",
            "} catch (ParseError) {",
        ),
        safe=(
            "} catch (const std::exception& e) {",
            "catch (const std::runtime_error &err) {",
            "} catch (...) {",
        ),
    ),
    pattern(
        "elixir-string-to-atom",
        "string.to_atom | to_atom user input | atom table exhausted | atom exhaustion"
        " | to_existing_atom | atoms never garbage collected",
        "elixir",
        r"\bString\.to_atom\b|:erlang\.(?:binary|list)_to_atom\b|\bList\.to_atom\b",
        "",
        hits=(
            'field = String.to_atom(params["sort"])',
            "key |> String.to_atom()",
            "atom = :erlang.binary_to_atom(name, :utf8)",
        ),
        safe=(
            'field = String.to_existing_atom(params["sort"])',
            'Map.fetch!(%{"name" => :name, "date" => :inserted_at}, params["sort"])',
            "Atom.to_string(:ok)",
        ),
    ),
    pattern(
        "elixir-sql-interpolation",
        "sql injection | repo.query interpolation | sql string interpolation | interpolated"
        " sql | query parameters $1 | ecto raw sql",
        "elixir",
        r"\b(?:Repo\.query!?|SQL\.query!?|fragment)\s*\(\s*(?:[\w.]+\s*,\s*)?\"[^\"\n]*#\{"
        r"|\"[^\"\n]*\b(?:SELECT\b[^\"\n]*\bFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b"
        r"[^\"\n]*#\{",
        "",
        hits=(
            "Repo.query(\"SELECT * FROM users WHERE email = '#{email}'\")",
            'Ecto.Adapters.SQL.query!(Repo, "DELETE FROM carts WHERE user_id = #{id}")',
            "SQL.query(Repo, \"UPDATE orders SET status = '#{status}'\", [])",
        ),
        safe=(
            'Repo.query("SELECT * FROM users WHERE email = $1", [email])',
            "from(u in User, where: u.email == ^email) |> Repo.one()",
            'Logger.info("loaded #{count} rows")',
        ),
    ),
    pattern(
        "dart-null-assertion",
        "null assertion | null check operator | bang operator dart | null check used"
        " null value | force unwrap dart"
        " | bang operator flutter | bang operator nullable | null check flutter",
        "dart",
        r"^(?!//)[^\n]*?" + _BANG,
        "",
        hits=(
            "final name = user!.displayName;",
            "return snapshot.data!;",
            "Text(widget.order!.title)",
        ),
        safe=(
            "final name = user?.displayName ?? 'guest';",
            "if (user != null && !loading) {",
            "print('Saved! Thanks');",
        ),
    ),
    pattern(
        "dart-context-across-async-gap",
        "buildcontext async gap | context across async | use_build_context_synchronously"
        " | context after await | context mounted check | context.mounted",
        "dart",
        r"\bawait\b[^;]*;[\s\S]{0,600}?(?:\b(?:Navigator|ScaffoldMessenger|Theme|MediaQuery"
        r"|GoRouter|Provider)\.of\s*\(\s*context\b"
        r"|\bNavigator\.(?:pop|push|maybePop|popUntil|restorable)\w*\s*(?:<[^>\n]*>)?\(\s*context\b"
        r"|\bcontext\.(?:go|push\w*|pop|replace"
        r"|read|watch|goNamed)\s*\(|\bshow(?:Dialog|ModalBottomSheet)\s*\(\s*"
        r"(?:context\s*:\s*)?context\b)",
        r"\bmounted\b",
        hits=(
            "await repo.save(order);\nNavigator.of(context).pop();",
            "final ok = await api.login(email, password);\nif (ok) context.go('/home');",
            "await Future.delayed(const Duration(seconds: 1));\n"
            "ScaffoldMessenger.of(context).showSnackBar(snack);",
        ),
        safe=(
            "await repo.save(order);\nif (!context.mounted) return;\nNavigator.of(context).pop();",
            "Navigator.of(context).pop();",
            "final items = await api.load();\nsetState(() => _items = items);",
        ),
    ),
    pattern(
        "dart-shared-preferences-secret",
        "sharedpreferences token | token stored sharedpreferences | password in shared"
        " preferences | flutter_secure_storage | secure storage instead sharedpreferences",
        "dart",
        r"\.setString\s*\(\s*['\"][^'\"\n]*" + _SECRET_KEY,
        r"\bFlutterSecureStorage\b",
        hits=(
            "await prefs.setString('authToken', token);",
            'await sp.setString("refresh_token", tokens.refresh);',
            "prefs.setString('password', password);",
        ),
        safe=(
            "await prefs.setString('locale', 'de');",
            "await storage.write(key: 'authToken', value: token);",
            "await prefs.setBool('seenOnboarding', true);",
        ),
    ),
]
