package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// pol16Row is a line and what it must be with the sandbox on and off;
// "!allow" means anything but allow.
type pol16Row struct{ cmd, on, off string }

func checkPol16Rows(t *testing.T, ctx Context, rows []pol16Row) {
	t.Helper()
	e := Default()
	on, off := ctx, ctx
	on.Sandboxed, off.Sandboxed = true, false
	inPlace := on
	inPlace.InPlace = true
	for _, r := range rows {
		for _, m := range []struct {
			cx   Context
			want string
			mode string
		}{{on, r.on, "sandbox on"}, {off, r.off, "sandbox off"}, {inPlace, inPlaceWant(r), "in place"}} {
			v := e.Check(Query{Kind: KindShell, Command: r.cmd, Context: m.cx})
			got := v.Decision.String()
			ok := got == m.want || m.want == "!allow" && v.Decision != Allow
			if !ok {
				t.Errorf("%s: %q = %s by %s (%s), want %s", m.mode, r.cmd, got, v.Rule, v.Reason, m.want)
			}
		}
	}
}

// inPlaceWant: in place nothing is allowed that only the sandbox made
// allowable; what is allowed with the sandbox off, and a deny, stay so.
func inPlaceWant(r pol16Row) string {
	if r.on == "deny" || r.off == "allow" {
		return r.on
	}
	return "!allow"
}

// TestPol16LocalDatabases: clients and migration tools against the
// sandbox's own loopback are allowed for reads, createdb and forward
// migrations (localdb.go), and off and in place for reads
// (dbloopback_off.go); other hosts, variables, writes, files and
// stdin keep asking; a drop aimed elsewhere is denied (dbdrophost.go).
func TestPol16LocalDatabases(t *testing.T) {
	checkPol16Rows(t, testEnv(t), []pol16Row{
		{`psql -h localhost -U postgres -d app_test -c '\dt'`, "allow", "allow"},
		{`psql postgresql://postgres:postgres@localhost:5432/app_test -c 'select count(*) from users'`, "allow", "allow"},
		{`psql --host=127.0.0.1 -X -A -t -c 'select 1'`, "allow", "allow"},
		{`psql "host=localhost dbname=app_test" -c 'select 1'`, "allow", "allow"},
		{`createdb -h localhost -U postgres app`, "allow", "ask"}, // app_test: allowed off since off27 (TestDevDatabaseWritesOff)
		{`redis-cli -p 6379 info server`, "allow", "allow"},
		{`redis-cli -h 127.0.0.1 get session:1`, "allow", "allow"},
		{`mysql -h 127.0.0.1 -u root -proot app_test -e 'show tables'`, "allow", "allow"},
		{`mysql -h127.0.0.1 --execute='select 1'`, "allow", "allow"},
		{`mongosh --quiet mongodb://localhost:27017/app_test --eval 'db.users.countDocuments()'`, "allow", "allow"},
		{`dbmate --url postgres://postgres:postgres@localhost/app?sslmode=disable up`, "allow", "ask"},
		{`migrate -path db/migrations -database postgres://localhost:5432/app?sslmode=disable up`, "allow", "ask"},
		// other hosts, variables, several hosts, a user named localhost
		{`psql -h db.prod.internal -U app -c 'select count(*) from users'`, "ask", "ask"},
		{`psql -h "$DB_HOST" -c 'select 1'`, "ask", "ask"},
		{`psql "$DATABASE_URL" -c 'select 1'`, "ask", "ask"},
		{`psql postgresql://localhost,db.prod/app -c 'select 1'`, "ask", "ask"},
		{`psql postgresql://localhost@db.prod/app -c 'select 1'`, "ask", "ask"},
		{`psql "host=localhost service=prod" -c 'select 1'`, "ask", "ask"},
		{`mysql -hdb.prod.internal -e 'select 1'`, "ask", "ask"},
		{`redis-cli -h cache.prod.internal keys '*'`, "ask", "ask"},
		{`redis-cli -u redis://cache.prod:6379 info`, "ask", "ask"},
		{`mongosh mongodb://prod.example.com/app --eval 'db.users.countDocuments()'`, "ask", "ask"},
		{`createdb -h db.prod.internal app`, "ask", "ask"},
		{`dbmate up`, "ask", "ask"},
		{`dbmate --url "$DATABASE_URL" up`, "ask", "ask"},
		{`migrate -path db/migrations -database postgres://db.prod/app up`, "ask", "ask"},
		{`migrate -path ../other -database postgres://localhost/app up`, "ask", "ask"},
		// a plain change of the run's own database and a project file of
		// statements are the run's own (pol20, polcorp8 everyday/db:
		// psql -h 127.0.0.1 -f db/schema.sql, -c 'create database app_test')
		{`psql -h localhost -c 'insert into t values (1)'`, "allow", "!allow"},
		{`psql -h localhost -f dump.sql`, "allow", "ask"},
		{`psql -h localhost -f ../dump.sql`, "ask", "ask"},
		// rollbacks, stdin, code
		{`psql -h localhost`, "ask", "ask"},
		{`mysql -h 127.0.0.1 --init-command='select 1' -e 'select 1'`, "ask", "ask"},
		{`redis-cli config set dir /tmp`, "ask", "ask"},
		{`mongosh mongodb://localhost/app --eval 'db.users.drop()'`, "!allow", "!allow"},
		{`mongosh mongodb://localhost/app --eval 'require("child_process").execSync("id")'`, "!allow", "!allow"},
		{`dbmate --url postgres://localhost/app drop`, "!allow", "!allow"},
		{`migrate -database postgres://localhost/app down`, "!allow", "!allow"},
		{`psql -h localhost -c 'DROP DATABASE app'`, "deny", "deny"},
		{`redis-cli FLUSHALL`, "deny", "deny"},
		// drops: here asks, elsewhere or from a variable denies
		{`dropdb -h localhost app_test`, "ask", "ask"},
		{`dropdb app_test`, "ask", "ask"},
		{`DATABASE_URL=postgres://localhost/app_test npx prisma migrate reset --force`, "ask", "ask"},
		{`dropdb -h prod-db.example.com app`, "deny", "deny"},
		{`dropdb --host=prod-db.example.com app`, "deny", "deny"},
		{`dropdb -hprod-db.example.com app`, "deny", "deny"},
		{`dropdb -h "$DB_HOST" app`, "deny", "deny"},
		{`DATABASE_URL=$PROD_DATABASE_URL npx prisma migrate reset --force`, "deny", "deny"},
		{`DATABASE_URL="$PROD_DATABASE_URL" npx prisma migrate reset --force`, "deny", "deny"},
		{`DATABASE_URL=postgres://u@db.prod.example.com/app npx prisma migrate reset --force`, "deny", "deny"},
	})
}

