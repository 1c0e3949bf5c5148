// The Node version the project declares and the packages it installs agree (ADR-0034):
// every package of the lock file that npm installs accepts the oldest Node that package.json's
// `engines` allows, so `npm install` on it prints no EBADENGINE. When an update brings a
// package that wants a newer Node, pin one that does not in package.json "overrides".
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  version?: string;
  optional?: boolean;
  engines?: { node?: string } | string[];
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry> };

describe('engines', () => {
  it('every installed package runs on the oldest Node the project declares', () => {
    const oldest = semver.minVersion(pkg.engines.node);
    expect(oldest, pkg.engines.node).not.toBeNull();
    const refusing = Object.entries(lock.packages)
      // An optional package whose engine does not match is skipped by npm (a native build for
      // another Node, say), never installed, and not warned about.
      .filter(([where, entry]) => where !== '' && !entry.optional)
      .flatMap(([where, { version, engines }]) => {
        const wanted = engines && !Array.isArray(engines) ? engines.node : undefined;
        return wanted && !semver.satisfies(oldest as semver.SemVer, wanted) ? [`${where}@${version} wants node ${wanted}`] : [];
      });
    expect(refusing).toEqual([]);
  });
});
