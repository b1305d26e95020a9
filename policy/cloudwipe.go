package policy

import "strings"

// Cloud and hosting CLIs that delete what they manage. `gcloud projects
// delete`, `heroku apps:destroy`, `aws iam delete-user`, `aws ec2
// terminate-instances`, `az group delete`, `doctl compute droplet delete`,
// `fly apps destroy`: each removes real infrastructure or data that no
// checkpoint brings back, whatever resource it names. The CLIs spell the
// verb as a word of its own, a part of a hyphenated or colon-separated
// command (delete-user, apps:destroy) or a gsutil/aws s3 short verb (rm,
// rb); any such word among the arguments denies. A CLI's other forms
// keep their own judgement (remoteTool asks).

// cloudCLIs are the programs whose deletions are judged here; container
// engines (docker rm) and package managers (brew remove) are not: what
// they remove is local and judged elsewhere.
var cloudCLIs = wordSet{words: []string{"aws", "gcloud", "gsutil", "az", "doctl", "flyctl", "fly", "heroku", "vercel",
	"netlify", "firebase", "wrangler", "serverless", "sls", "gh", "glab", "supabase", "railway", "hcloud", "linode-cli",
	"oci", "ibmcloud", "scw", "vultr-cli", "render", "neonctl", "planetscale", "pscale", "turso", "upstash", "exoscale",
	"terragrunt", "sst"}} // terragrunt run-all destroy, sst remove (polcorp15)

// cloudDeleteVerbs are the verbs (whole, or one part of a hyphenated or
// colon-separated command word) that delete.
var cloudDeleteVerbs = wordSet{words: []string{"delete", "destroy", "terminate", "purge", "drop", "wipe", "deregister",
	"deprovision", "nuke", "erase", "rm", "rb", "remove", "unpublish", "teardown"}}

// cloudDeletion returns the command word of a cloud CLI's argv that
// deletes, or "".
func cloudDeletion(args []word) string {
	if len(args) < 2 || !cloudCLIs.has(args[0].val) {
		return ""
	}
	for _, w := range args[1:] {
		v := strings.ToLower(w.val)
		if strings.HasPrefix(v, "-") || strings.ContainsAny(v, "/=.@") {
			continue // an option, or a resource name or URL, not a verb
		}
		for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == ':' || r == '_' }) {
			if cloudDeleteVerbs.has(part) {
				return w.val
			}
		}
	}
	return ""
}
