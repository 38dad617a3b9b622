package model

// The process exit codes of the check and reset commands (docs/cli.md).

// ExitCode is the process exit code of a verdict (docs/cli.md): 0 pass, 1 fail,
// 2 incomplete.
func (v Verdict) ExitCode() int {
	switch v {
	case VerdictPass:
		return 0
	case VerdictFail:
		return 1
	}
	return 2
}

// ExitCode maps an outcome to the reset exit codes of docs/cli.md.
func (o ResetOutcome) ExitCode() int {
	switch o {
	case OutcomeApplied:
		return 0
	case OutcomeRefused:
		return 3
	case OutcomePartlyApplied:
		return 4
	}
	return 1
}
