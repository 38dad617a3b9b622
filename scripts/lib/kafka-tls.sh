# The TLS, SASL and OAuth material of scripts/kafka.sh's single node: its users, the test CA and
# stores, the OAuth signing key. Sourced by scripts/kafka.sh after kafka-common.sh; never run.

# SASL users: name:password. admin is a super user; the others get only what a test grants.
SASL_USERS=(admin:admin-secret alice:alice-secret bob:bob-secret)
# Test-only secrets of the generated stores (nothing here protects anything real).
STORE_PASSWORD=store-secret
OAUTH_ISSUER=offsettui-test-issuer
OAUTH_AUDIENCE=offsettui-test
OAUTH_KID=offsettui-test-key

plain_users() {
  local u
  for u in "${SASL_USERS[@]}"; do printf 'user_%s="%s" ' "${u%%:*}" "${u#*:}"; done
}

# scram_args: --add-scram for every user and both SCRAM mechanisms (StorageTool format).
scram_args() {
  local u m
  for u in "${SASL_USERS[@]}"; do
    for m in SCRAM-SHA-256 SCRAM-SHA-512; do
      printf '%s\n%s\n' --add-scram "$m=[name=${u%%:*},password=${u#*:}]"
    done
  done
}

# b64url: standard input as unpadded base64url.
b64url() { base64 -w0 | tr '+/' '-_' | tr -d '='; }

# make_pki: a test CA, the broker's PEM keystore (127.0.0.1 and localhost), a client
# certificate as a PKCS12 keystore, the CA as JKS and PKCS12 truststores, and an RSA key with
# its JWKS for OAUTHBEARER. The two keytool runs (one JVM each) go in the background: wait_pki
# waits for them.
make_pki() {
  local ossl=(openssl req -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:P-256)
  need openssl "the test certificates are made with it"
  need keytool "the JKS and PKCS12 truststores are made with it (it comes with the JDK)"
  mkdir -p "$PKI"
  (
    cd "$PKI"
    "${ossl[@]}" -x509 -days 7 -subj "/CN=offsettui test CA" -keyout ca.key -out ca.pem \
      -addext basicConstraints=critical,CA:true -addext keyUsage=critical,keyCertSign 2>/dev/null
    "${ossl[@]}" -subj "/CN=localhost" -keyout broker.key -out broker.csr 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n' >broker.ext
    openssl x509 -req -in broker.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 7 -extfile broker.ext -out broker.pem 2>/dev/null
    cat broker.key broker.pem ca.pem >broker-keystore.pem
    "${ossl[@]}" -subj "/CN=offsettui-client" -keyout client.key -out client.csr 2>/dev/null
    printf 'extendedKeyUsage=clientAuth\n' >client.ext
    openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 7 -extfile client.ext -out client.pem 2>/dev/null
    openssl pkcs12 -export -inkey client.key -in client.pem -certfile ca.pem -name client \
      -passout "pass:$STORE_PASSWORD" -out client-keystore.p12
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out oauth.key 2>/dev/null
    local n
    # The modulus as unsigned big-endian bytes: openssl prints it in hex; printf turns \xHH into bytes.
    n="$(printf '%b' "$(openssl rsa -in oauth.key -noout -modulus | cut -d= -f2 | sed 's/../\\x&/g')" | b64url)"
    printf '{"keys":[{"kty":"RSA","use":"sig","alg":"RS256","kid":"%s","n":"%s","e":"AQAB"}]}\n' "$OAUTH_KID" "$n" >jwks.json
  ) || die "making the test certificates failed"
  local t
  for t in JKS PKCS12; do
    keytool -importcert -noprompt -alias caroot -file "$PKI/ca.pem" -storetype "$t" -storepass "$STORE_PASSWORD" \
      -keystore "$PKI/truststore.${t,,}" >"$PKI/keytool-$t.log" 2>&1 &
    echo $! >"$PKI/keytool-$t.pid"
  done
}

wait_pki() {
  local t
  for t in JKS PKCS12; do
    wait "$(cat "$PKI/keytool-$t.pid")" || { cat "$PKI/keytool-$t.log" >&2; die "keytool could not write the $t truststore"; }
  done
}