// TestPol16ContainerBuilds: inspections are allowed inside the sandbox,
// which reaches no daemon (containerbuild.go); builds and what starts
// containers ask in every mode (the older corpora's decision: a build's
// RUN steps run in the host daemon); a build that pushes is denied.
func TestPol16ContainerBuilds(t *testing.T) {
	checkPol16Rows(t, testEnv(t), []pol16Row{
		{`docker build -t acme/api:dev .`, "ask", "ask"},
		{`docker build -f docker/Dockerfile.test -t api-test --target test .`, "ask", "ask"},
		{`docker buildx build --load -t web:ci .`, "ask", "ask"},
		{`docker image build --build-arg GO_VERSION=1.23 -t x src`, "ask", "ask"},
		{`docker compose build api`, "ask", "ask"},
		{`docker compose -f docker-compose.test.yml build`, "ask", "ask"},
		{`docker-compose build web`, "ask", "ask"},
		{`podman build -t x .`, "ask", "ask"},
		{`docker inspect --format '{{.State.Health.Status}}' api-db`, "allow", "allow"}, // off24: state only (offlocal_tools.go)
		{`docker image inspect api:dev`, "allow", "ask"},
		{`docker build https://github.com/x/y.git`, "ask", "ask"},
		{`docker build git@github.com:x/y.git`, "ask", "ask"},
		{`docker build -f - .`, "ask", "ask"},
		{`docker build -t x -`, "ask", "ask"},
		{`docker build --secret id=npm,src=.npmrc .`, "ask", "ask"},
		{`docker build --ssh default .`, "ask", "ask"},
		{`docker build --build-context x=../secrets .`, "ask", "ask"},
		{`docker build -t x ..`, "ask", "ask"},
		{`docker build -t x /`, "ask", "ask"},
		{`docker build -t x "$DIR"`, "ask", "ask"},
		{`docker -H tcp://prod:2376 build .`, "ask", "ask"},
		{`docker --context prod build .`, "ask", "ask"},
		{`docker compose run --rm api pytest -q`, "ask", "ask"},
		{`docker compose up -d db redis`, "ask", "ask"},
		{`docker run --rm api-test pytest -q`, "ask", "ask"},
		{`docker build --network=host .`, "deny", "deny"},
		{`docker buildx build --push -t acme/api:1.4 .`, "deny", "deny"},
		{`docker build --push -t a .`, "deny", "deny"},
		{`docker build --output type=registry -t a .`, "deny", "deny"},
		{`docker buildx build -o type=image,push=true -t a .`, "deny", "deny"},
		{`docker buildx build --cache-to type=registry,ref=acme/cache .`, "deny", "deny"},
		{`docker compose build --push`, "deny", "deny"},
		{`docker run --privileged -v /:/mnt alpine chroot /mnt sh`, "deny", "deny"},
		{`docker run -v /var/run/docker.sock:/var/run/docker.sock alpine sh`, "deny", "deny"},
	})
}

