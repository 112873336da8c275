/**
 * The formats the gate recognises by shape: one table of each kind, each rule naming where its
 * format is documented (`gitleaks:<rule id>` in gitleaks' config/gitleaks.toml, `secretlint:<rule>`
 * for a rule of secretlint's recommended preset, `detect-secrets:<plugin>` for Yelp's
 * detect-secrets, `vendor:<name>` for a vendor's own documentation). The formats are facts
 * taken from those rule sets; the expressions are ours, written for a linear scan: every rule
 * starts with a literal (found by one pass over the text) and continues with a bounded
 * expression tried at that one place (tokens.ts).
 *
 * Two kinds of rule:
 * - a **token** rule: a literal prefix and a body (`ghp_` + 36 alphanumerics);
 * - a **keyword** rule: a value of a given shape under a name that holds a provider's keyword
 *   (`ADAFRUIT_IO_KEY = <32 of [a-z0-9_-]>`), gitleaks' "keyword + assignment" rules. They are
 *   judged by the config-line pass (config-line.ts) on each `name = value` it finds. Their table
 *   is data, one rule a line (keyword-rules.json).
 */
import keywordRules from './keyword-rules.json';

/** A token recognised by its literal prefix. */
export interface TokenRule {
  /** Where the format is documented. */
  source: string;
  /** What the mask calls it: `github token`. */
  kind: string;
  /** Literal prefixes, case-sensitive; the token starts with one of them. */
  prefix: readonly string[];
  /** The rest of the token after the prefix: a regular-expression source (bounded, or ending in a class run). */
  body: string;
  /** Case-insensitive body. */
  i?: boolean;
  /** Keep the prefix readable in the mask (default true). */
  keep?: boolean;
  /**
   * For a literal found inside the token rather than at its start (`:AA` of a Telegram bot
   * token): the characters that may come before it, and how many (the token starts there).
   */
  lead?: { cls: string; min: number; max: number };
}

/** A value of a given shape under a name that holds one of the keywords. */
export interface KeywordRule {
  source: string;
  kind: string;
  /** Lower-case words, one of which the name must contain. */
  keywords: readonly string[];
  /** The whole value: a regular-expression source, matched case-insensitively. */
  value: string;
}

const B64 = 'A-Za-z0-9+/';
const W = 'A-Za-z0-9_';

const t = (source: string, kind: string, prefix: string | string[], body: string, more: Partial<TokenRule> = {}): TokenRule => ({
  source,
  kind,
  prefix: Array.isArray(prefix) ? prefix : [prefix],
  body,
  ...more,
});

/**
 * gitleaks rules not in the tables because a pass of the gate covers them by structure:
 * `private-key` (pem.ts), `curl-auth-header` and `curl-auth-user` (the header pass and
 * framings.ts's `-u user:password`), `nuget-config-password` (framings.ts, XML key/value),
 * `generic-api-key` (the last line, entropy.ts), `hashicorp-tf-password` and
 * `freemius-secret-key` (the pair pass, under `password` / `secret_key`), `kubernetes-secret-yaml`
 * (the pair pass and the last line on `data:` values); `pkcs12-file` is a binary file, which no
 * tool result carries as text.
 */
export const STRUCTURAL_SOURCES: readonly string[] = [
  'gitleaks:private-key',
  'gitleaks:curl-auth-header',
  'gitleaks:curl-auth-user',
  'gitleaks:nuget-config-password',
  'gitleaks:generic-api-key',
  'gitleaks:hashicorp-tf-password',
  'gitleaks:freemius-secret-key',
  'gitleaks:kubernetes-secret-yaml',
  'secretlint:privatekey',
  'secretlint:basicauth',
  'secretlint:database-connection-string',
  'secretlint:gcp',
  'detect-secrets:PrivateKeyDetector',
  'detect-secrets:KeywordDetector',
  'detect-secrets:Base64HighEntropyString',
  'detect-secrets:HexHighEntropyString',
];

