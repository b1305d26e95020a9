package policy

import (
	"path/filepath"
	"strings"
)

// Build-tool tasks that write the files the tool runs later: gradle's
// wrapper task writes gradle/wrapper/gradle-wrapper.properties (whose
// distributionUrl names the gradle every ./gradlew downloads and runs)
// and the gradlew scripts; maven's wrapper goals (wrapper:wrapper, the
// takari io.takari:maven:wrapper) write .mvn/wrapper/. They are judged
// as the writes they make, through the one run-later list
// (runlater.toml), however the tool is spelled (gradle, ./gradlew, mvn,
// ./mvnw).

// judgeWrapperTasks judges the wrapper tasks of gradle and maven.
func (x *cmdCtx) judgeWrapperTasks(args []word) {
	if len(args) == 0 {
		return
	}
	prog := filepath.Base(args[0].val)
	if t, ok := publishWrapper(prog); ok {
		prog = t
	}
	switch prog {
	case "gradle":
		for _, a := range args[1:] {
			if !a.static || strings.HasPrefix(a.val, "-") {
				continue
			}
			t := a.val[strings.LastIndexByte(a.val, ':')+1:]
			if t == "wrapper" || len(t) >= 2 && strings.HasPrefix("wrapper", t) && t[0] == 'w' && t != "w" {
				x.writeStr("gradle/wrapper/gradle-wrapper.properties")
				x.writeStr("gradlew")
				return
			}
		}
	case "mvn", "mvnd":
		for _, a := range args[1:] {
			v := strings.ToLower(a.val)
			if strings.HasPrefix(v, "-") {
				continue
			}
			if strings.HasPrefix(v, "wrapper:") || strings.HasSuffix(v, ":wrapper") || strings.Contains(v, "maven-wrapper-plugin") {
				x.writeStr(".mvn/wrapper/maven-wrapper.properties")
				x.writeStr("mvnw")
				return
			}
		}
	}
}
