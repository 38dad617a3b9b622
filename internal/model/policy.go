package model

import "strings"

// KnownPolicy reports whether every name of a cleanup.policy value is one offsettui knows
// (delete, compact); an empty value, which names none, is known (KIP-1161: never deleted).
func KnownPolicy(policy string) bool {
	if strings.TrimSpace(policy) == "" {
		return true
	}
	for _, part := range strings.Split(policy, ",") {
		if p := strings.TrimSpace(part); p != "delete" && p != "compact" {
			return false
		}
	}
	return true
}

// policyHas reports whether the comma-separated policy names want; it runs
// for every row, so it splits without allocating.
func policyHas(policy, want string) bool {
	if policy == want { // the common case, asked for every row
		return true
	}
	for policy != "" {
		part, rest, _ := strings.Cut(policy, ",")
		if strings.TrimSpace(part) == want {
			return true
		}
		policy = rest
	}
	return false
}
