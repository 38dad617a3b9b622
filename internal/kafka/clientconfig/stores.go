package clientconfig

// JKS and PKCS12 truststores and keystores, read with keystore-go (JKS) and go-pkcs12
// (PKCS12), as the JVM reads them for Kafka's ssl.truststore.* and ssl.keystore.*.

import (
	"bytes"
	"crypto"
	"crypto/sha1"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"strings"

	"github.com/pavlo-v-chernykh/keystore-go/v4"
	"software.sslmate.com/src/go-pkcs12"
)

// Store formats.
const (
	formatPEM    = "PEM"
	formatJKS    = "JKS"
	formatPKCS12 = "PKCS12"
)

var (
	jksMagic   = []byte{0xfe, 0xed, 0xfe, 0xed}
	jceksMagic = []byte{0xce, 0xce, 0xce, 0xce}
)

// storeFormat decides how to read a store file. An unset type is detected from the content;
// JKS and PKCS12 are told apart by content too, as the JVM does (keystore.type.compat).
func storeFormat(typeKey, typ string, data []byte) (string, error) {
	isPEM := bytes.Contains(data, []byte("-----BEGIN "))
	switch {
	case typ == formatPEM:
		return formatPEM, nil
	case bytes.HasPrefix(data, jceksMagic):
		return "", propErr(typeKey, "JCEKS stores are not supported; convert to PKCS12 "+
			"(keytool -importkeystore -srcstoretype JCEKS -deststoretype PKCS12)")
	case bytes.HasPrefix(data, jksMagic):
		return formatJKS, nil
	case len(data) > 0 && data[0] == 0x30 && !isPEM: // a DER SEQUENCE: PKCS12
		return formatPKCS12, nil
	case typ == "":
		return formatPEM, nil // what is wrong with it is told by the PEM reader
	case isPEM:
		return "", propErr(typeKey, "the file is PEM, not %s; set %s=PEM", typ, typeKey)
	}
	return "", propErr(typeKey, "the file is neither a JKS nor a PKCS12 store")
}

// binaryTrust returns the trusted certificates of a JKS or PKCS12 truststore: its trusted
// certificate entries and the first certificate of each key entry, as the JVM's trust
// manager takes them. Without a password a JKS store is read without its integrity check
// (as the JVM does); a PKCS12 store then must be unencrypted.
func binaryTrust(format string, data []byte, password string) ([]*x509.Certificate, error) {
	if format == formatPKCS12 {
		certs, err := pkcs12.DecodeTrustStore(data, password)
		if err == nil || errors.Is(err, pkcs12.ErrIncorrectPassword) {
			return certs, pkcs12Err(err, "ssl.truststore.password")
		}
		_, leaf, _, err2 := pkcs12.DecodeChain(data, password) // a keystore used as a truststore
		if err2 != nil {
			return nil, pkcs12Err(err, "ssl.truststore.password")
		}
		return []*x509.Certificate{leaf}, nil
	}
	ks, err := loadJKS(data, password, true)
	if err != nil {
		return nil, err
	}
	var certs []*x509.Certificate
	for _, alias := range ks.Aliases() {
		var der []byte
		if e, err := ks.GetTrustedCertificateEntry(alias); err == nil {
			der = e.Certificate.Content
		} else if chain, err := ks.GetPrivateKeyEntryCertificateChain(alias); err == nil && len(chain) > 0 {
			der = chain[0].Content
		}
		if der == nil {
			continue
		}
		c, err := x509.ParseCertificate(der)
		if err != nil {
			return nil, fmt.Errorf("entry %q: %v", alias, err)
		}
		certs = append(certs, c)
	}
	return certs, nil
}

