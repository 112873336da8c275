import fs = require('fs');
import path = require('path');

const DIR = path.join(__dirname, '..', 'fixtures', 'tls');

/**
 * A self-signed certificate for 127.0.0.1 and localhost (P-256, valid until 2126), made once with
 * `openssl req -x509` for tests of HTTPS servers. Test-only: the key is public.
 */
export const TEST_TLS = {
  certFile: path.join(DIR, 'cert.pem'),
  keyFile: path.join(DIR, 'key.pem'),
  cert: (): string => fs.readFileSync(TEST_TLS.certFile, 'utf8'),
  key: (): string => fs.readFileSync(TEST_TLS.keyFile, 'utf8'),
};
