package policy

import "testing"

// Issue 32: ./gradlew publish was allowed while mvn deploy was denied.
// Every build tool's publishing is publishing, however it is spelled.
func TestPublishingIsDeniedInEveryBuildTool(t *testing.T) {
	checkClass(t, []classCase{
		{`./gradlew publish`, "deny"},
		{`gradle publish`, "deny"},
		{`./gradlew :lib:publishAllPublicationsToSonatypeRepository`, "deny"},
		{`gradle pub`, "deny"}, // gradle resolves camel-case abbreviations
		{`./gradlew uploadArchives`, "deny"},
		{`./mvnw deploy`, "deny"},
		{`mvn deploy:deploy-file -Dfile=x.jar`, "deny"},
		{`mvn -B release:perform`, "deny"},
		{`cargo publish`, "deny"},
		{`npm publish`, "deny"},
		{`npm pu`, "deny"}, // npm resolves unique command prefixes
		{`twine upload dist/*`, "deny"},
		{`gem push x.gem`, "deny"},
		{`poetry publish --build`, "deny"},
		{`uv publish`, "deny"},
		{`dotnet nuget push x.nupkg -s https://api.nuget.org/v3/index.json`, "deny"},
		{`yarn npm publish`, "deny"},
		{`sbt publish`, "deny"},
		{`mix hex.publish`, "deny"},
		// the class: a package tool's verb named publish or upload (publish.go publishVerb)
		{`cabal upload dist-newstyle/sdist/foo-0.1.tar.gz`, "deny"},
		{`cabal upload --publish x.tar.gz`, "deny"},
		{`stack upload .`, "deny"},
		{`opam publish`, "deny"},
		{`rebar3 hex publish`, "deny"},
		{`nimble publish`, "deny"},
		{`elm publish`, "deny"},
		{`maturin upload dist/*`, "deny"},
		{`luarocks upload x.rockspec`, "deny"},
		{`dotnet publish -c Release`, "!deny"}, // a local folder
		// the machine's own repository is not publishing (asked by the build handler)
		{`gradle publishToMavenLocal`, "ask"},
		{`gradle pTML`, "ask"},
		// everyday
		{`./gradlew build`, "!deny"},
		{`gradle processResources`, "!deny"},
		{`mvn test`, "allow"},
	})
}
