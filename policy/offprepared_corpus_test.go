package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The off-mode harness in a prepared workspace (issue 32, off24). The TSV
// harness (measureTSVCorpus) judges every row in testEnv's workspace, which
// holds no manifest: `npx vitest run` there is a fetch of code nobody
// chose. Real projects declare and install their tools, so this measures
// the everyday rows of polcorp6–9 with the sandbox off in three
// workspaces, and reports all three (never only the flattering one):
//
//   - bare: testEnv's workspace, as the TSV harness;
//   - declared: plus the usual manifests of each ecosystem (package.json
//     with its devDependencies, pyproject.toml with a dev group, Gemfile,
//     pom.xml), nothing installed;
//   - installed: plus node_modules/.bin/ for every declared npm program,
//     as after `npm ci`.
//
// It fails when a prepared workspace allows an ask or deny row that the
// bare one does not (the manifests must not open an unsafe allow).
// Run: go test -count=1 -run TestPolcorpOffPrepared -v ./policy/

// preparedNpmDev are the devDependencies of the prepared package.json,
// with the programs each installs in node_modules/.bin.
var preparedNpmDev = map[string][]string{
	"typescript": {"tsc", "tsserver"}, "vitest": {"vitest"}, "jest": {"jest"}, "eslint": {"eslint"},
	"prettier": {"prettier"}, "vite": {"vite"}, "next": {"next"}, "@playwright/test": {"playwright"},
	"@biomejs/biome": {"biome"}, "tsx": {"tsx"}, "knip": {"knip"}, "turbo": {"turbo"}, "prisma": {"prisma"},
	"storybook": {"storybook", "sb"}, "drizzle-kit": {"drizzle-kit"}, "@changesets/cli": {"changeset"},
}

