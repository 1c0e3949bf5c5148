// A strict reader of Prometheus' text exposition format (version 0.0.4, as a Prometheus server
// parses it): it throws on any line a scrape would refuse, so a test that reads the metrics
// through it also checks their format.
// https://prometheus.io/docs/instrumenting/exposition_formats/

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** A value as Prometheus reads it (Go's strconv.ParseFloat): a decimal number, or Inf, Infinity
 * and NaN in any case, with an optional sign (prom-client writes an empty gauge as "Nan"). */
function parseValue(text: string, line: string): number {
  const special = /^([-+]?)(inf|infinity|nan)$/i.exec(text);
  if (special) return special[2]?.toLowerCase() === 'nan' ? NaN : special[1] === '-' ? -Infinity : Infinity;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad value "${text}" in: ${line}`);
  return Number(text);
}

/** `{a="x",b="y\"z"}` → labels; `\\`, `\"` and `\n` are the only escapes. */
function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text.trim();
  while (rest) {
    const match = /^([^=\s]+)\s*=\s*"((?:[^"\\\n]|\\[\\"n])*)"\s*(,\s*)?/.exec(rest);
    if (!match) throw new Error(`bad labels in: ${line}`);
    const [whole, name = '', raw = ''] = match;
    if (!LABEL_NAME.test(name) || name in labels) throw new Error(`bad or repeated label "${name}" in: ${line}`);
    labels[name] = raw.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(whole.length);
    if (rest && !match[3]) throw new Error(`labels not separated by commas in: ${line}`);
  }
  return labels;
}

/** The family a sample belongs to: histogram and summary samples carry a suffix. */
function familyOf(sampleName: string, families: Map<string, Family>): Family | undefined {
  if (families.has(sampleName)) return families.get(sampleName);
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!sampleName.endsWith(suffix)) continue;
    const family = families.get(sampleName.slice(0, -suffix.length));
    if (family && (family.type === 'histogram' || (family.type === 'summary' && suffix !== '_bucket'))) return family;
  }
  return undefined;
}

/** Checks what a scrape checks of a histogram: buckets rising with `le`, ending at +Inf, equal to `_count`. */
function checkHistogram(family: Family): void {
  const series = new Map<string, Sample[]>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    if (sample.name.endsWith('_bucket')) {
      if (le === undefined) throw new Error(`${sample.name} without le`);
      series.set(key, [...(series.get(key) ?? []), sample]);
    }
  }
  for (const [key, buckets] of series) {
    const bounds = buckets.map((b) => parseValue(b.labels.le as string, b.name));
    if (bounds.some((bound, i) => i > 0 && bound <= (bounds[i - 1] as number))) throw new Error(`${family.name}${key}: le not rising`);
    if (bounds.at(-1) !== Infinity) throw new Error(`${family.name}${key}: no +Inf bucket`);
    if (buckets.some((b, i) => i > 0 && b.value < (buckets[i - 1] as Sample).value))
      throw new Error(`${family.name}${key}: bucket counts fall`);
    const count = family.samples.find((s) => s.name === `${family.name}_count` && JSON.stringify(Object.entries(s.labels).sort()) === key);
    if (!count || count.value !== buckets.at(-1)?.value) throw new Error(`${family.name}${key}: _count differs from the +Inf bucket`);
  }
}

export function parsePrometheusText(text: string): Map<string, Family> {
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const comment = /^#\s*(HELP|TYPE)\s+(\S+)\s*(.*)$/.exec(line);
    if (comment) {
      const [, kind, name = '', rest = ''] = comment;
      if (!NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      const family = families.get(name) ?? { name, help: '', type: 'untyped' as const, samples: [] };
      if (family.samples.length) throw new Error(`${kind} after the samples of ${name}`);
      if (kind === 'TYPE') {
        if (!TYPES.has(rest.trim())) throw new Error(`bad type in: ${line}`);
        family.type = rest.trim() as Family['type'];
      } else family.help = rest;
      families.set(name, family);
      continue;
    }
    if (line.startsWith('#')) continue; // another comment
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+-?\d+)?$/.exec(line);
    if (!sample) throw new Error(`bad sample line: ${line}`);
    const [, name = '', , labelText = '', valueText = ''] = sample;
    const labels = parseLabels(labelText, line);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`repeated series: ${line}`);
    seen.add(key);
    const family = familyOf(name, families) ?? { name, help: '', type: 'untyped' as const, samples: [] };
    families.set(family.name, family);
    family.samples.push({ name, labels, value: parseValue(valueText, line) });
  }
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

/** The sum of the samples `name` whose labels include `labels` (0 when there is none). */
export function valueOf(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const family = familyOf(name, families);
  const matching = (family?.samples ?? []).filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return matching.reduce((sum, s) => sum + s.value, 0);
}
