package realkafka

import (
	"strings"
	"testing"
)

// BrokerTier is the prefix of every test that needs a real broker, the three-node
// cluster or a JVM. CI runs the others first, with -short, and these after, alone
// (docs/testing.md, "Two tiers").
const BrokerTier = "TestReal"

// InBrokerTier fails a test that reaches a real broker without the BrokerTier prefix
// (the broker tier would never run it, and the fast tier has no broker) and skips
// every broker test under -short. Each way a test finds a broker calls it first.
func InBrokerTier(t testing.TB) {
	t.Helper()
	top, _, _ := strings.Cut(t.Name(), "/")
	if !strings.HasPrefix(top, BrokerTier) {
		t.Fatalf("%s needs a real broker: its name must start with %s, or no tier of CI runs it (docs/testing.md)", top, BrokerTier)
	}
	if testing.Short() {
		t.Skip("-short: the fast tier runs no real-broker test")
	}
}
