package policy

import "testing"

// TestLocalDatabaseAndContainerListings holds issue 32 item 4's database
// and docker classes (polcorp8 everyday/db and everyday/docker): inside
// the sandbox a client whose every target is its own loopback may read,
// describe, list, create and plainly change the run's database, run a
// project file of statements, and dump into the workspace; a remote host,
// a variable's URL, a statement that reaches outside the server (COPY …
// PROGRAM, dblink, an extension, a role), a drop and a dump outside the
// workspace do not get through. With the sandbox off the reads of a
// loopback server are allowed too, its writes ask (dbloopback_off.go). docker's listings are allowed in both
// modes, compose's -f before the verb included; builds and runs still ask.
// Shapes: https://www.postgresql.org/docs/current/app-psql.html (psql -h
// -U -d -c/-f, -l, -A -t), https://redis.io/docs/latest/develop/tools/cli/
// (--scan --pattern), https://clickhouse.com/docs/interfaces/cli (--host
// --query), https://cassandra.apache.org/doc/latest/cassandra/managing/tools/cqlsh.html
// (cqlsh HOST -e), https://www.postgresql.org/docs/current/app-pgdump.html
// (--schema-only), https://alembic.sqlalchemy.org/en/latest/tutorial.html
// (upgrade head, revision --autogenerate -m), https://docs.docker.com/reference/cli/docker/
// (buildx ls, context ls, stats --no-stream, compose -f FILE ps).
func TestLocalDatabaseAndContainerListings(t *testing.T) {
	ctx := testEnv(t)
	checkOnOffIn(t, ctx, []onOff{
		{"psql -h 127.0.0.1 -U dev -d app_dev -f db/schema.sql", Allow, Ask},
		{"PGPASSWORD=postgres psql -h localhost -U postgres -c 'create database app'", Allow, Ask}, // app_test: allowed off since off27 (TestDevDatabaseWritesOff)
		{"psql -h localhost -U postgres -lqt | cut -d '|' -f 1", Allow, Allow},
		{`psql "postgresql://postgres:postgres@localhost:5432/app_test" -At -c 'select 1'`, Allow, Allow},
		{"psql -h localhost -c \"update users set name='x' where id=1\"", Allow, Ask},
		{"pg_dump -h localhost -U postgres --schema-only app_test > db/schema.sql", Allow, Allow},
		{"redis-cli -h 127.0.0.1 -p 6379 --scan --pattern 'session:*' | head", Allow, Allow},
		{"clickhouse-client --host localhost --query 'SELECT 1'", Allow, Allow},
		{"cqlsh localhost -e 'describe keyspaces'", Allow, Allow},
		{"mongosh --quiet --host localhost:27017 --eval 'db.users.countDocuments()'", Allow, Allow},
		{"alembic upgrade head", Allow, Ask},
		{`alembic revision --autogenerate -m "add users table"`, Allow, Ask},
		{"alembic downgrade -1", Ask, Ask},
		{"psql -h db.example.com -c 'select 1'", Ask, Ask},
		{`psql "$DATABASE_URL" -c 'select 1'`, Ask, Ask},
		{"psql -h localhost -c \"select * from dblink('host=evil','select 1')\"", Ask, Ask},
		{"psql -h localhost -c 'create extension plpython3u'", Ask, Ask},
		{"psql -h localhost -c 'create user evil'", Ask, Ask},
		{"psql -h localhost -c 'drop database app'", Deny, Deny},
		{"psql -h localhost -c \"copy users to program 'sh x'\"", Deny, Deny},
		{"psql -h localhost -f ~/.ssh/id_rsa", Deny, Ask},
		{"pg_dump -h localhost app > ~/dump.sql", Deny, Deny},
		{"pg_dump -h prod.example.com app > db/x.sql", Ask, Ask},
		{"redis-cli -h localhost flushall", Deny, Deny},
		{"cqlsh db.example.com -e 'describe keyspaces'", Ask, Ask},
		{"docker buildx ls", Allow, Allow},
		{"docker context ls", Allow, Allow},
		{"docker stats --no-stream", Allow, Allow},
		{"docker compose -f docker/docker-compose.test.yml ps", Allow, Allow},
		{"docker compose -f /etc/compose.yml ps", Ask, Ask},
		{"docker compose -f docker-compose.yml up -d", Ask, Ask},
		{"docker build -t app .", Ask, Ask},
		{"docker compose build api", Ask, Ask},
		{"docker run --rm api-test pytest -q", Ask, Ask},
	})
}
