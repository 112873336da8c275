/**
 * Option tables of the programs that send and fetch files (curl, wget, HTTPie and xh, aria2c):
 * which options take a value (so the words are read as the program reads them) and what the rules
 * make of the value (`:role`): `at` sends `@file`, `urlencode` sends `[name]@file`, `form` sends
 * `name=@file` / `name=<file` (and `;headers=@file`), `file` sends the file it names, `cookie`
 * sends a cookie file (a value without `=`), `variable` reads `name@file` for later expansion,
 * `config` reads more options from a file (which can say anything), `out` writes the file it names,
 * `rw` reads and writes it, `outdir` is where downloads are written, `remote` saves under the
 * URL's own name. `open`: options not listed only change how a request is made or shown.
 * curl's list is curl's own (src/tool_getparam.c); curl before 8.6 took unique abbreviations, so
 * an abbreviation that may be one of these options is read as it (`riskyPrefixes`).
 */
import { opts, type ProgramOptions } from './resolve';

export const CURL: ProgramOptions = {
  open: true,
  riskyPrefixes: true,
  negatable: true,
  opts: opts(
    '--abstract-unix-socket =', '--alt-svc = :rw', '--aws-sigv4 =', '--cacert =', '--capath =', '-E --cert =', '--cert-type =', '--ciphers =',
    '-K --config = :config', '--connect-timeout =', '--connect-to =', '-C --continue-at =', '-b --cookie = :cookie', '-c --cookie-jar = :out',
    '--create-file-mode =', '--crlfile =', '--curves =', '-d --data = :at', '--data-ascii = :at', '--data-binary = :at', '--data-raw =',
    '--data-urlencode = :urlencode', '--delegation =', '--dns-interface =', '--dns-ipv4-addr =', '--dns-ipv6-addr =', '--dns-servers =', '--doh-url =',
    '-D --dump-header = :out', '--ech =', '--egd-file =', '--engine = exec', '--etag-compare = :file', '--etag-save = :out', '--expect100-timeout =',
    '-F --form = :form', '--form-string =', '--ftp-account =', '--ftp-alternative-to-user =', '--ftp-method =', '-P --ftp-port =',
    '--ftp-ssl-ccc-mode =', '--happy-eyeballs-timeout-ms =', '--haproxy-clientip =', '-H --header = :at', '--hostpubmd5 =', '--hostpubsha256 =',
    '--hsts = :rw', '--httpsig-algo =', '--httpsig-headers =', '--httpsig-key =', '--httpsig-keyid =', '--interface =', '--ip-tos =', '--ipfs-gateway =',
    '--json = :at', '--keepalive-cnt =', '--keepalive-time =', '--key =', '--key-type =', '--knownhosts =', '--krb =', '--krb4 =', '--libcurl = :out',
    '--limit-rate =', '--local-port =', '--login-options =', '--mail-auth =', '--mail-from =', '--mail-rcpt =', '--max-filesize =', '--max-redirs =',
    '-m --max-time =', '--netrc-file = :file', '--noproxy =', '--oauth2-bearer =', '-o --output = :out', '--output-dir = :outdir', '--parallel-max =',
    '--parallel-max-host =', '--pass =', '--pinnedpubkey =', '--preproxy =', '--proto =', '--proto-default =', '--proto-redir =', '-x --proxy =',
    '--proxy-cacert =', '--proxy-capath =', '--proxy-cert =', '--proxy-cert-type =', '--proxy-ciphers =', '--proxy-crlfile =', '--proxy-header = :at',
    '--proxy-key =', '--proxy-key-type =', '--proxy-pass =', '--proxy-pinnedpubkey =', '--proxy-service-name =', '--proxy-tls13-ciphers =',
    '--proxy-tlsauthtype =', '--proxy-tlspassword =', '--proxy-tlsuser =', '-U --proxy-user =', '--pubkey =', '-Q --quote =', '--random-file =',
    '-r --range =', '--rate =', '-e --referer =', '-X --request =', '--request-target =', '--resolve =', '--retry =', '--retry-delay =',
    '--retry-max-time =', '--sasl-authzid =', '--service-name =', '--sigalgs =', '--socks4 =', '--socks4a =', '--socks5 =', '--socks5-gssapi-service =',
    '--socks5-hostname =', '-Y --speed-limit =', '-y --speed-time =', '--ssl-sessions = :rw', '--stderr = :out', '-t --telnet-option =',
    '--tftp-blksize =', '-z --time-cond =', '--tls-max =', '--tls13-ciphers =', '--tlsauthtype =', '--tlspassword =', '--tlsuser =', '--trace = :out',
    '--trace-ascii = :out', '--trace-config =', '--unix-socket =', '-T --upload-file = :file', '--upload-flags =', '--url =', '--url-query = :urlencode',
    '-u --user =', '-A --user-agent =', '--variable = :variable', '--vlan-priority =', '-w --write-out =',
    '-O --remote-name :remote', '--remote-name-all :remote', '-J --remote-header-name :remote', '--create-dirs', '-h --help', '-V --version',
  ),
};

