// The WHERE builder of every generic read and write (./rows.ts, ./scope.ts): conditions joined
// with AND, and their values as numbered parameters, never spliced into the SQL.

/** Builds a WHERE clause with numbered parameters. */
export class Conditions {
  readonly params: unknown[] = [];
  private readonly parts: string[] = [];

  /** The placeholder of a new parameter. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  add(condition: string): this {
    this.parts.push(condition);
    return this;
  }

  get sql(): string {
    return this.parts.length ? `WHERE ${this.parts.join(' AND ')}` : '';
  }
}
