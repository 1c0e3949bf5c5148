// `npm start` ends here: one process serving the app and the API (server/serve.ts).
import { configFromEnv, type Config } from './config';
import { serve } from './serve';

/** A wrong setting stops the start with its one line (naming the variable and what it allows)
 * and exit code 1, not a stack trace. */
function readConfig(): Config {
  try {
    return configFromEnv();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

await serve(readConfig());