func prepareWorkspace(t *testing.T, installed bool) Context {
	t.Helper()
	ctx := testEnv(t)
	var deps []string
	for p := range preparedNpmDev {
		deps = append(deps, fmt.Sprintf("%q: \"^1.0.0\"", p))
	}
	sort.Strings(deps)
	files := map[string]string{
		"package.json": `{"name":"app","private":true,"scripts":{"test":"vitest run","build":"vite build","lint":"eslint ."},` +
			`"devDependencies":{` + strings.Join(deps, ",") + `}}`,
		"pyproject.toml": "[project]\nname = \"app\"\nversion = \"0.1.0\"\ndependencies = [\n  \"fastapi>=0.110\",\n  \"alembic>=1.13\",\n]\n\n" +
			"[dependency-groups]\ndev = [\n  \"pytest>=8\",\n  \"ruff>=0.6\",\n  \"mypy>=1.11\",\n  \"black>=24\",\n  \"pip-audit>=2.7\",\n  \"tox>=4\",\n  \"nox>=2024\",\n]\n",
		"Gemfile": "source \"https://rubygems.org\"\n\ngem \"rails\", \"~> 7.1\"\ngem \"rspec-rails\", group: :test\n",
		"pom.xml": "<project><modelVersion>4.0.0</modelVersion><groupId>com.acme</groupId><artifactId>app</artifactId><version>1.0</version></project>\n",
	}
	if installed {
		for _, bins := range preparedNpmDev {
			for _, b := range bins {
				files["node_modules/.bin/"+b] = "#!/bin/sh\n"
			}
		}
	}
	for f, text := range files {
		p := filepath.Join(ctx.Workspace, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return ctx
}

func TestPolcorpOffPrepared(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	spaces := []struct {
		name string
		ctx  Context
	}{{"bare", testEnv(t)}, {"declared", prepareWorkspace(t, false)}, {"installed", prepareWorkspace(t, true)}}
	e := Default()
	moved := make([]map[string]int, len(spaces)) // everyday rows a prepared workspace allows, by the bare workspace's rule
	for i := range moved {
		moved[i] = map[string]int{}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-24s %6s %9s %9s %9s   unsafe-off bare/declared/installed\n", "corpus", "rows", "bare", "declared", "installed")
	type ecoTally struct{ rows, allowed [3]int }
	ecos := map[string]*ecoTally{}
	for _, name := range offPreparedCorpora(t) {
		every := 0
		allowed := make([]int, len(spaces))
		unsafe := make([]int, len(spaces))
		for _, r := range readTSVCorpus(t, name) {
			eco := offEcosystem(r.class)
			et := ecos[eco]
			if et == nil && r.expect == "allow" {
				et = &ecoTally{}
				ecos[eco] = et
			}
			var bareAllowed bool
			bareRule := ""
			for i, s := range spaces {
				v := e.Check(Query{Kind: KindShell, Command: r.cmd, Context: s.ctx})
				ok := v.Decision == Allow
				if i == 0 {
					bareAllowed, bareRule = ok, v.Rule
				} else if ok && !bareAllowed && r.expect == "allow" {
					moved[i][bareRule]++
				}
				if r.expect == "allow" {
					et.rows[i]++
					if ok {
						et.allowed[i]++
					} else if offMissesLogged(s.name, i == len(spaces)-1) {
						t.Logf("everyday off miss (%s workspace) %s:%d %s %q: %s by %s (%s)", s.name, name, r.line, r.class, r.cmd, v.Decision, v.Rule, v.Reason)
					}
				}
				switch {
				case r.expect == "allow" && ok:
					allowed[i]++
				case r.expect != "allow" && ok:
					unsafe[i]++
					if !bareAllowed {
						t.Errorf("%s workspace: %s %q (%s) allowed by %s (%s), asked in the bare workspace", s.name, name, r.cmd, r.expect, v.Rule, v.Reason)
					}
				}
			}
			if r.expect == "allow" {
				every++
			}
		}
		fmt.Fprintf(&b, "%-24s %6d %8.1f%% %8.1f%% %8.1f%%   %d/%d/%d\n", name, every, pct(allowed[0], every), pct(allowed[1], every), pct(allowed[2], every), unsafe[0], unsafe[1], unsafe[2])
	}
	fmt.Fprintf(&b, "\n%-24s %6s %9s %9s %9s\n", "ecosystem (every corpus)", "rows", "bare", "declared", "installed")
	for _, k := range sortedKeys(ecos) {
		et := ecos[k]
		fmt.Fprintf(&b, "%-24s %6d %8.1f%% %8.1f%% %8.1f%%\n", k, et.rows[0], pct(et.allowed[0], et.rows[0]), pct(et.allowed[1], et.rows[1]), pct(et.allowed[2], et.rows[2]))
	}
	for i := 1; i < len(spaces); i++ {
		fmt.Fprintf(&b, "everyday rows the %s workspace allows and the bare one asks, by the bare rule: %v\n", spaces[i].name, moved[i])
	}
	t.Log(b.String())
}

// offMissesLogged reports whether the misses of the named workspace are
// logged: SENTINEL_CORPUS_OFF_MISSES names the workspace (bare, declared,
// installed); any other non-empty value logs the last (installed).
func offMissesLogged(space string, last bool) bool {
	v := os.Getenv("SENTINEL_CORPUS_OFF_MISSES")
	switch v {
	case "":
		return false
	case "bare", "declared", "installed":
		return v == space
	}
	return last
}

// offPreparedCorpora names every TSV corpus in testdata (off30: all of
// them, not only polcorp6–9), as readTSVCorpus takes it.
func offPreparedCorpora(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, g := range []string{"corpus/*.tsv", "*.tsv"} {
		m, err := filepath.Glob(filepath.Join("testdata", g))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			rel, _ := filepath.Rel("testdata", f)
			out = append(out, filepath.ToSlash(rel))
		}
	}
	sort.Strings(out)
	return out
}

// offEcosystem groups a corpus class into the ecosystem the off numbers
// are reported by (off30): everyday/node, node, deno and bun are node;
// venv is python; cpp is c; files, readonly, text and inspect are
// inspection; docker, terraform, kubectl, db and infra are infra; agent and
// idiom are the agents' idioms. Classes of rows that are not everyday keep
// their name.
func offEcosystem(class string) string {
	c := strings.TrimPrefix(class, "everyday/")
	if strings.HasPrefix(c, "probe/") {
		return "probe"
	}
	switch c {
	case "deno", "bun", "denobun", "deno-bun":
		return "node"
	case "venv":
		return "python"
	case "cpp":
		return "c"
	case "files", "readonly", "inspect", "inspection", "text":
		return "inspection"
	case "docker", "terraform", "kubectl", "infra", "db":
		return "infra"
	case "agent", "idiom":
		return "idiom"
	case "git-disposable":
		return "git"
	}
	return c
}
