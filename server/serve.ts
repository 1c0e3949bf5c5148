// A server process from start to stop: the data folder held, the app built, the first
// administrator announced, signals and stray failures handled, then listening. `npm start`
// (server/main.ts) runs it; a test runs "the next release" through it with one more migration.
import { buildApp, type BuildOptions, type Server } from './app';
import { existsSync } from 'node:fs';
import { firstPasswordFile, type FirstAdmin } from './bootstrap';
import type { Config } from './config';
import { DataDirBusyError, holdDataDir } from './lib/dataDirLock';
import { keepFilesPrivate, openDataDirMessage, openToOthers } from './lib/privateFiles';

/** After the drain, the longest wait for requests in flight before the process exits anyway. */
const SHUTDOWN_LIMIT_MS = 10_000;

export async function serve(config: Config, options: BuildOptions = {}): Promise<Server> {
  keepFilesPrivate(); // before anything is written (docs/security.md "Operations")
  if (!config.databaseUrl) {
    const open = openToOthers(config.dataDir);
    if (open) {
      console.error(openDataDirMessage(config.dataDir, open));
      process.exit(1);
    }
    try {
      await holdDataDir(config.dataDir, 'the ICRS server');
    } catch (error) {
      if (!(error instanceof DataDirBusyError)) throw error;
      console.error(error.message);
      process.exit(1);
    }
  }
  const server = await buildApp(config, options);
  const { app, firstAdmin } = server;

  if (firstAdmin && !firstAdmin.passwordFile) {
    app.log.info({ userName: firstAdmin.userName }, 'first administrator created from ADMIN_USERNAME/ADMIN_PASSWORD');
  }

  // Stop without errors (lib/drain.ts): drain first, so that the balancer takes the process out
  // of rotation, then close; a second signal, or a stop longer than its limit, ends it at once.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    // Ctrl-C is a person at a terminal, not a balancer's rotation: no drain.
    const drainMs = signal === 'SIGINT' ? 0 : config.shutdownDrainSeconds * 1000;
    // A connection that does not end must not keep the process (and the data folder) alive.
    setTimeout(() => {
      app.log.error({ limitMs: drainMs + SHUTDOWN_LIMIT_MS }, 'the stop took longer than its limit: exiting now');
      process.exit(1);
    }, drainMs + SHUTDOWN_LIMIT_MS).unref();
    app.drain.start();
    if (drainMs > 0) app.log.info({ signal, drainSeconds: config.shutdownDrainSeconds }, 'draining: readiness answers 503');
    setTimeout(() => {
      app.log.info({ signal }, 'shutting down');
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    }, drainMs);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop);

  // Last line of defence: a promise nobody awaited that failed (a fault the code did not expect)
  // is logged, and the server goes on serving the others; the database layer recovers by itself.
  process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled rejection'));

  const address = await app.listen({ port: config.port, host: config.host });
  const port = new URL(address).port;
  app.log.info(
    { port: Number(port) },
    `ICRS is ready on http://localhost:${port} (${config.databaseUrl ? 'PostgreSQL' : `embedded database in ${config.dataDir}`})`,
  );
  process.stdout.write(startupLines(config, Number(port), firstAdmin));
  return server;
}

/**
 * What a person at the terminal needs once the server listens, written whatever LOG_LEVEL says:
 * where the app is, how to sign in, and where the request log went (docs/adr/0044-quiet-terminal.md "A quiet
 * terminal"). The first password's file path, never the password: standard output ends up in
 * container and service logs.
 */
export function startupLines(config: Config, port: number, firstAdmin: FirstAdmin | undefined): string {
  const database = config.databaseUrl ? 'PostgreSQL' : `embedded database in ${config.dataDir}`;
  const lines = [`ICRS is running: http://localhost:${port}  (${database})`];
  // A restart before the first change: the file written then still holds the password.
  const file = firstPasswordFile(config, firstAdmin);
  if (file && existsSync(file)) {
    lines.push(
      `Sign in as "${firstAdmin?.userName ?? config.adminUserName}" with the password in ${file}`,
      "(readable by this server's user only). The app asks for a new password at once; the file is deleted then.",
    );
  } else if (firstAdmin) {
    lines.push(`Sign in as "${firstAdmin.userName}" with ADMIN_PASSWORD.`);
  } else {
    lines.push(`Sign in with your account; the first administrator is "${config.adminUserName}" unless renamed.`);
  }
  const requestLog = ['info', 'debug', 'trace'].includes(config.logLevel);
  lines.push(requestLog ? `Log level ${config.logLevel}: one JSON line per request.` : 'Request log off (LOG_LEVEL=info turns it on).');
  return `\n${lines.map((line) => `  ${line}`).join('\n')}\n\n`;
}
