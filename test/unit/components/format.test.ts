// Dates and numbers as staff read them (product.md §9: short month, day and year), in both languages.
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatNumber } from '../../../src/lib/ui/format';

describe('formatDate', () => {
  it('shows short month, day and year in English and in French', () => {
    expect(formatDate('2026-11-21', 'en')).toBe('Nov 21, 2026');
    expect(formatDate('2026-11-21', 'fr')).toBe('21 nov. 2026');
  });

  it('keeps a calendar date on its day whatever the time zone', () => {
    // Read as an instant, 2026-01-01 would be Dec 31 west of Greenwich.
    expect(formatDate('2026-01-01', 'en')).toBe('Jan 1, 2026');
  });

  it('formats instants and Date objects in local time', () => {
    const noon = new Date(2026, 10, 21, 12, 0);
    expect(formatDate(noon, 'en')).toBe('Nov 21, 2026');
    expect(formatDate(noon.toISOString(), 'fr')).toBe('21 nov. 2026');
  });

  it('shows nothing for an empty or unreadable value', () => {
    expect(formatDate(null, 'en')).toBe('');
    expect(formatDate('', 'fr')).toBe('');
    expect(formatDate('not a date', 'en')).toBe('');
  });
});

describe('formatDateTime', () => {
  it('adds the local time to instants, not to calendar dates', () => {
    const at = new Date(2026, 10, 21, 14, 5);
    expect(formatDateTime(at, 'en')).toMatch(/^Nov 21, 2026, 2:05\sPM$/);
    expect(formatDateTime(at, 'fr')).toMatch(/^21 nov\. 2026,? (à )?14:05$/);
    expect(formatDateTime('2026-11-21', 'en')).toBe('Nov 21, 2026');
  });
});

describe('formatNumber', () => {
  it('groups digits the way each language does', () => {
    expect(formatNumber(1234.5, 'en')).toBe('1,234.5');
    expect(formatNumber(1234.5, 'fr')).toBe('1\u202f234,5');
    expect(formatNumber('12', 'en')).toBe('12');
    expect(formatNumber(null, 'en')).toBe('');
    expect(formatNumber('abc', 'fr')).toBe('');
  });
});
