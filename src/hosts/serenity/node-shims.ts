/**
 * @serenityjs/core 0.8.21 builds offline UUIDs with `Uint8Array.prototype.toHex`, which Node
 * gained after 20. Installs the same method (lower-case hex of the bytes) when it is missing.
 */
export function installNodeShims(): void {
  const proto = Uint8Array.prototype as Uint8Array & { toHex?: () => string };
  if (typeof proto.toHex === 'function') return;
  Object.defineProperty(Uint8Array.prototype, 'toHex', {
    value(this: Uint8Array): string {
      return Buffer.from(this.buffer, this.byteOffset, this.byteLength).toString('hex');
    },
    writable: true,
    configurable: true,
  });
}
