package main

// writeAccess says whether a command may write to the cluster it is connected to. It is
// decided once per connection, where the connection is resolved (resolveConnection), from
// --read-only, OFFSETTUI_READ_ONLY and the context: a read-only context stays read-only
// whatever the flag or the variable says. It travels by value with the connection and its
// session into the reset service and the TUI. Its zero value refuses writes, so a path
// that never decided cannot write; nothing turns a refusal into a permission
// (TestWriteAccessDecidedOnce holds the package to it).
type writeAccess struct{ writable bool }

// decideAccess is the one place a writeAccess is made.
func decideAccess(readOnly bool) writeAccess { return writeAccess{writable: !readOnly} }

// readOnly says whether writes are refused.
func (a writeAccess) readOnly() bool { return !a.writable }
