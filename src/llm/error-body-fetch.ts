/**
 * A fetch that rewrites error bodies shaped `{"message": …}` (vLLM, SGLang,
 * some gateways) to OpenAI's `{"error": {"message": …}}`: the SDK reads only
 * the latter, and without it a rejection's reason would be lost.
 */
export function errorBodyFetch(base?: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await (base ?? globalThis.fetch)(input, init);
    if (response.ok || !response.headers.get('content-type')?.includes('json')) return response;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const flat =
      body !== null && typeof body === 'object' && !('error' in body) && 'message' in body ? body : undefined;
    // The body is re-encoded here, so its old length and encoding no longer apply.
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(flat ? JSON.stringify({ error: flat }) : text, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}
