// The critical flows in webkit (test/browser/engine-flows.ts has them, written once for the three
// engines). WebKitGTK through WebKitWebDriver under the tests' own Xvfb display
// (docs/adr/0040-tests-and-ci.md "WebKit's critical flows in npm test").
import { describe } from 'vitest';
import { describeCriticalFlows } from './engine-flows';

describe('webkit', () => describeCriticalFlows('webkit'));
