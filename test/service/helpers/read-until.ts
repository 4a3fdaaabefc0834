/** Reads a live stream until `text` arrives; everything read so far. Bounded by `timeoutMs` (a bound, not a timing). */
export async function readUntil(
  body: ReadableStreamDefaultReader<Uint8Array>,
  text: string,
  timeoutMs = 2000,
): Promise<string> {
  let received = '';
  const decoder = new TextDecoder();
  const deadline = Date.now() + timeoutMs;
  while (!received.includes(text)) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`'${text}' did not arrive within ${timeoutMs} ms; received: ${received}`);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`'${text}' did not arrive within ${timeoutMs} ms; received: ${received}`)),
        left,
      );
    });
    const chunk = await Promise.race([body.read(), late]).finally(() => clearTimeout(timer));
    if (chunk.done) throw new Error(`stream ended; received: ${received}`);
    received += decoder.decode(chunk.value);
  }
  return received;
}
