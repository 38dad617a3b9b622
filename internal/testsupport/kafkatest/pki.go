package kafkatest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pavlo-v-chernykh/keystore-go/v4"
	"software.sslmate.com/src/go-pkcs12"
)

// PKI is a throwaway CA with one server and one client certificate (ECDSA P-256), made in
// the test: no key is checked in.
type PKI struct {
	CAPEM, ServerPEM, ServerKeyPEM, ClientPEM, ClientKeyPEM []byte
	CA                                                      *x509.Certificate
	Server, Client                                          tls.Certificate
}

// NewPKI makes a CA and a server certificate for dnsNames and ips, and a client one.
func NewPKI(t testing.TB, dnsNames []string, ips []net.IP) *PKI {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	p := &PKI{CA: ca, CAPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})}
	issue := func(serial int64, usage x509.ExtKeyUsage) (certPEM, keyPEM []byte, c tls.Certificate) {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "leaf"},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			DNSNames: dnsNames, IPAddresses: ips, ExtKeyUsage: []x509.ExtKeyUsage{usage}, KeyUsage: x509.KeyUsageDigitalSignature}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		pk, _ := x509.MarshalPKCS8PrivateKey(key)
		certPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
		keyPEM = pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pk})
		c, err = tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			t.Fatal(err)
		}
		return certPEM, keyPEM, c
	}
	p.ServerPEM, p.ServerKeyPEM, p.Server = issue(2, x509.ExtKeyUsageServerAuth)
	p.ClientPEM, p.ClientKeyPEM, p.Client = issue(3, x509.ExtKeyUsageClientAuth)
	return p
}

// Pool is a pool of the CA alone.
func (p *PKI) Pool() *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AddCert(p.CA)
	return pool
}

// MustVerify checks that roots trusts this CA.
func (p *PKI) MustVerify(t testing.TB, roots *x509.CertPool) {
	t.Helper()
	if roots == nil {
		t.Fatal("no RootCAs")
	}
	if _, err := p.Server.Leaf.Verify(x509.VerifyOptions{Roots: roots}); err != nil {
		t.Errorf("RootCAs does not trust the CA: %v", err)
	}
}

// MustBeClientCert checks that tc presents this PKI's client certificate.
func (p *PKI) MustBeClientCert(t testing.TB, tc *tls.Config) {
	t.Helper()
	if len(tc.Certificates) != 1 || !tc.Certificates[0].Leaf.Equal(p.Client.Leaf) {
		t.Errorf("client certificates %d, want the test client's", len(tc.Certificates))
	}
}

// Stores are a PKI's CA and client key written as JKS and PKCS12 files with the Go
// libraries offsettui reads them with.
type Stores struct {
	JKSTrust, P12Trust, JKSKeys, P12Keys string
}

// WriteStores writes the CA as JKS and PKCS12 truststores and the client key as JKS and
// PKCS12 keystores into dir.
func WriteStores(t testing.TB, p *PKI, dir, storePass, keyPass string) Stores {
	t.Helper()
	trust := keystore.New()
	if err := trust.SetTrustedCertificateEntry("caroot", keystore.TrustedCertificateEntry{CreationTime: time.Now(),
		Certificate: keystore.Certificate{Type: "X509", Content: p.CA.Raw}}); err != nil {
		t.Fatal(err)
	}
	var jt bytes.Buffer
	if err := trust.Store(&jt, []byte(storePass)); err != nil {
		t.Fatal(err)
	}
	p12t, err := pkcs12.Modern.EncodeTrustStore([]*x509.Certificate{p.CA}, storePass)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(p.Client.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	keys := keystore.New()
	if err := keys.SetPrivateKeyEntry("client", keystore.PrivateKeyEntry{CreationTime: time.Now(), PrivateKey: keyDER,
		CertificateChain: []keystore.Certificate{{Type: "X509", Content: p.Client.Leaf.Raw}, {Type: "X509", Content: p.CA.Raw}}},
		[]byte(keyPass)); err != nil {
		t.Fatal(err)
	}
	var jk bytes.Buffer
	if err := keys.Store(&jk, []byte(storePass)); err != nil {
		t.Fatal(err)
	}
	p12k, err := pkcs12.Modern.WithRand(rand.Reader).Encode(p.Client.PrivateKey, p.Client.Leaf, []*x509.Certificate{p.CA}, storePass)
	if err != nil {
		t.Fatal(err)
	}
	return Stores{JKSTrust: WriteFile(t, dir, "trust.jks", jt.Bytes()), P12Trust: WriteFile(t, dir, "trust.p12", p12t),
		JKSKeys: WriteFile(t, dir, "keys.jks", jk.Bytes()), P12Keys: WriteFile(t, dir, "keys.p12", p12k)}
}

// WriteFile writes data to dir/name (mode 0600) and returns its path.
func WriteFile(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
