package faultproxy

// Recording: a test asks the proxy to keep every request of one API key that a
// client sends (Record) and reads them back decoded (Recorded), say to compare
// what two clients send.

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// Record makes the proxy keep, from now on, every request of key that any broker
// gets through it, whatever a rule then does with it.
func (p *Proxy) Record(key kmsg.Key) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.recorded == nil {
		p.recorded = map[kmsg.Key][][]byte{}
	}
	if _, ok := p.recorded[key]; !ok {
		p.recorded[key] = [][]byte{}
	}
}

// Recorded returns the requests of key kept since Record, decoded, in the order
// they arrived.
func (p *Proxy) Recorded(key kmsg.Key) ([]kmsg.Request, error) {
	p.mu.Lock()
	frames := p.recorded[key]
	p.mu.Unlock()
	out := make([]kmsg.Request, 0, len(frames))
	for _, f := range frames {
		req, err := decodeRequest(f)
		if err != nil {
			return nil, err
		}
		out = append(out, req)
	}
	return out, nil
}

// keep records a request frame of key if key is recorded.
func (p *Proxy) keep(key kmsg.Key, frame []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if list, ok := p.recorded[key]; ok {
		p.recorded[key] = append(list, bytes.Clone(frame))
	}
}

// decodeRequest decodes a request frame (size, header, body) with kmsg: the
// header's client id (a nullable string) and, in flexible versions, its tagged
// fields come before the body.
func decodeRequest(frame []byte) (kmsg.Request, error) {
	h, err := parseRequestHeader(frame)
	if err != nil {
		return nil, err
	}
	req := kmsg.RequestForKey(int16(h.key))
	if req == nil {
		return nil, fmt.Errorf("%w: unknown API key %d", errProtocol, h.key)
	}
	req.SetVersion(h.version)
	b := frame[12:]
	if len(b) < 2 {
		return nil, fmt.Errorf("%w: %s request without a client id", errProtocol, h.key.Name())
	}
	n := int(int16(binary.BigEndian.Uint16(b)))
	b = b[2:]
	if n > 0 {
		if n > len(b) {
			return nil, fmt.Errorf("%w: %s request: client id past the end", errProtocol, h.key.Name())
		}
		b = b[n:]
	}
	if req.IsFlexible() {
		skip, err := tagsLen(b)
		if err != nil {
			return nil, fmt.Errorf("%w: %s request header: %v", errProtocol, h.key.Name(), err)
		}
		b = b[skip:]
	}
	if err := req.ReadFrom(b); err != nil {
		return nil, fmt.Errorf("%w: decode %s v%d: %v", errProtocol, h.key.Name(), h.version, err)
	}
	return req, nil
}