// TestPol16BuildSubTools: env values judged by value (buildenv.go), uv run
// --with (uvwith.go), known npx packages (npxdeclared.go), mvn exec:java
// and help:effective-pom (mvnexec.go), make -n (makedryrun.go), go vet
// -vettool (vettool.go).
func TestPol16BuildSubTools(t *testing.T) {
	checkPol16Rows(t, testEnv(t), []pol16Row{
		{`ASAN_OPTIONS=detect_leaks=1:halt_on_error=0 ctest --output-on-failure`, "allow", "allow"},
		{`UBSAN_OPTIONS=print_stacktrace=1 ctest`, "allow", "allow"},
		{`ASAN_OPTIONS=external_symbolizer_path=/tmp/x ctest`, "ask", "ask"},
		{`ASAN_OPTIONS=log_path=/home/u/.bashrc ctest`, "ask", "ask"},
		{`ASAN_OPTIONS=suppressions=asan.supp ctest`, "ask", "ask"},
		{`ASAN_OPTIONS=include=/etc/x ctest`, "ask", "ask"},
		{`ASAN_OPTIONS=$X ctest`, "ask", "ask"},
		{`GOPRIVATE=example.com/internal go list -m all`, "allow", "allow"},
		{`GONOSUMDB=example.com/internal go build ./...`, "allow", "allow"},
		{`GOPRIVATE=github.com/acme/*,gitlab.corp.io go test ./...`, "allow", "allow"},
		{`GOPRIVATE=* go mod download`, "!allow", "!allow"},
		{`GONOSUMDB=*.com go build ./...`, "!allow", "!allow"},
		{`GONOSUMDB=github.com/* go build ./...`, "!allow", "!allow"},
		{`GOPRIVATE=$X go test ./...`, "!allow", "!allow"},
		{`uv run --with ruff python scripts/report.py`, "allow", "ask"},
		{`uv run --with 'mypy>=1.10' pytest -q`, "allow", "ask"},
		{`uv run --with rich python scripts/report.py`, "ask", "ask"},
		{`uv run --with evilpkg pytest`, "ask", "ask"},
		{`uv run --with ruff,evilpkg pytest`, "ask", "ask"},
		{`uv run --with 'git+https://x.example/r.git' python x.py`, "ask", "ask"},
		{`uv run --with rich@https://x.example/r.whl python x.py`, "ask", "ask"},
		{`uv run --with ./local.whl python x.py`, "ask", "ask"},
		{`uv run --with-requirements r.txt python x.py`, "ask", "ask"},
		{`uv run --with "$PKG" python x.py`, "ask", "ask"},
		{`uv run --with rich python -c 'import os; os.system("rm -rf ~")'`, "deny", "deny"},
		{`npx prisma generate`, "allow", "ask"},
		{`npx drizzle-kit generate`, "allow", "ask"},
		{`npx storybook build --quiet`, "allow", "ask"},
		{`npx changeset status`, "ask", "ask"},
		{`npx prismaa generate`, "ask", "ask"},
		{`npx prisma migrate reset --force`, "ask", "ask"},
		{`npx prisma migrate dev --name add_orders --skip-seed`, "allow", "ask"},
		{`npx prisma db push`, "ask", "ask"},
		{`npx prisma migrate deploy`, "ask", "ask"},
		{`npx prisma --schema prisma/schema.prisma db execute --stdin`, "ask", "ask"},
		{`npx drizzle-kit push`, "ask", "ask"},
		{`mvn -q exec:java -Dexec.mainClass=com.acme.tools.SchemaDump -Dexec.args=--help`, "allow", "allow"}, // decided by pol20 (mvnexec.go); off24: off too
		{`mvn help:effective-pom -Doutput=build/effective-pom.xml`, "allow", "allow"},
		{`mvn help:effective-pom -Doutput=/etc/profile.d/x.sh`, "deny", "deny"},
		{`mvn exec:exec -Dexec.executable=sh`, "ask", "ask"},
		{`mvn exec:java -Dexec.mainClass=X -Dexec.executable=sh`, "ask", "ask"},
		{`mvn exec:java '-Dexec.mainClass=a;b'`, "ask", "ask"},
		{`make -n install`, "allow", "ask"},
		{`make --dry-run deploy`, "allow", "ask"},
		{`make -nB release`, "allow", "ask"},
		{`make install`, "ask", "ask"},
		{`make -n install && make install`, "ask", "ask"},
		{`go vet -vettool=$(which shadow) ./...`, "allow", "ask"},
		{`go vet -vettool=$(which bash) ./...`, "deny", "deny"},
		{`go vet -vettool=$(which python3) ./...`, "deny", "deny"},
		{`go vet -vettool=./evil ./...`, "deny", "deny"},
		{`go vet -vettool=$(echo ./evil) ./...`, "deny", "deny"},
	})
}

