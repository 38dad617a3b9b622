package views

// request is the one copy of the rule every async read of the views follows:
// one request in flight at a time; each is tagged with a generation and only
// the reply of the current one is applied; a change while one is in flight is
// remembered (coalesced) and asked for once it returns, so fast typing or a
// refresh never piles requests up. The refresher and the planner both use it.
type request struct {
	gen      uint64 // generation of the request in flight, or of the last one
	inFlight bool
	dirty    bool // something changed while in flight: ask again when it returns
}

// start begins a request and returns its generation; ok is false (and the
// change is remembered) while another one is in flight.
func (r *request) start() (gen uint64, ok bool) {
	if r.inFlight {
		r.dirty = true
		return 0, false
	}
	r.gen++
	r.inFlight, r.dirty = true, false
	return r.gen, true
}

// done ends the request of generation gen; false means the reply is stale (an
// older generation, or none in flight) and must be dropped.
func (r *request) done(gen uint64) bool {
	if gen != r.gen || !r.inFlight {
		return false
	}
	r.inFlight = false
	return true
}

// again reports, once, whether a change arrived while the last request flew.
func (r *request) again() bool {
	d := r.dirty
	r.dirty = false
	return d
}

// drop forgets a remembered change (the inputs became invalid meanwhile).
func (r *request) drop() { r.dirty = false }
