// Set up before every browser test file (vitest.browser.config.ts).
import { reportPagesOnFailure } from './failure-report';

reportPagesOnFailure();
