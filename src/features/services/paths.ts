// Where the service screens live (under /serviceproviders, product.md §2 route table).
import { useLocation, useNavigate } from 'react-router';
import { PROVIDERS_PATH, providerPath } from '../providers/paths';

export const SERVICES_PATH = `${PROVIDERS_PATH}/services`;

export type TrainingKind = 'appr' | 'voc';

export const servicePaths = {
  list: SERVICES_PATH,
  add: (spId?: string) => (spId ? `${SERVICES_PATH}/add?sp_Id=${encodeURIComponent(spId)}` : `${SERVICES_PATH}/add`),
  page: (id: string) => `${SERVICES_PATH}/${encodeURIComponent(id)}`,
  edit: (id: string) => `${SERVICES_PATH}/${encodeURIComponent(id)}/edit`,
  provider: providerPath,
  addTraining: (id: string, kind: TrainingKind) => `${SERVICES_PATH}/${encodeURIComponent(id)}/${kind}/add`,
  editTraining: (id: string, kind: TrainingKind, key: string) =>
    `${SERVICES_PATH}/${encodeURIComponent(id)}/${kind}/${encodeURIComponent(key)}/edit`,
};

/** Leaves a form: back where the user came from, or to `fallback` when it was opened directly. */
export function useLeave(fallback: string): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  return () => void (location.key === 'default' ? navigate(fallback) : navigate(-1));
}