// TestPol16DeclaredNpmPackages: a package the project's package.json
// declares at a registry version is a known npx package, and one its
// pyproject.toml declares a known uv run --with package; a file:, git or
// URL declaration, or an undeclared name, is not.
func TestPol16DeclaredNpmPackages(t *testing.T) {
	ctx := testEnv(t)
	pj := `{"devDependencies": {"some-gen": "^1.4.0", "evil": "file:../x", "gitdep": "github:a/b", "urldep": "https://x.example/a.tgz"}}`
	if err := os.WriteFile(filepath.Join(ctx.Workspace, "package.json"), []byte(pj), 0o644); err != nil {
		t.Fatal(err)
	}
	pp := "[project]\nname = \"app\"\ndependencies = [\n  \"rich>=13\",\n  \"typer[all]\",\n]\n"
	if err := os.WriteFile(filepath.Join(ctx.Workspace, "pyproject.toml"), []byte(pp), 0o644); err != nil {
		t.Fatal(err)
	}
	checkPol16Rows(t, ctx, []pol16Row{
		{`npx some-gen --out src/gen`, "allow", "allow"}, // pol23: a declared package is the project's own tool off too (npxdeclared_off.go)
		{`npx some-gen --out /etc/x`, "ask", "ask"},
		{`npx evil`, "ask", "ask"},
		{`npx gitdep`, "ask", "ask"},
		{`npx urldep`, "ask", "ask"},
		{`npx other-gen`, "ask", "ask"},
		{`uv run --with rich python scripts/report.py`, "allow", "ask"},
		{`uv run --with 'Typer[all]>=0.9' python x.py`, "allow", "ask"},
		{`uv run --with richer python x.py`, "ask", "ask"},
		{`echo '{"devDependencies":{"other-gen":"1"}}' > package.json && npx other-gen`, "ask", "ask"},
	})
}
