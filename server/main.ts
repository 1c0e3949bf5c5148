// `npm start` ends here: one process serving the app and the API (server/serve.ts).
import { configFromEnv } from './config';
import { serve } from './serve';

await serve(configFromEnv());
