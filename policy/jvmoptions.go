package policy

import (
	"path/filepath"
	"strings"
)

// JVM options that load code, written into a file a build hands to the JVM
// (polcorp7 P7-U4): `echo 'org.gradle.jvmargs=-javaagent:agent.jar' >>
// gradle.properties` makes the next gradle run, or the IDE's sync on
// opening the project, load agent.jar into the build's JVM. The files are
// the runlater.toml entries marked jvm_options (gradle.properties,
// .jvmopts, .sbtopts; .mvn/jvm.config is an auto entry already). Such a
// file stays everyday to write (a heap size, a -D flag); a write on a line
// whose text names an option that loads code or takes over the JVM asks
// as a write to a file that runs code later does.

// jvmLoadingOptions are JVM options (lower case) that load or run code
// given by name: agents, native agents, the boot class path, a class
// loader or security manager of the project's choosing, commands run on a
// crash, and the JDK a build starts.
var jvmLoadingOptions = []string{"-javaagent", "-agentpath", "-agentlib", "-xbootclasspath", "-xx:onerror",
	"-xx:onoutofmemoryerror", "java.security.manager", "java.system.class.loader", "org.gradle.java.home",
	"-xx:jvmcilibpath", "java.library.path", "java.ext.dirs", "--patch-module"}

// jvmOptionsWrite turns a workspace write allowed as everyday into an ask
// when p is a JVM-options file and the line names a loading option.
func (c *checkEnv) jvmOptionsWrite(p string, f finding) finding {
	if f.d != Allow || !within(p, c.ws) {
		return f
	}
	e, ok := jvmOptionsFile(rel(p, c.ws))
	if !ok {
		return f
	}
	line := strings.ToLower(c.line)
	for _, o := range jvmLoadingOptions {
		if strings.Contains(line, o) {
			return finding{Ask, RulePathWriteRunLater, "writes " + filepath.Base(p) + " with the JVM option " + o + ", which loads code into the build's JVM (" + e.Reason + ")"}
		}
	}
	return f
}

// jvmOptionsFile finds the runlater.toml entry marked jvm_options that
// matches the workspace-relative path r.
func jvmOptionsFile(r string) (RunLaterEntry, bool) {
	elems := foldedElems(r)
	for _, e := range runLaterList.get() {
		if e.JVMOptions && e.matches(elems) {
			return e, true
		}
	}
	return RunLaterEntry{}, false
}
