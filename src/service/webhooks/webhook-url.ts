/** A webhook URL carries its secret in the path (Discord's token): only the scheme and host are ever shown. */
export function redactWebhookUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/…`;
  } catch {
    return '(unparseable URL)';
  }
}

/** `text` with every occurrence of the URL (and of its path) replaced by the redacted form. */
export function withoutWebhookUrl(text: string, url: string): string {
  let path = '';
  try {
    path = new URL(url).pathname;
  } catch {}
  let result = text.split(url).join(redactWebhookUrl(url));
  if (path.length > 1) result = result.split(path).join('/…');
  return result;
}
