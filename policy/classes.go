package policy

// judgeClasses judges the classes of unsafe spelling issue 32 found
// across programs, each from one table rather than in each handler:
// publishing by any build tool (publish.go) and programs, build files or
// settings read from a stream (unseen.go). It runs on every command
// before the program's own handler (and for a project's wrapper script,
// ./gradlew, before it is judged as the project's code); the strictest
// finding wins, so it can only tighten a decision.
func (x *cmdCtx) judgeClasses(args []word) {
	x.judgePublish(args)
	x.judgeUnseen(args)
	x.judgeWrapperTasks(args)    // wrappertasks.go: gradle wrapper, mvn wrapper:wrapper
	x.judgeSecretPrinters(args)  // secretprinters.go: docker compose config
	x.judgeRegistryOff(args)     // registryoff.go: go mod download, npm audit with the sandbox off
	x.judgeEmptySubst(args)      // emptysubst.go: rm -rf "$(git rev-parse --show-toplevel)/build"
	x.judgeRunnerWraps(args)     // runnerwraps.go: npx rimraf ~, uvx twine upload, npx npm publish
	x.judgePathExec(args)        // pathexec.go: composer exec sh -c …, mix cmd rm -rf ~
	x.judgeContainerMounts(args) // containermounts.go: docker run -v ~:/h alpine rm -rf /h
	x.judgeInlineRunners(args)   // inlinerunners.go: bun -e, deno eval, make --eval, make -f /dev/stdin <<< TEXT
	x.judgeProjectWipe(args)     // projectwipe.go: rm -rf ., find . -delete, rm -rf "$PWD"
	x.judgeGlobalConfig(args)    // globalconfig.go: npm config set -g, pip config set, yarn config set --home
	x.judgeAuditFix(args)        // auditfix.go: npm audit fix, pnpm audit --fix
	x.judgeSecretDecrypt(args)   // secretdecrypt.go: bin/rails credentials:show, php artisan env:decrypt, sops -d
}
