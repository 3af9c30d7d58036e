/** Shapes of credentials worth hiding even when we were not told their values. */
const SHAPES = [
  /\bsk-[A-Za-z0-9_-]{12,}/g, // OpenAI and compatible keys
  /\bxox[abpers]-[A-Za-z0-9-]{8,}/g, // Slack tokens
  /\bxapp-[A-Za-z0-9-]{8,}/g,
  /\btvly-[A-Za-z0-9_-]{8,}/g, // Tavily
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
];
/** A URL's `user:password@` in any text (an error quoting the address it could not reach). */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@:]+:[^\s/?#@]+@/gi;
/** `api_key=…`, `"token": "…"`: the name stays, the value goes. */
const ASSIGNED = /\b(api[_-]?key|token|secret|password)(["']?\s*[:=]\s*["']?)[^\s"',&}]{6,}/gi;

/**
 * `text` with every known secret value and anything shaped like a credential
 * replaced by `[redacted]`: provider error bodies sometimes echo the key they
 * were sent, and those bodies end up in logs and messages.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(URL_CREDENTIALS, '$1***:***@');
  out = out.replace(ASSIGNED, '$1$2[redacted]');
  for (const shape of SHAPES) out = out.replace(shape, '[redacted]');
  for (const secret of secrets) if (secret.length >= 6) out = out.split(secret).join('[redacted]');
  return out;
}

/** Query parameters that carry credentials in connection strings and service URLs. */
const SECRET_PARAM = /^(password|sslpassword|api[_-]?key|key|token|secret)$/i;

function secretParams(url: URL): [string, string][] {
  return [...url.searchParams.entries()].filter(([name]) => SECRET_PARAM.test(name));
}

/**
 * A URL fit to show, the one way every URL setting is printed (`/healthz`,
 * `doctor`, `where`, logs, errors): its password, a user name that is a
 * token (see urlCredentials), and credentials passed as query parameters,
 * replaced by `***`.
 */
export function urlWithoutSecrets(url: string): string {
  if (!URL.canParse(url)) return '(an unreadable URL)';
  const parsed = new URL(url);
  if (lonePossibleToken(parsed)) parsed.username = '***';
  if (parsed.password) parsed.password = '***';
  for (const [name] of secretParams(parsed)) parsed.searchParams.set(name, '***');
  return parsed.toString();
}

/**
 * The credentials a URL carries: its password and secret query parameters,
 * and a user name that stands alone and is long enough to be a token
 * (`https://<token>@host`); a plain user name (`postgres`) is no secret.
 */
function urlCredentials(value: string): string[] {
  if (!URL.canParse(value)) return [];
  const url = new URL(value);
  const token = lonePossibleToken(url) ? [url.username] : [];
  // libpq takes the password in the query too (`?password=…`).
  return [...token, url.password, ...secretParams(url).map(([, v]) => v)]
    .filter(Boolean)
    .map((v) => decodeURIComponent(v));
}

const lonePossibleToken = (url: URL) => !url.password && url.username.length >= 16;

/** Names of variables whose values are never echoed: keys, tokens, secrets and connection strings with passwords. */
export const SECRET = /KEY|TOKEN|SECRET|DATABASE_URL/;

/**
 * The secret values in an environment (keys, tokens, the database password),
 * for the logger to blank out wherever they turn up, e.g. echoed in a
 * provider's error body.
 */
export function secretsOf(env: Record<string, string | undefined>): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    // A URL setting (DATABASE_URL, OPENAI_BASE_URL…) is shown masked; what is secret in it is its credentials.
    if (name.endsWith('_URL')) found.push(...urlCredentials(value));
    else if (SECRET.test(name) && value.trim().length >= 6) found.push(value.trim());
  }
  return found;
}
