// The engine tests' entry: one launcher per engine name (./types.ts has the interface).
import { launchChromium } from './chromium';
import { launchFirefox } from './firefox';
import type { Engine, EngineName } from './types';
import { launchWebKit } from './webkit';

export * from './types';

export function launchEngine(name: EngineName): Promise<Engine> {
  if (name === 'chromium') return launchChromium();
  if (name === 'firefox') return launchFirefox();
  return launchWebKit();
}
