package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/policy"
)

// `sentinel policy check --in-place [--checkpointed]` judges a line as
// `sentinel exec` (and its shims, and sentinel mcp) judge it: on the
// person's own files, where deleting or discarding uncommitted work asks
// unless a checkpoint covers the place.

func addInPlaceFlags(check *cobra.Command, f *policyFlags) {
	check.Flags().BoolVar(&f.inPlace, "in-place", false, "judge as 'sentinel exec' does, on the person's own files (deleting or discarding uncommitted work asks)")
	check.Flags().BoolVar(&f.checkpointed, "checkpointed", false, "with --in-place: a checkpoint covers the place ('sentinel undo' restores it), so in-place deletions are workspace work")
	check.Long += `

--in-place judges the line as 'sentinel exec' and its shims judge it: on the
person's own files rather than a disposable copy, so deleting or discarding
uncommitted work (rm -r, git reset --hard, git checkout -- ., git clean,
git stash drop, git branch -D) asks. --checkpointed says a checkpoint covers
the place, as exec's does when it can take one: those deletions are then
workspace work again.`
}

// inPlaceContext applies --in-place and --checkpointed to ctx.
func inPlaceContext(f policyFlags, ctx policy.Context) (policy.Context, error) {
	if f.checkpointed && !f.inPlace {
		return ctx, usageError{errors.New("--checkpointed needs --in-place (a checkpoint covers an in-place run; a copy needs none)")}
	}
	ctx.InPlace, ctx.Checkpointed = f.inPlace, f.checkpointed
	return ctx, nil
}
