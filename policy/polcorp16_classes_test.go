package policy

import "testing"

// checkLines asserts each line's decision in the given contexts: want
// Allow means allowed; any other want means not allowed (ask or deny) when
// want is Ask, and exactly denied when want is Deny.
func checkLines(t *testing.T, ctxs []Context, want Decision, lines ...string) {
	t.Helper()
	e := Default()
	for _, c := range ctxs {
		for _, cmd := range lines {
			v := e.Check(Query{Kind: KindShell, Command: cmd, Context: c})
			switch {
			case want == Allow && v.Decision != Allow,
				want == Ask && v.Decision == Allow,
				want == Deny && v.Decision != Deny:
				t.Errorf("sandbox %v in place %v: %q is %s by %s (%s), want %s", c.Sandboxed, c.InPlace, cmd, v.Decision, v.Rule, v.Reason, want)
			}
		}
	}
}

// polcorp16Contexts returns the sandbox-on, sandbox-off and in-place
// contexts of the test environment.
func polcorp16Contexts(t *testing.T) (on, off, inPlace Context) {
	off = testEnv(t)
	on = off
	on.Sandboxed = true
	inPlace = off
	inPlace.InPlace = true
	return on, off, inPlace
}

// TestNewDomainBuildVerbs: the build tools of domains polcorp16 found
// unknown (dune, xmake, buf, vcpkg, hugo, mdbook, pulumi preview) are
// judged by verb class (buildverbs_p16.go), their own argument spellings
// read for what they are (p16args.go).
func TestNewDomainBuildVerbs(t *testing.T) {
	on, off, inPlace := polcorp16Contexts(t)
	checkLines(t, []Context{on}, Allow,
		"dune build @runtest", "dune build @default @runtest --auto-promote", "dune fmt", "dune promote", "dune clean",
		"dune exec bin/main.exe", "dune build @src/fmt --auto-promote",
		"xmake", "xmake f -p linux -a x86_64 -m debug", "xmake project -k compile_commands", "xmake run test", "xmake clean",
		"buf lint", "buf generate", "buf format -d --exit-code", "buf build -o image.binpb", "buf ls-files",
		"buf generate --template buf.gen.openapi.yaml --path proto/public -o openapiv2/public",
		"vcpkg install", "vcpkg list", "hugo --minify", "hugo server -D", "hugo new content posts/a.md", "mdbook build", "mdbook test",
		"pulumi preview", "pulumi preview --diff", "pulumi stack ls")
	checkLines(t, []Context{on, off, inPlace}, Ask,
		"dune build @../outside", "dune build @/etc/x", "buf push", "buf build -o /etc/x", "buf generate -o .git/hooks",
		"hugo deploy", "hugo build -d /etc", "hugo mod get -u", "xmake update", "xmake f -p $(evil)", "vcpkg install fmt",
		"vcpkg add port fmt", "pulumi up", "pulumi destroy", "pulumi refresh --yes", "buf generate -o x && rm -rf ~")
	checkLines(t, []Context{off, inPlace}, Ask, "pulumi preview", "pulumi stack ls", "vcpkg install")
}

// TestWorktreeRemoveForceInPlace: git worktree remove --force deletes the
// worktree's uncommitted and untracked files (claude-code#39514: agents'
// worktrees held work not yet copied back); in place with no checkpoint it
// asks, as git clean does. In a copy, and plain remove (which refuses a
// worktree with changes), stay allowed.
func TestWorktreeRemoveForceInPlace(t *testing.T) {
	on, off, inPlace := polcorp16Contexts(t)
	cp := inPlace
	cp.Checkpointed = true
	checkLines(t, []Context{inPlace}, Ask, "git worktree remove --force .claude/worktrees/agent-a1",
		"git worktree remove -f .claude/worktrees/agent-a1", "git worktree remove -f -f .claude/worktrees/agent-a1",
		"git -C . worktree remove --force wt/a")
	checkLines(t, []Context{on, off, cp}, Allow, "git worktree remove --force .claude/worktrees/agent-a1")
	checkLines(t, []Context{on, off, inPlace}, Allow, "git worktree remove .claude/worktrees/agent-a1", "git worktree list")
}

