/** Shapes of credentials worth hiding even when we were not told their values. */
const SHAPES = [
  /\bsk-[A-Za-z0-9_-]{12,}/g, // OpenAI and compatible keys
  /\bxox[abpers]-[A-Za-z0-9-]{8,}/g, // Slack tokens
  /\bxapp-[A-Za-z0-9-]{8,}/g,
  /\btvly-[A-Za-z0-9_-]{8,}/g, // Tavily
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
];
/** `api_key=…`, `"token": "…"`: the name stays, the value goes. */
const ASSIGNED = /\b(api[_-]?key|token|secret|password)(["']?\s*[:=]\s*["']?)[^\s"',&}]{6,}/gi;

/**
 * `text` with every known secret value and anything shaped like a credential
 * replaced by `[redacted]`: provider error bodies sometimes echo the key they
 * were sent, and those bodies end up in logs and messages.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
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

/** A URL fit to show: its password, and credentials passed as query parameters, replaced by `***`. */
export function urlWithoutSecrets(url: string): string {
  if (!URL.canParse(url)) return '(an unreadable URL)';
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  for (const [name] of secretParams(parsed)) parsed.searchParams.set(name, '***');
  return parsed.toString();
}

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
    if (!value || !SECRET.test(name)) continue;
    if (name === 'DATABASE_URL') {
      if (!URL.canParse(value)) continue;
      const url = new URL(value);
      // libpq takes the password in the query too (`?password=…`).
      for (const password of [decodeURIComponent(url.password), ...secretParams(url).map(([, v]) => v)])
        if (password) found.push(password);
    } else if (value.trim().length >= 6) found.push(value.trim());
  }
  return found;
}
