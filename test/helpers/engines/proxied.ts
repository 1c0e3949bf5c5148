// A page's own origin for Firefox and WebKit: a TCP proxy in front of the test server, cut to take
// the network off (every connection refused, the open ones closed: the change stream too). Its own
// port makes it a fresh origin too (no storage or service worker left by another page).
import { startTcpProxy } from '../tcp-proxy';

export interface ProxiedOrigin {
  url: string;
  setOffline(offline: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function proxiedOrigin(serverURL: string): Promise<ProxiedOrigin> {
  const server = new URL(serverURL);
  const proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port) });
  return {
    url: `http://127.0.0.1:${proxy.port}`,
    setOffline: (offline) => (offline ? proxy.refuse() : proxy.forward()),
    close: () => proxy.close(),
  };
}
