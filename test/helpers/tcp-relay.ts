import net from 'node:net';

/**
 * A TCP relay to a server (PostgreSQL, Redis) that can be taken down (every connection cut, new ones
 * refused) and brought back on the same port: an outage as the service sees it. Or stalled: every
 * connection stays open and new ones are accepted, but nothing goes through either way until
 * `flow()` (a paused pooler, a network path dropping packets), the bytes held meanwhile then
 * delivered in order.
 */
export class Relay {
  #server: net.Server | undefined;
  readonly #sockets = new Set<net.Socket>();
  /** While stalled, the bytes each direction holds back, delivered by `flow()`. */
  #held: { to: net.Socket; chunk: Buffer }[] | null = null;
  port = 0;
  readonly target: { host: string; port: number };
  constructor(target: { host: string; port: number }) {
    this.target = target;
  }

  async up(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.#sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => {
          this.#sockets.delete(s);
          client.destroy();
          upstream.destroy();
        });
      }
      const forward = (from: net.Socket, to: net.Socket) =>
        from.on('data', (chunk: Buffer) => {
          if (this.#held) this.#held.push({ to, chunk });
          else to.write(chunk);
        });
      forward(client, upstream);
      forward(upstream, client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.#server = server;
  }

  /** Nothing goes through until `flow()`; connections stay open and new ones are accepted. */
  stall(): void {
    this.#held ??= [];
  }

  /** Ends a stall: what was held is delivered, in order, to the sockets still open. */
  flow(): void {
    const held = this.#held ?? [];
    this.#held = null;
    for (const { to, chunk } of held) if (!to.destroyed) to.write(chunk);
  }

  async down(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

/**
 * A relay, up, to the server of `url` (its default port when the URL has none), and the same URL
 * through the relay. `relay.down()` when done.
 */
export async function relayTo(url: string, defaultPort: number): Promise<{ relay: Relay; url: string }> {
  const target = new URL(url);
  const relay = new Relay({ host: target.hostname, port: Number(target.port || defaultPort) });
  await relay.up();
  const relayed = new URL(url);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(relay.port);
  return { relay, url: relayed.toString() };
}
