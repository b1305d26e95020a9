package policy

import "testing"

// TestGradlePropertyKeysByName (off30): a -D/-P key asks when one of its
// names begins or ends with a word that moves gradle's code, home, JDK or
// network, not when the word sits inside another word:
// `./gradlew test -Dspring.profiles.active=test` (polcorp9) asked with the
// sandbox off because "profiles" holds "file".
func TestGradlePropertyKeysByName(t *testing.T) {
	checkOnOffIn(t, testEnv(t), []onOff{
		{"./gradlew test -Dspring.profiles.active=test", Allow, Allow},
		{"bash -lc './gradlew test -Dspring.profiles.active=test'", Allow, Allow},
		{"./gradlew test -Pprofile=ci", Allow, Allow},
		// Keys that move code, JDK, home or network still ask off.
		{"./gradlew build -Dorg.gradle.java.home=/tmp/jdk", Allow, Ask},
		{"./gradlew build -Dgradle.user.home=/tmp/g", Allow, Ask},
		{"./gradlew build -Dhttp.proxyHost=evil.example", Allow, Ask},
		{"./gradlew build -Dhttp.nonProxyHosts=x", Allow, Ask},
		{"./gradlew build -DsocksProxyHost=evil.example", Allow, Ask},
		{"./gradlew build -DbuildDir=x", Allow, Ask},
		{"./gradlew build -PrepositoryUrl=x", Allow, Ask},
		{"./gradlew build -Djavax.net.ssl.trustStore=x", Allow, Ask},
		{"./gradlew build -Djava.library.path=x", Allow, Ask},
		{"./gradlew build -Dconfig.file=x", Allow, Ask},
		{"./gradlew build -Dspring.profiles.include.file=x", Allow, Ask},
		{"./gradlew build -DprofileFile=x", Allow, Ask},
	})
}
