// The critical flows in webkit (test/browser/engine-flows.ts has them, written once for the three engines).
// They fail in WebKitGTK today (docs/adr/0040-tests-and-ci.md "WebKit's critical flows are not yet in npm test"):
// they run with ENGINES_WEBKIT=1 until that is fixed, so that `npm test` stays a true signal.
import { describe } from 'vitest';
import { describeCriticalFlows } from './engine-flows';

describe.runIf(process.env.ENGINES_WEBKIT === '1')('webkit', () => describeCriticalFlows('webkit'));
