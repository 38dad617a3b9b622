package clientconfig

// OAUTHBEARER with the OIDC client-credentials login Kafka ships
// (OAuthBearerLoginCallbackHandler): a token from sasl.oauthbearer.token.endpoint.url, fetched
// with golang.org/x/oauth2/clientcredentials, as the TokenSource of Settings.SASL.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

const (
	tokenURLKey      = "sasl.oauthbearer.token.endpoint.url"
	clientIDKey      = "sasl.oauthbearer.client.credentials.client.id"
	clientSecretKey  = "sasl.oauthbearer.client.credentials.client.secret"
	scopeKey         = "sasl.oauthbearer.scope"
	urlencodeKey     = "sasl.oauthbearer.header.urlencode"
	subClaimKey      = "sasl.oauthbearer.sub.claim.name"
	refreshFactorKey = "sasl.login.refresh.window.factor"
	jwtRetrieverKey  = "sasl.oauthbearer.jwt.retriever.class"
)

// oidcTokens is the token source of OAUTHBEARER with tokens from the OIDC token endpoint. As
// in Kafka 4.1+, the sasl.oauthbearer.client.credentials.* and sasl.oauthbearer.scope
// properties win over the JAAS options clientId, clientSecret and scope.
func oidcTokens(p *propReader, e jaasEntry, o Options) (*oidcTokenProvider, error) {
	switch h := p.get(loginHandlerKey); h {
	case "", oidcHandler, oidcHandlerOld:
	default:
		return nil, propErr(loginHandlerKey, "only Kafka's OIDC login (%s) is supported for OAUTHBEARER", oidcHandler)
	}
	if p.get(clientHandlerKey) != "" {
		return nil, propErr(clientHandlerKey, "custom SASL callback handlers cannot run in offsettui; remove it")
	}
	switch r := p.get(jwtRetrieverKey); r[strings.LastIndexByte(r, '.')+1:] {
	case "", "DefaultJwtRetriever", "ClientCredentialsJwtRetriever", "FileJwtRetriever":
	default:
		return nil, propErr(jwtRetrieverKey, "only the client-credentials and file retrievers are supported")
	}
	raw := p.get(tokenURLKey)
	if raw == "" {
		return nil, propErr(tokenURLKey, "is required for OAUTHBEARER: offsettui supports the OIDC client-credentials login "+
			"(Kafka's unsecured test login is not supported)")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "file") {
		return nil, propErr(tokenURLKey, "want an http, https or file URL, got %s", shown(tokenURLKey, raw))
	}
	tp := &oidcTokenProvider{timeout: o.Timeout, now: time.Now, subClaim: "sub", refreshFactor: 0.8,
		extensions: jaasExtensions(e)}
	if c := p.get(subClaimKey); c != "" {
		tp.subClaim = c
	}
	if tp.refreshFactor, err = refreshFactor(p); err != nil {
		return nil, err
	}
	if u.Scheme == "file" {
		tp.file = u.Path
		return tp, nil
	}
	if err := tp.setClient(p, e, u.String()); err != nil {
		return nil, err
	}
	return tp, nil
}

// setClient prepares the client-credentials request to tokenURL.
func (tp *oidcTokenProvider) setClient(p *propReader, e jaasEntry, tokenURL string) error {
	id, err := configOrJAAS(p, e, clientIDKey, "clientId")
	if err != nil {
		return err
	}
	secret, err := configOrJAAS(p, e, clientSecretKey, "clientSecret")
	if err != nil {
		return err
	}
	scope := strings.TrimSpace(p.get(scopeKey))
	if scope == "" {
		scope = strings.TrimSpace(e.options["scope"])
	}
	urlencode := false
	if v := p.get(urlencodeKey); v != "" {
		if urlencode, err = strconv.ParseBool(v); err != nil {
			return propErr(urlencodeKey, "want true or false, got %s", shown(urlencodeKey, v))
		}
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	if ssl := jaasSSLOptions(e); len(ssl) > 0 { // Kafka takes the endpoint's TLS settings from the JAAS options
		tc, err := tlsConfig(&propReader{props: ssl, used: map[string]bool{}})
		if err != nil {
			return propErr(jaasKey, "TLS options for the token endpoint: %v", err)
		}
		transport.TLSClientConfig = tc
	}
	tp.http = &http.Client{Timeout: tp.timeout, Transport: basicAuth{id: id, secret: secret, urlencode: urlencode, next: transport}}
	tp.conf = &clientcredentials.Config{TokenURL: tokenURL, AuthStyle: oauth2.AuthStyleInParams}
	if scope != "" {
		tp.conf.Scopes = []string{scope}
	}
	return nil
}

// configOrJAAS returns the property key if set, else the JAAS option; one of them is required.
func configOrJAAS(p *propReader, e jaasEntry, key, option string) (string, error) {
	if v := strings.TrimSpace(p.get(key)); v != "" {
		return v, nil
	}
	if v := strings.TrimSpace(e.options[option]); v != "" {
		return v, nil
	}
	return "", propErr(jaasKey, `has no %s="..." option (or set %s)`, option, key)
}

func refreshFactor(p *propReader) (float64, error) {
	v := p.get(refreshFactorKey)
	if v == "" {
		return 0.8, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0.5 || f > 1 {
		return 0, propErr(refreshFactorKey, "want a number from 0.5 to 1.0, got %s", shown(refreshFactorKey, v))
	}
	return f, nil
}

// jaasExtensions returns the SASL extensions of the extension_NAME JAAS options (Confluent
// Cloud's logicalCluster and identityPoolId travel this way).
func jaasExtensions(e jaasEntry) map[string]string {
	ext := map[string]string{}
	for k, v := range e.options {
		if name, ok := strings.CutPrefix(k, "extension_"); ok && name != "" {
			ext[name] = v
		}
	}
	return ext
}

// jaasSSLOptions returns the ssl.* JAAS options.
func jaasSSLOptions(e jaasEntry) map[string]string {
	ssl := map[string]string{}
	for k, v := range e.options {
		if strings.HasPrefix(k, "ssl.") {
			ssl[k] = v
		}
	}
	return ssl
}

// basicAuth sends the client credentials as Kafka does: HTTP Basic, URL-encoded only when
// sasl.oauthbearer.header.urlencode=true (Kafka's default is false).
type basicAuth struct {
	id, secret string
	urlencode  bool
	next       http.RoundTripper
}

// RoundTrip adds the Authorization and Accept headers.
func (b basicAuth) RoundTrip(r *http.Request) (*http.Response, error) {
	id, secret := b.id, b.secret
	if b.urlencode {
		id, secret = url.QueryEscape(id), url.QueryEscape(secret)
	}
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(id+":"+secret)))
	r.Header.Set("Accept", "application/json")
	return b.next.RoundTrip(r)
}

