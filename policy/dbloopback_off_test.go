package policy

import "testing"

// TestLocalDBReadsOff: with the sandbox off and in place, reads and health
// probes of a loopback database server are allowed (dbloopback_off.go);
// writes, drops, flushes, files of statements, stdin, other hosts, an
// unnamed host a client takes from the person's environment, and an
// environment prefix that may redirect the client are not.
func TestLocalDBReadsOff(t *testing.T) {
	ctx := testEnv(t)
	in := ctx
	in.InPlace = true
	e := Default()
	for _, cmd := range []string{
		`psql -h ::1 -U app -d app_dev -c '\d+ orders'`,
		`psql -h /var/run/postgresql -d app -At -c 'select count(*) from users'`,
		`psql postgres://u:p@127.0.0.1:5433/app -c 'SELECT id FROM users ORDER BY id DESC LIMIT 5'`,
		`PGPASSWORD=secret psql -h localhost -U postgres -l`,
		`mariadb -h localhost -u root -e 'SELECT VERSION()'`,
		`mysql --host=127.0.0.1 -uroot -D app -e 'show columns from users' 2>&1 | head`,
		`redis-cli -n 2 dbsize`,
		`redis-cli -u redis://localhost:6379/0 hgetall user:1`,
		`valkey-cli --scan --pattern 'cache:*'`,
		`mongosh mongodb://127.0.0.1/app --eval 'db.orders.find().limit(3).toArray()'`,
		`pg_isready -h localhost`,
		`redis-cli -h localhost ping`,
		`grpcurl -plaintext localhost:50051 list`,
		`grpcurl -plaintext localhost:50051 describe api.v1.Users`,
	} {
		for _, cx := range []Context{ctx, in} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision != Allow {
				t.Errorf("off (in place %v): %q: %s by %s (%s), want allow", cx.InPlace, cmd, v.Decision, v.Rule, v.Reason)
			}
		}
	}
	for _, cmd := range []string{
		`psql -c 'select 1'`,     // PGHOST, pg_service.conf: the person's default may be remote
		`mysql -e 'show tables'`, // ~/.my.cnf, MYSQL_HOST
		`psql -h localhost -c 'create table t(id int)'`,
		`psql -h localhost -c "insert into users values (1)"`,
		`psql -h localhost -c 'delete from users'`,
		`psql -h localhost -c 'truncate users'`,
		`psql -h localhost -c 'select 1; drop table users'`,
		`psql -h localhost -c "select pg_read_file('/etc/passwd')"`,
		`psql -h localhost -c '\copy users to out.csv'`,
		`psql -h localhost -c '\! rm -rf ~'`,
		`psql -h localhost -f db/seeds/test.sql`,
		`psql -h localhost -d app`,
		`psql "host=localhost service=prod" -c 'select 1'`,
		`PGHOSTADDR=10.0.0.5 psql -h localhost -c 'select 1'`,
		`PGSERVICE=prod psql -h localhost -c 'select 1'`,
		`psql -h db.example.com -c 'select 1'`,
		`psql -h "$DB_HOST" -c 'select 1'`,
		`mysql -h 127.0.0.1 -e 'update users set admin=1'`,
		`mysql -h 127.0.0.1 -e "select * from users into outfile '/tmp/x'"`,
		`redis-cli -h 127.0.0.1 flushall`,
		`redis-cli flushdb`,
		`redis-cli -h 127.0.0.1 set k v`,
		`redis-cli -h 127.0.0.1 config set dir /tmp`,
		`redis-cli -h cache.example.com info`,
		`redis-cli`,
		`mongosh --eval 'db.users.deleteMany({})'`,
		`mongosh --eval 'db.dropDatabase()'`,
		`mongosh mongodb://prod.example.com/app --eval 'db.users.countDocuments()'`,
		`clickhouse-client --query 'SELECT 1'`,
		`createdb -h localhost app`, // was app_test, now allowed off as a dev loop's write (dbdevwrites_off.go); still asks in place
		`pg_dump -h localhost app > ~/dump.sql`,
		`grpcurl -plaintext localhost:2379 list`,
		`grpcurl -plaintext -d '{"id":1}' localhost:50051 api.v1.Users/Delete`,
		`grpcurl -plaintext api.example.com:443 list`,
	} {
		for _, cx := range []Context{ctx, in} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision == Allow {
				t.Errorf("off (in place %v): %q allowed by %s (%s)", cx.InPlace, cmd, v.Rule, v.Reason)
			}
		}
	}
}
