// The critical flows in firefox (test/browser/engine-flows.ts has them, written once for the three engines).
import { describeCriticalFlows } from './engine-flows';

describeCriticalFlows('firefox');
