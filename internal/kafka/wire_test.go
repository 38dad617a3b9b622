package kafka

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/IBM/sarama"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// shareDescribe sends one ShareGroupDescribe through a wire client made from props, as the
// Client does, to the first broker of c.
func shareDescribe(t *testing.T, c *kfake.Cluster, props map[string]string, timeout time.Duration) error {
	t.Helper()
	conf := saramaConfig(Config{Timeout: timeout})
	if _, err := ApplyProperties(conf, props); err != nil {
		t.Fatal(err)
	}
	w := newWireClient(conf, timeout, t.Logf)
	defer w.close()
	req := kmsg.NewPtrShareGroupDescribeRequest()
	req.GroupIDs = []string{"g"}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := w.request(ctx, c.ListenAddrs()[0], req)
	return err
}

// TestWireAuthenticatesAsSarama: for every TLS and SASL setup of client.properties, the
// wire client connects exactly when sarama does (same cluster, same sarama.Config), and
// never shows the password in an error.
func TestWireAuthenticatesAsSarama(t *testing.T) {
	pki := newTestPKI(t, []string{"kafka.invalid"}, nil)
	other := newTestPKI(t, []string{"kafka.invalid"}, nil)
	dir := t.TempDir()
	ca, otherCA := writeFile(t, dir, "ca.pem", pki.caPEM), writeFile(t, dir, "other.pem", other.caPEM)
	users := []kfake.Opt{kfake.EnableSASL(), kfake.Superuser("PLAIN", "alice", testSecret),
		kfake.Superuser("SCRAM-SHA-256", "alice", testSecret), kfake.Superuser("SCRAM-SHA-512", "alice", testSecret)}
	serverTLS := &tls.Config{Certificates: []tls.Certificate{pki.server}}
	mTLS := &tls.Config{Certificates: []tls.Certificate{pki.server}, ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pki.pool()}
	props := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	for _, tt := range []struct {
		name    string
		cluster []kfake.Opt
		props   map[string]string
		ok      bool
	}{
		{"plaintext", nil, props(), true},
		{"SASL PLAIN", users, props("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN", "sasl.jaas.config", jaas("alice", testSecret)), true},
		{"SASL SCRAM-SHA-256", users, props("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "SCRAM-SHA-256", "sasl.jaas.config", scramJAAS("alice", testSecret)), true},
		{"SASL SCRAM-SHA-512", users, props("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "SCRAM-SHA-512", "sasl.jaas.config", scramJAAS("alice", testSecret)), true},
		{"PLAIN with a bad password", users, props("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN", "sasl.jaas.config", jaas("alice", testSecret+"x")), false},
		{"SCRAM-SHA-512 with a bad password", users, props("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "SCRAM-SHA-512", "sasl.jaas.config", scramJAAS("alice", testSecret+"x")), false},
		{"no SASL on a SASL cluster", users, props(), false},
		{"TLS checks the hostname by default", []kfake.Opt{kfake.TLS(serverTLS)}, props("security.protocol", "SSL", "ssl.truststore.location", ca), false},
		{"TLS without hostname check", []kfake.Opt{kfake.TLS(serverTLS)}, props("security.protocol", "SSL", "ssl.truststore.location", ca, "ssl.endpoint.identification.algorithm", ""), true},
		{"TLS with another CA", []kfake.Opt{kfake.TLS(serverTLS)}, props("security.protocol", "SSL", "ssl.truststore.location", otherCA, "ssl.endpoint.identification.algorithm", ""), false},
		{"mTLS", []kfake.Opt{kfake.TLS(mTLS)}, props("security.protocol", "SSL", "ssl.truststore.certificates", string(pki.caPEM), "ssl.endpoint.identification.algorithm", "",
			"ssl.keystore.certificate.chain", string(pki.clientPEM), "ssl.keystore.key", string(pki.clientKeyPEM)), true},
		{"mTLS without a client certificate", []kfake.Opt{kfake.TLS(mTLS)}, props("security.protocol", "SSL", "ssl.truststore.certificates", string(pki.caPEM), "ssl.endpoint.identification.algorithm", ""), false},
		{"SASL_SSL SCRAM-SHA-512", append([]kfake.Opt{kfake.TLS(serverTLS)}, users...), props("security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512",
			"sasl.jaas.config", scramJAAS("alice", testSecret), "ssl.truststore.location", ca, "ssl.endpoint.identification.algorithm", ""), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1)}, tt.cluster...)...)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			conf := saramaConfig(Config{Timeout: 5 * time.Second})
			conf.Metadata.Retry.Max = 0
			if _, err := ApplyProperties(conf, tt.props); err != nil {
				t.Fatal(err)
			}
			b := sarama.NewBroker(c.ListenAddrs()[0])
			if err := b.Open(conf); err != nil {
				t.Fatal(err)
			}
			_, sErr := b.GetMetadata(&sarama.MetadataRequest{Version: 1})
			_ = b.Close()
			wErr := shareDescribe(t, c, tt.props, 5*time.Second)
			if (sErr == nil) != tt.ok || (wErr == nil) != tt.ok {
				t.Fatalf("sarama: %v; wire client: %v; want both to connect: %v", sErr, wErr, tt.ok)
			}
			if wErr != nil && showsSecret(wErr.Error()) {
				t.Fatalf("error %q contains the password", wErr)
			}
		})
	}
}

// TestWireHonoursTheDeadline: a broker that does not answer costs the context's deadline,
// not more; the request is sent once (no retry) and the connection is dropped, so a late
// reply cannot answer the next request.
func TestWireHonoursTheDeadline(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var mu sync.Mutex
	sent := 0
	release := make(chan struct{})
	defer close(release)
	c.ControlKey(int16(kmsg.ShareGroupDescribe), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		mu.Lock()
		sent++
		mu.Unlock()
		<-release
		return nil, nil, false
	})
	w := newWireClient(saramaConfig(Config{Timeout: 10 * time.Second}), 10*time.Second, t.Logf)
	defer w.close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = w.request(ctx, c.ListenAddrs()[0], kmsg.NewPtrShareGroupDescribeRequest())
	took := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) || took > 2*time.Second {
		t.Fatalf("after %s: error %v, want the context's deadline after about 300ms", took, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if sent != 1 || len(w.conns) != 0 {
		t.Errorf("requests sent %d, connections kept %d; want 1 (no retry) and 0 (dropped)", sent, len(w.conns))
	}
}

// TestWireNegotiatesVersions: the version sent is the highest both sides know (never
// assumed); a request the broker lacks fails as unsupported without being sent.
func TestWireNegotiatesVersions(t *testing.T) {
	for _, tt := range []struct {
		name    string
		max     int16 // -1: the broker lacks ShareGroupDescribe
		want    int16
		wantErr error
	}{
		{"broker at v0", 0, 0, nil},
		{"broker at v1", 1, 1, nil},
		{"broker without the request", -1, 0, errWireUnsupported},
	} {
		t.Run(tt.name, func(t *testing.T) {
			vs := kversion.Stable()
			vs.SetMaxKeyVersion(int16(kmsg.ShareGroupDescribe), tt.max)
			c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.MaxVersions(vs))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			got := int16(-1)
			c.ControlKey(int16(kmsg.ShareGroupDescribe), func(r kmsg.Request) (kmsg.Response, error, bool) {
				got = r.GetVersion()
				return nil, nil, false
			})
			w := newWireClient(saramaConfig(Config{Timeout: 5 * time.Second}), 5*time.Second, t.Logf)
			defer w.close()
			_, err = w.request(context.Background(), c.ListenAddrs()[0], kmsg.NewPtrShareGroupDescribeRequest())
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && got != tt.want) || (tt.wantErr != nil && got != -1) {
				t.Errorf("error %v, version sent %d; want error %v and version %d", err, got, tt.wantErr, tt.want)
			}
		})
	}
}

