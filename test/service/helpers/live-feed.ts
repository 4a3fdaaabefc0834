/** A `/panel/live` stream read as a browser's EventSource would, without reconnecting. */
export interface LiveFeedReader {
  status: number;
  /** Everything the stream sent so far (the error page, when it was refused). */
  text(): string;
  isEnded(): boolean;
  /** Resolves once the service ended the stream; rejects after `withinMs` (a bound, not a timing). */
  ended(withinMs: number): Promise<void>;
  /** Resolves once the stream holds `fragment`; rejects after `withinMs`. */
  received(fragment: string, withinMs: number): Promise<void>;
  /** Ends it from this side. */
  close(): void;
}

/** Opens `/panel/live` on `baseUrl` with the session cookie `sessionId`. */
export async function openLiveFeed(baseUrl: string, sessionId: string): Promise<LiveFeedReader> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/panel/live`, {
    headers: { cookie: `bailiff_panel=${sessionId}` },
    redirect: 'manual',
    signal: abort.signal,
  });
  let text = '';
  let isEnded = response.status !== 200;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  if (response.status === 200 && response.body) {
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          text += decoder.decode(chunk, { stream: true });
          wake();
        }
      } catch {
        // Aborted from this side.
      }
      isEnded = true;
      wake();
    })();
  } else {
    text = await response.text();
  }
  const until = (done: () => boolean, what: string, withinMs: number) =>
    new Promise<void>((resolve, reject) => {
      if (done()) return resolve();
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`the live feed did not ${what} within ${withinMs} ms; it sent: ${JSON.stringify(text)}`));
      }, withinMs);
      waiters.add(check);
    });
  return {
    status: response.status,
    text: () => text,
    isEnded: () => isEnded,
    ended: (withinMs) => until(() => isEnded, 'end', withinMs),
    received: (fragment, withinMs) => until(() => text.includes(fragment), `send ${fragment}`, withinMs),
    close: () => abort.abort(),
  };
}
