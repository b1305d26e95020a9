package policy

import "strings"

// Programs that format, wipe, discard or repartition a disk, as one
// family: mkfs and every mkfs.*, mke2fs, mkswap, wipefs, blkdiscard,
// sgdisk/gdisk, hdparm's secure erase, nvme format/sanitize. What they
// destroy is the machine's own storage, which no checkpoint restores:
// denied. (fdisk, sfdisk and parted are in handlers_net.go's system list;
// dd of=/dev/… and shred /dev/… are writes outside the workspace.)

// diskWipers destroy whatever their operands name.
var diskWipers = []string{"mke2fs", "mke4fs", "mkdosfs", "mkntfs", "mkexfatfs", "mkreiserfs", "mkudffs", "mkfs",
	"mkswap", "wipefs", "blkdiscard", "gdisk", "cgdisk", "cfdisk", "zerofree", "badblocks", "sg_format"}

// sgdiskReads are sgdisk's options that only print.
var sgdiskReads = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-p": true, "--print": true, "-v": true, "--verify": true, "-i": true, "--info": true,
		"-P": true, "--pretend": true, "-O": true, "--print-mbr": true, "-V": true, "--version": true, "-?": true, "--help": true}
}}

// addDiskHandlers registers the disk wipers.
func addDiskHandlers(handlers map[string]handler) {
	for _, n := range diskWipers {
		handlers[n] = diskWipe
	}
	handlers["sgdisk"] = func(x *cmdCtx, args []word) {
		for _, a := range args[1:] {
			if strings.HasPrefix(a.val, "-") && !sgdiskReads.get()[a.val] && !sgdiskReads.get()[strings.SplitN(a.val, "=", 2)[0]] {
				diskWipe(x, args)
				return
			}
		}
		x.add(Ask, RuleUnknownCommand, "sgdisk reads a partition table outside the workspace")
	}
	handlers["hdparm"] = func(x *cmdCtx, args []word) {
		for _, a := range args[1:] {
			if strings.HasPrefix(a.val, "--security-erase") || a.val == "--trim-sector-ranges" || a.val == "--write-sector" || a.val == "--fwdownload" {
				diskWipe(x, args)
				return
			}
		}
		x.add(Ask, RuleUnknownCommand, "hdparm changes a disk's settings")
	}
	handlers["nvme"] = func(x *cmdCtx, args []word) {
		for _, a := range args[1:] {
			switch a.val {
			case "format", "sanitize", "delete-ns", "write-zeroes", "dsm":
				diskWipe(x, args)
				return
			}
		}
		x.add(Ask, RuleUnknownCommand, "nvme talks to a disk controller")
	}
}

// diskWipe denies a disk wiper.
func diskWipe(x *cmdCtx, args []word) {
	x.add(Deny, RuleSystem, args[0].val+" formats, wipes or repartitions a disk, which no checkpoint restores")
}