// oidcTokenProvider is the TokenSource of the OIDC login. It keeps a token until
// refreshFactor of its lifetime has passed (Kafka's sasl.login.refresh.window.factor), then
// fetches a new one; if that fails while the old one is still valid, the old one is used.
type oidcTokenProvider struct {
	conf          *clientcredentials.Config // nil for a file token
	http          *http.Client
	file          string // a file:// token endpoint: the token is read from this file
	timeout       time.Duration
	subClaim      string
	refreshFactor float64
	extensions    map[string]string
	now           func() time.Time

	mu        sync.Mutex
	token     string
	expires   time.Time
	refreshAt time.Time
}

// Token returns a valid token, fetching a new one when the refresh time has come.
func (tp *oidcTokenProvider) Token(ctx context.Context) (Token, error) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	now := tp.now()
	if tp.token != "" && now.Before(tp.refreshAt) {
		return tp.accessToken(), nil
	}
	token, err := tp.fetch(ctx)
	if err == nil {
		var exp time.Time
		if exp, err = jwtExpiry(token, tp.subClaim); err == nil && !exp.After(now) {
			err = errors.New("the token endpoint returned an expired token")
		}
		if err == nil {
			lifetime := exp.Sub(now)
			tp.token, tp.expires = token, exp
			tp.refreshAt = now.Add(time.Duration(math.Round(float64(lifetime) * tp.refreshFactor)))
			return tp.accessToken(), nil
		}
	}
	if tp.token != "" && now.Before(tp.expires) {
		return tp.accessToken(), nil // keep the old token until it expires, as Kafka's refresh thread does
	}
	return Token{}, fmt.Errorf("OAUTHBEARER: %w", err)
}

func (tp *oidcTokenProvider) accessToken() Token {
	return Token{Value: tp.token, Extensions: tp.extensions}
}

// fetch gets a token from the file or the token endpoint.
func (tp *oidcTokenProvider) fetch(ctx context.Context) (string, error) {
	if tp.conf == nil {
		data, err := readLimited(tp.file, maxStoreSize)
		if err != nil {
			return "", fmt.Errorf("read the token file named by %s: %w", tokenURLKey, err)
		}
		return strings.TrimSpace(string(data)), nil
	}
	ctx, cancel := context.WithTimeout(ctx, tp.timeout)
	defer cancel()
	t, err := tp.conf.Token(context.WithValue(ctx, oauth2.HTTPClient, tp.http))
	if err != nil {
		return "", fmt.Errorf("get a token from %s: %w", tp.conf.TokenURL, err)
	}
	return t.AccessToken, nil
}

// jwtExpiry checks that token is a JWT with the claims Kafka's client requires (exp, and a
// non-empty subject under subClaim) and returns its expiry. The signature is the broker's to
// check. Errors never contain the token.
func jwtExpiry(token, subClaim string) (time.Time, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return time.Time{}, errors.New("the access token is not a JWT (Kafka's client requires one)")
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return time.Time{}, errors.New("the access token's payload is not base64url")
	}
	var claims map[string]any
	if err := json.Unmarshal(payload, &claims); err != nil {
		return time.Time{}, errors.New("the access token's payload is not a JSON object")
	}
	exp, ok := claims["exp"].(float64)
	if !ok {
		return time.Time{}, errors.New("the access token has no numeric exp claim")
	}
	if sub, _ := claims[subClaim].(string); strings.TrimSpace(sub) == "" {
		return time.Time{}, fmt.Errorf("the access token has no %q claim (set %s if your provider names it differently)", subClaim, subClaimKey)
	}
	return time.UnixMilli(int64(exp * 1000)), nil
}
