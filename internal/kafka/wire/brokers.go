package wire

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/IBM/sarama"
)

// brokerSet is what a Conn knows of the cluster's brokers: the brokers the last
// Metadata answer named, the seeds (the bootstrap servers), the brokers dropped after a
// failure in this snapshot, and per broker what lets one request at a time through
// (the resend gates, the kgo turns). It is safe for concurrent use.
type brokerSet struct {
	conf *sarama.Config
	logf func(string, ...any)

	mu    sync.Mutex
	known map[int32]*sarama.Broker
	seeds []*sarama.Broker
	// lost holds brokers dropped after a transport failure, with that failure,
	// until a Metadata answer gives them back with a fresh connection.
	lost map[int32]error
	// kgoTurns lets one kgo request at a time go to each broker (kgocall.go).
	kgoTurns map[int32]chan struct{}
	// gates send a request again alone after its connection dropped (resend.go).
	gates map[*sarama.Broker]*resendGate
}

func newBrokerSet(conf *sarama.Config, logf func(string, ...any), bootstrap []string) *brokerSet {
	s := &brokerSet{conf: conf, logf: logf, known: map[int32]*sarama.Broker{}, lost: map[int32]error{},
		kgoTurns: map[int32]chan struct{}{}, gates: map[*sarama.Broker]*resendGate{}}
	for _, a := range bootstrap {
		s.seeds = append(s.seeds, sarama.NewBroker(a))
	}
	return s
}

// candidates are the brokers a Metadata request may go to: the known ones by id, then
// the seeds.
func (s *brokerSet) candidates() []*sarama.Broker {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*sarama.Broker, 0, len(s.known)+len(s.seeds))
	for _, id := range slices.Sorted(maps.Keys(s.known)) {
		out = append(out, s.known[id])
	}
	return append(out, s.seeds...)
}

// addrs are the addresses of the known brokers, by id.
func (s *brokerSet) addrs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.known))
	for _, id := range slices.Sorted(maps.Keys(s.known)) {
		out = append(out, s.known[id].Addr())
	}
	return out
}

// all are the seeds and the known brokers, for closing.
func (s *brokerSet) all() []*sarama.Broker {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append(slices.Clone(s.seeds), slices.Collect(maps.Values(s.known))...)
}

// learn replaces the known broker set, keeping open connections of brokers whose
// address did not change. A broker dropped after a failure stays out unless
// reconnect is set, so a snapshot never asks a broker that failed it again.
func (s *brokerSet) learn(bs []*sarama.Broker, reconnect bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := map[int32]*sarama.Broker{}
	for _, b := range bs {
		if _, lost := s.lost[b.ID()]; lost && !reconnect {
			continue
		}
		delete(s.lost, b.ID())
		if old, ok := s.known[b.ID()]; ok && old.Addr() == b.Addr() {
			next[b.ID()] = old
			continue
		}
		next[b.ID()] = b
	}
	for id, old := range s.known {
		if next[id] != old {
			delete(s.gates, old)
			go func() { _ = old.Close() }()
		}
	}
	s.known = next
}

// open connects b unless it is connected or connecting. It never waits:
// sarama's Open returns at once when the broker was opened before, whereas
// Broker.Connected would wait for a request in flight, however long a hung
// broker takes.
func (s *brokerSet) open(b *sarama.Broker) {
	err := b.Open(s.conf)
	if err != nil && !errors.Is(err, sarama.ErrAlreadyConnected) {
		s.logf("open broker %s: %v", b.Addr(), err)
	}
}

// askable reports whether b may be asked again after its connection dropped: not
// when b was dropped from the snapshot (a silent broker must not be asked again
// before the next snapshot).
func (s *brokerSet) askable(b *sarama.Broker) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.known[b.ID()] == b || slices.Contains(s.seeds, b)
}

// drop takes b out of the snapshot after err: no request queues behind a
// connection whose replies are late, and the broker is not asked again until the
// next Metadata answer brings it back, freshly connected. Its sarama connection
// is closed in the background: Close waits for those replies.
func (s *brokerSet) drop(b *sarama.Broker, err error) {
	s.logf("broker %d (%s): %v: reconnecting on the next snapshot", b.ID(), b.Addr(), err)
	s.mu.Lock()
	if s.known[b.ID()] == b {
		delete(s.known, b.ID())
		s.lost[b.ID()] = err
	}
	delete(s.gates, b)
	for i, seed := range s.seeds {
		if seed == b {
			s.seeds[i] = sarama.NewBroker(b.Addr())
		}
	}
	s.mu.Unlock()
	go func() { _ = b.Close() }()
}

// broker returns the connected broker with id.
func (s *brokerSet) broker(id int32) (*sarama.Broker, error) {
	s.mu.Lock()
	b, ok := s.known[id]
	lost := s.lost[id]
	s.mu.Unlock()
	if lost != nil {
		return nil, droppedErr(id, lost)
	}
	if !ok {
		return nil, fmt.Errorf("broker %d is not in the cluster metadata: %w", id, sarama.ErrBrokerNotFound)
	}
	s.open(b)
	return b, nil
}

// lostErr says why broker id is not asked when a failure dropped it in this snapshot;
// nil otherwise.
func (s *brokerSet) lostErr(id int32) error {
	s.mu.Lock()
	err := s.lost[id]
	s.mu.Unlock()
	if err != nil {
		return droppedErr(id, err)
	}
	return nil
}

// droppedErr is why broker id, dropped after err, is not asked.
func droppedErr(id int32, err error) error {
	return fmt.Errorf("broker %d failed a request moments ago (%w); it is asked again on the next snapshot", id, err)
}

// sorted returns every known broker sorted by id, connected.
func (s *brokerSet) sorted() []*sarama.Broker {
	s.mu.Lock()
	out := make([]*sarama.Broker, 0, len(s.known))
	for _, b := range s.known {
		out = append(out, b)
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b *sarama.Broker) int { return int(a.ID()) - int(b.ID()) })
	for _, b := range out {
		s.open(b)
	}
	return out
}

// lostCopy returns the brokers dropped after a failure, with their errors.
func (s *brokerSet) lostCopy() map[int32]error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.lost)
}

// gate returns b's resend gate. A gate belongs to one sarama.Broker (one connection),
// not to a broker id: a seed and the known broker of the same id connect separately.
func (s *brokerSet) gate(b *sarama.Broker) *resendGate {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.gates[b]
	if g == nil {
		g = &resendGate{}
		s.gates[b] = g
	}
	return g
}

// kgoTurn returns broker id's turn for kgo requests: one at a time (kgocall.go).
func (s *brokerSet) kgoTurn(id int32) chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	turn := s.kgoTurns[id]
	if turn == nil {
		turn = make(chan struct{}, 1)
		s.kgoTurns[id] = turn
	}
	return turn
}
