// How a client is named on the referral screens.
import { profile, recordTitle } from '../../../schemas/index';
import type { Row } from './referralApi';

export function clientName(client: Row | null | undefined): string {
  return client ? recordTitle(profile, client, 'short') : '';
}
