// A TCP proxy between a server and its PostgreSQL, to make the database misbehave on demand:
// - `forward()`: passes bytes both ways (the normal state);
// - `refuse()`: cuts every open connection and refuses new ones (ECONNREFUSED), like a stopped
//   database;
// - `freeze()`: keeps every connection open and accepts new ones, but passes nothing, like a
//   database or network that hangs.
// Coming back to `forward()` after a freeze cuts the frozen connections (what a network does
// when it recovers from a long partition).
import net from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** `databaseUrl` with its host and port replaced by this proxy's. */
  via(databaseUrl: string): string;
  forward(): Promise<void>;
  refuse(): Promise<void>;
  freeze(): void;
  close(): Promise<void>;
}

type Mode = 'forward' | 'refuse' | 'freeze';

interface Link {
  client: net.Socket;
  upstream?: net.Socket;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: Mode = 'forward';
  const links = new Set<Link>();

  const cut = (link: Link) => {
    link.client.destroy();
    link.upstream?.destroy();
    links.delete(link);
  };

  const server = net.createServer((client) => {
    const link: Link = { client };
    links.add(link);
    client.on('error', () => cut(link));
    client.on('close', () => cut(link));
    if (mode !== 'forward') {
      client.pause(); // frozen: accepted, never answered
      return;
    }
    const upstream = net.connect(target.port, target.host);
    link.upstream = upstream;
    upstream.on('error', () => cut(link));
    upstream.on('close', () => cut(link));
    client.pipe(upstream);
    upstream.pipe(client);
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    via(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    async forward() {
      const was = mode;
      mode = 'forward';
      if (was === 'freeze') [...links].forEach(cut);
      if (was === 'refuse') await listen(port);
    },
    async refuse() {
      if (mode === 'refuse') return;
      mode = 'refuse';
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      [...links].forEach(cut);
      await closed;
    },
    freeze() {
      mode = 'freeze';
      for (const { client, upstream } of links) {
        client.unpipe();
        upstream?.unpipe();
        client.pause();
        upstream?.pause();
      }
    },
    async close() {
      [...links].forEach(cut);
      if (mode !== 'refuse') await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
