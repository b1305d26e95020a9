package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSecretDecryptAsks: a command that decrypts and prints secrets asks in
// every mode, however the program is reached (issue 32, pol23: bin/rails
// credentials:show was allowed inside the sandbox as the project's own code,
// php artisan env:decrypt with the sandbox on and off). kubectl get
// secret/NAME is denied as kubectl get secret NAME is.
func TestSecretDecryptAsks(t *testing.T) {
	ctx := testEnv(t)
	for _, f := range []string{"bin/rails", "artisan", "config/master.key"} {
		p := filepath.Join(ctx.Workspace, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/usr/bin/env ruby\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var rows []onOff
	rows = append(rows, sameOnOff(Ask,
		"bin/rails credentials:show",
		"./bin/rails credentials:show",
		"rails credentials:show",
		"bundle exec rails credentials:show",
		"bundle exec bin/rails credentials:show",
		"bin/rails credentials:show -e production",
		"bin/rails credentials:show --environment production",
		"RAILS_ENV=production bin/rails credentials:show",
		"env RAILS_ENV=production bin/rails credentials:show",
		"bash -c 'bin/rails credentials:show'",
		"time bin/rails credentials:show",
		"bin/rails credentials:fetch aws.access_key_id",
		"bin/rails credentials:diff config/credentials.yml.enc",
		"bin/rails credentials:edit",
		"bin/rails encrypted:show config/credentials/production.yml.enc",
		"bin/rails secrets:show",
		"bin/rails runner 'puts Rails.application.credentials.secret_key_base'",
		"bin/rails r 'p Rails.application.credentials.dig(:aws, :key)'",
		"bin/rails runner 'puts Rails.application.secrets.to_h'",
		"bin/rails c <<< 'puts Rails.application.credentials.config'",
		"bin/rails console <<'EOF'\nputs Rails.application.credentials.config\nEOF",
		"php artisan env:decrypt",
		"php artisan env:decrypt --force",
		"./artisan env:decrypt",
		"php artisan env:encrypt",
		"php artisan config:show database",
		`php artisan tinker --execute="echo config('app.key')"`,
		"sops -d secrets.enc.yaml",
		"sops --decrypt secrets.yaml",
		"sops exec-env secrets.yaml env",
		"ansible-vault view vault.yml",
		"ansible-vault decrypt vault.yml",
		"ansible-vault view --vault-password-file .vault_pass vault.yml",
		"git-crypt unlock",
		"git crypt unlock",
		"git-crypt export-key key.bin",
		"op read op://vault/item/password",
		"op item get db --reveal",
		"op run -- env",
		"dotenv list",
		"dotenv get API_KEY",
		"dotenv -e .env -- env",
		"aws configure get aws_secret_access_key",
		"aws configure export-credentials",
		"aws secretsmanager get-secret-value --secret-id prod/db",
		"gcloud auth print-access-token",
		"gcloud auth application-default print-access-token",
		"gcloud secrets versions access latest --secret=db",
		"az account get-access-token",
		"vault kv get secret/db",
		"npm config get //registry.npmjs.org/:_authToken",
		"pnpm config get //registry.npmjs.org/:_authToken",
		"yarn config get npmAuthToken",
		"pulumi stack output --show-secrets",
		"kubectl config view --raw",
		"gpg -d secrets.gpg",
	)...)
	rows = append(rows, sameOnOff(Deny,
		"kubectl get secret db -o yaml",
		"kubectl get secrets/db -o yaml",
		"kubectl get secret/db -o jsonpath='{.data.password}'",
		"kubectl -n prod get secrets,configmaps -o yaml",
		"kubectl get -o yaml secret db",
		"gh auth token",
		"npm token list",
		"EDITOR=cat bin/rails credentials:edit",
	)...)
	checkOnOffIn(t, ctx, rows)
	// The project's own work stays as it was.
	checkOnOffIn(t, ctx, []onOff{
		{"bin/rails test", Allow, Allow},
		{"bin/rails runner 'puts User.count'", Allow, Ask},
		{"php artisan test", Allow, Allow},
		{"bin/rails credentials:diff --enroll", Allow, Ask},
	})
}
