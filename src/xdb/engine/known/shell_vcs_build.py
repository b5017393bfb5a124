"""Known mistakes of version control, build tools and package publishing that the older
modules lack: worktrees removed with ``--force``, submodules moved to upstream's tip by
``update --remote``, branches moved by ``branch -f``/``checkout -B``, ``gh api -X
DELETE`` (branch protection, environments), tests skipped in maven and gradle builds,
``make -j`` without a job count, in-source cmake builds, ``cargo install`` without
``--locked``, packages unpublished or yanked, and apt sources trusted without a
signature.

Blind lessons named their pattern 15/20 before the phrases were widened; blind
variants: hits caught 30/30, safe left alone 19/20 before the detectors were widened
(all 20, 30 and 20 after).
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern
from xdb.engine.known.shell_more import GIT
from xdb.engine.known.shell_ops import B, S

END = r"(?=\s|$|[;&|)'\"])"

PATTERNS: list[Pattern] = [
    pattern(
        "git-worktree-remove-force",
        "worktree remove --force | force removed the worktree | removed worktree with uncommitted"
        " changes | git worktree remove force | lost changes in the worktree",
        "shell",
        GIT + r"worktree\s+remove\b" + S + r"*?\s(?:-f|--force)" + END,
        hits=(
            "git worktree remove --force ../api-hotfix",
            "git worktree remove ../wt/feature-x -f",
            "cd repo && git worktree remove -f -f .worktrees/spike",
            "git -C ~/src/api worktree remove --force /tmp/wt-review",
        ),
        safe=(
            "git worktree remove ../api-hotfix",
            "git worktree list",
            "git worktree add ../api-hotfix -b hotfix/login",
            "git worktree prune",
        ),
    ),
    pattern(
        "git-submodule-update-remote",
        "submodule update --remote | submodules moved to latest upstream | submodule pinned"
        " commit changed | submodule bumped unintentionally | git submodule update remote"
        " | submodule foreach git pull",
        "shell",
        GIT
        + r"submodule\s+(?:update\b"
        + S
        + r"*?\s--remote\b|foreach\b"
        + S
        + r"*?\bgit\s+pull\b)",
        hits=(
            "git submodule update --remote",
            "git submodule update --init --remote --merge",
            "git submodule foreach 'git pull origin main'",
            "cd app && git submodule update --remote vendor/sdk && git add vendor/sdk",
        ),
        safe=(
            "git submodule update --init --recursive",
            "git submodule status",
            "git submodule sync",
            "cd vendor/sdk && git checkout v2.3.1",
        ),
    ),
    pattern(
        "git-branch-force-move",
        "branch --force moved | git branch -f moved | moved the branch pointer"
        " | reset the branch with checkout -B | lost commits when moving the branch"
        " | git update-ref"
        " | git checkout -B discarded commits"
        " | branch pointer reset | recreated the branch",
        "shell",
        GIT + r"(?:branch\s+(?:-f|--force)\s+(?!-)[^\s;&|]"
        r"|(?:checkout\s+-B|switch\s+(?:-C|--force-create))\s+(?!-)[^\s;&|]+"
        r"|update-ref\s+(?:-d\s+)?refs/heads/)",
        hits=(
            "git branch -f main HEAD~3",
            "git branch --force release origin/release",
            "git checkout -B main origin/main",
            "git update-ref refs/heads/develop 4f2a9c1",
        ),
        safe=(
            "git branch release origin/release",
            "git switch -c fix/typo origin/main",
            "git branch -d merged-feature",
            "git branch --list",
        ),
    ),
    pattern(
        "gh-cli-api-delete",
        "gh api delete | deleted branch protection | removed branch protection with gh api"
        " | gh api -x delete | glab api delete",
        "shell",
        B
        + r"(?:gh|glab)\s+api\b"
        + S
        + r"*?\s(?:-X|--method)(?:\s*|=)['\"]?DELETE\b"
        # The same request sent with curl to GitHub's or GitLab's API.
        + r"|\bcurl\b(?="
        + S
        + r"*\s(?:-X|--request)(?:\s*|=)['\"]?DELETE\b)"
        + S
        + r"*?https?://(?:api\.github\.com|[\w.-]*gitlab[\w.-]*/api)/",
        hits=(
            "gh api -X DELETE repos/acme/api/branches/main/protection",
            "gh api --method DELETE /repos/acme/web/environments/production",
            "glab api -X DELETE projects/42/protected_branches/main",
            "gh api repos/acme/api/git/refs/heads/release -X DELETE",
        ),
        safe=(
            "gh api repos/acme/api/branches/main/protection",
            "gh api -X GET repos/acme/api/pulls",
            "gh api --method PUT repos/acme/api/branches/main/protection --input protection.json",
            "gh pr list",
        ),
    ),
    pattern(
        "build-skip-tests",
        "skiptests | maven.test.skip | gradle -x test | maven skipped tests"
        " | built without running the tests | shipped without running the tests"
        " | dskiptests | gradlew -x test",
        "shell",
        B + r"(?:\./)?(?:mvnw?|gradlew?)\b(?:" + S + r"*?\s-D(?:skipTests|maven\.test\.skip"
        r"|skipITs)(?:=true)?" + END + "|" + S + r"*?\s(?:-x|--exclude-task)\s+:?(?:test|check)\b)",
        hits=(
            "mvn clean deploy -DskipTests",
            "./mvnw package -Dmaven.test.skip=true",
            "./gradlew build -x test",
            "gradle publish -x check",
        ),
        safe=(
            "mvn clean verify",
            "./gradlew build",
            "mvn -q test",
            "./mvnw deploy -DskipTests=false",
        ),
    ),
    pattern(
        "build-make-unbounded-jobs",
        "make -j without a number | unlimited parallel jobs | make -j unbounded"
        " | build ran out of memory with make -j | make spawned unlimited jobs"
        " | -j without job count"
        " | -j without a count | cmake --build -j oom"
        " | make -j no limit | unlimited jobs",
        "shell",
        B + r"(?:make\s+(?:" + S + r"*?\s)?-[a-zA-Z]*j|(?:make\s+(?:" + S + r"*?\s)?--jobs)"
        r"|cmake\s+--build\b"
        + S
        + r"*?\s(?:-j|--parallel))(?!\s*['\"]?[\d$])(?!=)"
        + END
        + r"|"
        + B
        + r"ninja\b"
        + S
        + r"*?\s-j\s*0"
        + END,
        hits=(
            "make -j",
            "make -j all",
            "cd build && make -j install",
            "cmake --build build -j",
        ),
        safe=(
            "make -j8",
            "make -j$(nproc)",
            "make -j 4 all",
            "cmake --build build -j 8",
            "make test",
        ),
    ),
    pattern(
        "build-cmake-in-source",
        "cmake in-source build | cmake . polluted | cmakecache in the source tree"
        " | cmake out-of-source build | cmake -b build directory",
        "shell",
        B + r"cmake\b" + S + r"*?\s(?:-[HS]\s*)?\./?" + END,
        # a build directory other than the source's own ``.``
        r"\s-B\s*(?!\./?(?=[\s;&|)'\"]|$))\S|--build\b|--install\b",
        hits=(
            "cmake .",
            "cmake -DCMAKE_BUILD_TYPE=Release .",
            "cd llama.cpp && cmake . && make",
            "cmake -G Ninja ./",
        ),
        safe=(
            "cmake -S . -B build",
            "cd build && cmake ..",
            "cmake --build . --target install",
            "cmake -B build -DCMAKE_BUILD_TYPE=Release",
        ),
    ),
    pattern(
        "pkg-cargo-install-unlocked",
        "cargo install --locked | cargo install without locked | cargo install ignored the"
        " lockfile | cargo install broke with a new dependency | cargo install unlocked",
        "shell",
        B + r"cargo\s+(?:\+\S+\s+)?install\b",
        r"--locked\b|--list\b",
        hits=(
            "cargo install cargo-audit",
            "cargo install sqlx-cli --no-default-features --features postgres",
            "cargo +nightly install wasm-bindgen-cli --version 0.2.92",
            "RUN cargo install wasm-pack",
        ),
        safe=(
            "cargo install --locked cargo-audit",
            "cargo install sqlx-cli --locked --version 0.7.4",
            "cargo install --list",
            "cargo build --locked",
        ),
    ),
    pattern(
        "pkg-unpublish",
        "npm unpublish | gem yank | unpublished the package | unpublished a version"
        " | deprecate instead of unpublish | yanked the gem | nuget delete"
        " | removed a published version | deleted a published version",
        "shell",
        B + r"(?:(?:npm|pnpm|yarn)\s+(?:npm\s+)?unpublish\b|gem\s+yank\b|dotnet\s+nuget\s+delete\b"
        r"|nuget(?:\.exe)?\s+delete\b)",
        r"--dry-run\b",
        hits=(
            "npm unpublish acme-ui@2.3.0",
            "npm unpublish @acme/sdk --force",
            "gem yank acme-client -v 1.4.0",
            "dotnet nuget delete Acme.Core 2.0.1 --source nuget.org --api-key $NUGET_KEY"
            " --non-interactive",
        ),
        safe=(
            "npm deprecate acme-ui@2.3.0 'use 2.3.1'",
            "npm unpublish acme-ui@2.3.0 --dry-run",
            "npm view acme-ui versions",
            "gem list acme-client",
        ),
    ),
    pattern(
        "pkg-apt-unauthenticated",
        "allow-unauthenticated | trusted=yes | unsigned apt repository"
        " | apt without signature verification | apt repository not signed"
        " | insecure apt repository",
        "shell",
        r"--allow-unauthenticated\b|--allow-insecure-repositories\b|--force-yes\b"
        r"|Allow(?:Insecure|Unauthenticated|Downgrade\w*)Repositories\w*['\"]?\s*(?:=|\s)\s*"
        r"['\"]?(?:true|1|yes)\b|AllowUnauthenticated['\"]?\s*(?:=|\s)\s*['\"]?(?:true|1|yes)\b"
        r"|\bdeb\s+\[[^\]\n]*\btrusted=yes\b"
        # rpm's: signatures not checked
        r"|\b(?:yum|dnf|microdnf|zypper|rpm)\b" + S + r"*\s--no(?:gpgcheck|signature|-gpg-checks)\b"
        r"|\bgpgcheck\s*=\s*0\b",
        hits=(
            "sudo apt-get install -y --allow-unauthenticated acme-agent",
            "echo 'deb [trusted=yes] http://repo.acme.dev/apt stable main'"
            " | sudo tee -a /etc/apt/sources.list.d/acme.list",
            "apt-get -o Acquire::AllowInsecureRepositories=true update",
            "apt-get install -y --force-yes nginx",
        ),
        safe=(
            "sudo apt-get install -y acme-agent",
            "echo 'deb [signed-by=/usr/share/keyrings/acme.gpg] https://repo.acme.dev/apt stable"
            " main' | sudo tee -a /etc/apt/sources.list.d/acme.list",
            "apt-get update",
            "apt-cache policy acme-agent",
        ),
    ),
]
