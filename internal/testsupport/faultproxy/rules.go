package faultproxy

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// Action is what a rule does to a request it matches.
type Action int

const (
	// Pass forwards the request and its answer unchanged (what happens when no
	// rule matches).
	Pass Action = iota
	// StallBefore keeps the request: it is never forwarded nor answered, and the
	// connection stays open and silent from then on (later requests on it are
	// read and counted, never forwarded). With Key AnyKey it stalls the whole
	// broker, new connections and their ApiVersions included: a broker that
	// accepts TCP and never answers.
	StallBefore
	// StallAfter forwards the request, drops the broker's answer and leaves the
	// connection open and silent: the request took effect, its answer never
	// comes, the client times out.
	StallAfter
	// CutBefore closes the client's connection when the request arrives, without
	// forwarding it.
	CutBefore
	// CutAfter forwards the request, waits for the broker's answer, drops it and
	// closes the client's connection: the request took effect but its answer was
	// lost.
	CutAfter
	// DelayRequest holds the request for Rule.Delay (or until Rule.Release is
	// closed), then forwards it. Later
	// requests on the same connection wait behind it, as a broker answers one
	// connection's requests in order.
	DelayRequest
	// DelayResponse forwards the request at once and holds its answer for
	// Rule.Delay or until Rule.Release is closed (later answers on the
	// connection wait behind it).
	DelayResponse
	// Rewrite forwards the request and passes the broker's answer, decoded, to
	// Rule.Rewrite before it goes back: a broker that answers with an error it
	// gives only in a moment the test cannot make happen (a leader just elected).
	Rewrite
)

var actionNames = [...]string{"pass", "stall-before", "stall-after", "cut-before", "cut-after", "delay-request", "delay-response", "rewrite"}

func (a Action) String() string {
	if a < 0 || int(a) >= len(actionNames) {
		return fmt.Sprintf("Action(%d)", int(a))
	}
	return actionNames[a]
}

const (
	// AnyBroker in Rule.Broker matches every broker.
	AnyBroker int32 = -1
	// AnyKey in Rule.Key matches every API key.
	AnyKey kmsg.Key = -1
)

// Rule says what the proxy does to the requests one broker (or every broker)
// gets for one API key (or every key).
type Rule struct {
	Broker int32    // a broker id, or AnyBroker
	Key    kmsg.Key // an API key (kmsg.OffsetCommit, ...), or AnyKey
	Action Action
	Delay  time.Duration // how long DelayRequest and DelayResponse hold
	// Release, when set, ends a DelayRequest or DelayResponse hold as soon as
	// it is closed; with Delay 0 the hold lasts until then (or Close). A test
	// holds a request this way until something else has happened.
	Release <-chan struct{}
	// Rewrite changes the decoded answer of a Rewrite rule's request in place (its
	// type is the key's, e.g. *kmsg.ListOffsetsResponse).
	Rewrite func(kmsg.Response)
	// Times is how many requests the rule acts on before it stops matching;
	// 0 means no limit.
	Times int
}

func (r Rule) matches(broker int32, key kmsg.Key) bool {
	return (r.Broker == AnyBroker || r.Broker == broker) && (r.Key == AnyKey || r.Key == key)
}

// Handle is a rule in force; Remove ends it.
type Handle struct {
	p     *Proxy
	rule  Rule
	fired int // under p.mu
}

// Add puts r in force for the requests that arrive from now on, on connections
// open or to come. Rules are tried in the order they were added; the first that
// matches (and has not used up its Times) acts.
func (p *Proxy) Add(r Rule) *Handle {
	h := &Handle{p: p, rule: r}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rules = append(p.rules, h)
	return h
}

// Remove takes the rule out of force. Requests it already holds stay held
// (Proxy.Close releases them).
func (h *Handle) Remove() {
	h.p.mu.Lock()
	defer h.p.mu.Unlock()
	h.p.rules = slices.DeleteFunc(h.p.rules, func(x *Handle) bool { return x == h })
}

// Fired is how many requests the rule has acted on.
func (h *Handle) Fired() int {
	h.p.mu.Lock()
	defer h.p.mu.Unlock()
	return h.fired
}

// count counts a request of key that broker got.
func (p *Proxy) count(broker int32, key kmsg.Key) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.counts[countKey{broker, key}]++
}

// countAnswer counts the bytes of an answer of key that broker's client was given.
func (p *Proxy) countAnswer(broker int32, key kmsg.Key, bytes int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.answered[countKey{broker, key}] += int64(bytes)
}

// match returns the rule that acts on a request of key to broker (Action Pass
// when none does) and counts it as fired.
func (p *Proxy) match(broker int32, key kmsg.Key) Rule {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, h := range p.rules {
		if h.rule.matches(broker, key) && (h.rule.Times == 0 || h.fired < h.rule.Times) {
			h.fired++
			return h.rule
		}
	}
	return Rule{}
}

type countKey struct {
	broker int32
	key    kmsg.Key
}

// Requests is how many requests of key (or AnyKey) broker (or AnyBroker) got
// through the proxy since it started or since ResetCounts: every request read
// from a client, whatever a rule then did with it.
func (p *Proxy) Requests(broker int32, key kmsg.Key) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for k, v := range p.counts {
		if (broker == AnyBroker || k.broker == broker) && (key == AnyKey || k.key == key) {
			n += v
		}
	}
	return n
}

// AnswerBytes is how many bytes of answers to requests of key (or AnyKey) from broker
// (or AnyBroker) the proxy returned to clients since it started or since ResetCounts, as
// the clients received them (each frame with its size prefix, after any rewrite).
func (p *Proxy) AnswerBytes(broker int32, key kmsg.Key) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	var n int64
	for k, v := range p.answered {
		if (broker == AnyBroker || k.broker == broker) && (key == AnyKey || k.key == key) {
			n += v
		}
	}
	return n
}

// Connections is how many client connections broker (or AnyBroker) accepted
// since the proxy started or since ResetCounts.
func (p *Proxy) Connections(broker int32) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for id, v := range p.accepted {
		if broker == AnyBroker || id == broker {
			n += v
		}
	}
	return n
}

// ResetCounts sets every request, answer and connection count back to zero.
func (p *Proxy) ResetCounts() {
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.counts)
	clear(p.answered)
	clear(p.accepted)
}

// Summary renders the counts for a test's failure message:
// "broker 0: 2 connections, ApiVersions=2 Metadata=3; broker 1: ...".
func (p *Proxy) Summary() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	perBroker := map[int32][]string{}
	for k, v := range p.counts {
		perBroker[k.broker] = append(perBroker[k.broker], fmt.Sprintf("%s=%d", k.key.Name(), v))
	}
	for id := range p.accepted {
		if perBroker[id] == nil {
			perBroker[id] = []string{}
		}
	}
	var parts []string
	for _, id := range slices.Sorted(maps.Keys(perBroker)) {
		slices.Sort(perBroker[id])
		parts = append(parts, fmt.Sprintf("broker %d: %d connections, %s", id, p.accepted[id], strings.Join(perBroker[id], " ")))
	}
	return strings.Join(parts, "; ")
}