/** GNU wget (getopt_long: unique abbreviations). `-e`/`--execute` runs a wgetrc command (transfer.ts reads it). */
export const WGET: ProgramOptions = {
  open: true,
  riskyPrefixes: true,
  opts: opts(
    '-e --execute = :wgetrc', '--config = :config', '-o --output-file = :out', '-a --append-output = :out', '-i --input-file =', '-B --base =', '--bind-address =',
    '--bind-dns-address =', '--dns-servers =', '-t --tries =', '--retry-on-http-error =', '-O --output-document = :out', '--backups =', '-T --timeout =', '--dns-timeout =',
    '--connect-timeout =', '--read-timeout =', '--limit-rate =', '-w --wait =', '--waitretry =', '-Q --quota =', '-P --directory-prefix = :outdir', '--cut-dirs =',
    '--default-page =', '--user =', '--password =', '--http-user =', '--http-password =', '--proxy-user =', '--proxy-password =', '--ftp-user =', '--ftp-password =',
    '--header =', '--compression =', '--max-redirect =', '--referer =', '--save-cookies = :out', '--load-cookies = :file', '--post-data =', '--post-file = :file',
    '--method =', '--body-data =', '--body-file = :file', '-U --user-agent =', '-l --level =', '-A --accept =', '-R --reject =', '--accept-regex =', '--reject-regex =',
    '--regex-type =', '-D --domains =', '--exclude-domains =', '--follow-tags =', '--ignore-tags =', '-I --include-directories =', '-X --exclude-directories =',
    '--restrict-file-names =', '--prefer-family =', '--local-encoding =', '--remote-encoding =', '--secure-protocol =', '--certificate =', '--certificate-type =',
    '--private-key =', '--private-key-type =', '--ca-certificate =', '--ca-directory =', '--crl-file =', '--pinnedpubkey =', '--random-file =', '--egd-file =',
    '--ciphers =', '--warc-file = :out', '--warc-header =', '--warc-max-size =', '--warc-dedup =', '--warc-tempdir = :outdir', '--use-askpass = exec', '--report-speed =',
    '--progress =', '--hsts-file = :rw', '--rejected-log = :out', '--input-metalink =', '--metalink-index =', '--preferred-location =', '--start-pos =',
    '-n =', '-h --help', '-V --version',
  ),
};

/** HTTPie (`http`, `https`; argparse takes unique abbreviations) and xh (`xh`, `xhs`; the same request items). */
export const HTTPIE: ProgramOptions = {
  open: true,
  riskyPrefixes: true,
  opts: opts(
    '-a --auth =', '-A --auth-type =', '--session = :session', '--session-read-only = :session', '-o --output = :out', '--proxy =', '--verify =', '--cert =', '--cert-key =',
    '--cert-key-pass =', '--ssl =', '--ciphers =', '--timeout =', '--max-redirects =', '--max-headers =', '--pretty =', '-s --style =', '-p --print =', '-P --history-print =',
    '--format-options =', '--response-charset =', '--response-mime =', '--boundary =', '--raw =', '--default-scheme =', '-d --download :remote', '--bearer =',
    '--resolve =', '--interface =', '--local-port =', '--http-version =', '-h --help',
  ),
};

/** aria2c (getopt_long). Its hooks run a program of the caller's choice when a download starts, stops or ends. */
export const ARIA2C: ProgramOptions = {
  open: true,
  riskyPrefixes: true,
  opts: opts(
    '-d --dir = :outdir', '-o --out = :out', '-i --input-file =', '-l --log = :out', '--conf-path = :config', '--save-session = :out', '--save-cookies = :out',
    '--load-cookies = :file', '--netrc-path = :file', '--on-download-start = exec', '--on-download-pause = exec', '--on-download-stop = exec',
    '--on-download-complete = exec', '--on-download-error = exec', '--on-bt-download-complete = exec', '--enable-rpc =? exec', '-T --torrent-file =', '-M --metalink-file =',
    '-U --user-agent =', '-x --max-connection-per-server =', '-s --split =', '-j --max-concurrent-downloads =', '-k --min-split-size =', '-m --max-tries =', '-t --timeout =',
    '-u --max-upload-limit =', '--header =', '--http-user =', '--http-passwd =', '--all-proxy =', '--dht-file-path = :rw', '--dht-file-path6 = :rw', '-h --help =?',
  ),
};
