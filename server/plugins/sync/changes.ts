// Change events: a trigger on every entity table NOTIFYs the table's name when a write
// commits. PostgreSQL delivers it to every server process that LISTENs (several nodes behind a
// load balancer), PGlite in-process; an aborted transaction notifies nobody.
import type { EntityShape } from '../../../schemas/define';
import { ident } from '../../../schemas/derive/sql';
import type { Db } from '../../db/index';

export const CHANGE_CHANNEL = 'icrs_changes';
/**
 * The change event naming every table: sent to the open streams when the LISTEN connection
 * comes back after a fault, because the notifications of that time were lost. The app answers
 * it as after a reconnect of its own stream: it pulls every table.
 */
export const ALL_TABLES = '*';

export const changeFunctionSql = `
CREATE OR REPLACE FUNCTION icrs_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${CHANGE_CHANNEL}', TG_TABLE_NAME);
  RETURN NULL;
END
$$`;

/** One notification per statement (not per row): a bulk insert is one event. */
export function changeTriggerSql(entity: EntityShape): string[] {
  const trigger = ident(`${entity.table}_changed`);
  return [
    `DROP TRIGGER IF EXISTS ${trigger} ON ${ident(entity.table)}`,
    `CREATE TRIGGER ${trigger} AFTER INSERT OR UPDATE OR DELETE ON ${ident(entity.table)} FOR EACH STATEMENT EXECUTE FUNCTION icrs_notify_change()`,
  ];
}

type Listener = (table: string) => void;

/** Fans the database's change notifications out to the open streams of this process. */
export class ChangeHub {
  private readonly listeners = new Set<Listener>();
  private unlisten?: () => Promise<void>;

  async start(db: Db): Promise<void> {
    const publish = (table: string) => this.listeners.forEach((listener) => listener(table));
    this.unlisten = await db.listen(CHANGE_CHANNEL, publish, () => publish(ALL_TABLES));
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    this.listeners.clear();
    await this.unlisten?.();
  }
}