// saslCapture is a broker that speaks just enough Kafka for a client to authenticate
// (ApiVersions, SaslHandshake, SaslAuthenticate) and hands over every SaslAuthenticate
// payload it receives.
func saslCapture(t *testing.T, mech string) (addr string, auth chan []byte) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	auth = make(chan []byte, 8)
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go serveSASL(conn, mech, auth)
		}
	}()
	return ln.Addr().String(), auth
}

func serveSASL(conn net.Conn, mech string, auth chan []byte) {
	defer conn.Close()
	for {
		var size [4]byte
		if _, err := io.ReadFull(conn, size[:]); err != nil {
			return
		}
		buf := make([]byte, binary.BigEndian.Uint32(size[:]))
		if _, err := io.ReadFull(conn, buf); err != nil {
			return
		}
		key, version, corr := int16(binary.BigEndian.Uint16(buf)), int16(binary.BigEndian.Uint16(buf[2:])), buf[4:8]
		req := kmsg.RequestForKey(key)
		if req == nil {
			return
		}
		req.SetVersion(version)
		body := buf[8:]
		if n := int16(binary.BigEndian.Uint16(body)); n >= 0 { // client id
			body = body[2+int(n):]
		} else {
			body = body[2:]
		}
		if req.IsFlexible() {
			body = body[1:] // no tagged fields in the header
		}
		if req.ReadFrom(body) != nil {
			return
		}
		var resp kmsg.Response
		switch r := req.(type) {
		case *kmsg.ApiVersionsRequest:
			av := kmsg.NewPtrApiVersionsResponse()
			for _, k := range []int16{3, 17, 36, 77} {
				ak := kmsg.NewApiVersionsResponseApiKey()
				ak.ApiKey, ak.MaxVersion = k, kmsg.RequestForKey(k).MaxVersion()
				av.ApiKeys = append(av.ApiKeys, ak)
			}
			resp = av
		case *kmsg.SASLHandshakeRequest:
			hs := kmsg.NewPtrSASLHandshakeResponse()
			hs.SupportedMechanisms = []string{mech}
			resp = hs
		case *kmsg.SASLAuthenticateRequest:
			auth <- append([]byte{}, r.SASLAuthBytes...)
			resp = kmsg.NewPtrSASLAuthenticateResponse()
		default:
			return // authenticated: that is all this broker does
		}
		resp.SetVersion(version)
		out := append([]byte{0, 0, 0, 0}, corr...)
		if resp.IsFlexible() && key != 18 {
			out = append(out, 0)
		}
		out = resp.AppendTo(out)
		binary.BigEndian.PutUint32(out, uint32(len(out)-4))
		if _, err := conn.Write(out); err != nil {
			return
		}
	}
}

