package main

import (
	"errors"
	"fmt"

	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// exitCode is a process exit code of docs/cli.md: what a command returns, and what an
// exitError carries.
type exitCode int

// The exit codes (docs/cli.md#exit-codes). They are untyped constants, so that a test's
// int compares with them as well as an exitCode does.
const (
	exitOK       = 0
	exitFailure  = 1
	exitBadInput = 2
	// exitIncomplete: check could not complete its proof.
	exitIncomplete = 2
	exitBlocked    = 3
	// exitNotFound: describe was asked for a group that does not exist.
	exitNotFound = 3
	// exitPartlyApplied and exitOverwritten: a reset written in part, or overwritten after.
	exitPartlyApplied = 4
	exitOverwritten   = 5
)

// exitError is how a command fails: the exit code, decided where the failure is known,
// and what to say about it. run prints err once, as "offsettui COMMAND: err", and exits
// with code; a nil err means the command has said what happened already (a check that
// failed, a blocked plan) and only the code is left.
type exitError struct {
	code exitCode
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit code %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// badInput is bad input (exit 2): a flag, an argument, a file or a setting the user gave.
// A nil err stays nil.
func badInput(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: exitBadInput, err: err}
}

// badInputf is badInput of a message.
func badInputf(format string, a ...any) error { return badInput(fmt.Errorf(format, a...)) }

// failure is a failure that is not the user's input (exit 1): a cluster that cannot be
// read, an output that cannot be written.
func failure(err error) error { return &exitError{code: exitFailure, err: err} }

// exitWith is a command's exit code once it has said all there is to say; nil for exitOK.
func exitWith(code exitCode) error {
	if code == exitOK {
		return nil
	}
	return &exitError{code: code}
}

// codeOf is the exit code of a command's error: 0 for none, the code an exitError carries,
// else 1 (an error no command decided on).
func codeOf(err error) exitCode {
	var e *exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &e):
		return e.code
	}
	return exitFailure
}

// isBadInput says whether err is the user's input (exit 2).
func isBadInput(err error) bool { return err != nil && codeOf(err) == exitBadInput }

// verdictExitCode is the process exit code of a verdict (docs/cli.md): 0 pass, 1 fail,
// 2 incomplete.
func verdictExitCode(v check.Verdict) exitCode { return exitCode(v.ExitCode()) }

// outcomeExitCode maps an outcome to the reset exit codes of docs/cli.md.
func outcomeExitCode(o plan.ResetOutcome) exitCode {
	switch o {
	case plan.OutcomeApplied:
		return exitOK
	case plan.OutcomeRefused, plan.OutcomeCancelled:
		return exitBlocked
	case plan.OutcomePartlyApplied:
		return exitPartlyApplied
	case plan.OutcomeOverwritten:
		return exitOverwritten
	}
	return exitFailure
}