// binaryKeyPairs returns the client certificates (key and chain) of a JKS or PKCS12
// keystore. keyPassword defaults to the store password, as in Kafka.
func binaryKeyPairs(format string, data []byte, storePassword, keyPassword string) ([]tls.Certificate, error) {
	if keyPassword == "" {
		keyPassword = storePassword
	}
	if format == formatPKCS12 {
		if keyPassword != storePassword {
			return nil, errors.New("a PKCS12 keystore has one password: ssl.key.password must be unset or equal ssl.keystore.password")
		}
		key, leaf, chain, err := pkcs12.DecodeChain(data, storePassword)
		if err != nil {
			return nil, pkcs12Err(err, "ssl.keystore.password")
		}
		cert := tls.Certificate{PrivateKey: key, Leaf: leaf, Certificate: [][]byte{leaf.Raw}}
		for _, c := range chain {
			cert.Certificate = append(cert.Certificate, c.Raw)
		}
		return []tls.Certificate{cert}, nil
	}
	ks, err := loadJKS(data, storePassword, false)
	if err != nil {
		return nil, err
	}
	kp, err := javaPassword(keyPassword)
	if err != nil {
		return nil, err
	}
	var certs []tls.Certificate
	for _, alias := range ks.Aliases() {
		if !ks.IsPrivateKeyEntry(alias) {
			continue
		}
		e, err := ks.GetPrivateKeyEntry(alias, kp)
		if err != nil {
			return nil, fmt.Errorf("key entry %q: cannot decrypt the key (wrong ssl.key.password?)", alias)
		}
		key, err := x509.ParsePKCS8PrivateKey(e.PrivateKey)
		if err != nil {
			return nil, fmt.Errorf("key entry %q: %v", alias, err)
		}
		signer, ok := key.(crypto.Signer)
		if !ok || len(e.CertificateChain) == 0 {
			return nil, fmt.Errorf("key entry %q: no usable key and certificate", alias)
		}
		cert := tls.Certificate{PrivateKey: signer}
		for _, c := range e.CertificateChain {
			cert.Certificate = append(cert.Certificate, c.Content)
		}
		if cert.Leaf, err = x509.ParseCertificate(cert.Certificate[0]); err != nil {
			return nil, fmt.Errorf("key entry %q: %v", alias, err)
		}
		certs = append(certs, cert)
	}
	return certs, nil
}

// loadJKS reads a JKS store. With an empty password and trustOnly, the integrity check is
// skipped as the JVM skips it: keystore-go always checks the trailing SHA-1 digest, so it
// is recomputed for the empty password first.
func loadJKS(data []byte, password string, trustOnly bool) (keystore.KeyStore, error) {
	ks := keystore.New(keystore.WithCaseExactAliases(), keystore.WithOrderedAliases())
	pw, err := javaPassword(password)
	if err != nil {
		return ks, err
	}
	if password == "" && trustOnly && len(data) > sha1.Size {
		body := data[:len(data)-sha1.Size]
		h := sha1.New()
		h.Write([]byte("Mighty Aphrodite")) // the JKS digest's fixed salt
		h.Write(body)
		data = append(bytes.Clone(body), h.Sum(nil)...)
	}
	if err := ks.Load(bytes.NewReader(data), pw); err != nil {
		if strings.Contains(err.Error(), "invalid digest") {
			return ks, errors.New("the JKS store's integrity check failed: wrong password")
		}
		return ks, fmt.Errorf("not a readable JKS store: %v", err)
	}
	return ks, nil
}

// javaPassword encodes a password as the JKS format does (one UTF-16 code unit per
// character, which keystore-go takes as one byte each): only Latin-1 characters fit.
func javaPassword(password string) ([]byte, error) {
	out := make([]byte, 0, len(password))
	for _, r := range password {
		if r > 0xff {
			return nil, errors.New("JKS passwords with characters beyond Latin-1 are not supported; use a PKCS12 store")
		}
		out = append(out, byte(r))
	}
	return out, nil
}

// pkcs12Err words go-pkcs12's errors for the user; they never contain the password.
func pkcs12Err(err error, passKey string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, pkcs12.ErrIncorrectPassword):
		return fmt.Errorf("wrong password (%s)", passKey)
	}
	return fmt.Errorf("not a readable PKCS12 store: %v", err)
}