type tokenProvider struct{ tok *sarama.AccessToken }

func (p tokenProvider) Token() (*sarama.AccessToken, error) { return p.tok, nil }

// TestWireSendsSaramasCredentials: for PLAIN and OAUTHBEARER (a token provider, as the
// client.properties of an OAuth or MSK IAM setup fill it) the wire client sends the very
// bytes sarama sends with the same config.
func TestWireSendsSaramasCredentials(t *testing.T) {
	for _, tt := range []struct {
		name string
		set  func(*sarama.Config)
	}{
		{"PLAIN", func(c *sarama.Config) {
			c.Net.SASL.Mechanism, c.Net.SASL.User, c.Net.SASL.Password = sarama.SASLTypePlaintext, "alice", testSecret
		}},
		{"PLAIN with an authorization id", func(c *sarama.Config) {
			c.Net.SASL.Mechanism, c.Net.SASL.User, c.Net.SASL.Password, c.Net.SASL.AuthIdentity = sarama.SASLTypePlaintext, "alice", testSecret, "bob"
		}},
		{"OAUTHBEARER with extensions", func(c *sarama.Config) {
			c.Net.SASL.Mechanism = sarama.SASLTypeOAuth
			c.Net.SASL.TokenProvider = tokenProvider{&sarama.AccessToken{Token: "eyJ.token", Extensions: map[string]string{"traceId": "x1", "logicalCluster": "lc-1"}}}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			conf := saramaConfig(Config{Timeout: 5 * time.Second})
			conf.Net.SASL.Enable, conf.Net.SASL.Handshake = true, true
			tt.set(conf)
			addr, auth := saslCapture(t, string(conf.Net.SASL.Mechanism))

			b := sarama.NewBroker(addr)
			if err := b.Open(conf); err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			_, _ = b.Connected() // waits for the connection, SASL included
			var fromSarama []byte
			select {
			case fromSarama = <-auth:
			case <-time.After(5 * time.Second):
				t.Fatal("sarama sent no SaslAuthenticate")
			}

			w := newWireClient(conf, 5*time.Second, t.Logf)
			defer w.close()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, _ = w.request(ctx, addr, kmsg.NewPtrShareGroupDescribeRequest()) // the broker hangs up after auth
			var fromWire []byte
			select {
			case fromWire = <-auth:
			case <-time.After(5 * time.Second):
				t.Fatal("the wire client sent no SaslAuthenticate")
			}
			if string(fromWire) != string(fromSarama) {
				t.Errorf("wire client sent %q, sarama %q", strings.ReplaceAll(string(fromWire), testSecret, "***"), strings.ReplaceAll(string(fromSarama), testSecret, "***"))
			}
		})
	}
}
