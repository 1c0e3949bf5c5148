// A client's pages (its page, its edit form) open on the client, or say why not.
import type { ReactNode } from 'react';
import { RecordGate } from '../../components/RecordGate';
import type { Doc, RecordState } from '../../lib/data';
import { CLIENTS_PATH } from './paths';
import type { profile } from './steps';

interface ClientGateProps {
  client: RecordState<typeof profile>;
  children: (doc: Doc<typeof profile>) => ReactNode;
}

export function ClientGate({ client, children }: ClientGateProps) {
  return (
    <RecordGate
      record={client}
      notFoundId="clients.page.notFound"
      backTo={CLIENTS_PATH}
      backLabelId="clients.page.back"
      failedId="clients.page.loadFailed"
    >
      {children}
    </RecordGate>
  );
}