/** Token rules. Where two rules share a prefix, the one with the longer prefix is tried first. */
export const TOKEN_RULES: readonly TokenRule[] = [
  // AI providers
  t(
    'gitleaks:anthropic-api-key, anthropic-admin-api-key; secretlint:anthropic',
    'anthropic key',
    ['sk-ant-api03-', 'sk-ant-admin01-', 'sk-ant-'],
    `[${W}-]{10}[${W}-]*`,
  ),
  t(
    'gitleaks:openai-api-key; secretlint:openai; detect-secrets:OpenAIDetector',
    'openai key',
    ['sk-proj-', 'sk-svcacct-', 'sk-admin-', 'sk-None-', 'sk-'],
    `(?!ant-)[${W}-]{16}[${W}-]*`,
  ),
  t('secretlint:groq', 'groq key', 'gsk_', '[a-zA-Z0-9]{52}'),
  t('gitleaks:perplexity-api-key', 'perplexity key', 'pplx-', '[a-zA-Z0-9]{48}'),
  t('vendor:xai', 'xai key', 'xai-', '[a-zA-Z0-9]{60,100}'),
  t('vendor:replicate', 'replicate token', 'r8_', '[a-zA-Z0-9]{37}'),
  t('vendor:nvidia', 'nvidia key', 'nvapi-', `[${W}-]{60,70}`),
  t('gitleaks:huggingface-access-token; secretlint:huggingface', 'huggingface token', 'hf_', '[a-zA-Z0-9]{30}[a-zA-Z0-9]*'),
  t('gitleaks:huggingface-organization-api-token', 'huggingface token', 'api_org_', '[a-zA-Z]{34}'),
  // Source hosting and CI
  t(
    'gitleaks:github-pat, github-oauth, github-app-token, github-refresh-token; secretlint:github',
    'github token',
    ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    '[A-Za-z0-9]{20}[A-Za-z0-9]*',
  ),
  t('secretlint:github', 'github token', 'ghs_', `[0-9]{1,20}_[${W}.-]{20}[${W}.-]*`),
  t('gitleaks:github-fine-grained-pat', 'github token', 'github_pat_', `[${W}]{20}[${W}]*`),
  t(
    'gitleaks:gitlab-pat, gitlab-pat-routable, gitlab-deploy-token, gitlab-runner-authentication-token(-routable), gitlab-cicd-job-token, gitlab-ptt, gitlab-feed-token, gitlab-incoming-mail-token, gitlab-kubernetes-agent-token, gitlab-scim-token, gitlab-oauth-app-secret, gitlab-feature-flag-client-token; secretlint:gitlab',
    'gitlab token',
    ['glpat-', 'gldt-', 'glrt-', 'glcbt-', 'glptt-', 'glft-', 'glimt-', 'glagent-', 'glsoat-', 'gloas-', 'glffct-'],
    `[${W}.-]{16}[${W}.-]*`,
  ),
  t('gitleaks:gitlab-rrt', 'gitlab token', 'GR1348941', `[${W}-]{20}`),
  t('gitleaks:gitlab-session-cookie', 'gitlab session', '_gitlab_session=', '[0-9a-z]{32}'),
  t('gitleaks:bitbucket-app-password', 'bitbucket token', 'ATBB', '[a-zA-Z0-9]{32}'),
  t('gitleaks:atlassian-api-token', 'atlassian token', 'ATATT3', `[${W}=-]{186}`),
  t('gitleaks:sourcegraph-access-token', 'sourcegraph token', 'sgp_', '(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}'),
  t('gitleaks:pypi-upload-token; detect-secrets:PypiTokenDetector', 'pypi token', 'pypi-AgE', `[${W}-]{50}[${W}-]*`),
  t('gitleaks:npm-access-token; secretlint:npm', 'npm token', 'npm_', '[A-Za-z0-9]{30}[A-Za-z0-9]*'),
  t('gitleaks:rubygems-api-token', 'rubygems token', 'rubygems_', '[a-f0-9]{48}'),
  t('gitleaks:clojars-api-token', 'clojars token', 'CLOJARS_', '[a-zA-Z0-9]{60}'),
  t('secretlint:docker', 'docker token', 'dckr_pat_', `[${W}-]{27}`),
  t('gitleaks:prefect-api-token', 'prefect token', 'pnu_', '[a-zA-Z0-9]{36}'),
  t('gitleaks:pulumi-api-token', 'pulumi token', 'pul-', '[a-f0-9]{40}'),
  t('gitleaks:infracost-api-token', 'infracost token', 'ico-', '[a-zA-Z0-9]{32}'),
  t('gitleaks:readme-api-token', 'readme token', 'rdme_', '[a-z0-9]{70}'),
  t('gitleaks:octopus-deploy-api-key', 'octopus key', 'API-', '[A-Z0-9]{26}'),
  t('gitleaks:artifactory-api-key; detect-secrets:ArtifactoryDetector', 'artifactory key', 'AKCp', '[A-Za-z0-9]{69}'),
  t('gitleaks:artifactory-reference-token', 'artifactory token', 'cmVmd', '[A-Za-z0-9]{59}'),
  t('gitleaks:scalingo-api-token', 'scalingo token', 'tk-us-', `[${W}-]{48}`),
  t('gitleaks:hashicorp-tf-api-token', 'terraform token', '.atlasv1.', `[${W}=-]{60,70}`, {
    lead: { cls: 'a-zA-Z0-9', min: 14, max: 14 },
    keep: false,
  }),
  t(
    'gitleaks:vault-service-token, vault-batch-token; secretlint:hashicorp-vault',
    'vault token',
    ['hvs.', 'hvb.', 'hvr.'],
    `[${W}-]{90}[${W}-]*`,
  ),
  t('gitleaks:frameio-api-token', 'frameio token', 'fio-u-', `[${W}=-]{64}`),
  t('gitleaks:typeform-api-token', 'typeform token', 'tfp_', `[${W}.=-]{59}`),
  t('gitleaks:linear-api-key; secretlint:linear', 'linear key', 'lin_api_', '[a-zA-Z0-9]{32}[a-zA-Z0-9]*'),
  t('secretlint:figma', 'figma token', 'figd_', `[${W}-]{40,200}`),
  t('secretlint:notion; gitleaks:notion-api-token', 'notion token', 'ntn_', '[0-9]{11}[A-Za-z0-9]{35}'),
  t('vendor:notion-legacy', 'notion token', 'secret_', '[A-Za-z0-9]{43}'),
  t('secretlint:vercel', 'vercel token', ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'], '[A-Za-z0-9]{20,60}'),
  t('secretlint:tailscale', 'tailscale key', 'tskey-', `[a-z]{2,20}-[${W}]{8,40}-[${W}]{16,60}`),
  t('secretlint:cloudflare', 'cloudflare token', ['cfk_', 'cfut_', 'cfat_'], '[A-Za-z0-9]{40}[0-9a-f]{8}'),
  t('gitleaks:cloudflare-origin-ca-key', 'cloudflare key', 'v1.0-', '[a-f0-9]{24}-[a-f0-9]{146}'),
  t('gitleaks:flyio-access-token', 'fly.io token', ['fo1_', 'fm1a_', 'fm1r_', 'fm2_'], `[${B64}${W}-]{43}[${B64}${W}=-]*`),
  t('gitleaks:doppler-api-token', 'doppler token', 'dp.pt.', '[a-zA-Z0-9]{43}'),
  t('gitleaks:dynatrace-api-token', 'dynatrace token', 'dt0c01.', '[a-zA-Z0-9]{24}\\.[a-zA-Z0-9]{64}'),
  t('gitleaks:grafana-cloud-api-token; secretlint:grafana', 'grafana token', 'glc_', `[${B64}]{32,400}={0,3}`),
  t('gitleaks:grafana-service-account-token', 'grafana token', 'glsa_', '[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}'),
  t('gitleaks:grafana-api-key', 'grafana key', 'eyJrIjoi', '[A-Za-z0-9]{70,400}={0,3}'),
  t('gitleaks:sentry-user-token', 'sentry token', 'sntryu_', '[a-f0-9]{64}'),
  t('gitleaks:sentry-org-token', 'sentry token', 'sntrys_', `eyJpYXQiO[${B64}]{10}[${B64}=_]*`),
  t(
    'gitleaks:new-relic-user-api-key, new-relic-insert-key, new-relic-browser-api-token',
    'new relic key',
    ['NRAK-', 'NRII-', 'NRJS-', 'NRRA-'],
    '[A-Za-z0-9-]{19,32}',
  ),
  t('gitleaks:postman-api-token', 'postman token', 'PMAK-', '[a-fA-F0-9]{24}-[a-fA-F0-9]{34}'),
  t('gitleaks:airtable-personnal-access-token', 'airtable token', 'pat', '[a-zA-Z0-9]{14}\\.[a-f0-9]{64}'),
  t('gitleaks:intra42-client-secret', '42 intra secret', ['s-s4t2ud-', 's-s4t2af-'], '[a-f0-9]{64}'),
  t('gitleaks:harness-api-key', 'harness key', ['pat.', 'sat.'], `[${W}-]{22}\\.[a-zA-Z0-9]{24}\\.[a-zA-Z0-9]{20}`),
  t(
    'gitleaks:settlemint-personal-access-token, settlemint-application-access-token, settlemint-service-access-token',
    'settlemint token',
    ['sm_pat_', 'sm_aat_', 'sm_sat_'],
    '[a-zA-Z0-9]{16}',
  ),
  t('gitleaks:1password-service-account-token; secretlint:1password', '1password token', 'ops_eyJ', `[${B64}]{100}[${B64}=]*`),
  t(
    'gitleaks:1password-secret-key',
    '1password secret key',
    'A3-',
    '[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}',
  ),
  t('gitleaks:age-secret-key', 'age secret key', 'AGE-SECRET-KEY-1', '[0-9A-Z]{50}[0-9A-Z]*'),
  // Cloud
  t(
    'gitleaks:aws-access-token; secretlint:aws; detect-secrets:AWSKeyDetector',
    'aws access key id',
    ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'A3T'],
    '[A-Z0-9]{16,17}(?![A-Za-z0-9])',
  ),
  t('gitleaks:aws-amazon-bedrock-api-key-long-lived', 'aws bedrock key', 'ABSK', `[${B64}]{109,269}={0,2}`),
  t(
    'gitleaks:aws-amazon-bedrock-api-key-short-lived',
    'aws bedrock key',
    'bedrock-api-key-',
    `YmVkcm9jay5hbWF6b25hd3MuY29t[${B64}]{20}[${B64}=]*`,
  ),
  t('vendor:amazon-mws', 'amazon mws token', 'amzn.mws.', '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'),
  t('gitleaks:gcp-api-key', 'google api key', 'AIza', `[${W}-]{35}[${W}-]*`),
  t('vendor:google-oauth', 'google oauth token', 'ya29.', `[${W}-]{30}[${W}-]*`),
  t('vendor:google-oauth-secret', 'google oauth secret', 'GOCSPX-', `[${W}-]{28}`),
  t('gitleaks:azure-ad-client-secret', 'azure client secret', 'Q~', '[a-zA-Z0-9_~.-]{31,34}', {
    lead: { cls: 'a-zA-Z0-9_~.', min: 4, max: 4 },
    keep: false,
  }),
  t('detect-secrets:AzureStorageKeyDetector', 'azure storage key', 'AccountKey=', `[${B64}]{86}==`),
  t('vendor:azure-sas', 'azure sas signature', 'sig=', '[A-Za-z0-9%]{43,64}(?:%3D|=)'),
  t('gitleaks:alibaba-access-key-id', 'alibaba key id', 'LTAI', '[a-zA-Z0-9]{20}'),
  t(
    'gitleaks:digitalocean-pat, digitalocean-access-token, digitalocean-refresh-token',
    'digitalocean token',
    ['dop_v1_', 'doo_v1_', 'dor_v1_'],
    '[a-f0-9]{64}',
  ),
  t('gitleaks:heroku-api-key-v2', 'heroku key', 'HRKU-AA', `[${W}-]{58}`),
  t(
    'gitleaks:planetscale-api-token, planetscale-oauth-token, planetscale-password',
    'planetscale token',
    ['pscale_tkn_', 'pscale_oauth_', 'pscale_pw_'],
    `[${W}=.-]{32,64}`,
  ),
  t('gitleaks:clickhouse-cloud-api-secret-key', 'clickhouse key', '4b1d', '[A-Za-z0-9]{38}(?![A-Za-z0-9])'),
  t('gitleaks:databricks-api-token; secretlint:databricks', 'databricks token', 'dapi', '[a-fA-F0-9]{32}(?:-[0-9])?'),
  t('gitleaks:openshift-user-token', 'openshift token', 'sha256~', `[${W}-]{43}`),
  t(
    'gitleaks:authress-service-client-access-key',
    'authress key',
    ['sc_', 'ext_', 'scauth_', 'authress_'],
    '[a-z0-9]{5,30}\\.[a-z0-9]{4,6}\\.acc[_-][a-z0-9-]{10,32}\\.[a-z0-9+/_=-]{30,120}',
    { i: true },
  ),
  t('gitleaks:maxmind-license-key', 'maxmind key', '_mmk', '', { lead: { cls: 'A-Za-z0-9_', min: 36, max: 36 }, keep: false }),
  // Payments, commerce, messaging
  t(
    'gitleaks:stripe-access-token; secretlint:stripe',
    'stripe key',
    ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_'],
    '[a-zA-Z0-9]{10,99}',
  ),
  t('vendor:stripe-webhook', 'stripe webhook secret', 'whsec_', '[A-Za-z0-9]{24}[A-Za-z0-9]*'),
  t('gitleaks:square-access-token', 'square token', ['EAAA', 'sq0atp-'], `[${W}-]{22,60}`),
  t('detect-secrets:SquareOAuthDetector', 'square oauth secret', 'sq0csp-', `[${W}\\\\-]{43}`),
  t(
    'gitleaks:shopify-access-token, shopify-custom-access-token, shopify-private-app-access-token, shopify-shared-secret; secretlint:shopify',
    'shopify token',
    ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
    '[a-zA-Z0-9]{32}[a-zA-Z0-9]*',
  ),
  t('gitleaks:shippo-api-token', 'shippo token', ['shippo_live_', 'shippo_test_'], '[a-fA-F0-9]{40}'),
  t('gitleaks:easypost-api-token, easypost-test-api-token', 'easypost key', ['EZAK', 'EZTK'], '[a-zA-Z0-9]{54}'),
  t('gitleaks:duffel-api-token', 'duffel token', ['duffel_test_', 'duffel_live_'], `[${W}=-]{43}`),
  t(
    'gitleaks:flutterwave-secret-key, flutterwave-public-key, flutterwave-encryption-key',
    'flutterwave key',
    ['FLWSECK_TEST-', 'FLWPUBK_TEST-', 'FLWSECK-'],
    '[a-hA-H0-9]{12,32}(?:-X)?',
  ),
  t('gitleaks:adobe-client-secret', 'adobe secret', 'p8e-', '[a-zA-Z0-9]{32}'),
  t('gitleaks:facebook-page-access-token', 'facebook token', ['EAAM', 'EAAC'], '[a-zA-Z0-9]{100}[a-zA-Z0-9]*'),
  // An app access token is `<app id>|<app secret>` (the `|` URL-encoded in a query string): the
  // literal is the bar, the 15–16 digit id before it (a longer run of digits is not an id).
  t('gitleaks:facebook-access-token', 'facebook token', ['|', '%7C', '%7c'], '[0-9a-zA-Z_-]{27,40}', {
    lead: { cls: '0-9', min: 15, max: 16 },
    keep: false,
  }),
  t('gitleaks:sendgrid-api-token; secretlint:sendgrid', 'sendgrid key', 'SG.', `[${W}-]{16}[${W}-]*\\.[${W}-]{16}[${W}-]*`),
  t('gitleaks:sendinblue-api-token', 'sendinblue key', 'xkeysib-', '[a-f0-9]{64}-[a-zA-Z0-9]{16}'),
  t('gitleaks:mailgun-private-api-token, mailgun-pub-key', 'mailgun key', ['key-', 'pubkey-'], '[0-9a-f]{32}'),
  t('detect-secrets:MailchimpDetector', 'mailchimp key', '-us', '[0-9]{1,2}(?![A-Za-z0-9])', {
    lead: { cls: '0-9a-f', min: 32, max: 32 },
    keep: false,
  }),
  t('gitleaks:twilio-api-key; detect-secrets:TwilioKeyDetector', 'twilio key', ['SK', 'AC'], '[0-9a-fA-F]{32}(?![A-Za-z0-9])'),
  t(
    'gitleaks:slack-bot-token, slack-user-token, slack-legacy-bot-token, slack-legacy-token, slack-legacy-workspace-token, slack-config-access-token, slack-config-refresh-token; secretlint:slack',
    'slack token',
    ['xoxb-', 'xoxp-', 'xoxa-', 'xoxo-', 'xoxs-', 'xoxr-', 'xoxe-', 'xoxe.xoxb-', 'xoxe.xoxp-'],
    '[A-Za-z0-9-]{10}[A-Za-z0-9-]*',
  ),
  t('gitleaks:slack-app-token', 'slack token', 'xapp-', '[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]+', { i: true }),
  t(
    'gitleaks:slack-webhook-url',
    'slack webhook',
    ['https://hooks.slack.com/', 'hooks.slack.com/'],
    `(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20}[A-Za-z0-9+/_-]*`,
  ),
  t('gitleaks:microsoft-teams-webhook', 'teams webhook', '.webhook.office.com/webhookb2/', '[a-z0-9@/-]{60}[a-zA-Z0-9@/-]*', {
    lead: { cls: 'a-z0-9', min: 1, max: 40 },
    keep: false,
  }),
  t(
    'vendor:discord-webhook',
    'discord webhook',
    ['https://discord.com/api/webhooks/', 'https://discordapp.com/api/webhooks/'],
    `[0-9]{17,20}/[${W}-]{60,70}`,
  ),
  t('gitleaks:telegram-bot-api-token; detect-secrets:TelegramBotTokenDetector', 'telegram bot token', ':AA', `[${W}-]{33}`, {
    lead: { cls: '0-9', min: 8, max: 10 },
    keep: false,
  }),
  // Other keys and generic encodings
  t('gitleaks:jwt; detect-secrets:JwtTokenDetector', 'jwt', 'eyJ', `[${W}-]{5}[${W}-]*\\.eyJ[${W}-]{5}[${W}-]*\\.[${W}-]{5}[${W}-]*`),
  t('gitleaks:jwt-base64', 'jwt, base64', 'ZXlK', `[${B64}]{40}[${B64}]*={0,2}`),
  t('vendor:aws-eks-token', 'token', 'k8s-aws-v1.', `[${W}-]{40}[${W}-]*`),
  t('vendor:fernet-token', 'fernet token', 'gAAAAA', `[${W}-]{80}[${W}=-]*`),
  t(
    'detect-secrets:BasicAuthDetector',
    'authorization',
    ['Bearer ', 'Basic ', 'Token ', 'Digest ', 'bearer ', 'basic '],
    '[ \\t]*[A-Za-z0-9._~+/=-]{8}[A-Za-z0-9._~+/=-]*',
  ),
];

/**
 * gitleaks' "keyword + assignment" rules: the value's shape under a name holding the keyword.
 * They are data, one rule a line (keyword-rules.json), typed by this declaration.
 */
export const KEYWORD_RULES: readonly KeywordRule[] = keywordRules;
