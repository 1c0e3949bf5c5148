// Where the client screens live (product.md §2: profiles, profiles/add; ADR-0028: the client's page
// and its edit form).
import type { StepId } from './steps';

export const CLIENTS_PATH = '/profiles';
export const ADD_CLIENT_PATH = '/profiles/add';

export function clientPath(profId: string): string {
  return `${CLIENTS_PATH}/${encodeURIComponent(profId)}`;
}

/** The edit form, opened at a section's step. */
export function editClientPath(profId: string, step?: StepId): string {
  return `${CLIENTS_PATH}/edit/${encodeURIComponent(profId)}${step ? `?step=${step}` : ''}`;
}
