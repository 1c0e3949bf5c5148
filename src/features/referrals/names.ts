// How a client is named on the referral screens.
import type { Row } from './referralApi';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

export function clientName(client: Row | null | undefined): string {
  return client ? `${text(client.firstName)} ${text(client.lastName)}`.trim() : '';
}