// TestAnsibleModesAndPulumiTeardown: ansible-playbook's syntax and list
// modes run no task (allowed in the sandbox, asked off and in place), while
// --check keeps the deny (a check_mode: false task runs for real); ad-hoc
// ansible with a module that changes hosts is denied as ansible-playbook is
// (polcorp16: -m file state=absent, -m shell 'rm -rf' only asked); pulumi
// destroy's aliases down/dn and stack rm are denied as destroy is.
func TestAnsibleModesAndPulumiTeardown(t *testing.T) {
	on, off, inPlace := polcorp16Contexts(t)
	checkLines(t, []Context{on}, Allow, "ansible-playbook playbook.yml --syntax-check",
		"ansible-playbook -i inventories/dev site.yml --list-tasks", "ansible-playbook -i inventories/dev site.yml --list-hosts")
	checkLines(t, []Context{off, inPlace}, Ask, "ansible-playbook playbook.yml --syntax-check", "ansible-playbook -i inventories/dev site.yml --list-tasks")
	checkLines(t, []Context{on, off, inPlace}, Ask, "ansible-playbook site.yml --list-tasks -i /etc/ansible/hosts", "ansible all -m ping",
		"ansible-playbook site.yml --syntax-check -e @/home/u/.secrets.yml")
	checkLines(t, []Context{on, off, inPlace}, Deny,
		"ansible-playbook -i inventories/dev site.yml --check --diff", "ansible-playbook site.yml --syntax-check --check",
		"ansible-playbook -i prod site.yml", "ansible-playbook site.yml -C --list-tasks",
		"ansible all -i inventories/prod -m file -a \"path=/srv/app state=absent\" -b",
		"ansible webservers -i inventories/prod -m shell -a 'rm -rf /var/www/*' --become", "ansible all -a 'rm -rf /'",
		"ansible localhost -m file -a \"path=$HOME/Pictures state=absent\"", "ansible all -mshell -a id", "ansible all --module-name=copy -a 'src=x dest=/etc/x'",
		"pulumi dn --yes", "pulumi down -y", "pulumi stack rm dev --force --yes", "pulumi destroy -y")
}

// TestTeXToolchain: compiling the project's LaTeX document (latexmk, the
// TeX engines, bibtex/biber, chktex, texcount) is the project's own build
// (textools.go); -shell-escape only inside the sandbox; latexmk -e/-r
// (Perl), an engine command that is not a TeX engine, a viewer (-pv),
// outputs outside the workspace or into .git/hooks, and a latexmkrc
// written by the same line are not allowed.
func TestTeXToolchain(t *testing.T) {
	on, off, inPlace := polcorp16Contexts(t)
	checkLines(t, []Context{on, off, inPlace}, Allow, "latexmk main.tex", "latexmk -c", "latexmk -C",
		"latexmk -xelatex -output-directory=out src/paper.tex",
		"xelatex -output-directory=out -synctex=1 -interaction=nonstopmode -file-line-error src/paper.tex",
		"xelatex -output-directory=out src/paper.tex && bibtex out/paper && xelatex -output-directory=out src/paper.tex",
		"latexmk -pdf -pdflatex=\"pdflatex -interaction=nonstopmode\" -use-make BachelorThesis.tex",
		"pdflatex -interaction=nonstopmode -output-directory build main.tex", "platex main.tex && pbibtex main && dvipdfmx main.dvi",
		"biber out/paper", "chktex main.tex", "lacheck main.tex", "texcount -1 -sum -merge -q chapters.tex")
	checkLines(t, []Context{on}, Allow, "latexmk -shell-escape -interaction=nonstopmode -lualatex ./thesis.tex -outdir=./output/")
	checkLines(t, []Context{off, inPlace}, Ask, "latexmk -shell-escape -lualatex ./thesis.tex", "pdflatex -shell-escape main.tex")
	checkLines(t, []Context{on, off, inPlace}, Ask,
		"latexmk -e '$pdflatex=q/rm -rf ~\\/Pictures/' -pdf main.tex", "latexmk -r /tmp/evilrc main.tex",
		"latexmk -pdflatex=\"sh -c evil\" main.tex", "latexmk -pdflatex='pdflatex; rm -rf ~' main.tex", "latexmk -pv main.tex",
		"pdflatex -output-directory=/etc main.tex", "latexmk -outdir=.git/hooks main.tex", "echo x > .latexmkrc && latexmk main.tex",
		"echo x > main.tex && pdflatex -shell-escape main.tex", "pdflatex ~/.ssh/id_rsa", "chktex -o /etc/x main.tex", "pdflatex $DOC")
}

// TestFindDepthOneWipe: a find rooted at the project with -maxdepth 1 (or
// more) and negated name tests that spare something other than .git
// deletes the project's .git with everything else (gemini-cli#15792: a
// working directory wiped after 'allow for this session'); it is denied as
// find . -delete is. Sparing .git, a positive name test, -type f under a
// depth limit, or a root below the project are judged as before (not
// denied).
func TestFindDepthOneWipe(t *testing.T) {
	on, off, inPlace := polcorp16Contexts(t)
	checkLines(t, []Context{on, off, inPlace}, Deny,
		"find . -maxdepth 1 ! -name '.venv' ! -name '.' -exec rm -rf {} +", "find . -mindepth 1 -maxdepth 1 -exec rm -rf {} +",
		"find . -maxdepth 2 -not -name node_modules -delete", "find ./ -maxdepth 1 ! -iname README.md -exec rm -rf {} +")
	e := Default()
	for _, cmd := range []string{"find . -maxdepth 1 -not -name '.g*' -exec rm -rf {} +", "find . -maxdepth 1 -type f -delete",
		"find . -maxdepth 1 -name '*.log' -delete", "find src -maxdepth 1 ! -name keep.py -delete", "find . -maxdepth 0 -delete"} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: on}); v.Decision == Deny {
			t.Errorf("%q denied by %s (%s): it spares .git", cmd, v.Rule, v.Reason)
		}
	}
}
