package views

import "strings"

// connectView is the body until the first snapshot arrives: "connecting to …"
// at once, and, when the cluster could not be read, the error with the causes
// an on-call engineer would check first. r retries; q quits.
func connectView(st *styles, cluster string, err error) string {
	if err == nil {
		return "\n  " + st.muted.Render("connecting to "+cluster+" …")
	}
	lines := []string{
		"",
		"  " + st.err.Render("cannot read the cluster "+cluster),
		"  " + err.Error(),
		"",
		"  Likely causes:",
		"  • a wrong address or port, or the broker is down (check --bootstrap-server);",
		"  • a TLS or SASL listener reached without --command-config (it often shows as EOF or a timeout);",
		"  • credentials the broker refused (check the user and password in --command-config);",
		"  • a slow network or a busy broker (raise --timeout).",
		"",
		"  " + st.muted.Render("r tries again · q quits"),
	}
	return strings.Join(lines, "\n")
}
