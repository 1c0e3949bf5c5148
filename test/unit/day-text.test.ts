// The app's date field reads and writes days in the interface's order (src/lib/ui/dayText.ts).
import { describe, expect, it } from 'vitest';
import { dayPattern, dayText, isDay, parseDay, withSlashes } from '../../src/lib/ui/dayText';

describe('typed days', () => {
  it('reads day, month, year with any usual separator, and a pasted ISO day', () => {
    expect(parseDay('10/05/2031')).toBe('2031-05-10');
    expect(parseDay('1/5/2031')).toBe('2031-05-01');
    expect(parseDay('10.05.2031')).toBe('2031-05-10');
    expect(parseDay('10-05-2031')).toBe('2031-05-10');
    expect(parseDay('10052031')).toBe('2031-05-10');
    expect(parseDay(' 2031-05-10 ')).toBe('2031-05-10');
    expect(parseDay('')).toBe('');
  });

  it('refuses what is no day: a 31 February, a month 13, a two-digit year, words', () => {
    for (const text of ['31/02/2026', '29/02/2027', '10/13/2026', '10/05/31', 'demain', '10/05', '2026-02-30']) {
      expect(parseDay(text), text).toBeNull();
    }
    expect(parseDay('29/02/2028')).toBe('2028-02-29');
  });

  it('shows a stored day in the same order, and any other text as it is', () => {
    expect(dayText('2031-05-10')).toBe('10/05/2031');
    expect(dayText('10/05/20')).toBe('10/05/20');
    expect(dayText(null)).toBe('');
    expect(parseDay(dayText('1990-12-01'))).toBe('1990-12-01');
  });

  it('puts the slashes in while digits are typed, never while deleting', () => {
    let text = '';
    for (const key of '10052031') text = withSlashes(text, text + key);
    expect(text).toBe('10/05/2031');
    text = '';
    for (const key of '1/5/2031') text = withSlashes(text, text + key);
    expect(text).toBe('1/5/2031');
    expect(withSlashes('10/', '10')).toBe('10');
    expect(withSlashes('10/', '10//')).toBe('10/');
  });

  it('names the order in the interface language', () => {
    expect(dayPattern('fr')).toBe('jj/mm/aaaa');
    expect(dayPattern('en')).toBe('dd/mm/yyyy');
    expect(dayPattern('en-US')).toBe('dd/mm/yyyy');
  });

  it('tells a real day from kept text', () => {
    expect(isDay('2031-05-10')).toBe(true);
    expect(isDay('2031-02-30')).toBe(false);
    expect(isDay('10/05/2031')).toBe(false);
  });
});
