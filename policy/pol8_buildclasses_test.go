package policy

import "testing"

// Build-tool option classes of issue #32 (pol8): cmake generators,
// compilers and default parallelism, ninja's graph-printing tools, Maven
// lifecycle phases and plugin goals, the operands of a manifest install
// (a solution file, a dependency group) and swift format's switches. Each
// row with the sandbox on and off; the asks beside them are the options
// that load code, name another program or write elsewhere.
func TestPol8BuildOptionClasses(t *testing.T) {
	checkOnOff(t, []onOff{
		// cmake: -GNinja is -G Ninja; a bare compiler name is the compiler
		// on PATH; --parallel alone is the native tool's default
		{"cmake -B.build -DCMAKE_BUILD_TYPE=Debug -DBUILD_TESTS=ON -GNinja", Allow, Allow},
		{"cmake -B build -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang", Allow, Allow},
		{"cmake -B build -DCMAKE_CXX_COMPILER=g++-13 -DCMAKE_CXX_COMPILER_LAUNCHER=ccache", Allow, Allow},
		{"cmake --build build --parallel", Allow, Allow},
		{"cmake --build build -j --target app", Allow, Allow},
		{"cmake -B build -DCMAKE_CXX_COMPILER=/tmp/evil", Ask, Ask},
		{"cmake -B build -DCMAKE_CXX_COMPILER=./cc", Ask, Ask},
		{"cmake -B build -DCMAKE_CXX_COMPILER_LAUNCHER=/tmp/wrap", Ask, Ask},
		{"cmake -B build -GXcode", Ask, Ask},
		{"cmake -B build -DCMAKE_TOOLCHAIN_FILE=/tmp/t.cmake", Ask, Ask},
		{"cmake -C /tmp/init.cmake -B build", Ask, Ask},
		{"cmake -P script.cmake", Ask, Ask},
		// ninja -t: tools that print names from the graph
		{"ninja -C build -t targets", Allow, Allow},
		{"ninja -t query app", Allow, Allow},
		{"ninja -t commands", Ask, Ask},
		{"ninja -t browse", Ask, Ask},
		{"ninja -f /tmp/build.ninja", Ask, Ask},
		// mvn: phases are the build; plugin goals run inside the sandbox
		{"mvn site", Allow, Allow},
		{"mvn clean process-resources", Allow, Allow},
		{"mvn prettier:write", Allow, Ask},
		{"mvn exec:exec@ktlint-format", Allow, Ask},
		{"mvn clean package assembly:single", Allow, Ask},
		{"mvn prettier:write -DskipTests", Allow, Ask},
		{"mvn exec:exec -Dexec.executable=/tmp/x", Ask, Ask},
		{"mvn exec:java -Dexec.mainClass=x.Main -Dexec.args=a", Allow, Allow}, // the project's main class (mvnexec.go), off as make test
		{"mvn dependency:get -Dartifact=evil:evil:1.0", Ask, Ask},
		{"mvn gpg:sign", Ask, Ask},
		{"mvn scm:checkin -Dmessage=x", Deny, Deny},
		{"mvn jib:build", Deny, Deny},
		{"mvn prettier:write -s /tmp/settings.xml", Ask, Ask},
		{"mvn nexus-staging:release", Deny, Deny},
		// manifest installs: the solution file, the manifest's own groups
		{"dotnet restore Codebelt.Extensions.Xunit.slnx", Allow, Ask},
		{"dotnet restore src/App/App.csproj", Allow, Ask},
		{"dotnet restore /tmp/x/App.csproj", Ask, Ask},
		{"dotnet restore left-pad", Ask, Ask},
		{"poetry install --with dev", Allow, Ask},
		{"poetry install --only main --no-root", Allow, Ask},
		{"poetry install requests", Ask, Ask},
		{"poetry install --with /tmp/x", Ask, Ask},
		// swift format's in-place and recursive switches
		{"swift format -i -r .", Allow, Allow},
		{"swift format lint -r Sources", Allow, Allow},
		{"swift format -i -r /etc", Ask, Ask},
	})
}
