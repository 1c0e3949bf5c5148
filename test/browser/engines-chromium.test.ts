// The critical flows in chromium (test/browser/engine-flows.ts has them, written once for the three engines).
import { describeCriticalFlows } from './engine-flows';

describeCriticalFlows('chromium');
