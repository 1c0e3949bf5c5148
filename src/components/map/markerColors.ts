// The colours of the things drawn on maps, once for the app: the dashboard's map and legend, a
// provider's page, the referral's map of services, a job's page.
import type { serviceProvider } from '../../../schemas/index';

/** A provider type: the schema's sp_type (1 social, 2 economic, 3 legal, 4 education). */
export type ProviderType = (typeof serviceProvider.fields.sp_type.values)[number];

/** One colour per provider type (product.md §2 dashboard map: social blue, economic green, legal
 * yellow, education red), keyed by the schema's sp_type: a type added there needs its colour here. */
export const PROVIDER_TYPE_COLORS: Readonly<Record<ProviderType, string>> = {
  1: '#1976d2',
  2: '#2e7d32',
  3: '#f9a825',
  4: '#d32f2f',
};

/** An open job's pin. */
export const JOB_MARKER_COLOR = '#7b1fa2';

/** The colour of a provider of type `spType` (a record's value, maybe missing or unknown). */
export function providerTypeColor(spType: unknown): string | undefined {
  return (PROVIDER_TYPE_COLORS as Readonly<Record<number, string>>)[Number(spType)];
}
