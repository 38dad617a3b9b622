// Package check is offsettui's fail-closed proof that one group can (re)start
// without losing records (offsettui check, docs/cli.md): it judges a classified
// snapshot taken for the group, and anything it needs and cannot see makes the
// proof incomplete, never a pass. It is pure: no I/O. The process exit code of a
// verdict is the command's (cmd/offsettui).
package check
