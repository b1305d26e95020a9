package inside

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// BPF is the seccomp assembler of the sandbox's own filters (bpfProg),
// for a filter of another package's: internal/shellscope's on the
// commands an agent starts. Jumps name labels; "" is the next
// instruction.
type BPF struct{ p bpfProg }

// NewBPF starts a program that checks the architecture first: a call of
// this build's own ABI goes on to the next instruction; any other (32-bit
// on x86-64, x32) is answered ENOSYS, as the sandbox's filter answers it.
func NewBPF() *BPF {
	b := &BPF{bpfProg{jumps: map[int][2]string{}, labels: map[string]int{}}}
	b.p.op(bpfLdAbs, offArch)
	b.p.jump(bpfJeq, seccompArch, "", "enosys")
	b.p.op(bpfLdAbs, offNr)
	if archSyscallBit != 0 {
		b.p.jump(bpfJge, archSyscallBit, "enosys", "")
	}
	return b
}

// Op adds an instruction without a jump.
func (b *BPF) Op(code uint16, k uint32) { b.p.op(code, k) }

// Jump adds a conditional jump to labels ifTrue and ifFalse.
func (b *BPF) Jump(code uint16, k uint32, ifTrue, ifFalse string) { b.p.jump(code, k, ifTrue, ifFalse) }

// Label names the next instruction.
func (b *BPF) Label(name string) { b.p.label(name) }

// Install ends the program with the "enosys" label NewBPF jumps to,
// assembles it and loads it on the calling thread (no-new-privs must
// already be set; the filter stays on every process the thread starts).
func (b *BPF) Install() error {
	if seccompArch == 0 {
		return fmt.Errorf("no seccomp filter for this architecture")
	}
	b.p.label("enosys")
	b.p.op(bpfRet, retErrno|uint32(unix.ENOSYS))
	ins, err := b.p.assemble()
	if err != nil {
		return err
	}
	prog := unix.SockFprog{Len: uint16(len(ins)), Filter: &ins[0]}
	return unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&prog)), 0, 0)
}
